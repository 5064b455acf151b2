"""Migration 4: the actions of games saved before every game's actions were `{"type": ...}`
(Ultimate Tic-Tac-Toe's cell numbers, Naval War's one-key objects and bare words) are
rewritten in one transaction, and those games resume and replay as they were played."""

import json
import random
import sqlite3

import pytest

from companion import migrations
from companion.migrations import MIGRATIONS, navalwar_action, uttt_action
from companion.play.registry import get
from companion.play.session import Session, unfinished
from companion.store import FILENAME, Store, StoreError

# How the schema-3 companion spelled each Naval War action (its moves.py docstring).
OLD_NAVALWAR = {"first": lambda a: {"first": a["seat"]}, "deal": lambda a: {"ship": a["ship"]},
                "draw": lambda a: {"drew": a["card"]}, "die": lambda a: {"die": a["value"]},
                "play": lambda a: {"play": a["card"], **{k: v for k, v in a.items() if k not in ("type", "card")}},
                "discard": lambda a: {"discard": a["card"]}, "no_red": lambda a: "no_red",
                "choose": lambda a: a["turn"], "strike": lambda a: {"strike": a["ship"]},
                "attack": lambda a: {"attack": a["fleet"]}, "sink": lambda a: {"sink": a["ship"]}}
OLD = {"uttt": lambda a: a["cell"], "navalwar": lambda a: OLD_NAVALWAR[a["type"]](a)}


def playout(kind, options, seed, steps=None):
    """A seeded random game (to its end unless `steps` is given): the log and the state."""
    game, rng = get(kind), random.Random(seed)
    state, log = game.new_state(game.options(options)), []
    while not state.is_over() and (steps is None or len(log) < steps):
        action = rng.choice(state.legal_actions())
        state = state.apply(action)
        log.append(action)
    return log, state


def old_database(path, games):
    """A schema-3 database holding `games` [(kind, options, log in the new shape, outcome)],
    with each action written as the old companion wrote it."""
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:3]:
        db.executescript(script)
    db.execute("PRAGMA user_version=3")
    for game_id, (kind, options, log, outcome) in enumerate(games, start=1):
        db.execute("INSERT INTO games (id, kind, options, players, scoreboard, created, updated, status, outcome)"
                   " VALUES (?, ?, ?, '[]', ?, 0, 0, ?, ?)",
                   (game_id, kind, json.dumps(options), f"{kind}:2p", "finished" if outcome else "active",
                    json.dumps(outcome) if outcome else None))
        old = [OLD[kind](a) if kind in OLD else a for a in log]
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, 0)",
                       [(game_id, seq, json.dumps(a, ensure_ascii=False, separators=(",", ":")))
                        for seq, a in enumerate(old)])
    db.commit()
    db.close()


@pytest.fixture
def saved(tmp_path):
    """Finished and unfinished Ultimate Tic-Tac-Toe and Naval War games, and a Kuku game."""
    nw = get("navalwar").sample_options[0]
    games = []
    plays = [("uttt", {}, 1, None), ("uttt", {}, 2, 17), ("navalwar", nw, 3, None), ("navalwar", nw, 4, 60),
             ("kuku", {}, 5, 9)]
    for kind, options, seed, steps in plays:
        log, state = playout(kind, options, seed, steps)
        outcome = state.outcome()
        games.append((kind, get(kind).options(options), log, outcome.to_json() if outcome else None))
    old_database(tmp_path / FILENAME, games)
    return tmp_path, games


def test_old_games_resume_and_replay_as_they_were_played(saved):
    path, games = saved
    assert games[0][3] and games[2][3]  # two finished games
    with Store(path / FILENAME) as store:
        assert store.schema_version == len(MIGRATIONS)
        for game_id, (kind, options, log, outcome) in enumerate(games, start=1):
            assert store.actions(game_id) == log, kind  # the new shape, entry for entry
            session = Session.resume(store, game_id)
            assert session.state == get(kind).replay(options, log)
            assert (session.state.outcome().to_json() if session.state.is_over() else None) == outcome
            assert [s.to_json() for s in session.history()][-1] == session.state.to_json()
        resumed, problems = unfinished(store)
        assert sorted(s.id for s in resumed) == [2, 4, 5] and problems == []
        for session in resumed:  # and the unfinished ones play on
            session.play(session.state.legal_actions()[0])


def test_the_migration_is_one_transaction(saved, monkeypatch):
    """A failure half-way leaves every row as the old companion wrote it, at schema 3."""
    path, _ = saved
    db = sqlite3.connect(path / FILENAME)
    before = db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    db.close()
    calls = []

    def failing(old):
        if len(calls) > 30:
            raise sqlite3.OperationalError("disk I/O error")
        calls.append(old)
        return navalwar_action(old)

    monkeypatch.setitem(migrations.UPGRADES, "navalwar", failing)
    with pytest.raises(StoreError, match="disk I/O error"):
        Store(path / FILENAME)
    db = sqlite3.connect(path / FILENAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3
    assert db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall() == before
    db.close()


@pytest.mark.parametrize("old,new", [
    (40, {"type": "move", "cell": 40}), (0, {"type": "move", "cell": 0}),
    ({"type": "move", "cell": 4}, None), (True, None), ("40", None), ({"cell": 4}, None)])
def test_uttt_spellings(old, new):
    assert uttt_action(old) == new


@pytest.mark.parametrize("old,new", [
    ({"first": 2}, {"type": "first", "seat": 2}), ({"ship": "ship-hood"}, {"type": "deal", "ship": "ship-hood"}),
    ({"drew": "hidden"}, {"type": "draw", "card": "hidden"}), ({"die": 3}, {"type": "die", "value": 3}),
    ({"play": "salvo-16-3", "ship": "ship-iowa"}, {"type": "play", "card": "salvo-16-3", "ship": "ship-iowa"}),
    ({"play": "additional_damage-2", "ship": "ship-roma", "salvo": 0},
     {"type": "play", "card": "additional_damage-2", "ship": "ship-roma", "salvo": 0}),
    ({"play": "smoke"}, {"type": "play", "card": "smoke"}),
    ({"discard": "repair"}, {"type": "discard", "card": "repair"}),
    ("no_red", {"type": "no_red"}), ("draw", {"type": "choose", "turn": "draw"}),
    ("air_strike", {"type": "choose", "turn": "air_strike"}),
    ({"strike": "ship-yamato"}, {"type": "strike", "ship": "ship-yamato"}),
    ({"attack": 1}, {"type": "attack", "fleet": 1}), ({"sink": "ship-kongo"}, {"type": "sink", "ship": "ship-kongo"}),
    ({"type": "no_red"}, None), ("junk", None), ({"die": 3, "x": 1}, None), (7, None), ([1], None)])
def test_navalwar_spellings(old, new):
    assert navalwar_action(old) == new


def test_damaged_rows_stay_as_they_were_and_only_their_game_is_unreadable(tmp_path):
    log, _ = playout("uttt", {}, 6, 5)
    old_database(tmp_path / FILENAME, [("uttt", {}, log, None), ("uttt", {}, log, None)])
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("UPDATE actions SET action = '{{not json' WHERE game_id = 1 AND seq = 2")
    db.execute("UPDATE actions SET action = CAST(X'5bce5d' AS TEXT) WHERE game_id = 1 AND seq = 3")
    db.commit()
    db.close()
    with Store(tmp_path / FILENAME) as store:
        resumed, problems = unfinished(store)
        assert [s.id for s in resumed] == [2] and len(problems) == 1
        kept = store._db.execute("SELECT action FROM actions WHERE game_id = 1 AND seq = 2").fetchone()
        assert kept == ("{{not json",)
