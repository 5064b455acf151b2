"""Gunkan verdict sounds: valid little WAVs, regenerated when missing, never an error."""

import wave
from io import BytesIO

from companion.games.gunkan.screen import sounds as gunkan_sounds
from companion.games.gunkan.screen.sounds import NAMES, Sounds, sound_file, synthesize


def test_every_sound_is_a_short_mono_wav():
    for name in NAMES:
        with wave.open(BytesIO(synthesize(name))) as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
            assert 0.2 <= w.getnframes() / w.getframerate() <= 1.0


def test_shipped_files_match_the_generator():
    for name in NAMES:
        assert (gunkan_sounds.SOUNDS_DIR / f"gunkan_{name}.wav").read_bytes() == synthesize(name)


def test_a_missing_sound_is_written_where_it_can_be(tmp_path, monkeypatch):
    read_only = tmp_path / "package" / "sounds"
    read_only.parent.mkdir()
    read_only.parent.chmod(0o500)
    monkeypatch.setattr(gunkan_sounds, "SOUNDS_DIR", read_only)
    try:
        path = sound_file("explosion", tmp_path / "data")
    finally:
        read_only.parent.chmod(0o700)
    assert path.parent == tmp_path / "data" or path.parent == read_only  # root may write anyway
    assert path.read_bytes() == synthesize("explosion")


def test_disabled_or_failing_audio_stays_silent(tmp_path, monkeypatch):
    sounds = Sounds(tmp_path)
    sounds.play("verdict", enabled=False)
    assert sounds._loaded == {}
    monkeypatch.setattr(gunkan_sounds, "sound_file", lambda *a: (_ for _ in ()).throw(OSError("disk")))
    sounds.play("verdict", enabled=True)  # no exception
    assert sounds._loaded == {"verdict": None}
