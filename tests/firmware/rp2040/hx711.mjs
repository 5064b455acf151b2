// An HX711 on two of the emulated Pico's pins, as its datasheet tells it:
// - it converts continuously at the rate its RATE pin selects (low 10/s, high 80/s);
//   DOUT falls when a conversion is ready;
// - each rising SCK edge shifts out one of 24 bits, MSB first (valid 0.1 us later);
//   the 25th edge pulls DOUT high until the next conversion; 25, 26 or 27 edges in
//   all select input A x128, B x32 or A x64 for the following conversions;
// - SCK high for over 60 us powers it down (DOUT high); SCK low powers it up again at
//   A x128;
// - after a change of input, gain or rate, and after power-up, the output needs 4
//   conversions to settle: those 4 are marked unsettled (and are off the true value).
// A conversion that falls due mid-transfer is lost, and a chip left mid-transfer
// (too few edges) signals no further conversion until it is powered down.
//
// Every transfer is logged (the value shifted out, whether it was settled, the
// edges the chip saw), and every SCK pulse's high and low time, for the tests.
// Faults: a missed or an extra edge at a given pulse of the next transfer, DOUT
// stuck high (unplugged: the Pico's pull-up) or low, or a chip that never converts.

const POWER_DOWN_NS = 60_000;
const SETTLE = 4;
const GAINS = { 1: ["A", 128], 2: ["B", 32], 3: ["A", 64] }; // extra edges -> input, gain
const FULL = 0x7fffff;

export class HX711 {
  /** signal(input, emulatedSeconds) -> the input in counts at gain 1 (A) or at 32/32 (B). */
  constructor(name, { dout, sck, rate, signal, skew = 0 }) {
    // skew: how much slower its oscillator runs than nominal (0.003: 0.3 % slower)
    Object.assign(this, { name, doutPin: dout, sckPin: sck, ratePin: rate, signal, skew });
    this.select = 1; // extra edges chosen: A x128
    this.settle = SETTLE; // conversions left before the output is settled
    this.last = 0; // the previous output, which an unsettled one moves away from
    this.edges = 0; // rising edges seen in the current transfer
    this.word = 0; // the 24-bit register being shifted out
    this.wordSettled = false;
    this.ready = false;
    this.down = false;
    this.dout = true;
    this.fault = { stuck: null, mute: false, edge: null }; // edge: {kind, at}
    this.transfers = []; // {t, value, settled, edges, faulted, gain}
    this.conversions = 0;
    this.pulses = { count: 0, highMin: Infinity, highMax: 0, lowMin: Infinity, lowMax: 0 };
    this._riseAt = null;
    this._fallAt = null;
    this._current = null; // the transfer being clocked
    this._offsetNs = 0;
  }

  /** Wire the chip to a (re)booted board; the chip keeps its state and its phase. */
  attach(pico, offsetNs = 0) {
    this.pico = pico;
    this._offsetNs = offsetNs;
    const { mcu } = pico;
    this._sck = mcu.gpio[this.sckPin];
    this._rate = this.ratePin == null ? null : mcu.gpio[this.ratePin];
    this._dout = mcu.gpio[this.doutPin];
    this._sck.addListener((value) => this._onSck(value === 1)); // GPIOPinState.High
    this._powerDownAlarm = pico.clock.createAlarm(() => this._powerDown());
    this._convertAlarm = pico.clock.createAlarm(() => this._convert());
    this._rateHigh = this._rateLevel();
    if (this._rate) this._rate.addListener(() => this._onRate());
    if (!this.down) {
      this._schedule(this._nextConversionNs == null ? this._periodNs() : this._nextConversionNs - this._now());
    }
    this._drive();
  }

  /** Emulated nanoseconds since the first boot (continuous across board resets). */
  _now() { return this._offsetNs + this.pico.nanos; }

  _rateLevel() { return this._rate ? this._rate.value === 1 : false; }
  _periodNs() { return (this._rateHigh ? 12_500_000 : 100_000_000) * (1 + this.skew); }

  _schedule(deltaNs) {
    this._nextConversionNs = this._now() + deltaNs;
    this._convertAlarm.schedule(Math.max(0, deltaNs));
  }

  _drive() {
    const level = this.fault.stuck === "high" ? true : this.fault.stuck === "low" ? false : this.dout;
    this._dout.setInputValue(level);
  }

  _onRate() {
    const high = this._rateLevel();
    if (high === this._rateHigh) return;
    this._rateHigh = high;
    this.settle = SETTLE;
    this._schedule(this._periodNs()); // the conversion restarts at the new rate
  }

  _onSck(high) {
    const t = this._now();
    if (high) {
      if (this._fallAt != null && this.edges > 0) this._note("low", t - this._fallAt);
      this._riseAt = t;
      this._powerDownAlarm.schedule(POWER_DOWN_NS);
      if (this.down) return;
      const edge = this.fault.edge;
      const index = this.edges + 1;
      if (edge && edge.at === index) {
        this.fault.edge = null;
        if (this._current) this._current.faulted = edge.kind;
        else this._startTransfer().faulted = edge.kind;
        if (edge.kind === "missed") return;
        this._edge(); // extra: the glitch is seen as one more edge
      }
      this._edge();
    } else {
      this._powerDownAlarm.cancel();
      if (this._riseAt != null && !this.down) this._note("high", t - this._riseAt); // a reset's isn't a pulse
      this._fallAt = t;
      if (this.down) this._powerUp();
    }
  }

  _startTransfer() {
    this._current = { t: this._now() / 1e9, value: signed(this.word), settled: this.wordSettled,
                      gain: GAINS[this.select][1], input: GAINS[this.select][0], edges: 0, faulted: null };
    this.transfers.push(this._current);
    return this._current;
  }

  _edge() {
    if (this.edges === 0 && !this._current) this._startTransfer();
    this.edges += 1;
    this._current.edges = this.edges;
    if (this.edges <= 24) this.dout = ((this.word >> (24 - this.edges)) & 1) === 1;
    else this.dout = true;
    this.ready = false;
    this._drive();
  }

  _note(kind, ns) {
    const p = this.pulses;
    if (kind === "high") {
      p.count += 1;
      p.highMin = Math.min(p.highMin, ns);
      p.highMax = Math.max(p.highMax, ns);
    } else {
      p.lowMin = Math.min(p.lowMin, ns);
      p.lowMax = Math.max(p.lowMax, ns);
    }
  }

  _powerDown() {
    this.down = true;
    this.edges = 0;
    this._current = null;
    this.ready = false;
    this.dout = true;
    this._convertAlarm.cancel();
    this._nextConversionNs = null;
    this._drive();
  }

  _powerUp() {
    this.down = false;
    this.select = 1;
    this.settle = SETTLE;
    this._schedule(this._periodNs());
  }

  _convert() {
    this._schedule(this._periodNs());
    if (this.fault.mute || (this.edges > 0 && this.edges < 25)) return; // mute, or mid-transfer
    if (this.edges >= 25) {
      const select = Math.min(this.edges - 24, 3);
      if (select !== this.select) this.settle = SETTLE;
      this.select = select;
    }
    this.edges = 0;
    this._current = null;
    const [input, gain] = GAINS[this.select];
    const t = this._now() / 1e9;
    const truth = clamp(Math.round(this.signal(input, t) * gain));
    let value = truth;
    this.wordSettled = this.settle === 0;
    if (this.settle > 0) {
      // Settling: part of the way from the previous output to the new one, never equal.
      value = clamp(Math.round(this.last + ((truth - this.last) * (SETTLE + 1 - this.settle)) / (SETTLE + 1)));
      if (value === truth) value = clamp(truth + 1001);
      this.settle -= 1;
    }
    this.last = value;
    this.word = value & 0xffffff;
    this.conversions += 1;
    this.ready = true;
    this.dout = false;
    this._drive();
  }
}

function clamp(v) { return Math.max(-FULL - 1, Math.min(FULL, v)); }
function signed(word) { return word & 0x800000 ? word - 0x1000000 : word; }
