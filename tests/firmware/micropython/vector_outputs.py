"""What the firmware makes of the shared vectors (docs/protocol_vectors.json), in
plain Python: run under CPython and MicroPython alike, compared to the vectors by
tests/firmware/test_firmware_under_micropython.py.  `python vector_outputs.py
VECTORS.json` prints the outputs as JSON."""

import json
import sys

from fake_hal import FakeHardware, FakeHX711, ManualClock, MemoryLine
from seesaw import hx711, protocol
from seesaw.app import App


def encode(kind, a):
    """The firmware's bytes for one message of `device_encodings`."""
    if kind == "sample":
        return protocol.sample_line(a["seq"], a["values"])
    if kind == "hello":
        return protocol.hello_line(a["fw"], a["channels"], a["rate"], a["rates"], a["gain"],
                                   a["running"], a["reset"], a["board"])
    if kind == "fault":
        return protocol.fault_line(a["channel"], a["code"])
    if kind == "ok":
        return protocol.ok_line(a["command"], a["detail"])
    if kind == "err":
        return protocol.err_line(a["command"], a["code"])
    return protocol.pong_line(a["token"])


def parse(line):
    """[NAME, args] of a received line, or {"error": code}."""
    try:
        parsed = protocol.parse_command(line)
    except protocol.CommandError as e:
        return {"error": e.code}
    return None if parsed is None else [parsed[0], parsed[1]]


def reply(send):
    """The firmware's whole answer to one command line."""
    clock, line = ManualClock(), MemoryLine()
    app = App(FakeHardware([FakeHX711(clock), FakeHX711(clock)], line, clock))
    line.take_lines()
    app.handle(send.encode())
    return [(reply + b"\r\n").decode() for reply in line.take_lines()]


def outputs(vectors):
    commands = vectors["commands"]
    reader = protocol.LineReader()
    return {
        "crc32": [protocol.check(c["ascii"].encode()).decode() for c in vectors["crc32"]],
        "encodings": [encode(c["kind"], c["args"]).decode() for c in vectors["device_encodings"]],
        "parses": [parse(c["line"].encode()) for c in commands["device_parses"]],
        "host_commands": [[parse(line) for line in protocol.LineReader().feed(c["bytes"].encode())]
                          for c in commands["host_encodings"]],
        "replies": [reply(c["send"]) for c in commands["device_replies"]],
        "hx711": [list(hx711.decode(c["word"], c["pulses"])) for c in vectors["hx711_reads"]],
        "gain_pulses": dict((str(g), p) for g, p in hx711.GAIN_PULSES.items()),
        "line_reader": [[None if x is None else x.decode() for x in reader.feed(chunk)]
                        for chunk in (b"PING a\rPING b\r\n\nPI", b"NG c\n" + b"x" * 300,
                                      b"x" * 300 + b"\nSTOP\n")],
    }


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps(outputs(json.load(f))))
