// Ultimate Tic-Tac-Toe on a phone: the whole board (a board is the target), or one board zoomed.
"use strict";
let zoom = null; // the board shown at finger size
renderers.uttt = (m) => {
  const b = m.board, cellOffer = m.offers.find((o) => o.kind === "cell");
  const legal = new Set(cellOffer ? cellOffer.choices : []);
  const mark = { X: COLOURS[m.players[0]], O: COLOURS[m.players[1]] };
  setStatus(lines(m.status) + (legal.size ? ` — ${t("uttt_phone.your_turn")}` : ""), COLOURS[m.status_person] || "");
  const playable = [...Array(9).keys()].filter((i) => [...legal].some((a) => Math.floor(a / 9) === i));
  if (playable.length === 1) zoom = playable[0];
  if (!playable.includes(zoom)) zoom = null;
  const cell = (a, big) => { // a button when zoomed; on the whole board, only a picture
    const v = b.cells[a];
    return el(big ? "button" : "div", {
      type: "button", textContent: v === "X" ? "×" : v === "O" ? "○" : "", dataset: { a },
      className: `cell ${v ? "m-" + mark[v] : ""} ${legal.has(a) ? "legal" : ""}` +
        ` ${b.last_move === a ? "last" : ""}`, disabled: big && !legal.has(a),
      onclick: big ? () => act("cell", a) : null,
    });
  };
  const overview = (map) => el("div", { className: map ? "big map" : "big" }, [...Array(9).keys()].map((i) => {
    const status = b.boards[i], won = status === "X" || status === "O";
    const mini = el("div", {
      className: `mini ${playable.includes(i) ? "playable" : ""} ${i === zoom ? "shown" : ""}` +
        ` ${won ? "won" + status : ""} ${status === "draw" ? "draw" : ""}`,
    }, [...Array(9).keys()].map((c) => cell(i * 9 + c, false)));
    if (playable.includes(i)) mini.onclick = () => { zoom = i; draw(); };
    mini.dataset.board = i;
    return mini;
  }));
  const main = $("#main");
  if (zoom === null) {
    main.replaceChildren(overview(false), el("div", { className: "small", textContent: lines(m.score) }));
    return;
  }
  const grid = el("div", { className: "big mini zoom" }, [...Array(9).keys()].map((c) => cell(zoom * 9 + c, true)));
  const head = el("div", { className: "zoomhead" }, [overview(true),
    el("div", { className: "small", textContent: t("uttt_phone.board_n", { n: zoom + 1 }) })]);
  if (playable.length > 1) head.append(button(t("uttt_phone.back_to_board"), () => { zoom = null; draw(); }));
  main.replaceChildren(head, grid);
};
