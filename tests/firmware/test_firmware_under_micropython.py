"""The firmware under a real MicroPython (v1.27, WebAssembly port on Node.js), not our
CPython fakes: the things CPython is lenient about fail here as on a Pico."""

import json

import scenario
import vector_outputs
from under_micropython import FIRMWARE, ROOT, run_micropython

from companion.sensing.serial_protocol import Fault, Hello, Reply, SampleLine, parse_line

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


PICO = {**FIRMWARE, "tests/firmware/micropython/pico": "/pico"}


def boot(*args):
    """boot.py then main.py under MicroPython on the simulated Pico: (the device's
    lines parsed by the host codec, other printed lines, the board's report)."""
    out = run_micropython("pico_boot.py", *args, trees=PICO).stdout.decode()
    *lines, report = out.rstrip("\r\n").splitlines()
    assert report.startswith("BOARD ")
    device = [parse_line(line.encode(), 2) for line in lines if "*" in line]
    return device, [line for line in lines if "*" not in line], json.loads(report[6:])


def test_boot_and_main_on_a_simulated_pico_answer_every_refusal_and_keep_streaming():
    device, printed, board = boot()
    assert isinstance(device[0], Hello) and device[0].rates == (10, 80)
    replies = [m for m in device if isinstance(m, Reply)]
    assert replies[0] == Reply(True, "RATE", "80")
    codes = [(r.command, r.detail) for r in replies[1:]]
    assert codes == [("RATE", "arg"), ("GAIN", "arg"), ("FLY", "unknown"), ("PING", "arg"),
                     ("STOP", "arg"), ("GAIN", "arg"), ("?", "checksum"), ("?", "checksum"),
                     ("?", "format"), ("?", "toolong")]
    faults = [m for m in device if isinstance(m, Fault)]
    refusals = device[device.index(replies[1]):device.index(faults[0])]  # all before the unplug
    assert replies[-1] in refusals
    streamed = [m.values for m in refusals if isinstance(m, SampleLine)]
    assert len(streamed) >= 3 and set(streamed) == {(1000, -2000)}
    assert Fault(1, "missing") in faults and faults[-1] == Fault(1, "ok")
    assert [m.rate for m in device if isinstance(m, Hello)] == [10, 80]  # boot, and the answer
    seqs = [m.seq for m in device if isinstance(m, SampleLine)]
    assert len(seqs) > 30 and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert printed == ["seesaw stopped: REPL ready (mpremote reset restarts it)"]
    assert board["resets"] == 0 and board["watchdog_ms"] == 4000 and board["rates"] == [80, 80]
    assert board["timers_after_boot"] == 1 and board["timers_at_end"] == 1 and board["led"] == 1
    assert board["resets_of_chips"][0] == 0 and min(board["reads"]) > 30


def test_rate_80_on_a_pico_without_the_rate_pin_is_refused_not_a_reboot():
    """The reboot loop of issue 13: a host asking for 80/s from a board with RATE
    tied low restarted the Pico on every try."""
    device, printed, board = boot("pinless")
    assert device[0].rates == (10,)
    assert Reply(False, "RATE", "unsupported") in device
    assert board["resets"] == 0 and board["rates"] == [10, 10]
    after = device[device.index(Reply(False, "RATE", "unsupported")):]
    assert [m.values for m in after if isinstance(m, SampleLine)][-5:] == [(1000, -2000)] * 5


def test_the_pio_program_reads_every_gain_and_shows_what_it_can_of_a_missed_pulse():
    """seesaw.hw_pico.Chip with the real PIO program in a cycle model (pico/rp2.py)
    against an HX711 fake driven edge by edge."""
    cases = json.loads(run_micropython("pio_reads.py", trees=PICO).stdout)
    clean = [c for c in cases if not c["glitches"]]
    assert len(clean) == 18
    for c in clean:
        assert (c["read"], c["in_step"], c["busy_after"], c["next_ready"]) == (c["value"], True, True, True)
        assert c["setting"] == {128: 1, 32: 2, 64: 3}[c["gain"]]
    assert {c["longest_high_us"] for c in cases} == {2.0}  # datasheet: at most 50 us
    assert {c["reset"] for c in cases} == {1}  # SCK high 100 us: the chip restarted
    missed = [c for c in cases if c["glitches"] and c["gain"] == 128 and c["glitches"][0][1] == 0]
    assert len(missed) == 8
    for c in missed:
        if c["value"] % 2 == 0:  # the LSB shows as the first check bit: caught at once
            assert not c["in_step"]
        else:  # passes every level check, but the chip never signals the next conversion
            assert c["in_step"] and not c["next_ready"]
    # The limit (firmware/README.md): a missed pulse at gain 64 or an extra edge makes a
    # complete 26-edge transfer, shifted and selecting B/32; no DOUT level shows it.
    limits = [c for c in cases if c not in clean and c not in missed]
    assert [(c["in_step"], c["next_ready"], c["setting"]) for c in limits] == [(True, True, 2)] * 2
    assert all(c["read"] != c["value"] for c in limits)
