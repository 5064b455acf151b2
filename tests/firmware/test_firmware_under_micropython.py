"""The firmware under a real MicroPython (v1.27, WebAssembly port on Node.js), not our
CPython fakes: the things CPython is lenient about fail here as on a Pico."""

import json

import scenario
import vector_outputs
from under_micropython import ROOT, run_micropython

VECTORS = ROOT / "docs" / "protocol_vectors.json"


def test_a_refusal_is_an_exception_micropython_can_build():
    """MicroPython has no Exception.__init__: calling it made every refused command
    escape App.handle as AttributeError, and main.py reset the board."""
    out = run_micropython("command_error.py").stdout.decode()
    assert out.split()[:2] == ["RATE", "unsupported"]


def expected(vectors):
    """The firmware's outputs as the shared vectors prescribe them."""
    commands = vectors["commands"]

    def parse(case):
        return {"error": case["error"]} if "error" in case else [case["command"], case["args"]]

    return {
        "crc32": [c["crc"] for c in vectors["crc32"]],
        "encodings": [c["bytes"] for c in vectors["device_encodings"]],
        "parses": [parse(c) for c in commands["device_parses"]],
        "host_commands": [[[c["name"], [str(a) for a in c["args"]]]] for c in commands["host_encodings"]],
        "replies": [[c["expect"]] if "expect" in c else ["HELLO"] for c in commands["device_replies"]],
        "hx711": [[c["value"], c["in_step"]] for c in vectors["hx711_reads"]],
        "gain_pulses": vectors["gain_pulses"],
        "line_reader": [["PING a", "PING b"], ["PING c"], [None, "STOP"]],
    }


def test_the_shared_vectors_under_micropython():
    """Encoding, parsing, CRC-32, HX711 decoding and the line reader, run by
    MicroPython, give exactly what docs/protocol_vectors.json says (and what
    the same code gives under CPython)."""
    vectors = json.loads(VECTORS.read_text())
    got = json.loads(run_micropython("vector_outputs.py", "/docs/protocol_vectors.json").stdout)
    assert got == vector_outputs.outputs(vectors)  # the same under CPython
    for reply in got["replies"]:  # the HELLO reply is checked by its start only
        if reply[0].startswith("HELLO "):
            reply[:] = ["HELLO"]
    assert got == expected(vectors)


def test_the_app_loop_gives_the_same_transcript_under_micropython_and_cpython():
    """Commands, refusals, an unplugged chip, a missed clock pulse and a stuck
    data line: MicroPython's run of the main loop matches CPython's line for line."""
    under_micropython = run_micropython("scenario.py").stdout.decode().splitlines()
    assert under_micropython == scenario.transcript()
    device = [line.split(" ", 1)[1] for line in under_micropython if " > " not in line
              and not line.startswith("---")]
    errors = [line for line in device if line.startswith("ERR ")]
    assert len(errors) == len(scenario.REFUSALS) + 1  # and RATE 80 on the pinless board
    assert "ERR RATE unsupported*6FBBBADA" in device
    for fault in ("FAULT 1 missing", "FAULT 0 desync", "FAULT 1 ok", "FAULT 0 ok"):
        assert any(line.startswith(fault + "*") for line in device), fault
    refused_at = [int(line.split()[0]) for line in under_micropython if "ERR " in line]
    streamed_at = [int(line.split()[0]) for line in under_micropython if " S " in line]
    assert all(any(t < s < t + 100 for s in streamed_at) for t in refused_at[:-1])
