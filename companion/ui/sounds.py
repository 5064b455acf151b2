"""The app's short sounds, made with the `wave` module: the verdict chime, which Settings'
Try plays at the chosen volume, and the 軍艦将棋 referee's explosion, fanfare and reweigh.

The WAVs ship in companion/ui/wav/; a missing one is synthesised again on first use (into
the data directory when the package is read-only).  Playing never blocks and never fails:
with sound disabled (`sound.enabled`), no audio device or no audio provider, `play` does
nothing.
"""

from __future__ import annotations

import io
import math
import random
import struct
import wave
from pathlib import Path

RATE = 16000
SOUNDS_DIR = Path(__file__).resolve().parent / "wav"
NAMES = ("verdict", "explosion", "fanfare", "reweigh")


def _tone(freqs, seconds: float, decay: float) -> list[float]:
    n = int(RATE * seconds)
    return [sum(math.sin(2 * math.pi * f * i / RATE) for f in freqs) / len(freqs)
            * math.exp(-decay * i / RATE) for i in range(n)]


def _explosion() -> list[float]:
    rng = random.Random(7)  # the same bang every time
    out, low = [], 0.0
    for i in range(int(RATE * 0.9)):
        low += 0.08 * (rng.uniform(-1, 1) - low)  # brown-ish rumble
        out.append(3.0 * low * math.exp(-4.0 * i / RATE) * min(1.0, i / 80))
    return out


def synthesize(name: str) -> bytes:
    """The WAV file `name` (one of `NAMES`), 16 kHz mono 16-bit."""
    samples = {
        "verdict": lambda: _tone((880, 1320), 0.25, 12.0),
        "explosion": _explosion,
        "fanfare": lambda: _tone((523,), 0.15, 4.0) + _tone((659,), 0.15, 4.0) + _tone((784, 1046), 0.45, 5.0),
        "reweigh": lambda: _tone((440,), 0.12, 8.0) + _tone((330,), 0.2, 8.0),
    }[name]()
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(32767 * 0.6 * max(-1.0, min(1.0, s)))) for s in samples))
    return buffer.getvalue()


def sound_file(name: str, fallback_dir: Path) -> Path:
    """The shipped WAV, or one written now (to `fallback_dir` if the package is read-only)."""
    for folder in (SOUNDS_DIR, fallback_dir):
        path = folder / f"{name}.wav"
        if path.exists():
            return path
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(synthesize(name))
            return path
        except OSError:
            continue
    raise OSError(f"cannot write the sound {name!r}")


class Sounds:
    """Loads each sound once and plays it if sound is enabled; silent on any audio failure."""

    def __init__(self, fallback_dir: Path):
        self.fallback_dir = Path(fallback_dir)
        self._loaded: dict[str, object] = {}

    def play(self, name: str, enabled: bool, volume: float = 0.7) -> None:
        if not enabled:
            return
        try:
            if name not in self._loaded:
                from kivy.core.audio import SoundLoader

                self._loaded[name] = SoundLoader.load(str(sound_file(name, self.fallback_dir)))
            sound = self._loaded[name]
            if sound is not None:
                sound.volume = volume
                sound.play()
        except Exception:  # no device, no provider, unreadable file: a referee needs no sound
            self._loaded[name] = None
