// Battleship on a phone: the seat's own sea (its fleet, the other's shots at it) and its
// target grid.  Ten cells a row are too small for a finger: a quarter of the sea is tapped
// first, then a cell of it at finger size.  Salvo shots are tapped one by one, then fired.
"use strict";
let quarter = null; // the quarter of the sea zoomed (0 top left … 3 bottom right), or null
const SEA = 10, ROWS = "ABCDEFGHIJ";
const cellOf = (text) => ROWS.indexOf(text[0]) * SEA + (+text.slice(1) - 1); // "C3" -> 22
const MARK = { "?": "shot-pending", o: "shot-miss", x: "shot-hit", "#": "shot-sunk" };

function ownSea(m) {
  const ships = {};
  for (const ship of m.fleet || []) {
    for (const c of ship.cells) ships[cellOf(c.split(":")[1])] = ship.sunk ? "ship sunk" : "ship";
  }
  return (i) => `${ships[i] || ""} ${MARK[(m.own_sea || "")[i]] || ""}`;
}

function targetSea(m) {
  const rings = new Set(m.sea.rings);
  return (i) => `${MARK[m.sea.marks[i]] || ""} ${rings.has(i) ? "ring" : ""} ${m.sea.aim === i ? "aim" : ""}`;
}

// the whole sea as a picture; with `tap`, each quarter is a finger's target
function seaPicture(classOf, tap, small) {
  return el("div", { className: `sea ${small ? "small-sea" : ""}` }, [0, 1, 2, 3].map((q) => {
    const part = el("div", { className: `quarter ${tap ? "tappable" : ""} ${tap && q === quarter ? "shown" : ""}`,
      dataset: { quarter: q } }, cellsOf(q).map((i) => el("div", { className: `bc ${classOf(i)}` })));
    if (tap) part.onclick = () => tap(q);
    return part;
  }));
}
const cellsOf = (q) => [...Array(25).keys()].map((k) => (Math.floor(q / 2) * 5 + Math.floor(k / 5)) * SEA +
  (q % 2) * 5 + (k % 5));

function zoomed(classOf, legal, send) {
  return el("div", { className: "bzoom" }, cellsOf(quarter).map((i) => el("button", {
    type: "button", className: `bc ${classOf(i)} ${legal.has(i) ? "legal" : ""}`, dataset: { cell: i },
    textContent: ROWS[Math.floor(i / SEA)] + (i % SEA + 1), disabled: !legal.has(i), onclick: () => send(i),
  })));
}

renderers.battleship = (m) => {
  const offers = Object.fromEntries(m.offers.map((o) => [o.kind, o])), place = m.place;
  setStatus(lines(m.status || m.title || m.cover || ""), COLOURS[m.band] || "");
  if (m.stage === "setup") { $("#main").replaceChildren(); return; }
  const placing = place && !place.done && offers.cell;
  const shooting = !placing && offers.cell;
  const waiting = m.stage === "place" && !placing; // its fleet is in: the other's still goes in
  const parts = [];
  if (placing) {
    parts.push(el("div", { className: "row wrap" }, place.to_place.map((ship) => button(place.names[ship],
      () => act("ship", ship), { className: ship === place.ship ? "on" : "", dataset: { ship } }))));
    parts.push(el("div", { className: "row" }, [
      button(`${place.rotate} ${place.direction === "h" ? "→" : "↓"}`, () => act("rotate"), { dataset: { kind: "rotate" } }),
      button(place.random, () => act("random"), { dataset: { kind: "random" } })]));
  }
  if (offers.answer) { // tracker: the defender answers for its own board, on the table
    parts.push(el("div", { className: "keys two" }, m.answers.map((a, i) => button(lines(m.answer_labels[i]),
      () => act("answer", a), { className: a.ship ? "" : "span", dataset: { answer: `${a.result}:${a.ship || ""}` } }))));
  }
  const classOf = placing ? ownSea(m) : targetSea(m);
  const legal = new Set(placing ? place.fits.map((c) => cellOf(c.split(":")[1])) : shooting ? offers.cell.choices : []);
  const tap = legal.size ? (q) => { quarter = q; draw(); } : null;
  if (!tap) quarter = null;
  if (tap && quarter !== null) {
    parts.push(el("div", { className: "zoomhead" }, [seaPicture(classOf, tap, true),
      button(t("battleship_phone.whole_sea"), () => { quarter = null; draw(); })]));
    parts.push(zoomed(classOf, legal, (cell) => act("cell", cell)));
  } else if (!waiting) {
    const caption = placing ? t("battleship_phone.your_sea_placing") : lines(m.sea.caption || ""); // the table's caption names the shots
    parts.push(el("div", { className: "small", textContent: caption }), seaPicture(classOf, tap));
  }
  if (shooting && m.bottom) {
    parts.push(button(lines(m.bottom.label), () => act(m.bottom.kind), { disabled: !m.bottom.kind,
      className: "wide", dataset: { kind: "fire" } }));
  }
  if (!placing && m.fleet) { // its own sea under the shots, to look at
    parts.push(el("div", { className: "small", textContent: t("battleship_phone.your_sea") }), seaPicture(ownSea(m), null, !waiting));
  }
  for (const text of [m.afloat, ...(m.news || []).map((v) => `${v.by}: ${v.shots.join("  ")}`)]) {
    if (text) parts.push(el("div", { className: "small", textContent: lines(text) }));
  }
  $("#main").replaceChildren(...parts);
};
