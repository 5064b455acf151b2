// The emulated seesaw board for the tests: a Pico (pico.mjs) with two HX711 models
// (hx711.mjs) on the firmware's pins, driven by JSON lines on stdin, reporting on
// stdout.  Emulated time moves only when asked ("run"), so a scenario is
// deterministic; with --pty-fd the board's USB serial port is that file descriptor
// (a pseudo-terminal's master) and the board runs freely, in step with wall time
// as far as the emulation keeps up.
//
//   node harness.mjs [--flash IMAGE] [--seed N] [--pty-fd FD]
//
// Requests (one JSON object a line):  {"op": ...}
//   run {s}                 run s emulated seconds; serial output, resets come as events
//   send {text}             bytes from the host to the board's USB serial port
//   fault {chip, stuck?, mute?, edge?, at?}   stuck: "high"|"low"|null; edge: "missed"|"extra"
//   signal {chip, a, b, wave?}                the chip's inputs (counts at gain 1; wave: amplitude)
//   stats                   every chip's transfers and clock pulse times, the resets
//   save_flash {path}       write the first 2 MiB of flash (firmware + littlefs)
//   quit
// Events: {"ev":"serial","t","data"} (data: latin-1 text), {"ev":"reset","t","reason"},
//   {"ev":"done","t","wall","cpu"} after each request (cpu: this process's CPU seconds so
//   far), {"ev":"error","message"}.
import fs from "node:fs";
import readline from "node:readline";
import { HX711 } from "./hx711.mjs";
import { Pico, uf2Flash } from "./pico.mjs";

const PINS = [{ dout: 2, sck: 3 }, { dout: 4, sck: 5 }]; // firmware/seesaw/config.py
const RATE_PIN = 6;
const FLASH_SIZE = 2 * 1024 * 1024;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const flashPath = option("--flash", null);
const ptyFd = option("--pty-fd", null);
let seed = Number(option("--seed", "1"));

function random() { // mulberry32: the same noise for the same seed
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

// Each chip's inputs: a level per input plus a little noise, and on input A by default a
// slow wave through zero, so values of both signs are shifted out.
const inputs = PINS.map((_, i) => ({ a: 0, b: 0, wave: 40000 * (i ? -1 : 1), noise: 3 }));
// The second chip's oscillator 0.3 % slow (the datasheet's rates are nominal): lines
// follow the slower chip, and the two drift in phase.
const chips = PINS.map((p, i) => new HX711(`hx711-${i}`, {
  ...p, rate: RATE_PIN, skew: i ? 0.003 : 0,
  signal: (input, t) => {
    const s = inputs[i];
    const noise = s.noise * (random() - 0.5);
    if (input === "B") return s.b + noise; // unconnected on the seesaw's boards
    return s.a + s.wave * Math.sin(2 * Math.PI * t / 1.7) + noise;
  },
}));

let flash = flashPath ? readFlash(flashPath) : uf2Flash();
let pico = null;
let offsetNs = 0; // emulated time before the current boot
const resets = [];
let serialOut = (bytes) => out({ ev: "serial", t: now() / 1e9, data: Buffer.from(bytes).toString("latin1") });

function readFlash(path) {
  const image = new Uint8Array(16 * 1024 * 1024).fill(0xff);
  image.set(fs.readFileSync(path));
  return image;
}

function now() { return offsetNs + pico.clock.nanos; }

function boot(reason = 0) {
  pico = new Pico(flash, { reason });
  flash = pico.flash;
  pico.usb.onData = (bytes) => serialOut(bytes);
  for (const chip of chips) chip.attach(pico, offsetNs);
}

/** Run `seconds` of emulated time, booting the board again after a watchdog reset. */
function run(seconds) {
  const until = now() + seconds * 1e9;
  while (now() < until) {
    pico.run(until - offsetNs);
    if (pico.halted) {
      const reset = pico.resets.at(-1);
      resets.push({ t: now() / 1e9, reason: reset.reason });
      out({ ev: "reset", t: now() / 1e9, reason: reset.reason });
      offsetNs = now();
      boot(reset.reason === "wdt" ? 1 : 2); // watchdog REASON: TIMER or FORCE
    }
  }
}

function stats() {
  return {
    t: now() / 1e9,
    resets,
    flash_ops: pico.flashOps,
    chips: chips.map((c) => ({ transfers: c.transfers, pulses: c.pulses, conversions: c.conversions })),
  };
}

function handle(req) {
  const wall = performance.now();
  switch (req.op) {
    case "run": run(req.s); break;
    case "send": pico.usb.send(Buffer.from(req.text, "latin1")); break;
    case "fault": {
      const { fault } = chips[req.chip];
      if ("stuck" in req) fault.stuck = req.stuck;
      if ("mute" in req) fault.mute = req.mute;
      if ("edge" in req) fault.edge = req.edge ? { kind: req.edge, at: req.at ?? 10 } : null;
      chips[req.chip]._drive();
      break;
    }
    case "signal": Object.assign(inputs[req.chip], req); break;
    case "stats": out({ ev: "stats", ...stats() }); break;
    case "save_flash": fs.writeFileSync(req.path, pico.flash.subarray(0, FLASH_SIZE)); break;
    case "quit": process.exit(0);
    default: throw new Error(`unknown op ${req.op}`);
  }
  const cpu = process.cpuUsage();
  out({ ev: "done", t: now() / 1e9, wall: (performance.now() - wall) / 1000, cpu: (cpu.user + cpu.system) / 1e6 });
}

boot();

if (ptyFd != null) {
  // Free-running: the pty is the board's USB serial port; stdin still takes requests.
  const fd = Number(ptyFd);
  serialOut = (bytes) => fs.write(fd, Buffer.from(bytes), () => {});
  const input = fs.createReadStream(null, { fd, autoClose: false });
  input.on("data", (chunk) => pico.usb.send(chunk));
  input.on("error", () => {});
  const started = performance.now();
  const tick = () => {
    // Keep emulated time no further ahead of wall time than 50 ms.
    const wallNs = (performance.now() - started) * 1e6;
    if (now() < wallNs + 50e6) run(0.005);
    setImmediate(tick);
  };
  setImmediate(tick);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  try {
    handle(JSON.parse(line));
  } catch (e) {
    out({ ev: "error", message: String(e && e.stack || e) });
  }
});
lines.on("close", () => process.exit(0));
