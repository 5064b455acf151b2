"""The firmware's main loop: obey commands, read the chips, stream samples.

Pure logic over a hardware layer `hal` (seesaw.hw_pico on the Pico, a fake in
the tests) that provides:

    channels                 number of HX711 chips (channel 0 = left pan)
    rates                    sample rates the board can select, e.g. (10, 80)
    ticks_ms() ticks_diff(a, b) ticks_add(t, ms) sleep_ms(ms)
    is_ready(ch)             DOUT of chip `ch` is low: a conversion is waiting
    read_raw(ch, pulses)     clock 24 data bits + `pulses` extra pulses, return
                             the bits read then DOUT once more after the last
                             pulse, as one int (see hx711.decode)
    reset_chip(ch)           power-cycle the chip through its SCK line
    set_rate(hz)             drive the HX711 RATE pin
    led(on)  feed_watchdog()  read_input() -> bytes (never blocks)  write(bytes)
    reset_cause  board_id    strings for the HELLO line
"""

from seesaw import VERSION, hx711, led, protocol

IDENTIFY_MS = 5000


class Channel:
    """Reading state of one HX711."""

    def __init__(self, index, now):
        self.index = index
        self.fault = None  # None, "missing" or "desync"
        self.fresh = None  # the latest counted reading not yet sent
        self.pending = None  # a read that counts once DOUT falls for the next conversion
        self.discard = hx711.SETTLE_READS
        self.since = now  # the last read (or reset): start of the wait for DOUT to fall

    def done(self):
        """Nothing more to wait for before the next sample line."""
        return self.fresh is not None or self.fault is not None or self.discard > 0


class App:
    def __init__(self, hal, rate=10, gain=128):
        self.hal = hal
        self.rate = rate
        self.gain = gain
        self.running = True
        self.seq = 0
        self.identify_until = None
        self.reader = protocol.LineReader()
        now = hal.ticks_ms()
        self.last_line = now
        self.chans = [Channel(i, now) for i in range(hal.channels)]
        hal.set_rate(rate)
        self.send(self.hello())

    def send(self, data):
        self.hal.write(data)

    def hello(self):
        return protocol.hello_line(VERSION, len(self.chans), self.rate, self.hal.rates,
                                   self.gain, self.running, self.hal.reset_cause,
                                   self.hal.board_id)

    def run(self, keep_going=None):
        """Loop forever (or while `keep_going()` says so)."""
        while keep_going is None or keep_going():
            self.step()
            self.hal.sleep_ms(1)

    def step(self):
        hal = self.hal
        hal.feed_watchdog()
        data = hal.read_input()
        if data:
            for line in self.reader.feed(data):
                self.handle(line)
        now = hal.ticks_ms()
        self.sample(now)
        hal.led(led.level(self.led_state(now), now))

    # -- commands -------------------------------------------------------------

    def handle(self, line):
        """Obey one received line and reply."""
        try:
            if line is None:
                raise protocol.CommandError("?", "toolong")
            parsed = protocol.parse_command(line)
            if parsed is None:
                return
            name, args = parsed
            handler = getattr(self, "cmd_" + name.lower(), None)
            if handler is None:
                raise protocol.CommandError(name, "unknown")
            handler(name, args)
        except protocol.CommandError as e:
            self.send(protocol.err_line(e.command, e.code))

    def _one_int(self, name, args, allowed):
        if len(args) != 1 or not args[0].isdigit() or int(args[0]) not in allowed:
            raise protocol.CommandError(name, "arg")
        return int(args[0])

    def _no_args(self, name, args):
        if args:
            raise protocol.CommandError(name, "arg")

    def cmd_hello(self, name, args):
        self._no_args(name, args)
        self.send(self.hello())
        for ch in self.chans:
            if ch.fault:
                self.send(protocol.fault_line(ch.index, ch.fault))

    def cmd_start(self, name, args):
        self._no_args(name, args)
        if not self.running:
            self.running = True
            self.restart_wait()
        self.send(protocol.ok_line(name))

    def cmd_stop(self, name, args):
        self._no_args(name, args)
        self.running = False
        self.send(protocol.ok_line(name))

    def cmd_rate(self, name, args):
        rate = self._one_int(name, args, protocol.RATES)
        if rate not in self.hal.rates:
            raise protocol.CommandError(name, "unsupported")
        self.rate = rate
        self.hal.set_rate(rate)
        self.settle_all()
        self.send(protocol.ok_line(name, str(rate)))

    def cmd_gain(self, name, args):
        self.gain = self._one_int(name, args, protocol.GAINS)
        self.settle_all()
        self.send(protocol.ok_line(name, str(self.gain)))

    def cmd_identify(self, name, args):
        self._no_args(name, args)
        self.identify_until = self.hal.ticks_add(self.hal.ticks_ms(), IDENTIFY_MS)
        self.send(protocol.ok_line(name))

    def cmd_ping(self, name, args):
        if len(args) > 1 or (args and not protocol.is_token(args[0])):
            raise protocol.CommandError(name, "arg")
        self.send(protocol.pong_line(args[0] if args else ""))

    # -- sampling -------------------------------------------------------------

    def restart_wait(self):
        """The next sample line waits for a new reading from every channel."""
        self.last_line = self.hal.ticks_ms()
        for ch in self.chans:
            ch.fresh = None

    def settle_all(self):
        """After a change of rate or gain: a read taken before it is dropped unsent, then
        SETTLE_READS conversions (hx711.py says which)."""
        self.restart_wait()
        for ch in self.chans:
            ch.pending = None
            ch.discard = hx711.SETTLE_READS

    def set_fault(self, ch, fault):
        if fault != ch.fault:
            ch.fault = fault
            self.send(protocol.fault_line(ch.index, fault or "ok"))

    def sample(self, now):
        """Read every chip as soon as its DOUT falls (streaming or not, so no reading
        goes stale); send a line when every channel has a new one."""
        hal = self.hal
        for ch in self.chans:
            if hal.ticks_diff(now, ch.since) < 0:
                continue  # holding off after a reset
            if hal.is_ready(ch.index):
                if ch.pending is not None:
                    self.count(ch, ch.pending)  # the next conversion came: the read was whole
                self.read(ch, now)
            elif hal.ticks_diff(now, ch.since) > hx711.READY_TIMEOUT_MS:
                # after a read: stuck mid-transfer (it missed a clock pulse); else no chip
                self.reset(ch, "desync" if ch.pending is not None else "missing", now, 0)
        if self.running:
            self.maybe_send_sample(now)

    def read(self, ch, now):
        pulses = hx711.GAIN_PULSES[self.gain]
        value, in_step = hx711.decode(self.hal.read_raw(ch.index, pulses), pulses)
        ch.since = now
        ch.pending = value if in_step else None
        if not in_step:
            self.reset(ch, "desync", now, hx711.DESYNC_HOLDOFF_MS)

    def count(self, ch, value):
        ch.pending = None
        self.set_fault(ch, None)
        if ch.discard > 0:
            ch.discard -= 1
        else:
            ch.fresh = value  # the latest wins: a faster chip waits for the slower one

    def reset(self, ch, fault, now, holdoff):
        self.set_fault(ch, fault)
        self.hal.reset_chip(ch.index)
        ch.pending = ch.fresh = None
        ch.discard = hx711.SETTLE_READS
        ch.since = self.hal.ticks_add(now, holdoff)

    def maybe_send_sample(self, now):
        """Send once every channel has a reading or an excuse (fault, settling) and
        at least one reading is new; with none, still once per READY_TIMEOUT_MS."""
        fresh = False
        for ch in self.chans:
            if not ch.done():
                return
            fresh = fresh or ch.fresh is not None
        if not fresh and self.hal.ticks_diff(now, self.last_line) < hx711.READY_TIMEOUT_MS:
            return
        self.send(protocol.sample_line(self.seq, [ch.fresh for ch in self.chans]))
        self.seq = (self.seq + 1) % protocol.SEQ_MODULO
        self.last_line = now
        for ch in self.chans:
            ch.fresh = None

    def led_state(self, now):
        if self.identify_until is not None:
            if self.hal.ticks_diff(self.identify_until, now) > 0:
                return "identify"
            self.identify_until = None
        for ch in self.chans:
            if ch.fault:
                return "fault"
        return "run" if self.running else "stopped"
