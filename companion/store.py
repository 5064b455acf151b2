"""SQLite: every game's options and action log, outcomes, and named calibrations.

The action log is the truth (DESIGN.md principle 2).  Each write is its own
transaction, committed with WAL and synchronous=FULL before the call returns,
so an action the screen shows has already survived a power cut.  Scores are
not stored twice: they are counted from finished games, so a game counts once.
A database that cannot be opened is renamed aside, never overwritten.

Longer than 400 lines on purpose: it is one connection's whole life (opening it safely,
migrating, each write's transaction, the reads), each part short; the schema's history
is in `companion.migrations`, the errors and their messages in `companion.store_errors`.
"""

from __future__ import annotations

import fcntl
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from companion.migrations import MIGRATIONS, SCHEMA, action_crc, game_crc
from companion.store_errors import (  # noqa: F401  (callers import the errors from here)
    BUSY, DAMAGED, DataDirInUse, Damaged, OutOfSequence, StoreBusy, StoreError, StoreUnwritable,
    UnreadableGame, code_of, translate,
)

FILENAME = "companion.db"
BUSY_TIMEOUT_S = 15.0  # how long a lock held by another program (a backup, sqlite3) is waited for
MOVE_WAIT_S = 3.0  # ... once open: a tap is answered within this, saved or refused with a message
LOCKFILE = "companion.lock"


@dataclass(frozen=True)
class Lineup:
    """Who plays a game: "2p" (people at the table), "cpu" (the computer, at `level`) or
    "tracker" (a physical game that the companion follows)."""

    opponent: str = "2p"
    level: str | None = None

    @classmethod
    def of(cls, opponent: str, level: str | None) -> "Lineup":
        """The lineup a start panel's choices describe (a level only against the computer)."""
        return cls(opponent, level if opponent == "cpu" else None)

    def scoreboard(self, kind: str) -> str:
        """Where a game's result is counted: per opponent, and per level against the computer."""
        return f"{kind}:cpu:{self.level}" if self.opponent == "cpu" else f"{kind}:{self.opponent}"

    def to_json(self) -> dict:
        return {"opponent": self.opponent, "level": self.level}

    @classmethod
    def from_json(cls, value: Any) -> "Lineup | None":
        """The stored lineup, None if it is not one."""
        if isinstance(value, dict) and isinstance(value.get("opponent"), str) and \
                isinstance(value.get("level"), (str, type(None))) and len(value) == 2:
            return cls(value["opponent"], value["level"])
        return None


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
    lineup: Lineup = Lineup()
    problem: str | None = None  # why this game cannot be read (then it is never resumed)


class Store:
    """One SQLite database.  Use from one thread; close it (or use `with`).

    `Store.in_dir` also takes the data directory's lock: one companion per directory."""

    def __init__(self, path: str | Path, clock=time.time, busy_timeout: float | None = None):
        self.path = Path(path)
        self.clock = clock
        self.busy_timeout = BUSY_TIMEOUT_S if busy_timeout is None else busy_timeout
        self.set_aside: Path | None = None  # where an unreadable database was moved
        self.problem: str | None = None  # what to tell the people about it
        self._db = None
        self._lock = None
        try:
            if self.path.is_dir():
                raise StoreError(f"{self.path} is a directory, not a database: move it away "
                                 f"(mv {self.path} {self.path}.dir) and start again")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._set_aside_orphan_wal()
            try:
                self._db = self._open_waiting()
            except Damaged as exc:
                self.set_aside = self._move_aside(exc)
                self._db = self._open_waiting()
        except (sqlite3.Error, OSError) as exc:
            raise translate(exc, self.path, "opening the database") from None
        except Damaged as exc:
            raise StoreError(f"{self.path}: {exc}, even after setting the old file aside") from None

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

    def _open_waiting(self) -> sqlite3.Connection:
        """Open; SQLite answers some steps (switching to WAL while another process opens the
        same new file) "busy" without waiting, so those are retried until the timeout."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                return self._open()
            except sqlite3.OperationalError as exc:
                if code_of(exc) not in BUSY or time.monotonic() >= deadline:
                    raise
                time.sleep(0.02)

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        db.text_factory = _text
        try:
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA synchronous=FULL")
            if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise sqlite3.OperationalError("cannot switch to WAL (read-only?)")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise Damaged(f"integrity check failed: {check}")
            self._migrate(db)
            self._check_schema(db)
            db.execute(f"PRAGMA busy_timeout={int(min(self.busy_timeout, MOVE_WAIT_S) * 1000)}")
        except sqlite3.DatabaseError as exc:
            db.close()
            if code_of(exc) in DAMAGED:
                raise Damaged(str(exc)) from None
            raise
        except UnicodeDecodeError as exc:  # SQLite's message quotes a damaged schema's bytes
            db.close()
            raise Damaged(f"the schema is not text ({exc})") from None
        except BaseException:
            db.close()
            raise
        return db

    def _set_aside_orphan_wal(self) -> None:
        """A -wal file without its database belongs to a lost one: keep it, never replay it."""
        wal = Path(f"{self.path}-wal")
        if wal.exists() and (not self.path.exists() or self.path.stat().st_size == 0):
            stamp = time.strftime("%Y%m%d-%H%M%S")
            for suffix in ("-wal", "-shm"):
                part = Path(f"{self.path}{suffix}")
                if part.exists():
                    part.rename(Path(f"{self.path}.orphan-{stamp}{suffix}"))
            self.set_aside = Path(f"{self.path}.orphan-{stamp}-wal")
            self.problem = (f"{wal} had no database beside it; it was kept as "
                            f"{self.set_aside} and a new database started")

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
        """Read the version and migrate inside one write transaction: a second process
        starting at the same moment waits, then finds the work done.  A current schema
        needs no write, so a program holding a write lock (a backup) does not stop the start."""
        if db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS):
            return
        with self._transaction(db):
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"{self.path} was written by a newer companion (schema {version}); "
                    "update the companion (git pull, then make run)")
            if version < 0:
                raise Damaged(f"schema version {version}")
            for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
                try:
                    if callable(step):
                        step(db)
                    else:
                        for statement in filter(str.strip, step.split(";")):
                            db.execute(statement)
                except sqlite3.OperationalError as exc:
                    if code_of(exc) != 1:  # SQLITE_ERROR: e.g. a table the version denies
                        raise
                    raise Damaged(f"schema version {version} but {exc}") from None
                db.execute(f"PRAGMA user_version={number}")

    @staticmethod
    def _check_schema(db: sqlite3.Connection) -> None:
        for table, columns in SCHEMA.items():
            found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise Damaged(f"table {table} is missing or has other columns ({found})")

    @staticmethod
    def _transaction(db: sqlite3.Connection):
        class Tx:
            def __enter__(self):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, *rest):
                if kind is None:
                    db.execute("COMMIT")
                elif db.in_transaction:
                    db.execute("ROLLBACK")

        return Tx()

    def _write(self, doing: str, work) -> Any:
        """Run `work()` in one write transaction; failures become a StoreError saying what to do."""
        try:
            with self._transaction(self._db):
                return work()
        except StoreError:
            raise
        except (sqlite3.Error, OSError) as exc:
            raise translate(exc, self.path, doing) from None

    @property
    def schema_version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    # games -------------------------------------------------------------------

    def create_game(self, kind: str, options: dict, players: Iterable = (),
                    scoreboard: str | None = None, lineup: Lineup = Lineup()) -> int:
        now = self.clock()
        fields = (kind, _dump(options), _dump(list(players)), scoreboard, _dump(lineup.to_json()))

        def work():
            game_id = self._db.execute(
                "INSERT INTO games (kind, options, players, scoreboard, lineup, created, updated, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'active')", (*fields, now, now)).lastrowid
            self._db.execute("UPDATE games SET crc = ? WHERE id = ?", (game_crc(game_id, *fields), game_id))
            return game_id

        return self._write("starting a game", work)

    def _rows(self, doing: str, sql: str, params=()) -> list:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.path, doing) from None

    def game(self, game_id: int) -> GameRecord:
        rows = self._rows("reading a game", "SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"no game number {game_id} in {self.path}")
        return _record(rows[0])

    def games(self, status: str | None = None, kind: str | None = None) -> list[GameRecord]:
        """Games, most recently played first (an unreadable one has `problem` set)."""
        rows = self._rows(
            "listing the games",
            "SELECT * FROM games WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR kind = ?2)"
            " ORDER BY updated DESC, id DESC",
            (status, kind),
        )
        return [_record(row) for row in rows]

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
        log, turns = [], set()
        for expected, (seq, text, entry, crc) in enumerate(rows):
            try:
                if seq != expected:
                    raise ValueError(f"action number {expected} is missing")
                if crc is not None and crc != action_crc(game_id, seq, entry, text):
                    raise ValueError("it was changed on disk: its check does not match")
                log.append(json.loads(text))
            except (TypeError, ValueError, RecursionError) as exc:
                raise UnreadableGame(
                    f"game {game_id} in {self.path} cannot be read (action {seq}: {exc}); it is "
                    "left out and kept in the database for repair") from None
            turns.add(entry if type(entry) is int and 0 <= entry <= seq else seq)
        return log, sorted(turns)

    def append(self, game_id: int, seq: int, action: Any, outcome: dict | None = None) -> None:
        """Durably add action number `seq` (0-based); with `outcome` the game is finished."""
        self.extend(game_id, seq, [action], outcome)

    def extend(self, game_id: int, seq: int, actions: list, outcome: dict | None = None) -> None:
        """Durably add actions numbered from `seq`, all or none (one transaction), as one
        turn.  `OutOfSequence` if `seq` is not the log's next number (another copy moved on)."""
        now = self.clock()

        def work():
            (count, top), = self._db.execute(
                "SELECT count(*), coalesce(max(seq) + 1, 0) FROM actions WHERE game_id = ?",
                (game_id,)).fetchall()
            if seq != count or seq != top:
                raise OutOfSequence(
                    f"game {game_id} has {count} moves on disk, so move {seq + 1} does not "
                    "follow them (was the game changed somewhere else?). Nothing was saved: "
                    "go home and resume the game to see it as stored.")
            self._db.executemany(
                "INSERT INTO actions (game_id, seq, action, at, entry, crc) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, seq + i, text, now, seq, action_crc(game_id, seq + i, seq, text))
                 for i, text in enumerate(map(_dump, actions))],
            )
            self._set_status(game_id, now, outcome)

        self._write("saving a move", work)

    def truncate(self, game_id: int, keep: int, outcome: dict | None = None,
                 known: int | None = None) -> None:
        """Keep only the first `keep` actions (undo); the game is active again unless `outcome`.
        With `known` (the caller's count of moves) `OutOfSequence` if the log has another."""
        def work():
            if known is not None:
                (count,), = self._db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                             (game_id,)).fetchall()
                if count != known:
                    raise OutOfSequence(
                        f"game {game_id} has {count} moves on disk, not {known} (was it changed "
                        "somewhere else?). Nothing was taken back: go home and resume the game "
                        "to see it as stored.")
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            self._set_status(game_id, self.clock(), outcome)

        self._write("taking a move back", work)

    def abandon(self, game_id: int) -> None:
        self._write("setting a game aside", lambda: self._db.execute(
            "UPDATE games SET status = 'abandoned', updated = ? WHERE id = ? AND status = 'active'",
            (self.clock(), game_id),
        ))

    def restore(self, game_id: int, updated: float) -> None:
        """An abandoned game is active again, as of `updated` (its place in Resume): the undo
        of a discard."""
        self._write("bringing a game back", lambda: self._db.execute(
            "UPDATE games SET status = 'active', updated = ? WHERE id = ? AND status = 'abandoned'",
            (updated, game_id),
        ))

    def _set_status(self, game_id: int, now: float, outcome: dict | None) -> None:
        self._db.execute(
            "UPDATE games SET updated = ?, status = ?, outcome = ? WHERE id = ?",
            (now, "finished" if outcome else "active", _dump(outcome) if outcome else None,
             game_id),
        )

    def results(self, scoreboard: str) -> list[tuple[list, dict]]:
        """(players, outcome) of every readable finished game on a scoreboard, oldest first."""
        records = [_record(row) for row in self._rows(
            "counting the scores",
            "SELECT * FROM games WHERE scoreboard = ? AND status = 'finished' ORDER BY id",
            (scoreboard,),
        )]
        return [(r.players, r.outcome) for r in records if not r.problem and r.outcome]

    # calibrations ------------------------------------------------------------

    def save_calibration(self, name: str, data: dict) -> None:
        self._write("saving a calibration", lambda: self._db.execute(
            "INSERT INTO calibrations (name, created, data) VALUES (?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET created = excluded.created, data = excluded.data",
            (name, self.clock(), _dump(data)),
        ))

    def calibration(self, name: str | None = None) -> dict | None:
        """A named calibration, or the newest when no name is given (None if unreadable)."""
        rows = self._rows(
            "reading the calibration",
            "SELECT data FROM calibrations WHERE (?1 IS NULL OR name = ?1)"
            " ORDER BY created DESC LIMIT 1",
            (name,),
        )
        data = _load(rows[0][0]) if rows else None
        return data if isinstance(data, dict) else None

    def calibration_names(self) -> list[str]:
        return [n for (n,) in self._rows("listing calibrations",
                                         "SELECT name FROM calibrations ORDER BY created")]

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


def hold_data_dir(data_dir: Path):
    """Lock `data_dir` for this process (released when the returned file is closed or the
    process ends, even by SIGKILL); `DataDirInUse` if another process holds it."""
    path = data_dir / LOCKFILE
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")
    except OSError as exc:
        raise translate(exc, data_dir, "opening the data directory") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DataDirInUse(
            f"another companion is already running on {data_dir} (it holds {path}). "
            "Use that one, or stop it first (close its window, or: systemctl stop companion)"
        ) from None
    return handle


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(raw: bytes) -> str | bytes:
    """A TEXT value; one that is not UTF-8 (damage) stays bytes, which no reader accepts,
    so only the row holding it is reported, never the whole table."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _load(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None


def _record(row) -> GameRecord:
    """A games row; one whose fields do not read, or fail the row's check, has `problem` set
    instead of failing."""
    (id_, kind, options, players, scoreboard, created, updated, status, outcome, lineup, crc) = row
    fields = {"options": (_load(options), dict), "players": (_load(players), list),
              "outcome": (_load(outcome) if outcome else {}, dict), "lineup": (Lineup.from_json(_load(lineup)), Lineup)}
    bad = [name for name, (value, kind_) in fields.items() if not isinstance(value, kind_)]
    problem = f"its {', '.join(bad)} cannot be read" if bad else None
    if not bad and crc is not None and crc != game_crc(id_, kind, options, players, scoreboard, lineup):
        problem = "it was changed on disk: its check does not match"
    value = {name: v if isinstance(v, k) else k() for name, (v, k) in fields.items()}
    return GameRecord(id_, str(kind), value["options"], value["players"], scoreboard,
                      created, updated, status, value["outcome"] or None, value["lineup"], problem)
