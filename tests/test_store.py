import json
import os
import random
import signal
import sqlite3
import subprocess
import sys

import pytest

from companion.store import FILENAME, MIGRATIONS, OutOfSequence, Store, StoreError

WRITER = r"""
import sys
from companion.store import Store
store = Store(sys.argv[1])
game = store.create_game("demo", {"n": 1})
print("game", game, flush=True)
seq = 0
while True:
    store.append(game, seq, {"move": seq, "pad": "x" * (seq % 50)})
    print("committed", seq, flush=True)
    seq += 1
"""


def test_every_reported_action_survives_sigkill(tmp_path):
    path = tmp_path / FILENAME
    rng = random.Random(7)
    reported: dict[int, int] = {}
    for _ in range(25):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                                stdout=subprocess.PIPE, text=True)
        game = int(proc.stdout.readline().split()[1])
        target = rng.randint(0, 60)
        last = -1
        for line in proc.stdout:
            last = int(line.split()[1])
            if last >= target:
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        reported[game] = last
        with Store(path) as store:
            assert store.set_aside is None
            ok = store._db.execute("PRAGMA integrity_check").fetchone()[0]
            assert ok == "ok"
            logged = store.actions(game)
            assert len(logged) >= last + 1
            assert [a["move"] for a in logged] == list(range(len(logged)))
    with Store(path) as store:
        for game, last in reported.items():
            assert len(store.actions(game)) >= last + 1


def test_log_roundtrip_finish_and_undo(tmp_path):
    with Store.in_dir(tmp_path) as store:
        game = store.create_game("uttt", {"a": 1}, players=["red", "blue"], scoreboard="b")
        store.append(game, 0, 40)
        store.append(game, 1, {"k": [1, "二"]}, outcome={"winner": 1, "reason": "r"})
        assert store.actions(game) == [40, {"k": [1, "二"]}]
        record = store.game(game)
        assert record.status == "finished" and record.outcome["winner"] == 1
        assert store.results("b") == [(["red", "blue"], {"winner": 1, "reason": "r"})]
        store.truncate(game, 1)
        assert store.actions(game) == [40]
        assert store.game(game).status == "active" and store.results("b") == []
        with pytest.raises(OutOfSequence, match="1 moves on disk"):
            store.append(game, 0, 41)  # a sequence number is never written twice
        with pytest.raises(OutOfSequence):
            store.append(game, 2, 41)  # nor is one skipped
        assert store.actions(game) == [40]


def test_games_listed_by_status_newest_first(tmp_path):
    clock = iter(range(100)).__next__
    with Store.in_dir(tmp_path, clock=clock) as store:
        first = store.create_game("a", {})
        second = store.create_game("b", {})
        store.abandon(first)
        assert [g.id for g in store.games("active")] == [second]
        store.append(second, 0, 1)
        assert [g.id for g in store.games()] == [second, first]
        assert [g.id for g in store.games(kind="a")] == [first]
        with pytest.raises(StoreError, match="no game number 99"):
            store.game(99)


def test_calibrations_by_name_and_newest(tmp_path):
    clock = iter(range(100)).__next__
    with Store.in_dir(tmp_path, clock=clock) as store:
        assert store.calibration() is None
        store.save_calibration("home", {"scale": [1, 2]})
        store.save_calibration("club", {"scale": [3, 4]})
        assert store.calibration() == {"scale": [3, 4]}
        assert store.calibration("home") == {"scale": [1, 2]}
        store.save_calibration("home", {"scale": [5, 6]})
        assert store.calibration() == {"scale": [5, 6]}
        assert store.calibration_names() == ["club", "home"]


def test_corrupt_database_is_set_aside_not_overwritten(tmp_path):
    path = tmp_path / FILENAME
    garbage = b"this is not sqlite at all" * 100
    path.write_bytes(garbage)
    with Store(path) as store:
        assert store.set_aside is not None
        assert store.set_aside.read_bytes() == garbage
        assert "could not be read" in store.problem and str(store.set_aside) in store.problem
        assert store.games() == []


def test_schema_is_versioned_and_newer_schema_is_refused(tmp_path):
    path = tmp_path / FILENAME
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer companion"):
        Store(path)


def test_old_database_is_migrated(tmp_path):
    path = tmp_path / FILENAME
    sqlite3.connect(path).close()  # an empty schema-0 database
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS)
        assert json.loads(json.dumps(store.games())) == []
