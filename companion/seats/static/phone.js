// The phone page: one seat's private screen, a renderer of its display model.
// Protocol: companion/seats/room.py.  No framework, no build step.
"use strict";
const $ = (s) => document.querySelector(s);
const KEY = "companion.device", SEQ = "companion.seq", LANG = "companion.lang";
const room = new URLSearchParams(location.hash.slice(1)).get("room");
let lang = localStorage.getItem(LANG) || (navigator.language.startsWith("ja") ? "ja" : "en");
let words = {}, ws = null, timer = 0, backoff = 250, heard = 0, beat = 1000;
let pending = null, shown = null, seated = false, tried = false, retry = 0;

const t = (key, values = {}) =>
  (words[key] || key).replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : `{${k}}`));
const plain = (text) => text.replace(/\[\/?(color|b|i|size)[^\]]*\]/g, ""); // the table's markup
const lines = (text) => plain(Array.isArray(text) ? text.join("\n") : text || "");

function el(tag, { dataset = {}, ...props } = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}
function button(label, onclick, props = {}) {
  return el("button", { type: "button", textContent: label, onclick, ...props });
}

async function loadWords() {
  words = await (await fetch(`strings.json?lang=${lang}`)).json();
  document.documentElement.lang = lang;
  $("#lang").textContent = words.language;
}

// the socket: reconnect with backoff, at once when visible again, after missed beats --
// (the device key goes as a subprotocol too, so a returning phone finds its place kept)
const BACKOFF_MAX = 500, CONNECT_MS = 1000, MISSED_BEATS = 2.5;
function connect() {
  clearTimeout(timer);
  if (ws) { ws.onclose = ws.onmessage = null; ws.close(); }
  const device = localStorage.getItem(KEY);
  ws = new WebSocket(`ws://${location.host}/ws`, device ? ["companion", `companion.key.${device}`] : ["companion"]);
  const opening = ws;
  setTimeout(() => { if (ws === opening && ws.readyState === WebSocket.CONNECTING) connect(); }, CONNECT_MS);
  ws.onmessage = (e) => { heard = Date.now(); receive(JSON.parse(e.data)); };
  ws.onclose = () => {
    ws = null;
    setStatus(t("offline"));
    if (!localStorage.getItem(KEY) && !room) { setStatus(t("scan")); return; } // nothing to show the table
    timer = setTimeout(connect, backoff * (0.5 + Math.random() / 2));
    backoff = Math.min(backoff * 2, BACKOFF_MAX);
  };
}
function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
setInterval(() => {
  if (ws && ws.readyState === WebSocket.OPEN && Date.now() - heard > MISSED_BEATS * beat) connect();
}, 250);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && (!ws || ws.readyState !== WebSocket.OPEN)) { backoff = 250; connect(); }
});
window.addEventListener("online", () => { backoff = 250; connect(); });
window.addEventListener("hashchange", () => location.reload()); // another QR opened in this tab: its room

function hello() {
  const device = localStorage.getItem(KEY);
  if (device) send({ type: "hello", device, lang });
  else if (room) send({ type: "hello", room, lang });
  else setStatus(t("scan"));
}

// messages from the table ----------------------------------------------------------
const handlers = {
  welcome(m) { beat = m.beat_s * 1000; backoff = 250; hello(); },
  seats(m) { chooseSeat(m.seats); },
  claimed(m) {
    localStorage.setItem(KEY, m.device);
    localStorage.setItem(SEQ, "0");
    history.replaceState(null, "", location.pathname); // the token leaves the address bar
  },
  joined(m) {
    seated = m.seat !== null;
    $("#who").textContent = seated ? t("you_are", { name: m.name }) : t("watching");
    const seq = Math.max(+localStorage.getItem(SEQ) || 0, m.last_id);
    localStorage.setItem(SEQ, String(seq));
    if (pending) send(pending); // lost with the old socket: the server applies it at most once
  },
  display(m) { shown = m; draw(); },
  done(m) {
    if (pending && pending.id === m.id) pending = null;
    ack(t("done"));
  },
  refused(m) {
    if (pending && pending.id === m.id) { pending = null; ack(""); } // not "sending" any more: the notice says why
    notice(m.text);
    if (m.code === "device_unknown" || m.code === "released") forget();
    if (m.code === "device_unknown" || (m.code === "other_game" && room && !tried)) {
      tried = true; // a fresh QR after a finished game: choose a seat with its token
      if (room) send({ type: "hello", room, lang });
      else { setStatus(t("scan")); $("#main").replaceChildren(); }
    } else if (["other_game", "game_over", "no_game"].includes(m.code)) {
      setStatus(m.text); // the key is kept: the table may bring its game back
      clearTimeout(retry);
      retry = setTimeout(hello, 5000);
    }
  },
  beat() {}, pong() {},
};
function receive(m) { (handlers[m.type] || (() => {}))(m); }
function forget() { localStorage.removeItem(KEY); seated = false; shown = null; $("#actions").replaceChildren(); }

function act(kind, value = null) {
  const id = (+localStorage.getItem(SEQ) || 0) + 1;
  localStorage.setItem(SEQ, String(id));
  pending = { type: "act", id, kind, value };
  ack(t("sending"));
  send(pending);
}

// drawing --------------------------------------------------------------------------
function setStatus(text, colour = "") {
  const band = $("#status");
  band.textContent = text;
  band.className = `band ${colour}`;
}
function notice(text) {
  const box = $("#notice");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, 6000);
}
function ack(text) { $("#ack").textContent = text; }

function chooseSeat(seats) {
  setStatus(t("choose_seat"));
  const list = el("div", { className: "list" }, seats.map((s) =>
    button(s.free ? s.name : `${s.name} (${t("taken")})`,
      () => send({ type: "claim", room, seat: s.seat, lang }), { disabled: !s.free })));
  list.append(button(t("watch"), () => send({ type: "watch", room, lang })));
  $("#main").replaceChildren(list);
  $("#actions").replaceChildren();
}

function draw() {
  if (!shown) return;
  const m = shown.model, render = renderers[shown.kind];
  if (!render) { setStatus(t("not_supported")); return; }
  render(m);
  notice(plain(m.notice || ""));
  $("#actions").replaceChildren(...m.offers.filter((o) => o.label && o.choices.length <= 1)
    .map((o) => button(o.label, () => act(o.kind, o.choices.length ? o.choices[0] : null), { dataset: { kind: o.kind } })));
}

// each game's renderer, registered by its own script (companion/games/<game>/phone.js): renderers[kind](model)
const renderers = {};
const COLOURS = { red: "red", you: "red", p1: "red", blue: "blue", cpu: "blue", p2: "blue" };

$("#lang").onclick = async () => {
  lang = lang === "ja" ? "en" : "ja";
  localStorage.setItem(LANG, lang);
  await loadWords();
  send({ type: "lang", lang });
};
document.addEventListener("DOMContentLoaded", () => loadWords().then(connect));
