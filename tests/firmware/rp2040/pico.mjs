// An emulated Raspberry Pi Pico: rp2040js's RP2040 with the real bootrom and a UF2 in
// flash, stepped here deterministically in emulated time, with five things the stock
// library gets wrong for our firmware fixed from outside (README.md, "The five fixes"):
//   1. time: the library's run loop stops the clock when nothing is scheduled; step()
//      below runs the core and sleeps a waiting core to the next event itself;
//   2. PIO: the library runs it from a host timer, ignoring the clock divider and
//      [delay] cycles, and steps disabled state machines; here each enabled state
//      machine executes one instruction per (1 + delay) cycles of its divided clock,
//      in lock-step with the core;
//   3. flash: erase and program cannot reach its flash; the bootrom's flash functions
//      are intercepted, so littlefs works and files can be uploaded;
//   4. USB: its CDC host answers every armed OUT buffer at once, with an empty packet
//      when it has nothing (an interrupt storm); here it answers only with data;
//   5. watchdog: an expired one re-fires forever; here it stops, the reset is
//      recorded and control returns to the caller (which boots the board again).
import fs from "node:fs";
import zlib from "node:zlib";
import { ConsoleLogger, LogLevel, RP2040, USBCDC, BasePeripheral } from "rp2040js";
import { decodeBlock } from "uf2";

const HERE = new URL(".", import.meta.url).pathname;
export const FIRMWARE_UF2 = `${HERE}firmware.uf2.gz`;
const BOOTROM = `${HERE}bootrom/b1.bin`;
const FLASH_START = 0x10000000;
const SYS_NS = 8; // 125 MHz system clock
const WATCHDOG_BASE = 0x40058;
const WATCHDOG_REASON_TIMER = 1;

/** The flash image of a UF2 file (gzipped or not). */
export function uf2Flash(path = FIRMWARE_UF2) {
  let data = fs.readFileSync(path);
  if (path.endsWith(".gz")) data = zlib.gunzipSync(data);
  const flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
  for (let at = 0; at + 512 <= data.length; at += 512) {
    const { flashAddress, payload } = decodeBlock(data.subarray(at, at + 512));
    flash.set(payload, flashAddress - FLASH_START);
  }
  return flash;
}

function bootromWords() {
  const bytes = fs.readFileSync(BOOTROM);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** The bootrom's public functions, by two-letter code (RP2040 datasheet 2.8.3). */
function romFunctions(mcu) {
  const table = mcu.readUint16(0x14);
  const found = new Map();
  for (let at = table; ; at += 4) {
    const code = mcu.readUint16(at);
    if (!code) return found;
    found.set(String.fromCharCode(code & 0xff, code >> 8), mcu.readUint16(at + 2) & ~1);
  }
}

// The chip's reset reasons (VREG_AND_CHIP_RESET: rp2040js leaves it unimplemented and
// reads all ones); the SDK reads the watchdog's REASON for machine.reset_cause().
class ChipReset extends BasePeripheral {
  readUint32(offset) { return offset === 8 ? 1 << 8 : 0; } // CHIP_RESET: HAD_POR
  writeUint32() {}
}

export class Pico {
  /** flash: a 16 MiB image (kept and changed by the board); reason: the watchdog's
   * REASON bits after a watchdog reset, 0 after power-up. */
  constructor(flash, { reason = 0 } = {}) {
    const mcu = (this.mcu = new RP2040());
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    mcu.loadBootrom(bootromWords());
    mcu.flash.set(flash);
    this.flash = mcu.flash;
    mcu.peripherals[0x40064] = new ChipReset(mcu, "VREG_AND_CHIP_RESET");
    this.clock = mcu.clock;
    this.resets = [];
    this.halted = false;
    this._stepTime = null;
    this._fixPio();
    this._fixFlash();
    this._fixWatchdog(reason);
    this.usb = new CdcHost(mcu.usbCtrl);
    mcu.core.PC = FLASH_START; // boot2 at the start of flash, as rp2040js's demos do
  }

  /** Emulated nanoseconds since power-up; inside a PIO step, that instruction's time. */
  get nanos() { return this._stepTime ?? this.clock.nanos; }

  /** Run until emulated time `untilNs`, or until the watchdog resets the board. */
  run(untilNs) {
    const { mcu, clock } = this;
    const { core } = mcu;
    const hooks = this._hooks;
    while (clock.nanosCounter < untilNs && !this.halted) {
      if (core.waiting) {
        const alarm = clock.nextAlarm ? clock.nextAlarm.nanos : Infinity;
        const next = Math.min(alarm, this._pioNext, untilNs);
        clock.tick(Math.max(0, next - clock.nanosCounter));
      } else {
        const pc = core.registers[15];
        if (pc < 0x4000 && hooks.has(pc)) {
          hooks.get(pc)();
        } else {
          const target = clock.nanosCounter + core.executeInstruction() * SYS_NS;
          const alarm = clock.nextAlarm;
          if (alarm && alarm.nanos <= target) clock.tick(target - clock.nanosCounter);
          else clock.nanosCounter = target; // what tick() does when no alarm is due
        }
      }
      if (clock.nanosCounter >= this._pioNext) this._stepPio();
    }
  }

  // Fix 2: each enabled state machine runs at its divided clock, [delay] included.
  _fixPio() {
    this._machines = [];
    this._pioNext = Infinity;
    for (const pio of this.mcu.pio) {
      pio.run = () => {}; // no host timer
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        const before = pio.machines.map((m) => m.enabled);
        write(offset, value);
        pio.machines.forEach((m, i) => {
          if (m.enabled && !before[i]) this._wake(m);
        });
      };
      for (const m of pio.machines) {
        m.due = Infinity;
        this._machines.push(m);
        const writeFIFO = m.writeFIFO.bind(m);
        m.writeFIFO = (value) => {
          writeFIFO(value);
          if (m.enabled && m.due === Infinity) this._wake(m);
        };
      }
    }
  }

  _period(m) {
    const div = (m.clockDivInt || 65536) + m.clockDivFrac / 256;
    return div * SYS_NS;
  }

  _wake(m) {
    m.due = this.clock.nanos;
    this._pioNext = Math.min(this._pioNext, m.due);
  }

  _stepPio() {
    const now = this.clock.nanos;
    let next = Infinity;
    for (const m of this._machines) {
      if (!m.enabled) { m.due = Infinity; continue; }
      const period = this._period(m);
      while (m.due <= now) {
        if (m.waiting && m.waitType === 3 && m.txFIFO.empty) {
          m.due = Infinity; // stalled on PULL: writeFIFO wakes it
          break;
        }
        this._stepTime = m.due;
        const cycles = m.cycles;
        m.step();
        m.pio.checkChangedPins();
        m.due += Math.max(1, m.cycles - cycles) * period;
      }
      next = Math.min(next, m.due);
    }
    this._stepTime = null;
    this._pioNext = next;
  }

  // Fix 3: the bootrom's flash functions act on the flash array directly.
  _fixFlash() {
    const { mcu } = this;
    const core = mcu.core;
    const ret = (value) => {
      if (value !== undefined) core.registers[0] = value;
      core.PC = core.LR & ~1;
      this.clock.tick(SYS_NS);
    };
    const rom = romFunctions(mcu);
    this._hooks = new Map();
    this.flashOps = { erase: 0, program: 0 };
    const hook = (code, fn) => this._hooks.set(rom.get(code), fn);
    hook("RE", () => { // flash_range_erase(offset, count, block_size, block_cmd)
      const [offset, count] = core.registers;
      this.flash.fill(0xff, offset, offset + count);
      this.flashOps.erase += 1;
      ret();
    });
    hook("RP", () => { // flash_range_program(offset, data, count): NOR clears bits only
      const [offset, data, count] = core.registers;
      for (let i = 0; i < count; i++) this.flash[offset + i] &= mcu.readUint8(data + i);
      this.flashOps.program += 1;
      ret();
    });
    for (const code of ["IF", "EX", "FC", "CX"]) hook(code, () => ret()); // connect, exit XIP, flush, enter XIP
  }

  // Fix 5: an expired watchdog fires once, is recorded, and stops the board.
  _fixWatchdog(reason) {
    const wd = this.mcu.peripherals[WATCHDOG_BASE];
    wd.reason = reason;
    wd.onWatchdogTrigger = () => {
      wd.timer.enable = false;
      wd.alarm.enable = false;
      this.resets.push({ reason: wd.reason === WATCHDOG_REASON_TIMER ? "wdt" : "force", ns: this.clock.nanos });
      this.halted = true;
    };
  }
}

// Fix 4: the USB host side of a CDC serial port, answering OUT requests only with data.
class CdcHost {
  constructor(usbCtrl) {
    this.cdc = new USBCDC(usbCtrl);
    this.usbCtrl = usbCtrl;
    this.pending = null; // an armed OUT buffer: [endpoint, size]
    this.queue = []; // bytes from the host not yet taken by the board
    this.onData = () => {};
    this.connected = false;
    this.cdc.onDeviceConnected = () => { this.connected = true; };
    this.cdc.onSerialData = (bytes) => this.onData(bytes);
    usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      this.pending = [endpoint, size];
      this._answer();
    };
  }

  /** Bytes from the host (the app) to the board. */
  send(bytes) {
    for (const b of bytes) this.queue.push(b);
    this._answer();
  }

  _answer() {
    if (!this.pending || !this.queue.length) return;
    const [endpoint, size] = this.pending;
    this.pending = null;
    this.usbCtrl.endpointReadDone(endpoint, Uint8Array.from(this.queue.splice(0, size)));
  }
}
