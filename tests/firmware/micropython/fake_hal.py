"""Fake hardware for the firmware: HX711 chips at the level of their clock edges,
a manual clock and an in-memory serial line.

`FakeHardware` provides everything seesaw.app expects of its `hal`.  Plain
Python that runs under CPython and MicroPython alike, so the same scenario runs
on both (tests/firmware/micropython/scenario.py).

The chip follows the datasheet, and where it is silent the host emulator's
choices (companion/sensing/hx711_emulator.py): conversions complete every
1000/rate ms; DOUT is low while one waits; rising edges 1..24 shift the word
out MSB first, edge 25 pulls DOUT high; 25, 26 or 27 edges (more count as 27)
select A/128, B/32 or A/64 for the next conversions; a chip that saw fewer than
25 edges stays mid-transfer, holding its last bit on DOUT, until reset.
"""

SETTINGS = {1: "A128", 2: "B32", 3: "A64"}  # edges after the 24th -> input and gain


class ManualClock:
    """Milliseconds that move only when told (sleep_ms moves them too)."""

    def __init__(self, ms=1000):
        self.ms = ms

    def __call__(self):
        return self.ms

    def sleep(self, ms):
        self.ms += ms


class FakeHX711:
    """One chip, driven edge by edge (`rise`, `dout`) as the PIO cycle model does, or
    one read at a time (`read`) as a fake hal does.  `value` (int, or callable(ms)
    -> int) is what input A at gain 128 reads; A/64 reads half of it and B/32
    reads `b_value`.  mode: "ok", "missing" (unplugged: DOUT pulled high) or
    "stuck_low" (DOUT shorted to ground)."""

    def __init__(self, clock, value=0, rate=10):
        self.clock = clock
        self.value = value
        self.b_value = 0
        self.rate = rate
        self.mode = "ok"
        self.pulses = []  # extra pulses the firmware sent with every read (fake hal)
        self.glitches = {}  # next transfer only: {edge: edges the chip sees there (0 or 2)}
        self.resets = 0
        self.setting = 1  # extra pulses of the setting in force
        self.sent = []  # (value, setting it was converted at) of every finished transfer
        self._shifted = None  # edges seen in the transfer under way, or None
        self._edges = 0  # edges clocked in it
        self._glitches = {}
        self._unread = False  # a conversion waits: DOUT low
        self._word = self._value = self._from = 0
        self._next = clock() + self.period()

    def period(self):
        return 1000 // self.rate

    def _convert(self):
        """A conversion completes every period, unless a transfer is stuck half way;
        the one after a finished transfer uses the setting its edge count chose."""
        now = self.clock()
        if now < self._next or (self._shifted is not None and self._shifted < 25):
            return
        if self._shifted is not None:
            self.setting = min(self._shifted, 27) - 24
            self.sent.append((self._value, self._from))
            self._shifted = None
        while self._next <= now:
            self._next += self.period()
        value = self.value(now) if callable(self.value) else self.value
        self._value = {1: value, 3: value // 2, 2: self.b_value}[self.setting]
        self._word = self._value & 0xFFFFFF
        self._from = self.setting
        self._unread = True

    def dout(self):
        if self.mode != "ok":
            return 1 if self.mode == "missing" else 0
        self._convert()
        if self._shifted is None:
            return 0 if self._unread else 1
        if self._shifted > 24:
            return 1
        return (self._word >> (24 - self._shifted)) & 1 if self._shifted else 0

    def ready(self):
        return self.dout() == 0

    def rise(self):
        """One rising edge of SCK."""
        if self.mode != "ok":
            return
        if self._shifted is None:
            if self.dout() != 0:
                return  # converting: the edge is ignored
            self._shifted, self._edges, self._unread = 0, 0, False
            self._glitches, self.glitches = self.glitches, {}
        self._edges += 1
        self._shifted += self._glitches.get(self._edges, 1)

    def read(self, pulses):
        """What the PIO read assembles clocking 24 + `pulses` edges: DOUT after each
        rising edge, then DOUT once more with the clock low after the last one."""
        self.pulses.append(pulses)
        word = 0
        for _ in range(24 + pulses):
            self.rise()
            word = (word << 1) | self.dout()
        return (word << 1) | self.dout()

    def reset(self):
        """SCK held high over 60 us, then low: power-down, restart at A/128."""
        self.resets += 1
        self.setting = 1
        self._shifted = None
        self._unread = False
        self._next = self.clock() + self.period()


class MemoryLine:
    """The USB serial line as two byte buffers."""

    def __init__(self):
        self.to_device = bytearray()
        self.from_device = bytearray()

    def read(self):
        data = bytes(self.to_device[:64])
        self.to_device = self.to_device[64:]
        return data

    def write(self, data):
        self.from_device += data

    def take_lines(self):
        """Complete lines the device sent since the last call, without CR LF."""
        data = bytes(self.from_device)
        end = data.rfind(b"\r\n")
        if end < 0:
            return []
        self.from_device = bytearray(data[end + 2:])
        return data[:end].split(b"\r\n")


class FakeHardware:
    """The firmware's `hal` over fake chips and a fake line."""

    def __init__(self, chips, line, clock, rates=(10, 80)):
        self.chips = chips
        self.channels = len(chips)
        self.line = line
        self.clock = clock
        self.rates = rates
        self.rate = None
        self.led_on = None
        self.watchdog_feeds = 0
        self.reset_cause = "power"
        self.board_id = "E6614103E7452D2F"

    def ticks_ms(self):
        return self.clock()

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, t, ms):
        return t + ms

    def sleep_ms(self, ms):
        self.clock.sleep(ms)

    def is_ready(self, ch):
        return self.chips[ch].ready()

    def read_raw(self, ch, pulses):
        return self.chips[ch].read(pulses)

    def reset_chip(self, ch):
        self.chips[ch].reset()

    def set_rate(self, hz):
        self.rate = hz
        for chip in self.chips:
            chip.rate = hz

    def led(self, on):
        self.led_on = on

    def feed_watchdog(self):
        self.watchdog_feeds += 1

    def read_input(self):
        return self.line.read()

    def write(self, data):
        self.line.write(data)
