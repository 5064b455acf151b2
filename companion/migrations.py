"""The store's schema and its history: `MIGRATIONS`, one step per schema version.

A step is SQL (statements split at ";") or a function of the open connection, for a
change SQL cannot spell.  `companion.store` runs the steps an older database lacks, all
in one transaction, then checks the tables are `SCHEMA`.  A step is history: it keeps
its own copy of every format it converts, never the games' current code.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable

# step 4: one shape of action --------------------------------------------------------

# Naval War's old one-key objects: key -> (type, the field its value goes in)
NAVALWAR_KEYS = {"first": ("first", "seat"), "ship": ("deal", "ship"), "drew": ("draw", "card"),
                 "die": ("die", "value"), "discard": ("discard", "card"), "strike": ("strike", "ship"),
                 "attack": ("attack", "fleet"), "sink": ("sink", "ship")}
NAVALWAR_WORDS = {"no_red": {"type": "no_red"}, "draw": {"type": "choose", "turn": "draw"},
                  "air_strike": {"type": "choose", "turn": "air_strike"}}


def uttt_action(old):
    """A cell number as `{"type": "move", "cell": n}`; None for anything else."""
    return {"type": "move", "cell": old} if type(old) is int else None


def navalwar_action(old):
    """An old Naval War action in its new shape; None if it is not one (already new, or
    a damaged row, which stays as it is for the game to be reported unreadable)."""
    if isinstance(old, str):
        return NAVALWAR_WORDS.get(old)
    if not isinstance(old, dict) or "type" in old:
        return None
    if "play" in old:  # a card and its target: `{"play": key, "ship": id, "salvo": i}`, ...
        return {"type": "play", "card": old["play"], **{k: v for k, v in old.items() if k != "play"}}
    if len(old) == 1:
        (key, value), = old.items()
        if key in NAVALWAR_KEYS:
            kind, name = NAVALWAR_KEYS[key]
            return {"type": kind, name: value}
    return None


UPGRADES = {"uttt": uttt_action, "navalwar": navalwar_action}


def upgrade_actions(db: sqlite3.Connection) -> None:
    """Rewrite every stored action of the games in `UPGRADES` that is in the old shape."""
    for kind, upgrade in UPGRADES.items():
        rows = db.execute("SELECT a.game_id, a.seq, a.action FROM actions a JOIN games g ON g.id = a.game_id"
                          " WHERE g.kind = ?", (kind,)).fetchall()
        changed = []
        for game_id, seq, text in rows:
            if not isinstance(text, str):  # not UTF-8 (the store reads it as bytes): damage
                continue
            try:
                new = upgrade(json.loads(text))
            except (TypeError, ValueError, RecursionError):  # damage: left for the reader to report
                continue
            if new is not None:
                changed.append((json.dumps(new, ensure_ascii=False, separators=(",", ":")), game_id, seq))
        db.executemany("UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?", changed)


# step 5: turns, and a check on every row ---------------------------------------------

def _crc(*fields) -> int:
    return zlib.crc32(" ".join(map(str, fields)).encode("utf-8", "surrogatepass"))


def action_crc(game_id, seq, entry, action) -> int:
    """The check of an actions row: CRC-32 of its fields, so a bit flipped on the card in a
    stored move (still JSON, perhaps another legal move) is seen when the game is read."""
    return _crc(game_id, seq, entry, action)


def game_crc_5(game_id, kind, options, players, scoreboard, lineup) -> int:
    """Step 5's check of a games row: the fields fixed when the game starts."""
    return _crc(game_id, kind, options, players, scoreboard, lineup)


def turns_and_checks(db: sqlite3.Connection) -> None:
    """Each action's turn (the number of the turn's first action; NULL: a turn of its own,
    as every older row is), so Undo takes back a turn of several actions whole after a
    restart; and each row's check (NULL: unchecked, e.g. a row mended by hand).  Rows that
    are not text (damage) keep no check: they are reported unreadable as before."""
    db.execute("ALTER TABLE actions ADD COLUMN entry INTEGER")
    db.execute("ALTER TABLE actions ADD COLUMN crc INTEGER")
    db.execute("ALTER TABLE games ADD COLUMN crc INTEGER")
    rows = db.execute("SELECT game_id, seq, action FROM actions").fetchall()
    db.executemany("UPDATE actions SET crc = ? WHERE game_id = ? AND seq = ?",
                   [(action_crc(g, s, None, a), g, s) for g, s, a in rows if isinstance(a, str)])
    rows = db.execute("SELECT id, kind, options, players, scoreboard, lineup FROM games").fetchall()
    readable = [row for row in rows if all(isinstance(v, (str, int, type(None))) for v in row)]
    db.executemany("UPDATE games SET crc = ? WHERE id = ?", [(game_crc_5(*row), row[0]) for row in readable])


# step 6: every field of a game under its check -------------------------------------

GAME_FIELDS_6 = ("id", "kind", "options", "players", "scoreboard", "created", "updated", "status",
                 "outcome", "lineup", "moves", "revision")  # in the order game_crc_6 takes them
TYPES_6 = [int, str, str, str, (str, type(None)), (int, float), (int, float), str, (str, type(None)),
           str, int, int]


def _fields_crc(fields: list, types: list, reals: tuple) -> int | None:
    """CRC-32 of the fields as JSON (those at `reals` as floats, as SQLite's REAL gives them
    back); None if a field is not of its type (damage)."""
    if not all(type(v) is not bool and isinstance(v, k) for v, k in zip(fields, types)):
        return None
    fields = [float(v) if i in reals and v is not None else v for i, v in enumerate(fields)]
    text = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


def game_crc_6(*fields) -> int | None:
    """Step 6's check of a games row: CRC-32 of every field, so a bit flipped in an outcome,
    a status or a count is seen before any game code reads it."""
    return _fields_crc(list(fields), TYPES_6, (5, 6))


def claim_crc(game_id, seat, key_hash, last_seq, claimed) -> int:
    """The check of a seat_claims row: a flipped seat or game would hand a phone another
    seat's secrets."""
    return _crc(game_id, seat, key_hash, last_seq, claimed)


def calibration_crc(name, created, data) -> int:
    """The check of a calibrations row: a flipped digit in a scale weighs every piece wrong."""
    return _crc(name, created, data)


def checked_games(db: sqlite3.Connection) -> None:
    """Each game's number of moves (so a lost last move is seen) and a revision (one more
    with every write, so a stale copy of a game cannot write over another's moves), and a
    check over every field, status and outcome too.  A row whose step-5 check fails keeps
    it, and so stays reported: a step never turns damage into a valid check."""
    db.execute("ALTER TABLE games ADD COLUMN moves INTEGER")
    db.execute("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE games SET moves = (SELECT count(*) FROM actions WHERE game_id = games.id)")
    rows = db.execute(f"SELECT {', '.join(GAME_FIELDS_6)}, crc FROM games").fetchall()
    sealed = []
    for row in rows:
        game_id, kind, options, players, scoreboard, *_, lineup, _moves, _revision, crc = row
        fixed = (game_id, kind, options, players, scoreboard, lineup)
        if all(isinstance(v, (str, int, type(None))) for v in fixed) and crc == game_crc_5(*fixed):
            new = game_crc_6(*row[:-1])
            if new is not None:
                sealed.append((new, game_id))
    db.executemany("UPDATE games SET crc = ? WHERE id = ?", sealed)
    db.execute("ALTER TABLE seat_claims ADD COLUMN crc INTEGER")
    rows = db.execute("SELECT game_id, seat, key_hash, last_seq, claimed FROM seat_claims").fetchall()
    db.executemany("UPDATE seat_claims SET crc = ? WHERE game_id = ? AND seat = ?",
                   [(claim_crc(*row), row[0], row[1]) for row in rows])
    db.execute("ALTER TABLE calibrations ADD COLUMN crc INTEGER")
    rows = db.execute("SELECT name, created, data FROM calibrations").fetchall()
    db.executemany("UPDATE calibrations SET crc = ? WHERE name = ?",
                   [(calibration_crc(*row), row[0]) for row in rows])


# step 7: the order of writes, and when each was by the boot's clock ------------------

GAME_FIELDS = GAME_FIELDS_6 + ("written", "boot", "uptime", "synced")  # in game_crc's order


def game_crc(*fields) -> int | None:
    """The check of a games row: CRC-32 of every field (`GAME_FIELDS`), the write's number
    and its moment too, so a flip can neither reorder Resume nor change an age unseen.
    None if a field is not of a type the store writes (damage)."""
    return _fields_crc(list(fields), TYPES_6 + [int, (str, type(None)), (int, float, type(None)),
                                                (int, type(None))], (5, 6, 14))


def write_order(db: sqlite3.Connection) -> None:
    """Each game's place in the order of writes (`written`: one more than the largest with
    every write), so the newest game is the one written last, whatever the clock said (a
    Pi without a real-time clock is stepped back or forward by NTP after it boots); and
    each write's boot id, boot clock and whether NTP had set the clock (`companion.clock`),
    NULL for the rows written before (not known).  Older games are numbered in the order
    their clock times give, the best there is.  Rows whose step-6 check passes get the new
    check; a damaged row keeps its old one, and so stays reported.  The calibrations are
    written again in the order of their times, so the newest is the one with the largest
    rowid from now on (`save_calibration` writes a new row each time)."""
    db.execute("ALTER TABLE games ADD COLUMN written INTEGER NOT NULL DEFAULT 0")
    for column in ("boot TEXT", "uptime REAL", "synced INTEGER"):
        db.execute(f"ALTER TABLE games ADD COLUMN {column}")
    rows = db.execute(f"SELECT {', '.join(GAME_FIELDS_6)}, crc FROM games ORDER BY updated, id").fetchall()
    numbered = []
    for written, row in enumerate(rows, start=1):
        fields, crc = row[:-1], row[-1]
        sound = crc is not None and crc == game_crc_6(*fields)
        numbered.append((written, game_crc(*fields, written, None, None, None) if sound else crc, row[0]))
    db.executemany("UPDATE games SET written = ?, crc = ? WHERE id = ?", numbered)
    db.execute("CREATE TEMP TABLE by_time AS SELECT * FROM calibrations ORDER BY created, rowid")
    db.execute("DELETE FROM calibrations")  # copied in SQL: a damaged value keeps its bytes and type
    db.execute("INSERT INTO calibrations SELECT * FROM by_time ORDER BY rowid")
    db.execute("DROP TABLE by_time")


MIGRATIONS: list[str | Callable[[sqlite3.Connection], None]] = [  # SQL, or a step in Python
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        options TEXT NOT NULL,
        players TEXT NOT NULL DEFAULT '[]',
        scoreboard TEXT,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'abandoned')),
        outcome TEXT
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        action TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX games_by_status ON games(status, updated);
    CREATE TABLE calibrations (
        name TEXT PRIMARY KEY,
        created REAL NOT NULL,
        data TEXT NOT NULL
    );
    """,
    # 2: who plays is data (before, it was parsed back out of the scoreboard string that
    # the games wrote as "<kind>:cpu:<level>", "<kind>:tracker" or "<kind>:2p")
    """
    ALTER TABLE games ADD COLUMN lineup TEXT NOT NULL DEFAULT '{"opponent":"2p","level":null}';
    UPDATE games SET lineup = json_object('opponent', 'cpu', 'level', substr(scoreboard, length(kind) + 6))
        WHERE substr(scoreboard, 1, length(kind) + 5) = kind || ':cpu:' AND length(scoreboard) > length(kind) + 5;
    UPDATE games SET lineup = '{"opponent":"tracker","level":null}' WHERE scoreboard = kind || ':tracker'
    """,
    # 3: the phones' seat claims (companion/seats/claims.py): a device key's hash per seat
    """
    CREATE TABLE IF NOT EXISTS seat_claims (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        last_seq INTEGER NOT NULL DEFAULT 0,
        claimed REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    """,
    # 4: one shape of action in every game, `{"type": kind, ...}`: Ultimate Tic-Tac-Toe's
    # were cell numbers, Naval War's objects named by their one key (or bare strings)
    upgrade_actions,
    # 5: each action's turn, and a check (CRC-32) on every row of a game
    turns_and_checks,
    # 6: every field of a game under its check (status and outcome too), its number of
    # moves and its revision; a check on every seat claim and calibration
    checked_games,
    # 7: the order of writes (the newest game is the one written last, not the one whose
    # clock time is largest) and each write's boot clock, for ages across a clock step
    write_order,
]

SCHEMA = {  # table: columns, checked after migrating (a missing table is damage)
    "games": ["id", "kind", "options", "players", "scoreboard", "created", "updated", "status",
              "outcome", "lineup", "crc", "moves", "revision", "written", "boot", "uptime", "synced"],
    "actions": ["game_id", "seq", "action", "at", "entry", "crc"],
    "calibrations": ["name", "created", "data", "crc"],
    "seat_claims": ["game_id", "seat", "key_hash", "last_seq", "claimed", "crc"],
}
