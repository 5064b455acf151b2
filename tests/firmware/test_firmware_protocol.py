"""The firmware's protocol module against the shared vectors (docs/protocol_vectors.json)."""

import json
from pathlib import Path

import pytest
from seesaw import hx711, protocol
from seesaw.app import App
from seesaw_fakes import FakeHardware, FakeHX711, ManualClock, MemoryLine
from vector_outputs import encode

VECTORS = json.loads((Path(__file__).parents[2] / "docs" / "protocol_vectors.json").read_text())
COMMANDS = VECTORS["commands"]


@pytest.mark.parametrize("case", VECTORS["crc32"], ids=lambda c: c["ascii"] or "empty")
def test_check(case):
    assert protocol.check(case["ascii"].encode()) == case["crc"].encode()


@pytest.mark.parametrize("case", VECTORS["device_encodings"], ids=lambda c: c["bytes"][:24])
def test_encodings(case):
    assert encode(case["kind"], case["args"]) == case["bytes"].encode()


@pytest.mark.parametrize("case", COMMANDS["device_parses"], ids=lambda c: c["line"][:24])
def test_command_parsing(case):
    line = case["line"].encode()
    if "error" in case:
        with pytest.raises(protocol.CommandError) as err:
            protocol.parse_command(line)
        assert err.value.code == case["error"]
    else:
        assert protocol.parse_command(line) == (case["command"], case["args"])


@pytest.mark.parametrize("case", COMMANDS["host_encodings"], ids=lambda c: c["name"])
def test_host_commands_are_understood(case):
    (line,) = protocol.LineReader().feed(case["bytes"].encode())
    assert protocol.parse_command(line) == (case["name"], [str(a) for a in case["args"]])


@pytest.mark.parametrize("case", COMMANDS["device_replies"], ids=lambda c: c["send"])
def test_replies(case):
    clock, line = ManualClock(), MemoryLine()
    app = App(FakeHardware([FakeHX711(clock), FakeHX711(clock)], line, clock))
    line.take_lines()
    app.handle(case["send"].encode())
    (reply,) = line.take_lines()
    if "expect" in case:
        assert reply + b"\r\n" == case["expect"].encode()
    else:
        assert reply.startswith(b"HELLO ")


@pytest.mark.parametrize("case", VECTORS["hx711_reads"], ids=lambda c: hex(c["word"]))
def test_hx711_decoding(case):
    assert hx711.decode(case["word"], case["pulses"]) == (case["value"], case["in_step"])


def test_gain_pulses():
    assert {str(g): p for g, p in hx711.GAIN_PULSES.items()} == VECTORS["gain_pulses"]


def test_line_reader_splits_on_cr_or_lf_and_bounds_length():
    reader = protocol.LineReader()
    assert reader.feed(b"PING a\rPING b\r\n\nPI") == [b"PING a", b"PING b"]
    assert reader.feed(b"NG c\n" + b"x" * 300) == [b"PING c"]
    assert reader.feed(b"x" * 300 + b"\nSTOP\n") == [None, b"STOP"]
