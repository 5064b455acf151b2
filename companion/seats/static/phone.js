// The phone page: one seat's private screen, a renderer of its display model.
// Protocol: companion/seats/room.py.  No framework, no build step.
"use strict";
const $ = (s) => document.querySelector(s);
const KEY = "companion.device", SEQ = "companion.seq", LANG = "companion.lang";
const room = new URLSearchParams(location.hash.slice(1)).get("room");
let lang = localStorage.getItem(LANG) || (navigator.language.startsWith("ja") ? "ja" : "en");
let words = {}, ws = null, timer = 0, heard = 0, beat = 1000;
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

// the socket ------------------------------------------------------------------------
// A lost socket is tried again after a jittered back-off (0.25 s doubling to BACKOFF_MAX,
// back to 0.25 s once a socket opens), at once when the network is back, the page shown
// again or back from the cache.  Until one opens, a new try starts every `step` (STEP_MS,
// half as long again for each try given up, to STEP_MAX) beside the earlier ones, each
// given up STEP_GRACE after its step.  A browser opens one socket to a host at a time (the
// others wait), so each try holds that place about a step, and a connect whose SYN the
// link lost is followed by a fresh one that soon (TCP itself sends it again 1, 3, 7, 15 …
// s later: a long outage's tail).  At STEP_MAX a SYN still goes every 2 s at most (TCP's
// resend at 1 s, then the next try), and a handshake of ~2.5 s fits.  The grace outlasts
// Chromium's delay of each new socket after a run of failed ones (up to 5 s), so no try
// is given up before it was sent.  Beside the tries one plain-HTTP ask of `alive` at a
// time, never given up (Chromium keeps the connects of asks given up going, six to a
// host, and queues later asks behind them for 20 s: docs/phones.md): if the table answers
// while no try has opened, the link is up but slower than a step, and the tries hold on
// three times as long as that answer took.  The first try to open is the socket, the rest
// are dropped.  One that heard nothing for the server's quiet time is taken for dead.  The
// device key goes as a subprotocol too, so a returning phone finds its place kept.
// Nothing is tried while the browser knows it is offline, nor while another tab of this
// phone holds the seat (`standby`: a tap takes it back).
const BACKOFF_MS = 250, BACKOFF_MAX = 1000, STEP_MS = 1000, STEP_MAX = 3000, STEP_GRACE = 6000, STEP_SLOW = 16000;
let backoff = BACKOFF_MS, step = STEP_MS, quiet = 8000, started = false, standby = false, asking = false;
const trying = new Set(); // sockets tried, not open yet
let farewell = ""; // why this phone has no seat any more (the table released it)

function drop() {
  if (ws) { ws.onopen = ws.onclose = ws.onmessage = null; ws.close(); ws = null; }
}
function giveUp() { // every try still under way
  for (const socket of trying) { socket.onopen = socket.onclose = null; socket.close(); }
  trying.clear();
}
function later(ms) { clearTimeout(timer); timer = setTimeout(connect, ms); }
function backOff() {
  later(backoff * (0.5 + Math.random() / 2));
  backoff = Math.min(backoff * 2, BACKOFF_MAX);
}
function wake() { // the network is back, the page shown again: try now unless the socket is fine
  if (!started || standby || (ws && Date.now() - heard < 2 * beat)) return;
  backoff = BACKOFF_MS;
  later(0);
}
function connect() { // one more try, and the next a step later until one opens
  clearTimeout(timer);
  drop();
  if (standby || !navigator.onLine) { giveUp(); return; } // "online" tries again
  if (!localStorage.getItem(KEY) && !room) { setStatus(farewell || t("scan")); return; } // nothing to show the table
  started = true;
  ask();
  const device = localStorage.getItem(KEY);
  const socket = new WebSocket(`ws://${location.host}/ws`, device ? ["companion", `companion.key.${device}`] : ["companion"]);
  trying.add(socket);
  const given = setTimeout(() => {
    if (!trying.delete(socket)) return;
    socket.onclose = null;
    socket.close();
    step = Math.max(step, Math.min(step * 1.5, STEP_MAX));
  }, step + STEP_GRACE);
  socket.onclose = () => { clearTimeout(given); trying.delete(socket); }; // refused: the next try goes on
  socket.onopen = () => { clearTimeout(given); trying.delete(socket); opened(socket); };
  later(step * (0.75 + Math.random() / 2));
}
function ask() {
  if (asking) return;
  const start = asking = Date.now();
  fetch("alive", { cache: "no-store" }).then((answer) => {
    if (answer.ok && !ws) step = Math.max(step, Math.min(3 * (Date.now() - start), STEP_SLOW));
  }, () => {}).finally(() => { asking = false; });
}
function opened(socket) {
  clearTimeout(timer);
  giveUp();
  ws = socket;
  heard = Date.now();
  step = STEP_MS;
  socket.onmessage = (e) => { heard = Date.now(); receive(JSON.parse(e.data)); };
  socket.onclose = () => {
    if (ws !== socket) return;
    ws = null;
    setStatus(t("offline"));
    backOff();
  };
}
function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
setInterval(() => {
  if (ws && ws.readyState === WebSocket.OPEN && Date.now() - heard > quiet) { setStatus(t("offline")); connect(); }
}, 250);
document.addEventListener("visibilitychange", () => { if (!document.hidden) wake(); });
for (const event of ["online", "pageshow", "focus"]) window.addEventListener(event, wake);
document.addEventListener("resume", wake); // a frozen page (a sleeping phone) runs again
window.addEventListener("hashchange", () => location.reload()); // another QR opened in this tab: its room

function hello() {
  const device = localStorage.getItem(KEY);
  if (device) send({ type: "hello", device, lang });
  else if (room) send({ type: "hello", room, lang });
  else setStatus(t("scan"));
}

// messages from the table ----------------------------------------------------------
const handlers = {
  welcome(m) { beat = m.beat_s * 1000; quiet = (m.quiet_s || 2.5 * m.beat_s) * 1000; backoff = BACKOFF_MS; hello(); },
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
    if (m.code === "replaced") return elsewhere();
    if (pending && pending.id === m.id) { pending = null; ack(""); } // not "sending" any more: the notice says why
    notice(m.text);
    if (["device_unknown", "released", "handed_over"].includes(m.code)) forget();
    if (m.code === "released" || m.code === "handed_over") { farewell = m.text; setStatus(m.text); return; }
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
function elsewhere() { // another tab of this phone took the seat: say so once, wait for a tap
  standby = true;
  clearTimeout(timer);
  drop();
  setStatus(t("other_tab"));
  $("#main").replaceChildren(el("div", { className: "list" }, [button(t("play_here"), () => {
    standby = false;
    $("#main").replaceChildren();
    setStatus(t("connecting"));
    wake();
  }, { id: "here" })]));
  $("#actions").replaceChildren();
}
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
