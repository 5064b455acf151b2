import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.migrations import action_crc
from companion.store import FILENAME, MIGRATIONS, Lineup, OutOfSequence, Store, StoreError, UnreadableGame

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


def test_every_commit_is_on_disk_before_it_returns(tmp_path):
    """WAL and synchronous=FULL, as the program opens it (only tests that play whole games
    lower it, tests/conftest.py; the store's own tests keep it)."""
    with Store.in_dir(tmp_path) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert store._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


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


SCHEMA_1 = Path(__file__).parent / "data" / "store-schema-1.sql"


def test_games_saved_before_lineups_get_theirs_from_their_scoreboards(tmp_path):
    path = tmp_path / FILENAME
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_1.read_text())  # as the schema-1 companion saved them
    before = db.execute("SELECT * FROM games ORDER BY id").fetchall()
    moves = db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    db.close()
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS) == 7
        assert {g.scoreboard: g.lineup for g in store.games()} == {
            "uttt:2p": Lineup(), "uttt:cpu:hard": Lineup("cpu", "hard"), "kuku:cpu:hard": Lineup("cpu", "hard"),
            "kuku:tracker": Lineup("tracker"), "battleship:cpu:easy": Lineup("cpu", "easy"),
            "battleship:tracker": Lineup("tracker")}
        assert not store.damaged() and len(store.results("uttt:2p")) == 1
    db = sqlite3.connect(path)
    assert [row[:-8] for row in db.execute("SELECT * FROM games ORDER BY id")] == before  # all else as it was
    uttt = {1, 2, 3}  # their cell numbers became actions of one shape (migration 4)
    assert db.execute("SELECT game_id, seq, action, at, entry FROM actions ORDER BY game_id, seq").fetchall() == [
        (game, seq, f'{{"type":"move","cell":{action}}}' if game in uttt else action, at, None)
        for game, seq, action, at in moves]  # and no turn known (migration 5): each its own


name = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(name, st.one_of(st.builds(Lineup, st.sampled_from(["2p", "tracker"])),
                                          st.builds(Lineup, st.just("cpu"), name))), max_size=8))
def test_migration_reads_back_the_lineup_any_scoreboard_was_written_from(games):
    """Migration 2 is the inverse of `Lineup.scoreboard`, for any kind and level."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / FILENAME
        db = sqlite3.connect(path)
        db.executescript(MIGRATIONS[0] + "PRAGMA user_version=1;")
        db.executemany("INSERT INTO games (kind, options, scoreboard, created, updated, status)"
                       " VALUES (?, '{}', ?, 0, 0, 'active')",
                       [(kind, lineup.scoreboard(kind)) for kind, lineup in games])
        db.execute("INSERT INTO games (kind, options, created, updated, status) VALUES ('t', '{}', 0, 0, 'active')")
        db.commit()
        db.close()
        with Store(path) as store:
            assert [(g.kind, g.lineup) for g in store.games()][::-1] == games + [("t", Lineup())]


@pytest.mark.parametrize("stored", ["[", '{"opponent": 3, "level": null}', '{"opponent": "cpu"}', "null"])
def test_a_lineup_that_does_not_read_makes_only_its_game_unreadable(tmp_path, stored):
    with Store(tmp_path / FILENAME) as store:
        damaged = store.create_game("uttt", {}, lineup=Lineup("cpu", "hard"))
        other = store.create_game("uttt", {}, lineup=Lineup("cpu", "easy"))
        store._db.execute("UPDATE games SET lineup = ? WHERE id = ?", (stored, damaged))
        records = {g.id: g for g in store.games()}
        assert damaged not in records and [d.id for d in store.damaged()] == [damaged]
        assert records[other].lineup == Lineup("cpu", "easy")
        store._db.execute("UPDATE games SET crc = ? WHERE id = ?", (_sealed(store, damaged), damaged))
        assert "lineup" in store.damaged()[0].problem  # a check over it, as if mended by hand


def _sealed(store, game_id):
    """The check a games row's fields as they stand now would have."""
    from companion.migrations import GAME_FIELDS, game_crc

    return game_crc(*store._db.execute(f"SELECT {', '.join(GAME_FIELDS)} FROM games WHERE id = ?",
                                       (game_id,)).fetchone())


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.integers(1, 3), st.just(-1), st.just(-2)), max_size=12), st.randoms(use_true_random=False))
def test_a_turn_of_several_actions_is_still_one_turn_after_a_restart(steps, rng):
    """Turns entered (n > 0 actions at once) and undone (-k turns), then the game resumed:
    the same turns, so Undo takes back what was entered together."""
    from companion.play.session import Session

    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / FILENAME) as store:
            session = Session.start(store, "uttt")
            for n in steps:
                if n > 0:
                    moves = []
                    state = session.state
                    for _ in range(n):
                        if state.is_over():
                            break
                        moves.append(rng.choice(state.legal_actions()))
                        state = state.apply(moves[-1])
                    session.play_all(moves)
                else:
                    for _ in range(-n):
                        session.undo(len(session.actions) - session.last_turn_start())
            resumed = Session.resume(store, session.id)
            assert resumed.turn_starts == session.turn_starts and resumed.actions == session.actions
            assert all(b > a for a, b in zip(session.turn_starts, session.turn_starts[1:]))


@pytest.mark.parametrize("entry", ["'x'", "-1", "99", "1.5"])
def test_a_changed_turn_number_is_seen_and_a_mended_one_is_a_turn_of_its_own(tmp_path, entry):
    from companion.play.session import Session

    with Store(tmp_path / FILENAME) as store:
        session = Session.start(store, "uttt")
        session.play_all(session.state.legal_actions()[:1])
        cell = session.state.legal_actions()[0]
        session.play_all([cell, session.state.apply(cell).legal_actions()[0]])
        assert session.turn_starts == [0, 1]
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute(f"UPDATE actions SET entry = {entry} WHERE seq = 2")
    db.commit()
    with Store(tmp_path / FILENAME) as store, pytest.raises(UnreadableGame, match="check does not match"):
        Session.resume(store, session.id)  # changed behind the row's check: reported
    db.execute("UPDATE actions SET crc = NULL WHERE seq = 2")  # no check: damage too
    db.commit()
    with Store(tmp_path / FILENAME) as store, pytest.raises(UnreadableGame, match="check does not match"):
        Session.resume(store, session.id)
    (text,), = db.execute("SELECT action FROM actions WHERE seq = 2")
    db.execute("UPDATE actions SET crc = ? WHERE seq = 2", (action_crc(session.id, 2, db.execute(
        "SELECT entry FROM actions WHERE seq = 2").fetchone()[0], text),))  # mended by hand
    db.commit()
    db.close()
    with Store(tmp_path / FILENAME) as store:
        assert Session.resume(store, session.id).turn_starts == [0, 1, 2]


@pytest.mark.parametrize("where", ["action", "options", "players", "lineup"])
def test_a_bit_flipped_in_a_stored_move_or_a_games_fields_is_reported_not_played(tmp_path, where):
    """Still JSON and perhaps a legal move: only the row's check can tell."""
    from companion.play.session import Session

    with Store(tmp_path / FILENAME) as store:
        session = Session.start(store, "kuku", {"first": 0}, players=["Aki", "Ben"], lineup=Lineup("cpu", "hard"))
        session.play(session.state.legal_actions()[0])
        other = Session.start(store, "uttt")
    db = sqlite3.connect(tmp_path / FILENAME)
    table, column, key = ("actions", "action", "game_id") if where == "action" else ("games", where, "id")
    text, = db.execute(f"SELECT {column} FROM {table} WHERE {key} = ?", (session.id,)).fetchone()
    at = max(i for i, ch in enumerate(text) if ch.isalnum())  # one bit of a value's letter or digit
    flipped = text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1:]
    json.loads(flipped)
    db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (flipped, session.id))
    db.commit()
    db.close()
    with Store(tmp_path / FILENAME) as store:
        with pytest.raises(UnreadableGame, match="check does not match"):
            Session.resume(store, session.id)
        assert Session.resume(store, other.id).actions == []  # the other game is untouched
