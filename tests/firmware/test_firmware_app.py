"""The firmware's main loop on fake chips and a manual clock."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seesaw import hx711, led
from seesaw.app import App
from seesaw_fakes import FakeHardware, FakeHX711, ManualClock, MemoryLine

from companion.sensing.serial_protocol import Fault, Hello, Pong, Reply, SampleLine, parse_line


class Rig:
    def __init__(self, rates=(10, 80), values=(1000, -2000)):
        self.clock = ManualClock()
        self.line = MemoryLine()
        self.chips = [FakeHX711(self.clock, v) for v in values]
        self.hw = FakeHardware(self.chips, self.line, self.clock, rates)
        self.app = App(self.hw)

    def run(self, ms, command=b""):
        """Send `command`, run `ms` milliseconds of the loop, return the host's view of
        every line sent (parsed by the host codec, so both sides agree)."""
        self.line.to_device += command
        for _ in range(ms):
            self.app.step()
            self.clock.sleep(1)
        return [parse_line(line, 2) for line in self.line.take_lines()]


def samples(messages):
    return [m for m in messages if isinstance(m, SampleLine)]


def test_boot_says_hello_then_streams_after_settling():
    rig = Rig()
    (hello,) = rig.run(0)
    assert (hello.firmware, hello.channels, hello.rate, hello.gain, hello.rates) == ("2.0.0", 2, 10, 128, (10, 80))
    lines = samples(rig.run(2000))
    values = [m.values for m in lines]
    assert values[-1] == (1000, -2000)
    assert all(v in ((None, None), (1000, -2000)) for v in values)
    assert [m.seq for m in lines] == list(range(len(lines)))
    assert 13 <= values.count((1000, -2000)) <= 16  # 10/s, minus the settling reads
    assert rig.hw.watchdog_feeds == 2000


def test_rate_and_gain_commands():
    rig = Rig()
    rig.run(1000)
    replies = rig.run(1000, b"RATE 80\nGAIN 64\n")
    assert Reply(True, "RATE", "80") in replies and Reply(True, "GAIN", "64") in replies
    assert rig.hw.rate == 80
    assert rig.chips[0].pulses[-1] == hx711.GAIN_PULSES[64]
    assert len(samples(rig.run(1000))) >= 70


def test_rate_the_board_cannot_select_is_refused():
    rig = Rig(rates=(10,))
    assert rig.run(1, b"RATE 80\n")[-1] == Reply(False, "RATE", "unsupported")


def test_missing_chip_is_reported_not_invented():
    rig = Rig()
    rig.run(1500)
    rig.chips[1].mode = "missing"
    lines = rig.run(1500)
    assert Fault(1, "missing") in lines
    after = lines[lines.index(Fault(1, "missing")) + 1:]
    assert samples(after) and all(m.values == (1000, None) for m in samples(after))
    assert rig.app.led_state(rig.clock()) == "fault"
    assert Fault(1, "missing") in rig.run(1, b"HELLO\n")  # repeated after a handshake
    rig.chips[1].mode = "ok"
    lines = rig.run(1500)
    assert Fault(1, "ok") in lines and samples(lines)[-1].values == (1000, -2000)


def test_all_chips_missing_still_sends_a_heartbeat():
    rig = Rig()
    for chip in rig.chips:
        chip.mode = "missing"
    lines = samples(rig.run(3000))
    assert 4 <= len(lines) <= 7 and all(m.values == (None, None) for m in lines)


def test_out_of_step_chip_is_reset_and_its_reading_dropped():
    rig = Rig()
    rig.run(1500)
    rig.chips[0].mode = "desync"
    lines = rig.run(300)
    assert Fault(0, "desync") in lines and rig.chips[0].resets >= 1
    assert all(m.values[0] is None for m in samples(lines[lines.index(Fault(0, "desync")):]))
    rig.chips[0].mode = "ok"
    lines = rig.run(1500)
    assert Fault(0, "ok") in lines and samples(lines)[-1].values == (1000, -2000)


def test_stop_and_start_keep_the_sequence_unbroken():
    rig = Rig()
    before = samples(rig.run(1500))
    assert Reply(True, "STOP", "") in rig.run(10, b"STOP\n")
    assert samples(rig.run(1000)) == []
    assert rig.app.led_state(rig.clock()) == "stopped"
    after = samples(rig.run(1500, b"START\n"))
    assert after[0].seq == before[-1].seq + 1 or after[0].seq == before[-1].seq + 2


def test_garbage_input_gets_error_replies_and_breaks_nothing():
    rig = Rig()
    lines = rig.run(1500, b"\x00\xff\x03junk\n" + b"z" * 500 + b"\nPING ok\n")
    assert Reply(False, "?", "format") in lines and Reply(False, "?", "toolong") in lines
    assert samples(lines)[-1].values == (1000, -2000)


def test_led_patterns():
    rig = Rig()
    rig.run(1500)
    assert rig.app.led_state(rig.clock()) == "run"
    rig.run(1, b"IDENTIFY\n")
    assert rig.app.led_state(rig.clock()) == "identify"
    rig.run(5000)
    assert rig.app.led_state(rig.clock()) == "run"
    lit = [led.level("run", t) for t in range(1000)]
    assert lit.count(True) == 80 and lit[0]


@pytest.mark.parametrize("state", sorted(led.PATTERNS))
def test_every_pattern_blinks(state):
    lit = {led.level(state, t) for t in range(4000)}
    assert lit == {True, False}


COMMAND_LIKE = st.builds(
    lambda name, rest: (name + " " + rest + "\n").encode(),
    st.sampled_from(["PING", "RATE", "GAIN", "HELLO", "START", "STOP", "IDENTIFY", "X", "S"]),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=130))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=300), COMMAND_LIKE))
def test_any_input_gets_valid_replies_and_never_stops_the_loop(data):
    rig = Rig()
    lines = rig.run(30, data)  # every line the firmware sends is a valid protocol line
    assert all(isinstance(m, (Hello, Reply, Pong, Fault, SampleLine)) for m in lines)
    assert rig.hw.watchdog_feeds == 30


def test_every_conversion_is_read_and_lines_follow_the_slower_chip():
    """Both chips are read as soon as DOUT falls, the faster one's latest reading
    is sent, and lines go out at the slower chip's pace."""
    rig = Rig(values=(lambda ms: ms, lambda ms: -ms))
    rig.chips[1].period = lambda: 90  # a slightly faster crystal
    lines = samples(rig.run(3000))
    fast = rig.chips[1].sent
    assert len(fast) >= 3000 // 90 - 2  # no conversion skipped
    assert len(rig.chips[0].sent) >= 3000 // 100 - 2
    assert 24 <= len(lines) <= 31  # the slower chip's 10/s, less the settling reads
    right = [line.values[1] for line in lines if line.values[1] is not None]
    assert set(right) <= {value for value, _ in fast}
    assert right == sorted(right, reverse=True) and len(set(right)) == len(right)  # each new
    assert lines[-1].values[1] <= fast[-3][0]  # one of the newest (-ms): kept the latest


@pytest.mark.parametrize("value", [1001, 1000], ids=["LSB 1", "LSB 0"])
@pytest.mark.parametrize("edge", [1, 12, 24, 25])
def test_a_missed_clock_pulse_at_gain_128_never_becomes_a_reading(value, edge):
    """A chip that misses a pulse shows its LSB where DOUT must be high: a 0 is
    caught at once; a 1 leaves it mid-transfer, never signalling the next
    conversion, so the read does not count and the chip is reset."""
    rig = Rig(values=(value, -2000))
    rig.run(1500)
    rig.chips[0].glitches = {edge: 0}
    lines = rig.run(2000)
    assert Fault(0, "desync") in lines and rig.chips[0].resets == 1
    assert {m.values[0] for m in samples(lines)} <= {value, None}
    assert samples(lines)[-1].values == (value, -2000) and lines[-1] != Fault(0, "desync")


def test_a_chip_unplugged_right_after_a_read_sends_no_reading():
    """DOUT high for good after a read: that read is never confirmed."""
    rig = Rig(values=(1000, -2000))
    rig.run(1500)
    chip = rig.chips[0]
    while not chip.ready():
        rig.run(1)
    rig.run(1)  # read now, confirmation pending
    chip.value = 4242
    chip.mode = "missing"
    lines = rig.run(1500)
    assert {m.values[0] for m in samples(lines)} <= {1000, None}
    assert Fault(0, "desync") in lines and Fault(0, "missing") in lines
