"""SQLite: every game's options and action log, outcomes, and named calibrations.

The action log is the truth (DESIGN.md principle 2).  Each write is its own
transaction, committed with WAL and synchronous=FULL before the call returns,
so an action the screen shows has already survived a power cut.  Scores are
not stored twice: they are counted from finished games, so a game counts once.
A database that cannot be opened is renamed aside, never overwritten.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from companion.errors import CompanionError

FILENAME = "companion.db"

MIGRATIONS = [
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
]


class StoreError(CompanionError):
    """The database could not be used."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    kind: str
    options: dict
    players: list
    scoreboard: str | None
    created: float
    updated: float
    status: str
    outcome: dict | None


class Store:
    """One SQLite database.  Use from one thread; close it (or use `with`)."""

    def __init__(self, path: str | Path, clock=time.time):
        self.path = Path(path)
        self.clock = clock
        self.set_aside: Path | None = None  # where an unreadable database was moved
        self.problem: str | None = None  # what to tell the people about it
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            self.set_aside = self._move_aside(exc)
            self._db = self._open()

    @classmethod
    def in_dir(cls, data_dir: str | Path, **kw) -> "Store":
        return cls(Path(data_dir) / FILENAME, **kw)

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check}")
            self._migrate(db)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self, exc: Exception) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(self.path) + suffix)
            if part.exists():
                part.rename(Path(str(target) + suffix))
        self.problem = f"{self.path} could not be read ({exc}); it was moved to {target}"
        return target

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} was written by a newer companion (schema {version}); update it"
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            with self._transaction(db):
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={number}")

    @staticmethod
    def _transaction(db: sqlite3.Connection):
        class Tx:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, *rest):
                db.execute("COMMIT" if kind is None else "ROLLBACK")

        return Tx()

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    # games -------------------------------------------------------------------

    def create_game(self, kind: str, options: dict, players: Iterable = (),
                    scoreboard: str | None = None) -> int:
        now = self.clock()
        cursor = self._db.execute(
            "INSERT INTO games (kind, options, players, scoreboard, created, updated, status)"
            " VALUES (?, ?, ?, ?, ?, ?, 'active')",
            (kind, _dump(options), _dump(list(players)), scoreboard, now, now),
        )
        return cursor.lastrowid

    def game(self, game_id: int) -> GameRecord:
        row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game number {game_id} in {self.path}")
        return _record(row)

    def games(self, status: str | None = None, kind: str | None = None) -> list[GameRecord]:
        """Games, most recently played first."""
        rows = self._db.execute(
            "SELECT * FROM games WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR kind = ?2)"
            " ORDER BY updated DESC, id DESC",
            (status, kind),
        )
        return [_record(row) for row in rows]

    def actions(self, game_id: int) -> list[Any]:
        rows = self._db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [json.loads(action) for (action,) in rows]

    def append(self, game_id: int, seq: int, action: Any, outcome: dict | None = None) -> None:
        """Durably add action number `seq` (0-based); with `outcome` the game is finished."""
        self.extend(game_id, seq, [action], outcome)

    def extend(self, game_id: int, seq: int, actions: list, outcome: dict | None = None) -> None:
        """Durably add actions numbered from `seq`, all or none (one transaction)."""
        now = self.clock()
        with self._transaction(self._db):
            self._db.executemany(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                [(game_id, seq + i, _dump(action), now) for i, action in enumerate(actions)],
            )
            self._set_status(game_id, now, outcome)

    def truncate(self, game_id: int, keep: int, outcome: dict | None = None) -> None:
        """Keep only the first `keep` actions (undo); the game is active again unless `outcome`."""
        with self._transaction(self._db):
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            self._set_status(game_id, self.clock(), outcome)

    def abandon(self, game_id: int) -> None:
        self._db.execute(
            "UPDATE games SET status = 'abandoned', updated = ? WHERE id = ? AND status = 'active'",
            (self.clock(), game_id),
        )

    def _set_status(self, game_id: int, now: float, outcome: dict | None) -> None:
        self._db.execute(
            "UPDATE games SET updated = ?, status = ?, outcome = ? WHERE id = ?",
            (now, "finished" if outcome else "active", _dump(outcome) if outcome else None,
             game_id),
        )

    def results(self, scoreboard: str) -> list[tuple[list, dict]]:
        """(players, outcome) of every finished game on a scoreboard, oldest first."""
        rows = self._db.execute(
            "SELECT players, outcome FROM games WHERE scoreboard = ? AND status = 'finished'"
            " ORDER BY id",
            (scoreboard,),
        )
        return [(json.loads(players), json.loads(outcome)) for players, outcome in rows]

    # calibrations ------------------------------------------------------------

    def save_calibration(self, name: str, data: dict) -> None:
        self._db.execute(
            "INSERT INTO calibrations (name, created, data) VALUES (?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET created = excluded.created, data = excluded.data",
            (name, self.clock(), _dump(data)),
        )

    def calibration(self, name: str | None = None) -> dict | None:
        """A named calibration, or the newest when no name is given."""
        row = self._db.execute(
            "SELECT data FROM calibrations WHERE (?1 IS NULL OR name = ?1)"
            " ORDER BY created DESC LIMIT 1",
            (name,),
        ).fetchone()
        return json.loads(row[0]) if row else None

    def calibration_names(self) -> list[str]:
        return [n for (n,) in self._db.execute("SELECT name FROM calibrations ORDER BY created")]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _record(row) -> GameRecord:
    (id_, kind, options, players, scoreboard, created, updated, status, outcome) = row
    return GameRecord(id_, kind, json.loads(options), json.loads(players), scoreboard,
                      created, updated, status, json.loads(outcome) if outcome else None)
