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
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from companion.migrations import GAME_FIELDS, MIGRATIONS, SCHEMA, action_crc, calibration_crc, game_crc
from companion.store_errors import (  # noqa: F401  (callers import the errors from here)
    BUSY, DAMAGED, CorruptFile, DataDirInUse, OutOfSequence, StoreBusy, StoreError, StoreUnwritable,
    UnreadableGame, code_of, translate,
)

FILENAME = "companion.db"
BUSY_TIMEOUT_S = 15.0  # how long a lock held by another program (a backup, sqlite3) is waited for
MOVE_WAIT_S = 3.0  # ... once open: a tap is answered within this, saved or refused with a message
LOCKFILE = "companion.lock"
OPPONENTS = ("2p", "cpu", "tracker")
STATUSES = ("active", "finished", "abandoned")


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
        if isinstance(value, dict) and set(value) == {"opponent", "level"} and \
                value["opponent"] in OPPONENTS and isinstance(value["level"], (str, type(None))):
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
    moves: int = 0  # how many actions its log holds
    revision: int = 0  # one more with every write: a stale copy's write is refused


@dataclass(frozen=True)
class Damaged:
    """A game whose stored row fails its check or does not read: quarantined here, at the
    store's edge, so no game code ever reads its fields.  `kind` is as stored (perhaps
    damaged itself); `problem` says what is wrong."""

    id: int
    kind: str
    problem: str

    def error(self, path) -> UnreadableGame:
        return UnreadableGame(f"game {self.id} ({self.kind}) in {path} cannot be read ({self.problem}); "
                              "it is left out and kept in the database for repair")


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
            except CorruptFile as exc:
                self.set_aside = self._move_aside(exc)
                self._db = self._open_waiting()
        except (sqlite3.Error, OSError) as exc:
            raise translate(exc, self.path, "opening the database") from None
        except CorruptFile as exc:
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
            damage = _file_damage(db)
            if damage:
                raise CorruptFile(f"integrity check failed: {damage}")
            self._migrate(db)
            self._check_schema(db)
            db.execute(f"PRAGMA busy_timeout={int(min(self.busy_timeout, MOVE_WAIT_S) * 1000)}")
        except sqlite3.DatabaseError as exc:
            db.close()
            if code_of(exc) in DAMAGED:
                raise CorruptFile(str(exc)) from None
            raise
        except UnicodeDecodeError as exc:  # SQLite's message quotes a damaged schema's bytes
            db.close()
            raise CorruptFile(f"the schema is not text ({exc})") from None
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
                raise CorruptFile(f"schema version {version}")
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
                    raise CorruptFile(f"schema version {version} but {exc}") from None
                db.execute(f"PRAGMA user_version={number}")

    @staticmethod
    def _check_schema(db: sqlite3.Connection) -> None:
        for table, columns in SCHEMA.items():
            found = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise CorruptFile(f"table {table} is missing or has other columns ({found})")

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
        now = float(self.clock())
        fields = (kind, _dump(options), _dump(list(players)), scoreboard, now, now, "active", None,
                  _dump(lineup.to_json()), 0, 0)

        def work():
            game_id = self._db.execute(
                f"INSERT INTO games ({', '.join(GAME_FIELDS[1:])}) VALUES ({', '.join('?' * 11)})",
                fields).lastrowid
            self._db.execute("UPDATE games SET crc = ? WHERE id = ?", (game_crc(game_id, *fields), game_id))
            return game_id

        return self._write("starting a game", work)

    def _rows(self, doing: str, sql: str, params=()) -> list:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.path, doing) from None

    def game(self, game_id: int) -> GameRecord:
        """The game; `UnreadableGame` if its row fails its check (see `Damaged`)."""
        return self._checked(game_id, self._rows("reading a game", f"{SELECT_GAMES} WHERE id = ?",
                                                 (game_id,)))

    def games(self, status: str | None = None, kind: str | None = None) -> list[GameRecord]:
        """The games that pass their check, most recently played first (`damaged()` lists
        the others)."""
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
            (count, top), = self._db.execute(
                "SELECT count(*), coalesce(max(seq) + 1, 0) FROM actions WHERE game_id = ?",
                (game_id,)).fetchall()
            stored = self._sealed(game_id)
            if seq != count or seq != top or revision not in (None, stored.revision):
                raise OutOfSequence(
                    f"game {game_id} has {count} moves on disk, so move {seq + 1} does not "
                    "follow them (was the game changed somewhere else?). Nothing was saved: "
                    "go home and resume the game to see it as stored.")
            now = self.clock()
            self._db.executemany(
                "INSERT INTO actions (game_id, seq, action, at, entry, crc) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, seq + i, text, now, seq, action_crc(game_id, seq + i, seq, text))
                 for i, text in enumerate(map(_dump, actions))],
            )
            return self._seal(stored, now, _status(outcome), outcome, seq + len(actions))

        return self._write("saving a move", work)

    def truncate(self, game_id: int, keep: int, outcome: dict | None = None,
                 known: int | None = None, revision: int | None = None) -> int:
        """Keep only the first `keep` actions (undo); the game is active again unless `outcome`;
        the new revision.  With `known` (the caller's count of moves) or `revision`,
        `OutOfSequence` if the stored game is another."""
        def work():
            (count,), = self._db.execute("SELECT count(*) FROM actions WHERE game_id = ?",
                                         (game_id,)).fetchall()
            stored = self._sealed(game_id)
            if known not in (None, count) or revision not in (None, stored.revision):
                raise OutOfSequence(
                    f"game {game_id} has {count} moves on disk, not {known} (was it changed "
                    "somewhere else?). Nothing was taken back: go home and resume the game "
                    "to see it as stored.")
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep))
            return self._seal(stored, self.clock(), _status(outcome), outcome, min(keep, count))

        return self._write("taking a move back", work)

    def abandon(self, game_id: int) -> None:
        def work():
            stored = self._sealed(game_id)
            if stored.status == "active":
                self._seal(stored, self.clock(), "abandoned", None, stored.moves)

        self._write("setting a game aside", work)

    def restore(self, game_id: int, updated: float) -> None:
        """An abandoned game is active again, as of `updated` (its place in Resume): the undo
        of a discard."""
        def work():
            stored = self._sealed(game_id)
            if stored.status == "abandoned":
                self._seal(stored, updated, "active", None, stored.moves)

        self._write("bringing a game back", work)

    def _sealed(self, game_id: int) -> GameRecord:
        """The game's row inside a write: a write never puts a new check on a damaged row."""
        return self._checked(game_id, self._db.execute(f"{SELECT_GAMES} WHERE id = ?",
                                                       (game_id,)).fetchall())

    def _checked(self, game_id: int, rows: list) -> GameRecord:
        """The one game row read, if it passes its check."""
        if not rows:
            raise StoreError(f"no game number {game_id} in {self.path}")
        record = _record(rows[0])
        if isinstance(record, Damaged):
            raise record.error(self.path)
        return record

    def _seal(self, stored: GameRecord, now: float, status: str, outcome: dict | None,
              moves: int) -> int:
        """Write the game's changing fields with its new check; the new revision."""
        now, revision = float(now), stored.revision + 1
        outcome_text = _dump(outcome) if outcome else None
        fields = (stored.kind, _dump(stored.options), _dump(stored.players), stored.scoreboard,
                  float(stored.created), now, status, outcome_text, _dump(stored.lineup.to_json()),
                  moves, revision)
        crc = game_crc(stored.id, *fields)
        self._db.execute("UPDATE games SET updated = ?, status = ?, outcome = ?, moves = ?,"
                         " revision = ?, crc = ? WHERE id = ?",
                         (now, status, outcome_text, moves, revision, crc, stored.id))
        return revision

    def results(self, scoreboard: str) -> list[tuple[list, dict]]:
        """(players, outcome) of every finished game on a scoreboard that passes its check,
        oldest first."""
        records = [_record(row) for row in self._rows(
            "counting the scores",
            f"{SELECT_GAMES} WHERE scoreboard = ? AND status = 'finished' ORDER BY id",
            (scoreboard,),
        )]
        return [(r.players, r.outcome) for r in records if isinstance(r, GameRecord) and r.outcome]

    # calibrations ------------------------------------------------------------

    def save_calibration(self, name: str, data: dict) -> None:
        created, text = float(self.clock()), _dump(data)
        self._write("saving a calibration", lambda: self._db.execute(
            "INSERT INTO calibrations (name, created, data, crc) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET created = excluded.created, data = excluded.data,"
            " crc = excluded.crc",
            (name, created, text, calibration_crc(name, created, text)),
        ))

    def calibration(self, name: str | None = None) -> dict | None:
        """A named calibration, or the newest when no name is given (None if it fails its
        check or does not read: `damaged_calibrations` names it)."""
        rows = self._rows(
            "reading the calibration",
            "SELECT name, created, data, crc FROM calibrations WHERE (?1 IS NULL OR name = ?1)"
            " ORDER BY created DESC LIMIT 1",
            (name,),
        )
        if not rows or rows[0][3] != calibration_crc(*rows[0][:3]):
            return None
        data = _load(rows[0][2])
        return data if isinstance(data, dict) else None

    def damaged_calibrations(self) -> list[str]:
        """The names of the calibrations that fail their check (changed on disk)."""
        rows = self._rows("reading the calibrations", "SELECT name, created, data, crc FROM calibrations")
        return [_name(row[0]) for row in rows if row[3] != calibration_crc(*row[:3])]

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


ROW_DAMAGE = re.compile(r"(CHECK constraint failed in|NULL value in) \w+")


def _file_damage(db: sqlite3.Connection) -> str | None:
    """What SQLite's quick check finds wrong with the file itself, else None.  A value that
    breaks its column's CHECK or NOT NULL (a flipped status) is damage to one row, which
    SQLite still reads: that row's own check reports its game, and the others stay playable."""
    found = [line for line, in db.execute("PRAGMA quick_check") if line != "ok"]
    beyond_rows = [line for line in found if not ROW_DAMAGE.fullmatch(line)]
    return "; ".join(beyond_rows[:3]) or None


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


SELECT_GAMES = (f"SELECT {', '.join(GAME_FIELDS)}, crc,"  # and how many moves are stored
                "(SELECT count(*) FROM actions WHERE game_id = games.id) FROM games")


def _status(outcome: dict | None) -> str:
    return "finished" if outcome else "active"


def _record(row) -> "GameRecord | Damaged":
    """A games row as read: a `GameRecord` only if every field passes the row's check and
    reads as the store wrote it, else a `Damaged` naming the game (never an exception)."""
    try:
        return _checked(row)
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        return Damaged(row[0], _name(row[1]), f"{type(exc).__name__}: {exc}")


def _name(kind) -> str:
    return kind if isinstance(kind, str) else repr(kind)


def _checked(row) -> "GameRecord | Damaged":
    (id_, kind, options, players, scoreboard, created, updated, status, outcome, lineup,
     moves, revision, crc, stored) = row
    if crc is None or crc != game_crc(*row[:-2]):
        return Damaged(id_, _name(kind), "it was changed on disk: its check does not match")
    if stored != moves:
        return Damaged(id_, kind, f"it has {stored} moves stored, its record says {moves}")
    record = GameRecord(id_, kind, _load(options), _load(players), scoreboard, created, updated,
                        status, _load(outcome) if outcome is not None else None,
                        Lineup.from_json(_load(lineup)), moves, revision)
    bad = _unlike_written(record)
    return Damaged(id_, kind, f"its {bad} is not as the companion writes it") if bad else record


def _unlike_written(r: GameRecord) -> str | None:
    """The first field of a record (whose check passed: a row written by an older companion,
    or mended by hand) that is not of the shape the store writes, else None."""
    if not isinstance(r.options, dict):
        return "options"
    if not isinstance(r.players, list) or not all(isinstance(p, str) for p in r.players):
        return "players"
    if r.lineup is None:
        return "lineup"
    if r.status not in STATUSES or (r.status == "finished") != (r.outcome is not None):
        return "status"
    if r.outcome is not None and not _is_outcome(r.outcome, len(r.players)):
        return "outcome"
    if r.moves < 0 or r.revision < 0:
        return "moves"
    return None


def _is_outcome(value, seats: int) -> bool:
    """`companion.play.state.Outcome.to_json()`'s shape, its winner one of the seats."""
    if not isinstance(value, dict) or not {"winner", "reason"} <= set(value) <= {"winner", "reason", "scores"}:
        return False
    winner, scores = value["winner"], value.get("scores", [])
    return (winner is None or (type(winner) is int and 0 <= winner < (seats or 16))) and \
        isinstance(value["reason"], str) and isinstance(scores, list) and \
        all(type(s) in (int, float) for s in scores)
