// Naval War on a phone: what the die just entered or rolled did (the table's banner), its
// player's fleet with the damage on each ship, and the odds of the next draw (its own calibres marked).  Cards stay in hand; a choice the table offers
// this seat (its own entry) is a button here too.
"use strict";
const percent = (p) => `${Math.round(p * 100)}%`;
renderers.navalwar = (m) => {
  const choose = m.offers.find((o) => o.kind === "choose"), parts = [];
  setStatus(lines(m.prompt || m.title), m.prompt_seat === shown.seat ? "red" : ""); // red: this seat's own entry
  if (m.banner) parts.push(el("div", { className: `nwbanner ${m.banner.sunk ? "sunk" : ""}`, textContent: lines(m.banner.text) }));
  const own = m.own;
  if (own) {
    parts.push(el("div", { className: "card" }, [el("b", { textContent: t("navalwar_phone.fleet", { n: own.ships.length, hand: own.hand }) }),
      ...own.ships.map((s) => el("div", { className: `nwship ${s.hits >= s.defence ? "sunk" : ""}`, textContent:
        `${s.name}  ${t("navalwar_phone.damage", { hits: s.hits, defence: s.defence })}・${s.carrier ? t("navalwar_phone.carrier") :
          t("navalwar_phone.guns", { calibre: s.calibre })}` }))]));
  }
  if (m.odds) {
    const rows = m.odds.empty ? [t("navalwar_phone.empty")] : [t("navalwar_phone.red", { p: percent(m.odds.red) }),
      ...m.odds.salvo.map((s) => `${t("navalwar_phone.salvo", { calibre: s.calibre, p: percent(s.p) })}${s.mine ? " ★" : ""}`)];
    parts.push(el("div", { className: "card" }, [el("b", { textContent: t("navalwar_phone.odds") }),
      ...rows.map((r) => el("div", { textContent: r }))]));
  }
  const offered = (m.choices || []).filter((c) => !c.gone);  // the table's kept places: not buttons here
  if (choose && offered.length) {
    parts.push(el("div", { className: "keys nw" }, offered.map((c) => button(lines(c.label), () => act("choose", c.id),
      { className: c.red ? "red" : "", dataset: { choice: c.id } }))));
  }
  $("#main").replaceChildren(...parts);
};
