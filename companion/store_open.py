"""Opening the database file safely, and the data directory's lock: waiting out another
program's lock, setting a damaged file aside (never overwriting it), a -wal file without
its database, migrating in one transaction, checking the schema.  Split from
`companion.store` (whose `Store` holds what `Opening.open` returns)."""

from __future__ import annotations

import fcntl
import re
import sqlite3
import time
from pathlib import Path

from companion.migrations import MIGRATIONS, SCHEMA
from companion.store_errors import BUSY, DAMAGED, CorruptFile, DataDirInUse, StoreError, code_of, translate
from companion.store_records import decode_text
from companion.store_salvage import salvage

MOVE_WAIT_S = 3.0  # once open: a tap is answered within this, saved or refused with a message
# Each commit is on disk before it returns.  The program never changes it; only tests that
# play whole games set "OFF" (tests/conftest.py, `no_sync_per_turn`): what they check is
# the same either way, since only a power cut can tell the two apart.
SYNCHRONOUS = "FULL"
LOCKFILE = "companion.lock"


class Opening:
    """One database file being opened: `open()` is the connection; `set_aside` is where an
    unreadable file (or an orphan -wal) was moved, `salvaged` how many of its games still
    read and were copied into the new file, and `problem` what to tell the people."""

    def __init__(self, path: Path, busy_timeout: float):
        self.path, self.busy_timeout = path, busy_timeout
        self.set_aside: Path | None = None
        self.problem: str | None = None
        self.salvaged = 0  # the games read back from a file set aside (store_salvage)
        self.rebuilt: list[str] = []  # indexes that did not match their tables, rebuilt from them

    def open(self) -> sqlite3.Connection:
        try:
            if self.path.is_dir():
                raise StoreError(f"{self.path} is a directory, not a database: move it away "
                                 f"(mv {self.path} {self.path}.dir) and start again")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._set_aside_orphan_wal()
            try:
                return self._open_waiting()
            except CorruptFile as exc:
                self.set_aside = self._move_aside(exc)
                db = self._open_waiting()
                self.salvaged = salvage(self.set_aside, db)
                return db
        except (sqlite3.Error, OSError) as exc:
            raise translate(exc, self.path, "opening the database") from None
        except CorruptFile as exc:
            raise StoreError(f"{self.path}: {exc}, even after setting the old file aside") from None

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
        db.text_factory = decode_text
        try:
            db.execute("PRAGMA foreign_keys=ON")
            db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise sqlite3.OperationalError("cannot switch to WAL (read-only?)")
            damage, stale = _file_damage(db)
            if damage:
                raise CorruptFile(f"integrity check failed: {damage}")
            if stale:
                self._rebuild(db, stale)
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

    def _rebuild(self, db: sqlite3.Connection, stale: dict[str, str]) -> None:
        """Rebuild the indexes that do not match their tables (the table is the truth: a
        flipped bit in an index page hid a finished game from the scores, unseen by the
        quick check), and say so; damage the rebuild does not mend sets the file aside."""
        try:
            with transaction(db):
                for name in stale:
                    db.execute(f'REINDEX "{name}"')
        except sqlite3.IntegrityError as exc:  # a UNIQUE index the table's rows break
            raise CorruptFile(f"rebuilding an index failed: {exc}") from None
        damage, still = _file_damage(db)
        if damage or still:
            raise CorruptFile(f"integrity check failed after rebuilding its indexes: "
                              f"{damage or '; '.join(still.values())}")
        self.rebuilt = sorted(stale)
        self.problem = (f"{self.path}: index {', '.join(self.rebuilt)} did not match its table "
                        f"({'; '.join(stale.values())}); rebuilt from the table, nothing was lost")

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
        with transaction(db):
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
                        for statement in (s for s in step.split(";") if s.strip()):
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


def transaction(db: sqlite3.Connection):
    """One write transaction (BEGIN IMMEDIATE): committed if the block ends well, else rolled back."""
    class Tx:
        def __enter__(self):
            db.execute("BEGIN IMMEDIATE")

        def __exit__(self, kind, *rest):
            if kind is None:
                db.execute("COMMIT")
            elif db.in_transaction:
                db.execute("ROLLBACK")

    return Tx()


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
INDEX_DAMAGE = re.compile(r"(?:row \d+ missing from|wrong # of entries in|non-unique entry in) index (\w+)")


def _file_damage(db: sqlite3.Connection) -> tuple[str | None, dict[str, str]]:
    """What SQLite's integrity check finds wrong with the file itself (None if nothing), and
    the indexes that do not match their tables ({name: what}).  The full check, not the
    quick one: only it reads every index against its table (2,000 games, a 6 MB file: 17 ms
    against the quick check's 12 ms here, bench/store_check.py).  A value that breaks its column's CHECK or
    NOT NULL (a flipped status) is damage to one row, which SQLite still reads: that row's
    own check reports its game, and the others stay playable."""
    found = [line for line, in db.execute("PRAGMA integrity_check") if line != "ok"]
    stale: dict[str, str] = {}
    for line in found:
        if (index := INDEX_DAMAGE.fullmatch(line)) is not None:
            stale.setdefault(index[1], line)
    beyond = [line for line in found if not ROW_DAMAGE.fullmatch(line) and not INDEX_DAMAGE.fullmatch(line)]
    return "; ".join(beyond[:3]) or None, stale
