"""Host codec of the seesaw serial protocol: the shared vectors, framing, fuzzing."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.sensing.serial_link import DeviceSession, LinkStats
from companion.sensing.serial_protocol import (
    Fault, Hello, LineError, LineSplitter, Pong, Reply, SampleLine, Unknown, crc32,
    encode_command, frame, parse_line, seq_gap)

VECTORS = json.loads((Path(__file__).parents[2] / "docs" / "protocol_vectors.json").read_text())
CHANNELS = VECTORS["device_lines"]["channels"]


def as_dict(msg) -> dict:
    """A parsed message in the vectors' JSON shape."""
    if isinstance(msg, SampleLine):
        return {"kind": "sample", "seq": msg.seq, "values": list(msg.values)}
    if isinstance(msg, Hello):
        return {"kind": "hello", "firmware": msg.firmware, "protocol": msg.protocol,
                "channels": msg.channels, "rate": msg.rate, "rates": list(msg.rates),
                "gain": msg.gain, "running": msg.running}
    if isinstance(msg, Fault):
        return {"kind": "fault", "channel": msg.channel, "code": msg.code}
    if isinstance(msg, Reply):
        return {"kind": "reply", "ok": msg.ok, "command": msg.command, "detail": msg.detail}
    if isinstance(msg, Pong):
        return {"kind": "pong", "token": msg.token}
    assert isinstance(msg, Unknown)
    return {"kind": "unknown", "tag": msg.tag}


@pytest.mark.parametrize("case", VECTORS["crc32"], ids=lambda c: c["ascii"] or "empty")
def test_crc32_vectors(case):
    assert "%08X" % crc32(case["ascii"].encode()) == case["crc"]


@pytest.mark.parametrize("case", VECTORS["device_lines"]["valid"], ids=lambda c: c["line"][:30])
def test_valid_device_lines(case):
    assert as_dict(parse_line(case["line"].encode(), CHANNELS)) == case["message"]


@pytest.mark.parametrize("case", VECTORS["device_lines"]["invalid"], ids=lambda c: c["line"][:30])
def test_invalid_device_lines(case):
    with pytest.raises(LineError) as err:
        parse_line(case["line"].encode(), CHANNELS)
    assert err.value.reason == case["reason"]


@pytest.mark.parametrize("case", VECTORS["device_encodings"], ids=lambda c: c["bytes"][:24])
def test_every_firmware_encoding_parses(case):
    wire = case["bytes"].encode()
    assert wire.endswith(b"\r\n")
    (line,) = LineSplitter().feed(wire)
    parse_line(line, CHANNELS)


@pytest.mark.parametrize("case", VECTORS["commands"]["host_encodings"], ids=lambda c: c["name"])
def test_command_encodings(case):
    assert encode_command(case["name"], *case["args"]) == case["bytes"].encode()


@pytest.mark.parametrize("case", VECTORS["sequences"], ids=lambda c: f'{c["expected"]}->{c["seq"]}')
def test_sequence_gaps(case):
    assert seq_gap(case["expected"], case["seq"]) == case["gap"]


def test_splitter_joins_chunks_and_strips_cr():
    splitter = LineSplitter()
    assert splitter.feed(b"S 1 2") == []
    assert splitter.feed(b" 3*XX\r\nPONG") == [b"S 1 2 3*XX"]
    assert splitter.feed(b"\n\n") == [b"PONG", b""]


def test_splitter_bounds_overlong_lines():
    splitter = LineSplitter()
    assert splitter.feed(b"x" * 500) == []
    assert splitter.feed(b"y" * 500 + b"\n" + frame("PONG")) == [None, frame("PONG")[:-1]]


SAMPLE_LINE = frame("S 17 12345 -2000", "\r\n")


def session_with_hello() -> DeviceSession:
    session = DeviceSession(LinkStats())
    session.feed(b"\n" + frame("HELLO fw=2.0.0 proto=2 ch=2 rate=10 gain=128"), 0.0)
    assert session.hello is not None
    return session


def test_session_counts_bad_lines_and_gaps():
    session = session_with_hello()
    data = (frame("S 1 10 20") + b"garbage\n" + SAMPLE_LINE.replace(b"12345", b"12346")
            + frame("S 4 11 21") + b"\xff\xfe\n")
    samples = session.feed(data, 1.0)
    assert [(s.channel, s.raw) for s in samples] == [(0, 10), (1, 20), (0, 11), (1, 21)]
    assert session.stats.bad == 3
    assert session.stats.dropped == 2  # sequence numbers 2 and 3 never arrived


def test_session_ignores_samples_before_the_handshake_and_restarts_on_hello():
    session = DeviceSession(LinkStats())
    assert session.feed(frame("S 100 1 2"), 0.0) == []
    session = session_with_hello()
    session.feed(frame("S 100 1 2"), 1.0)
    session.feed(frame("HELLO fw=2.0.0 proto=2 ch=2 rate=10 gain=128") + frame("S 0 1 2"), 2.0)
    assert session.stats.dropped == 0 and session.stats.restarts == 0


def test_session_marks_saturation_and_skips_missing_values():
    session = session_with_hello()
    samples = session.feed(frame("S 1 8388607 -") + frame("S 2 - -8388608"), 1.0)
    assert [(s.channel, s.saturated) for s in samples] == [(0, True), (1, True)]


def test_session_tracks_faults():
    session = session_with_hello()
    session.feed(frame("FAULT 1 missing"), 1.0)
    assert session.faults == {1: "missing"}
    assert "channel 1" in session.stats.last_error
    session.feed(frame("FAULT 1 ok"), 2.0)
    assert session.faults == {}


# -- fuzzing -----------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_parser_survives_any_bytes(data):
    """Arbitrary bytes: only LineError, and anything accepted re-encodes exactly."""
    for line in LineSplitter().feed(data + b"\n"):
        if line is None:
            continue
        try:
            parse_line(line, CHANNELS)
        except LineError:
            continue
        body = line.rpartition(b"*")[0].decode()
        assert frame(body, "") == line


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=60), st.just(SAMPLE_LINE)), max_size=20),
       st.integers(1, 17))
def test_garbage_never_becomes_samples(chunks, cut):
    """Valid lines inside garbage: every sample comes from a valid line, none is invented,
    whatever way the stream is cut into reads."""
    session = session_with_hello()
    stream = b"\n" + b"".join(chunks)
    samples = []
    for i in range(0, len(stream), cut):
        samples += session.feed(stream[i:i + cut], 1.0)
    assert all((s.channel, s.raw) in ((0, 12345), (1, -2000)) for s in samples)
    clean = stream.split(b"\n").count(SAMPLE_LINE[:-1]) + stream.split(b"\n").count(SAMPLE_LINE[:-2])
    assert len(samples) <= 2 * clean


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 8 * len(SAMPLE_LINE) - 17))
def test_any_single_bit_flip_is_rejected(bit):
    """CRC-32 catches every single-bit error: a flipped line never yields a sample."""
    corrupted = bytearray(SAMPLE_LINE)
    corrupted[bit // 8] ^= 1 << (bit % 8)
    session = session_with_hello()
    assert session.feed(bytes(corrupted) + b"\n", 1.0) == []


@pytest.mark.parametrize("hello", [
    "HELLO fw=2.0.0 proto=2 ch=2 rate=10 gain=100",
    "HELLO fw=2.0.0 proto=2 ch=2 rate=20 gain=128",
    "HELLO fw=2.0.0 proto=2 ch=2 rate=10 rates=10,1_0 gain=128",
    "HELLO fw=2.0.0 proto=2 ch=2 rate=10 gain=128 run=yes",
])
def test_session_drops_and_counts_a_hello_with_settings_outside_the_allowed_sets(hello):
    session = DeviceSession(LinkStats())
    assert session.feed(b"\n" + frame(hello) + frame("S 1 10 20"), 0.0) == []
    assert session.hello is None and session.stats.bad == 1


def test_session_drops_and_counts_a_star_inside_a_body():
    session = session_with_hello()
    assert session.feed(frame("S 1 10*5 20") + frame("S 2 10 20"), 1.0)[0].raw == 10
    assert session.stats.bad == 1
