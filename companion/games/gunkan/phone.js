// 軍艦将棋 on a phone: the seesaw and the battles stay on the table; the phone shows its
// seat's own side (what it lost, what it has left, the piece it fought with) and, at the
// end, the table's reveal.  Nothing of the other side is in a seat's model before the end.
"use strict";
const line = (parts) => (Array.isArray(parts) ? parts.join("") : parts || "");
renderers.gunkan = (m) => {
  const tone = { seat0: "red", seat1: "blue" }[m.tone] || "";
  setStatus([m.prompt, m.big].filter(Boolean).join("\n"), tone);
  const mine = m.mine, parts = [];
  const block = (title, rows) => rows.length && parts.push(el("div", { className: "card" }, [
    el("b", { textContent: title }), ...rows.map((r) => el("div", { textContent: line(r) }))]));
  if (m.stage === "over") block(t("gunkan_phone.reveal"), m.detail || []);
  if (mine) {
    block(t("gunkan_phone.mine"), [mine.removed]);
    block(t("gunkan_phone.lost"), mine.lost);
    block(t("gunkan_phone.left"), mine.left);
    block(t("gunkan_phone.fought"), mine.pieces);
  }
  block(t("gunkan_phone.log"), (m.log || []).slice(0, 6));
  $("#main").replaceChildren(...parts);
};
