"""Settings survive a writer killed at any moment (SIGKILL at random times), and a settings
file that does not load is moved aside so that the next start goes on (issue 13, item 4)."""

import os
import random
import signal
import subprocess
import sys
import time

from companion import config
from companion.files import write_atomic

WRITE_BIG = r"""
import sys
from companion.files import write_atomic
n = 0
while True:
    write_atomic(sys.argv[1], (str(n % 10) * 4_000_000).encode())  # 4 MB: many write calls
    print(n, flush=True)
    n += 1
"""

SAVE_SETTINGS = r"""
import sys
from companion import config
cfg = config.load(sys.argv[1])
n = 0
while True:
    config.save_settings(cfg, {"sound": {"volume": (n % 10) / 10}, "language": "en"})
    print(n, flush=True)
    n += 1
"""


def _kill_at_random(script, target, rng, kills):
    for _ in range(kills):
        proc = subprocess.Popen([sys.executable, "-c", script, str(target)],
                                stdout=subprocess.PIPE, text=True)
        proc.stdout.readline()  # it has written once: now kill it somewhere in a later write
        time.sleep(rng.uniform(0, 0.05))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        yield


def test_a_file_written_atomically_is_old_or_new_never_half(tmp_path):
    target = tmp_path / "big.bin"
    for _ in _kill_at_random(WRITE_BIG, target, random.Random(1), 12):
        data = target.read_bytes()
        assert len(data) == 4_000_000 and data == data[:1] * len(data)
    leftovers = list(tmp_path.glob(".big.bin.*.tmp"))  # a killed writer's temporary file
    write_atomic(target, b"next")
    assert target.read_bytes() == b"next" and not any(p.exists() for p in leftovers)


def test_settings_written_by_a_killed_writer_always_load(tmp_path):
    main = tmp_path / "config.yaml"
    main.write_text(f"data_dir: {tmp_path / 'data'}\n")
    for _ in _kill_at_random(SAVE_SETTINGS, main, random.Random(2), 10):
        cfg = config.load(main)
        assert cfg.notice == "" and cfg.language == "en"
        assert cfg.sound.volume in {n / 10 for n in range(10)}


def test_a_truncated_settings_file_is_set_aside_and_start_goes_on(tmp_path):
    main = tmp_path / "config.yaml"
    main.write_text(f"data_dir: {tmp_path}\nlanguage: ja\n")
    whole = "display:\n  fullscreen: true\nlanguage: en\nsound:\n  volume: 0.25\n"
    for cut in range(1, len(whole)):  # every length a power cut could leave
        settings = tmp_path / config.SETTINGS_FILE
        settings.write_text(whole[:cut])
        cfg = config.load(main)  # never raises
        if cfg.notice:
            assert not settings.exists() and str(tmp_path) in cfg.notice
            assert cfg.language == "ja"  # config.yaml alone
        for aside in tmp_path.glob("settings.yaml.unreadable-*"):
            assert aside.read_text() == whole[:cut]
            aside.unlink()
