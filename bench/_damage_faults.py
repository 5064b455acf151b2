"""Every bit of every column of every row: one bit flipped in a real database, opened by
the app's own code paths, per column (issue 26).

The database holds a finished and an unfinished game of each of the five games, played by
their rules at random.  A trial copies it, flips one bit of one stored value (a TEXT's
UTF-8 bytes, an INTEGER's 64 bits, a REAL's IEEE 754 bits; CHECK constraints are passed
by as a flip on disk passes them; a flip that would give two rows one key, or a NULL,
cannot be written and is counted `unstaged`) and opens it as the app does: the start
(`Store`), Resume (`unfinished`, each game's controller and its table display), the phones
(each seat's own display and a watcher's, rendered in Japanese and English), History
(each finished game's row, then its review: every state's table view), every scoreboard's
tally, the learning report, the phones' seat claims and the calibration.  Per column:

- `silent_changes`: a game not reported shows other than before (listing, display, History
  row, review, a tally or the report counting other results than the unreported games');
- `crashes`: an error that is not a `StoreError` from any path;
- `reported`: a game was named as damaged (and every other game shown as before), a phone's
  claim refused (it pairs again) or the calibration named as damaged and not used;
- `unread`: nothing shown changed and nothing was reported (a value no screen reads).

`figures(count, seed)` samples up to `count` bits per column (all of them when there are
fewer); `--full` in bench/faults.py gives every bit.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sqlite3
import struct
import tempfile
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from companion import i18n  # noqa: E402
from companion.play import registry  # noqa: E402
from companion.play.controller import TABLE  # noqa: E402
from companion.play.review import Review  # noqa: E402
from companion.play.session import Session, tally, unfinished  # noqa: E402
from companion.store import FILENAME, Lineup, Store, StoreError, UnreadableGame  # noqa: E402

KINDS = ("uttt", "kuku", "battleship", "navalwar", "gunkan")
LINEUPS = {"uttt": Lineup("cpu", "hard"), "kuku": Lineup("cpu", "easy"), "battleship": Lineup("2p"),
           "navalwar": Lineup("2p"), "gunkan": Lineup("2p")}
MAX_MOVES = 3000
TABLES = {"games": "id", "actions": "game_id, seq", "seat_claims": "game_id, seat",
          "calibrations": "name"}  # every table the app reads: its keys
CALIBRATION = {"tare": [8123456, -2345678], "scale": [412.5, 398.25], "known_g": 100.0}


# the database ------------------------------------------------------------------------

def build(path: Path, seed: int) -> None:
    """A finished and an unfinished game of each kind, played at random by the rules."""
    from companion.seats.claims import Claims

    rng = random.Random(seed)
    with Store(path) as store:
        for kind in KINDS:
            for finish in (True, False):
                _play(store, kind, finish, rng)
        claims = Claims(store)
        for game in store.games("active"):  # a phone on each seat of the unfinished games
            for seat in range(len(game.players)):
                claims.claim(game.id, seat)
                claims.advance(claims.of_game(game.id)[seat].key_hash, 3 + seat)
        store.save_calibration("default", CALIBRATION)


def _play(store: Store, kind: str, finish: bool, rng: random.Random) -> None:
    game = registry.get(kind)
    lineup = LINEUPS[kind]
    for _attempt in range(20):
        options = rng.choice(game.sample_options)
        players = ["cpu" if lineup.opponent == "cpu" and seat else f"p{seat}" for seat in range(2)]
        if kind == "navalwar":
            players = [f"p{seat}" for seat in range(game.options(options)["players"])]
        state = game.new_state(game.options(options))
        actions = []
        stop = MAX_MOVES if finish else rng.randint(4, 24)
        while not state.is_over() and len(actions) < stop:
            legal = state.legal_actions()
            if not legal:
                break
            if not finish:  # an unfinished game takes the moves that do not end it
                legal = [a for a in legal if not state.apply(a).is_over()] or legal
            actions.append(rng.choice(legal))
            state = state.apply(actions[-1])
        if state.is_over() == finish:
            session = Session.start(store, kind, options, players=players,
                                    scoreboard=lineup.scoreboard(kind), lineup=lineup)
            for at in range(0, len(actions), 3):  # turns of up to three actions
                session.play_all(actions[at:at + 3])
            return
    raise RuntimeError(f"no {'finished' if finish else 'unfinished'} {kind} game in 20 tries")


# what the app shows --------------------------------------------------------------------

class _App:
    """What History's words need of the app (`companion.ui.app.CompanionApp`)."""
    lang = "en"

    def tr(self, key, lang=None, **values):
        return i18n.translate(key, lang or self.lang, **values)

    def game_title(self, kind):
        return registry.get(kind).title["en"]


def _controller(store, session):
    from companion.games.battleship.controller import BattleshipController
    from companion.games.gunkan.controller import GunkanController
    from companion.games.kuku.controller import KukuController
    from companion.games.navalwar.controller import NavalWarController
    from companion.games.uttt.controller import UtttController

    classes = {"uttt": UtttController, "kuku": KukuController, "battleship": BattleshipController,
               "navalwar": NavalWarController, "gunkan": GunkanController}
    return classes[session.record.kind].open(store, session)


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False)


def observe(path: Path) -> dict:
    """Everything the app's paths show of the database, by game, and who was reported.
    {"games": {id: {path: text}}, "reported": set, "crashes": [text], "tallies", "report"}"""
    from companion.games.kuku.report import store_report
    from companion.ui.history import row_text

    seen = {"games": defaultdict(dict), "reported": set(), "damaged": set(), "crashes": [], "tallies": {},
            "report": None, "set_aside": False, "claims": set(), "calibration": None,
            "damaged_calibrations": []}

    def guard(where, work):
        try:
            return work()
        except UnreadableGame as exc:
            seen["reported"].update(map(int, re.findall(r"game (\d+)", str(exc))[:1]))
        except StoreError as exc:
            seen["crashes"].append(f"{where}: refused: {exc}")  # a refusal that names no game
        except Exception as exc:  # noqa: BLE001  (a crash is what is counted)
            seen["crashes"].append(f"{where}: {type(exc).__name__}: {exc}")
        return None

    store = guard("start", lambda: Store(path))
    if store is None:
        return seen
    with store:
        if store.set_aside is not None:
            seen["set_aside"] = True
            return seen
        app = _App()
        sessions, problems = guard("resume", lambda: unfinished(store)) or ([], [])
        for problem in problems:
            seen["reported"].update(map(int, re.findall(r"game (\d+)", str(problem))[:1]))
        seen["damaged"] = {damaged.id for damaged in store.damaged()}
        seen["reported"] |= seen["damaged"]
        for session in sessions:
            shown = seen["games"][session.id]
            shown["resume"] = _json([session.record.kind, session.actions, session.turn_starts])
            shown["display"] = guard(f"display {session.id}", lambda s=session: _json(
                _controller(store, s).display(TABLE)))
            shown["phones"] = guard(f"phones {session.id}", lambda s=session: _json(_phones(store, s)))
        for record in guard("history", lambda: store.games("finished")) or []:
            shown = seen["games"][record.id]
            shown["history"] = guard(f"history {record.id}", lambda r=record: row_text(app, r))

            def review(game_id=record.id):
                session = Session.resume(store, game_id)  # what a History row's tap opens
                shown_end = _controller(store, session).display(TABLE)
                return _json([shown_end, [s.view(None) for s in Review(session).states]])
            shown["review"] = guard(f"review {record.id}", review)
        for record in store.games():
            seen["games"][record.id]["record"] = _json(
                [record.kind, record.options, record.players, record.scoreboard, record.status,
                 record.outcome, record.lineup.to_json(), record.updated, record.created])
        seen["tallies"] = {board: guard(f"tally {board}", lambda b=board: _json(tally(store, b)))
                           for board in {LINEUPS[k].scoreboard(k) for k in KINDS}}
        seen["report"] = guard("report", lambda: _json(store_report(store)))
        seen["claims"] = guard("claims", lambda: _claims(store)) or set()
        seen["calibration"] = guard("calibration", lambda: _json(store.calibration("default")))
        seen["damaged_calibrations"] = guard("calibration", store.damaged_calibrations) or []
    return seen


def _phones(store, session) -> list:
    """What each seat's phone is sent (the room's snapshot: the seat's own display, in
    both languages) and what a watcher sees."""
    from companion.seats.room import render

    controller = _controller(store, session)
    readers = [*range(len(session.record.players)), TABLE]
    return [render(controller.display(who), lang) for who in readers for lang in ("ja", "en")]


def _claims(store) -> set:
    """Every claim a phone could act on: (game, seat, key hash, last message)."""
    from companion.seats.claims import Claims

    claims = Claims(store)
    ids = {row[0] for row in store._db.execute("SELECT DISTINCT game_id FROM seat_claims")}
    return {(c.game_id, c.seat, c.key_hash, c.last_seq) for g in ids for c in claims.of_game(g).values()}


def without(base: Path, games: frozenset, cache: dict) -> dict:
    """What the app shows of the healthy database with `games` taken out: what it must
    show of the others when those are reported."""
    if games not in cache:
        copy = base.parent.parent / "without" / FILENAME
        shutil.rmtree(copy.parent, ignore_errors=True)
        copy.parent.mkdir()
        shutil.copy(base, copy)
        db = sqlite3.connect(copy)
        marks = ", ".join("?" * len(games))
        db.execute(f"DELETE FROM actions WHERE game_id IN ({marks})", tuple(games))
        db.execute(f"DELETE FROM games WHERE id IN ({marks})", tuple(games))
        db.commit()
        db.close()
        cache[games] = observe(copy)
    return cache[games]


def verdict(baseline: dict, seen: dict, base: Path, cache: dict) -> tuple[str, str]:
    """("crash" | "silent" | "reported" | "set_aside" | "unread", why).  Every game not
    reported must show as it would were the reported games not there: those whose row is
    damaged (they count nowhere) or, for what replays the moves, every reported one (a game
    whose moves fail their check still counts its checked result)."""
    if seen["crashes"]:
        return "crash", seen["crashes"][0]
    if seen["set_aside"]:
        return "set_aside", "the whole database was set aside"
    if not seen["claims"] <= baseline["claims"]:
        return "silent", f"a phone holds a claim it did not: {sorted(seen['claims'] - baseline['claims'])[:1]}"
    if seen["calibration"] != baseline["calibration"] and (seen["calibration"] != "null"
                                                           or not seen["damaged_calibrations"]):
        return "silent", f"the calibration reads {seen['calibration']}, unreported"
    refused = seen["claims"] < baseline["claims"] or seen["damaged_calibrations"]
    reported = seen["reported"]
    if not reported:
        views = [baseline]
    else:
        views = [without(base, frozenset(seen["damaged"]), cache), without(base, frozenset(reported), cache)]
    for game_id in baseline["games"].keys() - reported:
        now = seen["games"].get(game_id, {})
        if not any(now == view["games"].get(game_id, {}) for view in views):
            parts = [p for p in baseline["games"][game_id] if now.get(p) != baseline["games"][game_id][p]]
            return "silent", f"game {game_id}'s {', '.join(parts) or 'listing'} changed, unreported"
    for game_id in seen["games"].keys() - baseline["games"].keys() - reported:
        return "silent", f"a game {game_id} appeared"
    if not any(seen["tallies"] == view["tallies"] for view in views):
        return "silent", "a tally counts other results than the unreported games'"
    if not any(seen["report"] == view["report"] for view in views):
        return "silent", "the learning report counts other games than the unreported ones"
    return ("reported", f"games {sorted(reported)}") if reported or refused else ("unread", "")


# flips --------------------------------------------------------------------------------

def units(path: Path) -> dict[str, list]:
    """{"table.column": [(key, bits)]}: every value's place and its number of bits."""
    db = sqlite3.connect(path)
    found = defaultdict(list)
    for table, key in TABLES.items():
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        db.text_factory = bytes
        for row in db.execute(f"SELECT {key}, {', '.join(columns)} FROM {table}"):
            nkey = len(key.split(","))
            keys = tuple(k.decode() if isinstance(k, bytes) else k for k in row[:nkey])
            for column, value in zip(columns, row[nkey:]):
                if value is not None:
                    found[f"{table}.{column}"].append((keys, _bits(value)))
        db.text_factory = str
    db.close()
    return found


def _bits(value) -> int:
    return len(value) * 8 if isinstance(value, bytes) else 64


def flip(path: Path, place: str, key: tuple, bit: int) -> bool:
    """Flip one bit of one stored value; False if the result cannot be stored."""
    table, column = place.split(".")
    where = " AND ".join(f"{k.strip()} = ?" for k in TABLES[table].split(","))
    db = sqlite3.connect(path, isolation_level=None)
    db.text_factory = bytes
    try:
        db.execute("PRAGMA ignore_check_constraints=ON")
        (value,), = db.execute(f"SELECT {column} FROM {table} WHERE {where}", key).fetchall()
        if isinstance(value, bytes):
            data = bytearray(value)
            data[bit // 8] ^= 1 << (bit % 8)
            new, cast = bytes(data), "CAST(? AS TEXT)"
        elif isinstance(value, int):
            new, cast = struct.unpack("<q", struct.pack("<Q", (value & (2**64 - 1)) ^ (1 << bit)))[0], "?"
        else:
            new, cast = struct.unpack("<d", struct.pack("<Q", struct.unpack("<Q", struct.pack("<d", value))[0]
                                                            ^ (1 << bit)))[0], "?"
            if new != new:  # NaN: SQLite stores no NaN
                return False
        db.execute(f"UPDATE {table} SET {column} = {cast} WHERE {where}", (new, *key))
        return True
    except sqlite3.IntegrityError:  # two rows with one key, or a NULL where none may be
        return False
    finally:
        db.close()


def figures(count: int, seed: int, full: bool = False) -> dict[str, dict]:
    """Per column: tried, silent_changes, crashes, reported, unread, unstaged, set_aside, and
    accepted_wrongly (silent + crashes) with the first failure."""
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="damage-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    try:
        base = work / "base" / FILENAME
        base.parent.mkdir()
        build(base, seed)
        with Store(base):
            pass  # checkpointed: the file alone holds it
        baseline = observe(base)
        if baseline["crashes"] or baseline["reported"]:
            raise RuntimeError(f"the healthy database: {baseline['crashes'][:3]} {baseline['reported']}")
        result, cache = {}, {}
        for place, values in sorted(units(base).items()):
            every = [(key, bit) for key, bits in values for bit in range(bits)]
            chosen = every if full or len(every) <= count else rng.sample(every, count)
            row = {"bits": len(every), "tried": 0, "silent_changes": 0, "crashes": 0, "reported": 0,
                   "unread": 0, "unstaged": 0, "set_aside": 0}
            for key, bit in chosen:
                trial = work / "trial"
                shutil.rmtree(trial, ignore_errors=True)
                trial.mkdir()
                shutil.copy(base, trial / FILENAME)
                if not flip(trial / FILENAME, place, key, bit):
                    row["unstaged"] += 1
                    continue
                row["tried"] += 1
                outcome, why = verdict(baseline, observe(trial / FILENAME), base, cache)
                name = {"silent": "silent_changes", "crash": "crashes"}.get(outcome, outcome)
                row[name] += 1
                if outcome in ("silent", "crash"):
                    row.setdefault("first_failure", f"{place} {key} bit {bit}: {why}")
            row["accepted_wrongly"] = row["silent_changes"] + row["crashes"]
            result[place] = row
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)
