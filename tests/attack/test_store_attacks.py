"""Damaged databases, locks held by Debian's sqlite3 shell, simultaneous starts, a second
instance, a stale copy, a full or read-only disk: each ends with every game intact and a
clear StoreError, never a crash or a healthy database set aside (bench/_store_faults.py)."""

import random
import sqlite3
import time

import pytest

import _store_faults as faults
from companion.play.session import Session, unfinished
from companion.store import FILENAME, MOVE_WAIT_S, Store, StoreBusy, StoreUnwritable


def _attack(cases, name):
    try:
        problem = faults.run(cases, name, random.Random(name))
    except faults.Unavailable as exc:
        pytest.skip(str(exc))
    assert problem is None, problem


@pytest.mark.parametrize("name", sorted(faults.DAMAGE))
def test_damaged_database(name):
    _attack(faults.DAMAGE, name)


@pytest.mark.parametrize("name", sorted(faults.LOCKS))
def test_lock_race_and_refusing_disk(name):
    _attack(faults.LOCKS, name)


def test_simultaneous_starts_many_times(tmp_path):
    for race in range(8):  # before the fix, 45 of 60 such races set the new database aside
        (tmp_path / str(race)).mkdir()
        assert faults._simultaneous_starts(tmp_path / str(race), None) is None


def test_one_malformed_row_hides_one_game_not_the_others(tmp_path):
    written = faults.healthy(tmp_path, random.Random(3))
    victim, *others = sorted(written)
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("UPDATE actions SET action = '{' WHERE game_id = ? AND seq = 1", (victim,))
    db.commit()
    db.close()
    with Store(tmp_path / FILENAME) as store:
        sessions, problems = unfinished(store)
        assert sorted(s.id for s in sessions) == others
        assert len(problems) == 1 and f"game {victim}" in str(problems[0])
        assert "kept in the database" in str(problems[0])
    db = sqlite3.connect(tmp_path / FILENAME)  # still on disk, untouched, for repair
    assert db.execute("SELECT action FROM actions WHERE game_id = ? AND seq = 1",
                      (victim,)).fetchone() == ("{",)


def test_a_full_disk_refuses_the_move_and_keeps_the_game(tmp_path):
    with Store(tmp_path / FILENAME) as store:
        session = Session.start(store, "uttt", players=["you", "friend"])
        store._db.execute("PRAGMA max_page_count=1")  # as large as it is: SQLite's SQLITE_FULL
        with pytest.raises(StoreUnwritable, match="disk holding .* is full"):
            for _ in range(5000):
                if session.state.is_over():
                    session = Session.start(store, "uttt", players=["you", "friend"])
                before = session.state
                session.play(session.state.legal_actions()[0])
        assert session.state == before  # the refused move was not adopted
        assert store.actions(session.id) == session.actions  # nor stored
        store._db.execute("PRAGMA max_page_count=1000000")
        session.play(session.state.legal_actions()[0])  # space again: play goes on
        assert store.actions(session.id) == session.actions


def test_a_move_under_a_lock_is_answered_within_move_wait(tmp_path):
    with Store(tmp_path / FILENAME) as store:  # the app's own timeouts
        session = Session.start(store, "uttt", players=["you", "friend"])
        try:
            with faults.locked_by_sqlite3(store.path, "write", MOVE_WAIT_S + 2):
                started = time.monotonic()
                with pytest.raises(StoreBusy):
                    session.play({"type": "move", "cell": 40})
                waited = time.monotonic() - started
        except faults.Unavailable as exc:
            pytest.skip(str(exc))
        assert MOVE_WAIT_S - 0.5 < waited < MOVE_WAIT_S + 1.5  # a tap never hangs for long
        assert session.actions == [] == store.actions(session.id)
