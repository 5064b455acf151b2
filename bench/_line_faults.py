"""Damaged serial lines against the host's line check: how many get through as a
different valid message?

Valid protocol lines (mostly samples, some HELLO / FAULT / OK / ERR / PONG, as
the firmware sends them) are damaged one way each, by class, and handed to the
host's own parser (`serial_protocol.parse_line`, CRC-32).  A damaged line
"accepted wrongly" parses as a valid message different from the original (for
two lines run together: from either of them); a
`wrong_sample` is one of those that is a sample line.  A damaged line holding a
line end is split there, as the receiver would.  For comparison the same damage
is done to the same bodies framed with protocol 1's CRC-8 and with CRC-16/CCITT
(checked the same way, then the same grammar): what the weaker checks would miss.

    python bench/_line_faults.py --json [--lines 1000000] [--seed 0]

`figures(lines, seed)` is also called by bench/faults.py.
"""

from __future__ import annotations

import argparse
import binascii
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.sensing.serial_protocol import (  # noqa: E402
    LineError, SampleLine, crc8, crc32, frame, parse_body, parse_line)

CHANNELS = 2
PRINTABLE = bytes(range(0x20, 0x7F))


def _damage_bits(line: bytearray, rng: random.Random, count: int) -> None:
    for bit in rng.sample(range(8 * len(line)), count):
        line[bit // 8] ^= 0x80 >> (bit % 8)


def _burst(line: bytearray, rng: random.Random) -> None:
    """A burst of 3 to 32 bits: its first and last bit flipped, any in between."""
    length = rng.randint(3, min(32, 8 * len(line)))
    start = rng.randrange(8 * len(line) - length + 1)
    pattern = (1 << (length - 1)) | 1 | (rng.getrandbits(length) & ((1 << length) - 1))
    for i in range(length):
        if pattern >> i & 1:
            bit = start + i
            line[bit // 8] ^= 0x80 >> (bit % 8)


def _swap(line: bytearray, rng: random.Random) -> None:
    pairs = [i for i in range(len(line) - 1) if line[i] != line[i + 1]]
    i = rng.choice(pairs)
    line[i], line[i + 1] = line[i + 1], line[i]


def _replace(line: bytearray, rng: random.Random) -> None:
    i = rng.randrange(len(line))
    line[i] = rng.choice([b for b in PRINTABLE if b != line[i]])


def damage(kind: str, line: bytes, other: bytes, rng: random.Random) -> bytes:
    """`line` (no line end) damaged one way; `other` is the next line on the wire."""
    out = bytearray(line)
    n = len(out)
    if kind == "bit_flip_1":
        _damage_bits(out, rng, 1)
    elif kind == "bit_flip_2":
        _damage_bits(out, rng, 2)
    elif kind == "bit_flip_3":
        _damage_bits(out, rng, 3)
    elif kind == "burst":
        _burst(out, rng)
    elif kind == "byte_replaced":
        _replace(out, rng)
    elif kind == "byte_deleted":
        del out[rng.randrange(n)]
    elif kind == "byte_duplicated":
        i = rng.randrange(n)
        out.insert(i, out[i])
    elif kind == "byte_inserted":
        out.insert(rng.randrange(n + 1), rng.choice(PRINTABLE))
    elif kind == "bytes_swapped":
        _swap(out, rng)
    elif kind == "truncated":
        del out[rng.randrange(1, n):]
    elif kind == "lines_joined":  # a lost line end, and bytes lost around it
        out = out[:rng.randint(1, n)] + other[rng.randrange(len(other)):]
    else:
        raise ValueError(kind)
    return bytes(out)


CLASSES = ("bit_flip_1", "bit_flip_2", "bit_flip_3", "burst", "byte_replaced", "byte_deleted",
           "byte_duplicated", "byte_inserted", "bytes_swapped", "truncated", "lines_joined")


def _bodies(rng: random.Random, count: int) -> list[str]:
    """Bodies like the firmware's stream: mostly samples, the rest of every kind."""
    def value():
        return "-" if rng.random() < 0.05 else str(rng.choice([
            rng.randint(-9999, 9999), rng.randint(-(1 << 23), (1 << 23) - 1)]))

    other = ["HELLO fw=2.0.0 proto=2 ch=2 rate=10 rates=10,80 gain=128 run=1 reset=power "
             "id=E6614103E7452D2F", "HELLO fw=2.0.0 proto=2 ch=2 rate=80 rates=10,80 gain=64 run=0 "
             "reset=wdt id=E6614103E7452D2F", "FAULT 0 missing", "FAULT 1 desync", "FAULT 1 ok",
             "OK RATE 80", "OK GAIN 32", "OK START", "OK STOP", "ERR RATE unsupported",
             "ERR ? checksum", "PONG alive", "PONG"]
    bodies = []
    for _ in range(count):
        if rng.random() < 0.9:
            bodies.append(f"S {rng.randrange(65536)} {value()} {value()}")
        else:
            bodies.append(rng.choice(other))
    return bodies


def _framed(check: str, body: str) -> bytes:
    if check == "CRC-32":
        return frame(body, "")
    raw = body.encode()
    if check == "CRC-16/CCITT":
        return raw + b"*%04X" % binascii.crc_hqx(raw, 0xFFFF)
    return raw + b"*%02X" % crc8(raw)


_WEAK = {"CRC-16/CCITT": (re.compile(rb"[0-9A-F]{4}\Z"), lambda b: binascii.crc_hqx(b, 0xFFFF)),
         "CRC-8": (re.compile(rb"[0-9A-F]{2}\Z"), crc8)}


def _parse(check: str, line: bytes):
    """The message a receiver using `check` takes from one line, or None."""
    try:
        if check == "CRC-32":
            return parse_line(line, CHANNELS)
        pattern, crc = _WEAK[check]
        if len(line) > 120 or any(b < 0x20 or b > 0x7E for b in line):
            return None
        body, star, given = line.rpartition(b"*")
        if not star or not pattern.match(given) or int(given, 16) != crc(body):
            return None
        return parse_body(body, CHANNELS, line)
    except LineError:
        return None


def _run(check: str, lines: int, seed: int) -> dict:
    rng = random.Random(seed)
    bodies = _bodies(rng, 4096)
    framed = [_framed(check, b) for b in bodies]
    truth = [_parse(check, f) for f in framed]
    assert None not in truth, "a valid line failed to parse"
    result = {}
    per_class = lines // len(CLASSES) + 1
    for kind in CLASSES:
        tried = wrong = wrong_samples = 0
        while tried < per_class:
            i = rng.randrange(len(framed))
            j = (i + 1) % len(framed)
            damaged = damage(kind, framed[i], framed[j], rng)
            if damaged in (framed[i], framed[j]):
                continue
            tried += 1
            for piece in damaged.split(b"\n"):
                msg = _parse(check, piece.removesuffix(b"\r"))
                if msg is not None and msg not in (truth[i], truth[j]):
                    wrong += 1
                    wrong_samples += isinstance(msg, SampleLine)
                    break
        result[kind] = {"tried": tried, "accepted_wrongly": wrong, "wrong_samples": wrong_samples,
                        "miss_rate": wrong / tried}
    return result


def figures(lines: int = 1_000_000, seed: int = 0) -> dict:
    """Per damage class: {"tried", "accepted_wrongly", "wrong_samples", "miss_rate"} for
    the protocol's CRC-32 over about `lines` damaged lines in all, and under "compare"
    the same figures had the line check been CRC-8 (protocol 1) or CRC-16/CCITT."""
    result = _run("CRC-32", lines, seed)
    weaker = {check: _run(check, lines, seed) for check in _WEAK}
    for kind, stats in result.items():
        stats["compare"] = {check: {k: weaker[check][kind][k]
                                    for k in ("accepted_wrongly", "wrong_samples", "miss_rate")}
                            for check in weaker}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--lines", type=int, default=1_000_000, help="damaged lines in all")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.monotonic()
    classes = figures(args.lines, args.seed)
    total = {check: sum(c["compare"][check]["accepted_wrongly"] for c in classes.values())
             for check in _WEAK}
    result = {"check": "CRC-32", "lines": sum(c["tried"] for c in classes.values()),
              "accepted_wrongly": sum(c["accepted_wrongly"] for c in classes.values()),
              "accepted_wrongly_had_it_been": total, "classes": classes,
              "seconds": round(time.monotonic() - start, 1)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['lines']} damaged lines, CRC-32 accepted {result['accepted_wrongly']} wrongly "
              f"(CRC-16/CCITT: {total['CRC-16/CCITT']}, CRC-8: {total['CRC-8']})")
        for kind, c in classes.items():
            print(f"  {kind:16} {c['tried']:8} tried  {c['accepted_wrongly']:3} wrong   "
                  f"CRC-16 {c['compare']['CRC-16/CCITT']['accepted_wrongly']:4}   "
                  f"CRC-8 {c['compare']['CRC-8']['accepted_wrongly']:5}")
    sys.exit(1 if result["accepted_wrongly"] else 0)


if __name__ == "__main__":
    main()
