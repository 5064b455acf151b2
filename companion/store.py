"""SQLite: every game's options and action log, outcomes, and named calibrations.

The action log is the truth (docs/design.md, principle 2).  Each write is its own
transaction, committed with WAL and synchronous=FULL before the call returns,
so an action the screen shows has already survived a power cut.  Scores are
not stored twice: they are counted from finished games, so a game counts once.
A database that cannot be opened is renamed aside, never overwritten.

Split by job: opening the file safely and the data directory's lock are in
`companion.store_open`, what a stored game is and the row checks that quarantine a
damaged one in `companion.store_records`, the schema's history in `companion.migrations`,
the errors and their messages in `companion.store_errors`; callers import them all from here.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable

from companion.clock import Moment, now as moment_now
from companion.migrations import GAME_FIELDS, MIGRATIONS, action_crc, calibration_crc, game_crc  # noqa: F401
from companion.store_errors import (  # noqa: F401  (callers import the errors from here)
    DataDirInUse, OutOfSequence, StoreBusy, StoreError, StoreUnwritable,
    UnreadableGame, translate,
)
from companion.store_open import MOVE_WAIT_S, Opening, hold_data_dir, transaction  # noqa: F401
from companion.store_records import (  # noqa: F401  (callers import the records from here)
    SELECT_GAMES, Damaged, GameRecord, Lineup, dump, kind_name, load, read_game, status_for,
)

# What callers import from here: the store, and the records and errors of the modules beside it.
__all__ = ["BUSY_TIMEOUT_S", "FILENAME", "MIGRATIONS", "MOVE_WAIT_S", "DataDirInUse", "GameRecord", "Lineup",
           "OutOfSequence", "Store", "StoreBusy", "StoreError", "StoreUnwritable", "UnreadableGame"]

FILENAME = "companion.db"
BUSY_TIMEOUT_S = 15.0  # how long a lock held by another program (a backup, sqlite3) is waited for


class Store:
    """One SQLite database.  Use from one thread; close it (or use `with`).

    `Store.in_dir` also takes the data directory's lock: one companion per directory.
    `clock` (time.time) and `moment` (`companion.clock.now` with that clock) are for tests:
    each write keeps its moment, and its place in the order of writes (`written`), which
    alone says which game is the newest (a clock may be stepped back between two writes)."""

    def __init__(self, path: str | Path, clock=time.time, busy_timeout: float | None = None,
                 moment=None):
        self.path = Path(path)
        self.clock = clock
        self.moment = moment or (lambda: moment_now(self.clock))
        self.busy_timeout = BUSY_TIMEOUT_S if busy_timeout is None else busy_timeout
        self.set_aside: Path | None = None  # where an unreadable database was moved
        self.problem: str | None = None  # what to tell the people about it
        self.salvaged = 0  # how many of its games still read and were copied back
        self.rebuilt: list[str] = []  # indexes that did not match their tables: rebuilt from them
        self._db: sqlite3.Connection | None = None  # None once closed
        self._lock = None
        opening = Opening(self.path, self.busy_timeout)
        self._db = opening.open()
        self.set_aside, self.problem, self.salvaged = opening.set_aside, opening.problem, opening.salvaged
        self.rebuilt = opening.rebuilt

    @property
    def db(self) -> sqlite3.Connection:
        """The open connection."""
        if self._db is None:
            raise RuntimeError(f"{self.path}: the store is closed")  # a caller's mistake, not the disk's
        return self._db

    @classmethod
    def in_dir(cls, data_dir: str | Path, **kw) -> "Store":
        lock = hold_data_dir(Path(data_dir))
        try:
            store = cls(Path(data_dir) / FILENAME, **kw)
        except BaseException:
            lock.close()
            raise
        store._lock = lock
        return store

    def _write(self, doing: str, work) -> Any:
        """Run `work()` in one write transaction; failures become a StoreError saying what to do."""
        try:
            with transaction(self.db):
                return work()
        except StoreError:
            raise
        except (sqlite3.Error, OSError) as exc:
            raise translate(exc, self.path, doing) from None

    @property
    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    # games -------------------------------------------------------------------

    def create_game(self, kind: str, options: dict, players: Iterable = (),
                    scoreboard: str | None = None, lineup: Lineup = Lineup()) -> int:
        at = self.moment()

        def work():
            fields = (kind, dump(options), dump(list(players)), scoreboard, at.wall, at.wall, "active",
                      None, dump(lineup.to_json()), 0, 0, self._next_write(), *_stored(at))
            game_id = self.db.execute(
                f"INSERT INTO games ({', '.join(GAME_FIELDS[1:])}) VALUES ({', '.join('?' * len(fields))})",
                fields).lastrowid
            self.db.execute("UPDATE games SET crc = ? WHERE id = ?", (game_crc(game_id, *fields), game_id))
            return game_id

        return self._write("starting a game", work)

    def _rows(self, doing: str, sql: str, params=()) -> list:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.path, doing) from None

    def game(self, game_id: int) -> GameRecord:
        """The game; `UnreadableGame` if its row fails its check (see `Damaged`)."""
        return self._checked(game_id, self._rows("reading a game", f"{SELECT_GAMES} WHERE id = ?",
                                                 (game_id,)))

    def games(self, status: str | None = None, kind: str | None = None) -> list[GameRecord]:
        """The games that pass their check, the last written first (`damaged()` lists the
        others)."""
        return [r for r in self._records(status, kind) if isinstance(r, GameRecord)]

    def damaged(self) -> list[Damaged]:
        """Every game that fails its check, whatever its stored status, and every game
        whose moves are stored without its row; oldest first."""
        found = [r for r in self._records(None, None) if isinstance(r, Damaged)]
        orphans = self._rows("listing the games", "SELECT DISTINCT game_id FROM actions"
                             " WHERE game_id NOT IN (SELECT id FROM games)")
        found += [Damaged(game_id, "?", "its moves are stored but its game row is not")
                  for game_id, in orphans]
        return sorted(found, key=lambda d: d.id if isinstance(d.id, int) else 0)

    def _records(self, status, kind) -> list:
        rows = self._rows(
            "listing the games",
            f"{SELECT_GAMES} WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR kind = ?2)"
            " ORDER BY written DESC, id DESC",
            (status, kind),
        )
        return [read_game(row) for row in rows]

    def actions(self, game_id: int) -> list[Any]:
        """The game's log (`log` without the turns)."""
        return self.log(game_id)[0]

    def log(self, game_id: int) -> tuple[list[Any], list[int]]:
        """The game's actions and the number of each turn's first action (`extend` writes a
        turn), ascending; an action whose turn is not known (older rows, damage) is a turn of
        its own.  `UnreadableGame` if a row is not JSON, fails its check (a bit flipped on
        the card) or the numbers have a gap."""
        rows = self._rows("reading a game's moves",
                          "SELECT seq, action, entry, crc FROM actions WHERE game_id = ? ORDER BY seq",
                          (game_id,))
        self.game(game_id)  # UnreadableGame if it fails its check (its count of moves too)
        log, turns = [], set()
        for expected, (seq, text, entry, crc) in enumerate(rows):
            try:
                if seq != expected:
                    raise ValueError(f"action number {expected} is missing")
                if crc != action_crc(game_id, seq, entry, text):
                    raise ValueError("it was changed on disk: its check does not match")
                log.append(json.loads(text))
            except (TypeError, ValueError, RecursionError) as exc:
                raise UnreadableGame(
                    f"game {game_id} in {self.path} cannot be read (action {seq}: {exc}); it is "
                    "left out and kept in the database for repair") from None
            turns.add(entry if type(entry) is int and 0 <= entry <= seq else seq)
        return log, sorted(turns)

    def append(self, game_id: int, seq: int, action: Any, outcome: dict | None = None,
               revision: int | None = None) -> int:
        """Durably add action number `seq` (0-based); with `outcome` the game is finished."""
        return self.extend(game_id, seq, [action], outcome, revision)

    def extend(self, game_id: int, seq: int, actions: list, outcome: dict | None = None,
               revision: int | None = None) -> int:
        """Durably add actions numbered from `seq`, all or none (one transaction), as one
        turn; the game's new revision.  `OutOfSequence` if `seq` is not the log's next number,
        or `revision` (the caller's) not the stored one: another copy moved on."""
        def work():
            (count, top), = self.db.execute(
                "SELECT count(*), coalesce(max(seq) + 1, 0) FROM actions WHERE game_id = ?",
                (game_id,)).fetchall()
            stored = self._sealed(game_id)
            if seq != count or seq != top or revision not in (None, stored.revision):
                raise OutOfSequence(
                    f"game {game_id} has {count} moves on disk, so move {seq + 1} does not "
                    "follow them (was the game changed somewhere else?). Nothing was saved: "
                    "go home and resume the game to see it as stored.")
            at = self.moment()
            self.db.executemany(
                "INSERT INTO actions (game_id, seq, action, at, entry, crc) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, seq + i, text, at.wall, seq, action_crc(game_id, seq + i, seq, text))
                 for i, text in enumerate(map(dump, actions))],
            )
            return self._seal(stored, at, status_for(outcome), outcome, seq + len(actions))

        return self._write("saving a move", work)

    def truncate(self, game_id: int, keep: int, outcome: dict | None = None,
                 known: int | None = None, revision: int | None = None) -> int:
        """Keep only the first `keep` actions (undo); the game is active again unless `outcome`;
        the new revision.  With `known` (the caller's count of moves) or `revision`,
        `OutOfSequence` if the stored game is another."""
        def work():
            (count,), = self.db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                         (game_id,)).fetchall()
            stored = self._sealed(game_id)
            if known not in (None, count) or revision not in (None, stored.revision):
                raise OutOfSequence(
                    f"game {game_id} has {count} moves on disk, not {known} (was it changed "
                    "somewhere else?). Nothing was taken back: go home and resume the game "
                    "to see it as stored.")
            self.db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            return self._seal(stored, self.moment(), status_for(outcome), outcome, min(keep, count))

        return self._write("taking a move back", work)

    def abandon(self, game_id: int) -> None:
        def work():
            stored = self._sealed(game_id)
            if stored.status == "active":
                self._seal(stored, self.moment(), "abandoned", None, stored.moves)

        self._write("setting a game aside", work)

    def restore(self, record: GameRecord) -> None:
        """A game abandoned since `record` was read is active again, in its place in Resume
        and with its time: the undo of a discard."""
        def work():
            stored = self._sealed(record.id)
            if stored.status == "abandoned":
                self._seal(stored, record.moment, "active", None, stored.moves, record.written)

        self._write("bringing a game back", work)

    def _sealed(self, game_id: int) -> GameRecord:
        """The game's row inside a write: a write never puts a new check on a damaged row."""
        return self._checked(game_id, self.db.execute(f"{SELECT_GAMES} WHERE id = ?",
                                                       (game_id,)).fetchall())

    def _checked(self, game_id: int, rows: list) -> GameRecord:
        """The one game row read, if it passes its check."""
        if not rows:
            raise StoreError(f"no game number {game_id} in {self.path}")
        record = read_game(rows[0])
        if isinstance(record, Damaged):
            raise record.error(self.path)
        return record

    def _seal(self, stored: GameRecord, at: Moment, status: str, outcome: dict | None,
              moves: int, written: int | None = None) -> int:
        """Write the game's changing fields with its new check, as the last write unless
        `written` says its place; the new revision."""
        revision, outcome_text = stored.revision + 1, dump(outcome) if outcome else None
        when = (self._next_write() if written is None else written, *_stored(at))
        fields = (stored.kind, dump(stored.options), dump(stored.players), stored.scoreboard,
                  float(stored.created), at.wall, status, outcome_text, dump(stored.lineup.to_json()),
                  moves, revision, *when)
        crc = game_crc(stored.id, *fields)
        self.db.execute("UPDATE games SET updated = ?, status = ?, outcome = ?, moves = ?, revision = ?,"
                         " written = ?, boot = ?, uptime = ?, synced = ?, crc = ? WHERE id = ?",
                         (at.wall, status, outcome_text, moves, revision, *when, crc, stored.id))
        return revision

    def _next_write(self) -> int:
        """The number of a write now (inside its transaction): one more than any before."""
        return self.db.execute("SELECT coalesce(max(written), 0) + 1 FROM games").fetchone()[0]

    def results(self, scoreboard: str) -> list[tuple[list, dict]]:
        """(players, outcome) of every finished game on a scoreboard that passes its check,
        oldest first."""
        records = [read_game(row) for row in self._rows(
            "counting the scores",
            f"{SELECT_GAMES} WHERE scoreboard = ? AND status = 'finished' ORDER BY id",
            (scoreboard,),
        )]
        return [(r.players, r.outcome) for r in records if isinstance(r, GameRecord) and r.outcome]

    # calibrations ------------------------------------------------------------

    def save_calibration(self, name: str, data: dict) -> None:
        """Save (or replace) a calibration as the newest: a new row, whose rowid is the
        largest (the clock's time is kept, but never says which is the newest)."""
        created, text = float(self.clock()), dump(data)

        def work():
            self.db.execute("DELETE FROM calibrations WHERE name = ?", (name,))
            self.db.execute("INSERT INTO calibrations (name, created, data, crc) VALUES (?, ?, ?, ?)",
                             (name, created, text, calibration_crc(name, created, text)))

        self._write("saving a calibration", work)

    def calibration(self, name: str | None = None) -> dict | None:
        """A named calibration, or the newest when no name is given (None if it fails its
        check or does not read: `damaged_calibrations` names it)."""
        rows = self._rows(
            "reading the calibration",
            "SELECT name, created, data, crc FROM calibrations WHERE (?1 IS NULL OR name = ?1)"
            " ORDER BY rowid DESC LIMIT 1",
            (name,),
        )
        if not rows or rows[0][3] != calibration_crc(*rows[0][:3]):
            return None
        data = load(rows[0][2])
        return data if isinstance(data, dict) else None

    def damaged_calibrations(self) -> list[str]:
        """The names of the calibrations that fail their check (changed on disk)."""
        rows = self._rows("reading the calibrations", "SELECT name, created, data, crc FROM calibrations")
        return [kind_name(row[0]) for row in rows if row[3] != calibration_crc(*row[:3])]

    def calibration_names(self) -> list[str]:
        return [n for (n,) in self._rows("listing calibrations",
                                         "SELECT name FROM calibrations ORDER BY rowid")]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _stored(at: Moment) -> tuple:
    """A write's moment as the games row keeps it (after its wall time: `updated`)."""
    return at.boot, at.uptime, None if at.synced is None else int(at.synced)
