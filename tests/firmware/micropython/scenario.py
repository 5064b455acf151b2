"""The firmware's main loop on fake chips and a manual clock, through commands,
refusals, an unplugged chip, a missed clock pulse and a stuck data line.
Plain Python: `transcript()` must be the same, line for line, under CPython and
MicroPython (tests/firmware/test_firmware_under_micropython.py); run as a
script it prints it.

Each transcript line is "<ms> <what the device sent>", or "<ms> > <command>"
for what the host typed."""

from fake_hal import FakeHardware, FakeHX711, ManualClock, MemoryLine
from seesaw.app import App

REFUSALS = (b"RATE 20", b"GAIN 100", b"FLY", b"fly", b"PING a!b", b"STOP now", b"GAIN",
            b"RATE 80*00000000", b"PING a*b", b"2RATE 80", b"\x00\xff\x03junk", b"z" * 200)


class Bench:
    def __init__(self, rates=(10, 80)):
        self.clock = ManualClock()
        self.line = MemoryLine()
        self.chips = [FakeHX711(self.clock, lambda ms: 1000 + ms // 100),
                      FakeHX711(self.clock, -2001)]
        self.hw = FakeHardware(self.chips, self.line, self.clock, rates)
        self.log = []
        self.app = App(self.hw)
        self.collect()

    def collect(self):
        for sent in self.line.take_lines():
            self.log.append("%d %s" % (self.clock(), sent.decode()))

    def run(self, ms, command=None):
        if command is not None:
            self.log.append("%d > %r" % (self.clock(), command))
            self.line.to_device += command + b"\n"
        for _ in range(ms):
            self.app.step()
            self.clock.sleep(1)
            self.collect()


def transcript():
    bench = Bench()
    bench.run(1500)
    for command in (b"RATE 80", b"GAIN 64", b"GAIN 128", b"PING alive", b"IDENTIFY", b"HELLO"):
        bench.run(300, command)
    for command in REFUSALS:
        bench.run(100, command)
    bench.run(200, b"STOP")
    bench.run(500, b"START")
    bench.chips[1].mode = "missing"  # right pan unplugged
    bench.run(1000)
    bench.run(100, b"HELLO")
    bench.chips[1].mode = "ok"
    bench.run(1000)
    bench.chips[0].glitches = {9: 0}  # a missed clock pulse
    bench.run(1000)
    bench.chips[0].mode = "stuck_low"
    bench.run(300)
    bench.chips[0].mode = "ok"
    bench.run(1000)
    pinless = Bench(rates=(10,))  # a board with RATE tied low
    pinless.run(1000)
    pinless.run(1000, b"RATE 80")
    return bench.log + ["--- RATE pin not wired"] + pinless.log


if __name__ == "__main__":
    for line in transcript():
        print(line)
