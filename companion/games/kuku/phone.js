// 九九戦艦 on a phone: the seat's own fleet and the markers (to look at); keys to type.
"use strict";
renderers.kuku = (m) => {
  const b = m.board, offers = Object.fromEntries(m.offers.map((o) => [o.kind, o]));
  const colour = m.status_seat === 0 ? "red" : m.status_seat === 1 ? "blue" : "";
  setStatus(lines(m.status || m.cover || m.news_title || ""), colour);
  const fleet = Object.fromEntries(b.fleet.map((token) => [token.split("@")[1], token.split(":")[1].split("@")[0]]));
  const grid = el("div", { className: "kgrid" });
  for (let r = 1; r <= 9; r++) for (let c = 1; c <= 9; c++) {
    const cell = `${r}×${c}`, marker = b.markers[cell];
    grid.append(el("div", {
      className: `k ${fleet[cell] || ""} ${marker ? "mk-" + marker : ""} ${b.rings.includes(cell) ? "ring" : ""}` +
        ` ${b.hints.includes(cell) ? "hint" : ""} ${b.aim === cell ? "aim" : ""}`,
      textContent: b.values ? r * c : "", title: cell,
    }));
  }
  const parts = [grid];
  for (const text of [m.said, m.news, m.review]) if (text) parts.push(el("div", { className: "small", textContent: lines(text) }));
  if (offers.kind) {
    parts.push(el("div", { className: "row" }, offers.kind.choices.map((kind) => button(
      `${t("kuku_phone." + kind)} ×${m.kinds[kind]}`, () => act("kind", kind),
      { className: kind === m.kind ? "on" : "", dataset: { kind } }))));
  }
  if (offers.cell && m.stage === "place") parts.push(pairPad((cell) => act("cell", cell)));
  if (offers.key) {
    parts.push(el("div", { className: "small", textContent: t("kuku_phone.entry", { entry: m.entry || "…" }) }));
    parts.push(el("div", { className: "keys" }, offers.key.choices.map((key) => button(key, () => act("key", key)))));
  }
  if (offers.toggle && m.answers) {
    parts.push(el("div", { className: "row" }, m.answers.map((a) => button(a.label, () => act("toggle", a.value),
      { className: a.chosen ? "on" : "" }))));
  }
  $("#main").replaceChildren(...parts);
};

// a pair typed on the phone (row, then column), for placing a ship
let pair = "";
function pairPad(done) {
  const shown = el("div", { className: "small", textContent: t("kuku_phone.pair", { pair: pair ? pair + "×_" : "_×_" }) });
  const digits = el("div", { className: "keys pad" }, [...Array(9).keys()].map((i) => button(String(i + 1), () => {
    if (!pair) { pair = String(i + 1); draw(); return; }
    const cell = `${pair}×${i + 1}`;
    pair = "";
    done(cell);
  })));
  return el("div", {}, [shown, digits]);
}

