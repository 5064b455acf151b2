"""No real-time clock (issue 41, finding 3): a Pi boots with the last saved time and NTP
steps its clock later, forward or back.  The newest game is the one written last, and an
age is counted by the boot's clock (companion/clock.py), whatever the wall clock did."""

import json
import sqlite3

import pytest

from companion import clock
from companion.clock import Moment, elapsed, wall_time_of
from companion.games.uttt.controller import UtttController
from companion.migrations import MIGRATIONS
from companion.play.session import Session, unfinished
from companion.store import FILENAME, Store

T = 1_800_000_000.0
STEPS = [-3600, -86400, -365 * 86400, 3600, 365 * 86400]


class Machine:
    """`companion.clock.now` of a Pi: a boot clock, a wall clock that NTP may step."""

    def __init__(self, wall=T, synced=True):
        self.wall, self.uptime, self.boot, self.synced = wall, 20.0, "boot-1", synced

    def __call__(self):
        return Moment(self.wall, self.boot, self.uptime, self.synced)

    def wait(self, seconds):
        self.wall += seconds
        self.uptime += seconds


def _played(store, moves=1):
    session = Session.start(store, "uttt", players=["red", "blue"])
    for _ in range(moves):
        session.play(session.state.legal_actions()[0])
    return session


@pytest.mark.parametrize("step", STEPS)
def test_the_game_written_last_is_resumed_and_listed_first_whatever_the_clock_did(tmp_path, step):
    """Before, the games were ordered by their clock times: after a step back the UTTT
    screen opened the older unfinished game, and Resume listed it first."""
    machine = Machine()
    with Store(tmp_path / FILENAME, clock=lambda: machine.wall) as store:  # this machine's boot clock
        older = _played(store)
        machine.wait(60)
        machine.wall += step
        newer = _played(store, 2)
        assert [s.id for s in unfinished(store)[0]] == [newer.id, older.id]
        assert UtttController.open(store).session.id == newer.id
        machine.wait(60)
        older.play(older.state.legal_actions()[0])  # played again: now it is the newest
        assert UtttController.open(store).session.id == older.id
    with Store(tmp_path / FILENAME) as store:  # and so after a restart, by the real clock
        assert [g.id for g in store.games()] == [older.id, newer.id]


def test_a_discarded_game_brought_back_takes_its_place_again(tmp_path):
    machine = Machine()
    with Store(tmp_path / FILENAME, moment=machine) as store:
        first, second = _played(store), _played(store)
        machine.wall -= 3600
        record = store.game(second.id)
        store.abandon(second.id)
        _played(store)
        store.restore(record)
        assert [g.id for g in store.games("active")] == [3, second.id, first.id]
        assert store.game(second.id).moment == record.moment


def test_the_newest_calibration_is_the_one_saved_last(tmp_path):
    machine = Machine()
    with Store(tmp_path / FILENAME, clock=lambda: machine.wall) as store:
        store.save_calibration("home", {"scale": [1]})
        machine.wall -= 86400
        store.save_calibration("club", {"scale": [2]})
        assert store.calibration() == {"scale": [2]}
        machine.wall -= 86400
        store.save_calibration("home", {"scale": [3]})
        assert store.calibration() == {"scale": [3]} and store.calibration_names() == ["club", "home"]


def test_a_schema_6_database_keeps_its_order_its_checks_and_its_damage(tmp_path):
    """Migration 7 numbers the older games in the order of their times, gives every sound
    row the new check, leaves a damaged row reported, and the calibrations' newest as it was."""
    path = tmp_path / FILENAME
    db = sqlite3.connect(path)
    for step in MIGRATIONS[:6]:
        if callable(step):
            step(db)
        else:
            db.executescript(step)
    rows = [(1, "uttt", 300.0, "finished", '{"winner":0,"reason":"line"}'), (2, "uttt", 100.0, "active", None),
            (3, "uttt", 200.0, "active", None)]
    from companion.migrations import game_crc_6
    for game_id, kind, updated, status, outcome in rows:
        fields = (game_id, kind, "{}", '["red","blue"]', "uttt:2p", 1.0, updated, status, outcome,
                  '{"opponent":"2p","level":null}', 0, 0)
        db.execute("INSERT INTO games (id, kind, options, players, scoreboard, created, updated, status, outcome,"
                   " lineup, moves, revision, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (*fields, game_crc_6(*fields)))
    db.execute("UPDATE games SET players = '[\"red\",\"blve\"]' WHERE id = 3")  # a flipped bit
    for name, created in (("home", 5.0), ("club", 9.0)):
        db.execute("INSERT INTO calibrations (name, created, data, crc) VALUES (?, ?, '{}', 0)", (name, created))
    db.execute("PRAGMA user_version=6")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.schema_version == len(MIGRATIONS) == 7
        assert [(g.id, g.written) for g in store.games()] == [(1, 3), (2, 1)]
        assert [d.id for d in store.damaged()] == [3]
        assert store.calibration_names() == ["home", "club"]


# ages ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("step", STEPS)
def test_within_one_boot_an_age_is_the_boot_clocks(step):
    machine = Machine(synced=False)
    then = machine()
    machine.wait(15 * 60)
    machine.wall += step
    assert elapsed(then, machine()) == 15 * 60
    assert wall_time_of(then, machine()) == machine.wall - 15 * 60  # the end, by the set clock


def test_across_boots_an_age_is_the_wall_clocks_only_when_both_were_set():
    then = Moment(T, "boot-1", 500.0, True)
    assert elapsed(then, Moment(T + 7200, "boot-2", 30.0, True)) == 7200
    assert elapsed(then, Moment(T - 3600, "boot-2", 30.0, True)) is None  # ahead of now: unknown
    assert elapsed(then, Moment(T + 7200, "boot-2", 30.0, False)) is None  # now not set yet
    assert elapsed(Moment(T, "boot-1", 500.0, False), Moment(T + 7200, "boot-2", 30.0, True)) is None
    assert elapsed(Moment(T), Moment(T + 60, "boot-2", 30.0, None)) == 60  # nothing known: as before
    assert wall_time_of(then, Moment(T - 3600, "boot-2", 30.0, True)) == T  # the date as written
    assert wall_time_of(Moment(T, "boot-1", 500.0, False), Moment(T, "boot-2", 3.0, True)) is None


def test_this_machine_says_its_moment():
    first, second = clock.now(), clock.now()
    assert first.boot == second.boot and (first.boot is None or len(first.boot) == 36)
    assert first.uptime is None or 0 < first.uptime <= second.uptime
    assert first.synced in (True, False, None)
    assert Moment.from_json(json.loads(json.dumps(first.to_json()))) == first
    assert Moment.from_json(1.5) == Moment(1.5) and Moment.from_json({"wall": "x"}) is None
