"""The seesaw serial protocol, device side (docs/protocol.md).

Written in the MicroPython subset: no typing, no dataclasses, no f-strings.
Outgoing lines are `body*HHHHHHHH` + CR LF, HHHHHHHH being the CRC-32 of the
body (binascii's, in C on the Pico); incoming command lines may omit the
checksum so that a person can type them.
"""

import binascii

PROTOCOL = 2
MAX_LINE = 120  # bytes before the line end, checksum included
SEQ_MODULO = 65536
RATES = (10, 80)
GAINS = (128, 64, 32)
MAX_TOKEN = 16  # PING token length
TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
MAX_NAME = 12  # longest command name echoed back in an ERR line


def check(body):
    """The line check of `body` (bytes): its CRC-32 as 8 upper-case hex digits (bytes)."""
    return ("%08X" % (binascii.crc32(body) & 0xFFFFFFFF)).encode()


def frame(body):
    """The bytes of one outgoing line: body, '*', its check, CR LF."""
    raw = body.encode()
    return raw + b"*" + check(raw) + b"\r\n"


def sample_line(seq, values):
    """`S <seq> <v0> <v1>...`; None (no valid reading) is sent as '-'."""
    parts = ["S", str(seq)]
    for v in values:
        parts.append("-" if v is None else str(v))
    return frame(" ".join(parts))


def hello_line(fw, channels, rate, rates, gain, running, reset, board):
    return frame(
        "HELLO fw=%s proto=%d ch=%d rate=%d rates=%s gain=%d run=%d reset=%s id=%s"
        % (fw, PROTOCOL, channels, rate, ",".join([str(r) for r in rates]),
           gain, 1 if running else 0, reset, board))


def fault_line(channel, code):
    """`FAULT <ch> <missing|desync|ok>`."""
    return frame("FAULT %d %s" % (channel, code))


def ok_line(command, detail=""):
    return frame(("OK %s %s" % (command, detail)).strip())


def err_line(command, code):
    return frame("ERR %s %s" % (command, code))


def pong_line(token):
    return frame(("PONG " + token).strip())


class CommandError(Exception):
    """A command line that cannot be obeyed; `code` goes into the ERR reply."""

    def __init__(self, command, code):
        super().__init__(code)
        self.command = command
        self.code = code


def parse_command(line):
    """(NAME, [args]) from one received line (bytes, no line end), or None if blank.

    Raises CommandError for lines that are too long, not printable ASCII, or whose
    checksum is present but wrong.
    """
    line = line.strip()
    if not line:
        return None
    if len(line) > MAX_LINE:
        raise CommandError("?", "toolong")
    for b in line:
        if b < 32 or b > 126:
            raise CommandError("?", "format")
    star = line.rfind(b"*")
    if star >= 0:
        body, given = line[:star], line[star + 1:]
        if given != check(body):
            raise CommandError("?", "checksum")
        line = body
    words = line.decode().split()
    if not words or b"*" in line:
        raise CommandError("?", "format")
    name = words[0].upper()
    if len(name) > MAX_NAME or not name.isalpha():
        raise CommandError("?", "unknown")
    return name, words[1:]


def is_token(text):
    """A PING token: 1 to MAX_TOKEN letters, digits, '_', '.' or '-'."""
    if not 0 < len(text) <= MAX_TOKEN:
        return False
    for c in text:
        if c not in TOKEN_CHARS:
            return False
    return True


class LineReader:
    """Splits received bytes into lines at CR or LF.

    A line longer than MAX_LINE is returned as None (once, at its end) and its
    bytes are dropped, so garbage without line ends cannot exhaust memory.
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        lines = []
        for b in data:
            if b == 10 or b == 13:
                if self._overflow:
                    lines.append(None)
                elif self._buf:
                    lines.append(bytes(self._buf))
                self._buf = bytearray()
                self._overflow = False
            elif not self._overflow:
                if len(self._buf) >= MAX_LINE:
                    self._overflow = True
                    self._buf = bytearray()
                else:
                    self._buf.append(b)
        return lines
