"""The seesaw serial protocol, host side: pure line codec (docs/protocol.md).

The firmware's twin is firmware/seesaw/protocol.py; docs/protocol_vectors.json
holds the test vectors both sides must pass.  Protocol 2 checks every line with
CRC-32 (zlib's); protocol 1's CRC-8 let about 1 in 2,000 damaged lines through
(bench/_line_faults.py measures both), so it is kept only to recognise an old
firmware's HELLO and ask for the matching firmware.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

PROTOCOL_VERSION = 2
LEGACY_PROTOCOL = 1  # CRC-8 lines: only their HELLO is read, to refuse it clearly
MAX_LINE = 120  # bytes before the line end, checksum included
SEQ_MODULO = 65536
RAW_MIN, RAW_MAX = -(1 << 23), (1 << 23) - 1
RATES = (10, 80)
GAINS = (128, 64, 32)
FAULT_CODES = ("missing", "desync", "ok")

_INT = re.compile(r"(0|-?[1-9][0-9]{0,7})\Z")  # canonical decimal: no "+", "-0", "007"
_SEQ = re.compile(r"(0|[1-9][0-9]{0,4})\Z")
_CHECK = re.compile(rb"[0-9A-F]{8}\Z")
_LEGACY_CHECK = re.compile(rb"[0-9A-F]{2}\Z")
_TOKEN = re.compile(r"[A-Za-z0-9_.-]{1,16}\Z")


class LineError(ValueError):
    """A received line that is not a valid protocol line; `reason` names why."""

    def __init__(self, reason: str, line: bytes):
        super().__init__(f"{reason}: {line[:40]!r}")
        self.reason = reason


def _crc_table() -> bytes:
    table = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = ((c << 1) ^ 0x07 if c & 0x80 else c << 1) & 0xFF
        table[i] = c
    return bytes(table)


_TABLE = _crc_table()


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS (protocol 1): polynomial 0x07, initial value 0, no reflection."""
    c = 0
    for b in data:
        c = _TABLE[c ^ b]
    return c


def crc32(data: bytes) -> int:
    """The line check of protocol 2: CRC-32 as zlib (and MicroPython's binascii) compute it."""
    return zlib.crc32(data)


def frame(body: str, end: str = "\n") -> bytes:
    """One line: body, '*', the body's CRC-32 as eight upper-case hex digits, `end`."""
    raw = body.encode("ascii")
    return raw + b"*%08X" % crc32(raw) + end.encode()


def encode_command(name: str, *args: object) -> bytes:
    """A checksummed command line, e.g. encode_command("RATE", 80) -> b"RATE 80*HH\\n"."""
    return frame(" ".join([name, *map(str, args)]))


@dataclass(frozen=True)
class Hello:
    """The device's identity and settings (its answer to HELLO, and sent at boot)."""

    firmware: str
    protocol: int
    channels: int
    rate: int
    gain: int
    running: bool = True
    rates: tuple[int, ...] = (10,)
    fields: dict[str, str] = field(default_factory=dict)  # every key=value, unknown ones too


@dataclass(frozen=True)
class SampleLine:
    seq: int
    values: tuple[int | None, ...]  # None: no valid reading (fault, settling)


@dataclass(frozen=True)
class Fault:
    channel: int
    code: str  # "missing", "desync" or "ok" (cleared)


@dataclass(frozen=True)
class Reply:
    ok: bool
    command: str
    detail: str  # OK: the value now in force; ERR: the error code


@dataclass(frozen=True)
class Pong:
    token: str


@dataclass(frozen=True)
class Unknown:
    """A well-formed, checksummed line of a kind this host does not know."""

    tag: str


Message = Hello | SampleLine | Fault | Reply | Pong | Unknown


def _int_field(text: str, line: bytes, lo: int, hi: int, pattern: re.Pattern[str] = _INT) -> int:
    if not pattern.match(text) or not lo <= int(text) <= hi:
        raise LineError("field", line)
    return int(text)


def _parse_hello(words: list[str], line: bytes) -> Hello:
    fields = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise LineError("field", line)
        fields[key] = value
    try:
        protocol = _int_field(fields["proto"], line, 0, 999)
        if protocol != PROTOCOL_VERSION:  # read only to be refused: its settings may differ
            return Hello(fields["fw"], protocol, channels=0, rate=0, gain=0, rates=(), fields=fields)
        rate = _choice(fields["rate"], RATES, line)
        rates = tuple(_choice(r, RATES, line) for r in fields.get("rates", fields["rate"]).split(","))
        if rate not in rates or fields.get("run", "1") not in ("0", "1"):
            raise LineError("field", line)
        return Hello(
            firmware=fields["fw"],
            protocol=protocol,
            channels=_int_field(fields["ch"], line, 1, 8),
            rate=rate,
            gain=_choice(fields["gain"], GAINS, line),
            running=fields["run"] == "1" if "run" in fields else True,
            rates=rates,
            fields=fields,
        )
    except KeyError:
        raise LineError("field", line) from None


def _choice(text: str, allowed: tuple[int, ...], line: bytes) -> int:
    """A setting that must be one of `allowed` (a rate or a gain)."""
    value = _int_field(text, line, min(allowed), max(allowed))
    if value not in allowed:
        raise LineError("field", line)
    return value


def _parse_sample(words: list[str], line: bytes, channels: int | None) -> SampleLine:
    if len(words) < 2 or (channels is not None and len(words) != channels + 1):
        raise LineError("fields", line)
    seq = _int_field(words[0], line, 0, SEQ_MODULO - 1, _SEQ)
    values = tuple(None if w == "-" else _int_field(w, line, RAW_MIN, RAW_MAX) for w in words[1:])
    return SampleLine(seq, values)


def _parse_body(tag: str, words: list[str], line: bytes, channels: int | None) -> Message:
    if tag == "S":
        return _parse_sample(words, line, channels)
    if tag == "HELLO":
        return _parse_hello(words, line)
    if tag == "FAULT":
        if len(words) != 2 or words[1] not in FAULT_CODES:
            raise LineError("fields", line)
        return Fault(_int_field(words[0], line, 0, 7, _SEQ), words[1])
    if tag in ("OK", "ERR"):
        if not words or (tag == "ERR" and len(words) != 2):
            raise LineError("fields", line)
        return Reply(tag == "OK", words[0], " ".join(words[1:]))
    if tag == "PONG":
        if len(words) > 1 or (words and not _TOKEN.match(words[0])):
            raise LineError("fields", line)
        return Pong(words[0] if words else "")
    return Unknown(tag)


def parse_line(line: bytes, channels: int | None = None) -> Message:
    """Decode one line from the device (without its CR/LF).

    `channels`, once known from HELLO, is the number of values a sample must carry.
    Raises LineError for anything that is not exactly a protocol line.
    """
    if len(line) > MAX_LINE:
        raise LineError("toolong", line)
    if any(b < 0x20 or b > 0x7E for b in line):
        raise LineError("bytes", line)
    body, star, given = line.rpartition(b"*")
    if star and _LEGACY_CHECK.match(given) and body.startswith(b"HELLO "):
        return _legacy_hello(body, given, line)
    if not star or not _CHECK.match(given):
        raise LineError("nochecksum", line)
    if int(given, 16) != crc32(body):
        raise LineError("checksum", line)
    return parse_body(body, channels, line)


def parse_body(body: bytes, channels: int | None = None, line: bytes | None = None) -> Message:
    """Decode the body of a line whose check passed (printable ASCII, no line end);
    `line` is the whole line, named in errors.  Raises LineError as parse_line."""
    line = body if line is None else line
    if b"*" in body:
        raise LineError("star", line)
    words = body.decode("ascii").split(" ")
    if not words[0] or "" in words:
        raise LineError("spacing", line)
    return _parse_body(words[0], words[1:], line, channels)


def _legacy_hello(body: bytes, given: bytes, line: bytes) -> Hello:
    """A protocol-1 firmware's HELLO: read only so that the host can refuse it."""
    if int(given, 16) != crc8(body) or b"*" in body:
        raise LineError("checksum", line)
    hello = _parse_hello(body.decode("ascii").split(" ")[1:], line)
    if hello.protocol != LEGACY_PROTOCOL:
        raise LineError("field", line)
    return hello


class LineSplitter:
    """Splits a byte stream into lines at LF (a CR before it is dropped).

    Bytes beyond MAX_LINE without a line end are discarded up to the next LF and
    reported once as an over-long line (None), so garbage cannot grow memory.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes | None]:
        lines: list[bytes | None] = []
        for chunk in data.split(b"\n")[:-1] if b"\n" in data else []:
            lines.append(self._finish(chunk))
        tail = data.rsplit(b"\n", 1)[-1]
        self._append(tail)
        return lines

    def _append(self, data: bytes) -> None:
        if self._overflow:
            return
        self._buf += data
        if len(self._buf) > MAX_LINE + 1:  # +1: room for the CR of a full line
            self._overflow = True
            self._buf.clear()

    def _finish(self, chunk: bytes) -> bytes | None:
        self._append(chunk)
        line = None if self._overflow else bytes(self._buf).removesuffix(b"\r")
        self._buf.clear()
        self._overflow = False
        return line


def seq_gap(expected: int, seq: int) -> int | None:
    """Samples lost between the expected sequence number and the one received;
    None when `seq` is behind or too far ahead (the device restarted its count)."""
    gap = (seq - expected) % SEQ_MODULO
    return gap if gap < SEQ_MODULO // 2 else None
