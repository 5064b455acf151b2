"""The store under damage, locks, races and a disk that refuses writes, by class.

Every case starts from a healthy database of real games (Ultimate tic-tac-toe, replayed by
its rules), damages or locks it, then opens it as the app would.  Ground truth is what was
written.  A case is *accepted wrongly* when the app would crash (an error that is not a
StoreError), lose data (a file changed that was not set aside byte for byte), or show a
game other than as stored without saying so (wrong moves, a game silently missing).
The lock holder is Debian's `sqlite3` shell, a SQLite we did not build into Python.

`DAMAGE` and `LOCKS` map a class to a function(tmp, rng) -> None or a failure text;
`figures(count, seed)` runs each `count` times -> {class: {tried, accepted_wrongly}}.
Used by tests/attack/test_store_attacks.py and bench/faults.py.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

from companion.play.session import Session
from companion.store import (FILENAME, DataDirInUse, OutOfSequence, Store, StoreBusy,
                             StoreError, StoreUnwritable, UnreadableGame)

GAMES, MOVES = 4, 12


class Unavailable(Exception):
    """This machine cannot stage the case (no sqlite3 shell, cannot make a disk read-only)."""


# a healthy database -----------------------------------------------------------------------

def healthy(directory: Path, rng: random.Random) -> dict[int, list]:
    """A closed (checkpointed) database of GAMES games; {game id: its actions}."""
    written = {}
    with Store(directory / FILENAME) as store:
        for _ in range(GAMES):
            session = Session.start(store, "uttt", players=["you", "friend"])
            for _ in range(rng.randint(3, MOVES)):
                if session.state.is_over():
                    break
                session.play(rng.choice(session.state.legal_actions()))
            written[session.id] = list(session.actions)
    return written


def judge(directory: Path, written: dict[int, list], before: dict[str, bytes],
          must_open: bool = False, busy_timeout: float = 0.5) -> str | None:
    """Open the damaged database as the app does; None if the outcome is acceptable."""
    path = directory / FILENAME
    try:
        store = Store(path, busy_timeout=busy_timeout)
    except StoreError as exc:
        if must_open:
            return f"refused a database that should open: {exc}"
        return _unchanged(directory, before) or None  # refused clearly, nothing touched
    except Exception as exc:
        return f"crashed: {type(exc).__name__}: {exc}"
    with store:
        if store.set_aside is not None:
            if must_open:
                return f"set a readable database aside: {store.problem}"
            if store.set_aside.read_bytes() not in before.values():
                return "the set-aside file is not the damaged file byte for byte"
            if len(store.games()) + len(store.damaged()) != store.salvaged:
                return f"{store.salvaged} games said read back, other games in the new database"
            # the games read back from it (store_salvage) must read as written or be named;
            # one the damage took is told by the notice (set aside, so many read back)
            return _games_as_written(store, written, missing_told=True)
        return _games_as_written(store, written)


def _games_as_written(store: Store, written: dict[int, list], missing_told: bool = False) -> str | None:
    listed = {g.id for g in store.games()}
    damaged = {d.id for d in store.damaged()}  # reported, kept on disk: acceptable
    for game_id, actions in written.items():
        if game_id in damaged:
            continue
        if game_id not in listed:
            if missing_told:
                continue
            return f"game {game_id} silently missing"
        try:
            session = Session.resume(store, game_id)
        except UnreadableGame:
            continue  # reported, kept on disk: acceptable
        except Exception as exc:
            return f"resuming game {game_id} crashed: {type(exc).__name__}: {exc}"
        if session.actions != actions:
            return f"game {game_id} reads back different moves, unreported"
    return None


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file()}


def _unchanged(directory: Path, before: dict[str, bytes]) -> str | None:
    for name, data in before.items():
        now = directory / name
        if name.endswith("-shm"):
            continue  # SQLite's index of the WAL, rebuilt from it
        if not now.exists() or now.read_bytes() != data:
            return f"{name} was changed although the database was refused"
    return None


# damage ------------------------------------------------------------------------------------

def _damage_file(edit):
    """A class that edits the closed database's bytes with `edit(data, rng) -> bytes`."""
    def case(tmp: Path, rng: random.Random) -> str | None:
        written = healthy(tmp, rng)
        path = tmp / FILENAME
        path.write_bytes(edit(path.read_bytes(), rng))
        return judge(tmp, written, _snapshot(tmp))
    return case


def _truncate(data, rng):
    return data[:rng.randrange(1, len(data))]


def _zero_header(data, rng):
    return bytes(100) + data[100:]


def _garbage_page(data, rng):
    size = int.from_bytes(data[16:18], "big") or 65536
    page = rng.randrange(1, len(data) // size)  # never page 1: the header case is separate
    junk = bytes(rng.randrange(256) for _ in range(size))
    return data[:page * size] + junk + data[(page + 1) * size:]


def _bit_flips(data, rng):
    """1-4 bits flipped anywhere, as a worn SD card does.  SQLite keeps no checksum of a
    row's content, so a flip inside a stored string could pass unseen: counted, if so."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        bit = rng.randrange(len(data) * 8)
        data[bit // 8] ^= 1 << (bit % 8)
    return bytes(data)


def _move_bit_flip(data, rng):
    """One bit of a stored move's cell number flipped: still JSON, often another legal move,
    which only the row's check can tell from the move that was played."""
    digits = [m.end() for m in re.finditer(rb'"cell":[0-9]+', data)]
    at = rng.choice(digits) - 1  # the last digit: the same board, and the last move of a game legal
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def _schema_not_text(data, rng):
    at = data.index(b"CREATE TABLE calibrations")  # a flipped bit in the schema's own text
    return data[:at + 3] + b"\xce" + data[at + 4:]


def _not_a_database(data, rng):
    return b"this is a shopping list, not a database\n" * rng.randint(1, 200)


def _sql_damage(statements, must_open=False):
    """A class that changes the database with SQL behind the app's back."""
    def case(tmp: Path, rng: random.Random) -> str | None:
        written = healthy(tmp, rng)
        victim = rng.choice(sorted(written))
        db = sqlite3.connect(tmp / FILENAME, isolation_level=None)
        for statement in statements:
            db.execute(statement.format(game=victim, seq=len(written[victim]) // 2))
        db.close()
        problem = judge(tmp, written, _snapshot(tmp), must_open=must_open)
        if problem or not must_open:
            return problem
        with Store(tmp / FILENAME) as store:  # the damaged game is reported, the rest resume
            try:
                Session.resume(store, victim)
            except UnreadableGame:
                return None
            return f"damaged game {victim} was not reported"
    return case


def _row(value: str, must_open=True):
    return _sql_damage([f"UPDATE actions SET action = '{value}' WHERE game_id = {{game}}"
                        " AND seq = {seq}"], must_open)


def flip_in_index(path: Path, index: str, text: bytes, bit: int, nth: int = 0) -> None:
    """Flip `bit` (0 = the lowest of the first byte) of the `nth` copy of `text` in the one
    page of `index` (found by SQLite's dbstat table) in the closed database at `path`.  The
    quick check reads no index against its table, so it passes (issue 41, finding 5)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (page,), = db.execute("SELECT pageno FROM dbstat WHERE name = ?", (index,))
    (size,), = db.execute("PRAGMA page_size")
    db.close()
    data = bytearray(path.read_bytes())
    start = (page - 1) * size
    at = [i for i in range(start, start + size) if data.startswith(text, i)][nth]
    data[at + bit // 8] ^= 1 << (bit % 8)
    path.write_bytes(data)


def _index_text_flip(tmp: Path, rng: random.Random) -> str | None:
    """One bit of a game's status in the `games_by_status` index: the file must open, the
    index be rebuilt from its table and said so, and every game list as written."""
    written = healthy(tmp, rng)
    path = tmp / FILENAME
    flip_in_index(path, "games_by_status", b"active", rng.randrange(48), rng.randrange(len(written)))
    db = sqlite3.connect(path)
    damaged = db.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    db.close()
    try:
        store = Store(path)
    except Exception as exc:
        return f"refused a file whose tables are whole: {type(exc).__name__}: {exc}"
    with store:
        if store.set_aside is not None:
            return f"set aside a file whose tables are whole: {store.problem}"
        if store.rebuilt != (["games_by_status"] if damaged else []):
            return f"the index damage was not reported (rebuilt: {store.rebuilt})"
        if sorted(g.id for g in store.games("active")) != sorted(written):
            return "a game is missing from the active games: read through a damaged index"
        problem = _games_as_written(store, written)
    with Store(path) as store:  # a second start finds a sound file: the repair was written
        return problem or ("the rebuilt index was not written to the file" if store.rebuilt else None)


def _wal_without_db(tmp: Path, rng: random.Random) -> str | None:
    healthy(tmp, rng)
    path = tmp / FILENAME
    holder = sqlite3.connect(path, isolation_level=None)  # keeps the WAL from a checkpoint
    holder.execute("PRAGMA wal_autocheckpoint=0")
    holder.execute("INSERT INTO calibrations (name, created, data) VALUES ('x', 1, '{}')")
    wal = Path(f"{path}-wal").read_bytes()
    holder.close()
    path.unlink()
    Path(f"{path}-wal").write_bytes(wal)
    with Store(path) as store:
        if store.set_aside is None or store.set_aside.read_bytes() != wal:
            return "the WAL without its database was not kept aside byte for byte"
        if store.games():
            return "the orphan WAL was replayed into the new database"
    return None


def _read_only(tmp: Path, rng: random.Random) -> str | None:
    written = healthy(tmp, rng)
    before = _snapshot(tmp)
    with read_only(tmp):
        try:
            Store(tmp / FILENAME).close()
        except StoreUnwritable as exc:
            if "Nothing was lost" not in str(exc):
                return f"unclear message: {exc}"
        except Exception as exc:
            return f"crashed: {type(exc).__name__}: {exc}"
        else:
            return "opened a read-only database as if it could save moves"
    return _unchanged(tmp, before) or judge(tmp, written, before, must_open=True)


def _directory_in_place(tmp: Path, rng: random.Random) -> str | None:
    (tmp / FILENAME).mkdir()
    try:
        Store(tmp / FILENAME)
    except StoreError:
        return None
    except Exception as exc:
        return f"crashed: {type(exc).__name__}: {exc}"
    return "opened a directory as a database"


DAMAGE = {
    "truncated": _damage_file(_truncate),
    "zeroed_header": _damage_file(_zero_header),
    "garbage_page": _damage_file(_garbage_page),
    "not_a_database": _damage_file(_not_a_database),
    "schema_not_text": _damage_file(_schema_not_text),
    "bit_flips": _damage_file(_bit_flips),
    "move_bit_flip": _damage_file(_move_bit_flip),
    "index_text_flip": _index_text_flip,
    "newer_schema_version": _sql_damage(["PRAGMA user_version=99"]),
    "negative_schema_version": _sql_damage(["PRAGMA user_version=-3"]),
    "schema_version_reset": _sql_damage(["PRAGMA user_version=0"]),
    "schema_version_behind": _sql_damage(["PRAGMA user_version=1"]),
    "missing_table": _sql_damage(["DROP TABLE calibrations"]),
    "action_not_json": _row("{{not json"),
    "action_wrong_shape": _row('{{"cell": "zz"}}'),
    "action_illegal_move": _row("81"),
    "action_deep_json": _row("[" * 5000 + "]" * 5000),
    "action_not_utf8": _sql_damage(["UPDATE actions SET action = CAST(X'5bce5d' AS TEXT)"
                                    " WHERE game_id = {game} AND seq = {seq}"], must_open=True),
    "kind_not_utf8": _sql_damage(["UPDATE games SET kind = CAST(X'75ce74' AS TEXT)"
                                  " WHERE id = {game}"]),
    "action_gap": _sql_damage(["DELETE FROM actions WHERE game_id = {game} AND seq = {seq}"],
                              must_open=True),
    "options_not_json": _sql_damage(["UPDATE games SET options = '[' WHERE id = {game}"],
                                    must_open=True),
    "lineup_not_json": _sql_damage(["UPDATE games SET lineup = '{{' WHERE id = {game}"], must_open=True),
    "lineup_wrong_shape": _sql_damage(["UPDATE games SET lineup = '{{\"opponent\": [1]}}' WHERE id = {game}"],
                                      must_open=True),
    "wal_without_db": _wal_without_db,
    "read_only": _read_only,
    "directory_in_place": _directory_in_place,
}


# locks and races ----------------------------------------------------------------------------

@contextlib.contextmanager
def locked_by_sqlite3(path: Path, mode: str, seconds: float):
    """Debian's sqlite3 shell holds a lock on `path` for `seconds` (mode: write | exclusive)."""
    shell = shutil.which("sqlite3")
    if not shell:
        raise Unavailable("no sqlite3 shell (scripts/system-deps.sh test installs it)")
    ready = path.with_name("holder-ready")
    ready.unlink(missing_ok=True)
    script = ("PRAGMA locking_mode=EXCLUSIVE;\n" if mode == "exclusive" else "") + (
        "BEGIN IMMEDIATE;\nUPDATE games SET updated = updated;\n"
        f".shell touch {ready}; sleep {seconds}\nCOMMIT;\n")
    proc = subprocess.Popen([shell, "-bail", str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.close()
    deadline = time.monotonic() + 10
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"sqlite3 did not take the lock: {proc.stderr.read()}")
        time.sleep(0.01)
    try:
        yield proc
    finally:
        proc.wait(timeout=seconds + 10)
        proc.stderr.close()


def _exclusive_lock_held_too_long(tmp: Path, rng: random.Random) -> str | None:
    written = healthy(tmp, rng)
    with locked_by_sqlite3(tmp / FILENAME, "exclusive", 1.0):
        try:
            Store(tmp / FILENAME, busy_timeout=0.3).close()
            return "opened although another program held an exclusive lock"
        except StoreBusy as exc:
            if "intact" not in str(exc):
                return f"unclear message: {exc}"
        except Exception as exc:
            return f"not reported as a lock: {type(exc).__name__}: {exc}"
    return judge(tmp, written, _snapshot(tmp), must_open=True)


def _write_lock_at_start(tmp: Path, rng: random.Random) -> str | None:
    """A backup writing: reading needs no lock in WAL mode, so the app starts at once."""
    written = healthy(tmp, rng)
    with locked_by_sqlite3(tmp / FILENAME, "write", 1.0):
        return judge(tmp, written, {}, must_open=True, busy_timeout=0.3)


def _held_briefly(tmp: Path, rng: random.Random) -> str | None:
    written = healthy(tmp, rng)
    with locked_by_sqlite3(tmp / FILENAME, rng.choice(["write", "exclusive"]), 0.3):
        return judge(tmp, written, {}, must_open=True, busy_timeout=10)


def _move_while_locked(tmp: Path, rng: random.Random) -> str | None:
    healthy(tmp, rng)
    with Store(tmp / FILENAME, busy_timeout=0.3) as store:
        session = Session.start(store, "uttt", players=["you", "friend"])
        before = list(session.actions)
        with locked_by_sqlite3(tmp / FILENAME, "write", 1.0):
            try:
                session.play(session.state.legal_actions()[0])
                return "a move was reported saved while the database was locked"
            except StoreBusy:
                pass
        if session.actions != before or store.actions(session.id) != before:
            return "the refused move changed the game"
        session.play(session.state.legal_actions()[0])  # and once free, play goes on
        return None if store.actions(session.id) == session.actions else "later move lost"


def _start(path: str, barrier, results) -> None:
    barrier.wait()
    try:
        with Store(path, busy_timeout=10) as store:
            results.put(("ok", store.set_aside, store.schema_version))
    except Exception as exc:  # reported to the parent, which judges
        results.put(("error", f"{type(exc).__name__}: {exc}", None))


def _simultaneous_starts(tmp: Path, rng: random.Random, processes: int = 4) -> str | None:
    context = multiprocessing.get_context("forkserver")  # never fork(): threads may run here
    barrier, results = context.Barrier(processes), context.Queue()
    workers = [context.Process(target=_start, args=(str(tmp / FILENAME), barrier, results))
               for _ in range(processes)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join()
    for status, detail, version in outcomes:
        if status != "ok":
            return f"a simultaneous start failed: {detail}"
        if detail is not None:
            return f"a simultaneous start set the fresh database aside: {detail}"
    return None if list(tmp.glob("*.unreadable-*")) == [] else "a database was set aside"


def _second_instance(tmp: Path, rng: random.Random) -> str | None:
    with Store.in_dir(tmp):
        child = subprocess.run(
            [os.sys.executable, "-c", "import sys; from companion.store import Store\n"
             "try:\n Store.in_dir(sys.argv[1])\nexcept Exception as e:\n"
             " print(type(e).__name__); sys.exit(3)", str(tmp)],
            capture_output=True, text=True, timeout=60)
        if child.returncode != 3 or child.stdout.strip() != DataDirInUse.__name__:
            return f"a second instance was not refused: {child.stdout} {child.stderr[-300:]}"
    with Store.in_dir(tmp):  # released with the first: a later start is fine
        return None


def _stale_instance(tmp: Path, rng: random.Random) -> str | None:
    healthy(tmp, rng)
    with Store(tmp / FILENAME) as one, Store(tmp / FILENAME) as other:
        session = Session.start(one, "uttt", players=["a", "b"])
        for _ in range(3):
            session.play(session.state.legal_actions()[0])
        stale = Session.resume(other, session.id)
        session.undo(2)
        try:
            stale.play(stale.state.legal_actions()[0])
            return "a stale copy appended past a gap"
        except OutOfSequence:
            pass
        logged = one.actions(session.id)
        if logged != session.actions:
            return "the log changed"
        stale = Session.resume(other, session.id)
        session.play(session.state.legal_actions()[0])
        session.play(session.state.legal_actions()[0])
        try:
            stale.undo(1)  # would delete the other copy's two new moves too
            return "a stale copy's undo took back moves it never saw"
        except OutOfSequence:
            pass
        return None if one.actions(session.id) == session.actions else "the log changed"


def _disk_full_on_move(tmp: Path, rng: random.Random) -> str | None:
    healthy(tmp, rng)
    with Store(tmp / FILENAME) as store:
        session = Session.start(store, "uttt", players=["you", "friend"])
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own "disk is full"
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try:
            while True:  # fill what is left of the last pages with moves, until refused
                session.play(session.state.legal_actions()[0])
                if session.state.is_over():
                    session = Session.start(store, "uttt", players=["you", "friend"])
        except StoreUnwritable as exc:
            if "full" not in str(exc):
                return f"unclear message: {exc}"
        except StoreError as exc:
            return f"not reported as a full disk: {exc}"
        if store.actions(session.id) != session.actions:
            return "the refused move is in the log"
    return None


def _read_only_on_move(tmp: Path, rng: random.Random) -> str | None:
    healthy(tmp, rng)
    store = Store(tmp / FILENAME)
    session = Session.start(store, "uttt", players=["you", "friend"])
    session.play(session.state.legal_actions()[0])
    store.close()
    with read_only(tmp):
        try:
            Store(tmp / FILENAME).close()
            return "opened read-only as writable"
        except StoreUnwritable:
            pass
    with Store(tmp / FILENAME) as store:
        return None if store.actions(session.id) == session.actions else "a move was lost"


def _full_disk_at_start(tmp: Path, rng: random.Random) -> str | None:
    disk = tmp / "disk"
    disk.mkdir()
    with tiny_disk(disk):
        written = healthy(disk, rng)
        fill(disk)
        try:
            with Store(disk / FILENAME) as store:  # reading needs no space: it may open
                session = Session.resume(store, next(iter(written)))
                try:
                    session.play(session.state.legal_actions()[0])
                    return "a move was reported saved on a full disk"
                except StoreUnwritable:
                    pass
        except StoreUnwritable:
            pass
        except Exception as exc:
            return f"crashed: {type(exc).__name__}: {exc}"
        (disk / "filler").unlink()
        return judge(disk, written, {}, must_open=True)


LOCKS = {
    "write_lock_at_start": _write_lock_at_start,
    "exclusive_lock_held_too_long": _exclusive_lock_held_too_long,
    "lock_held_briefly": _held_briefly,
    "move_while_locked": _move_while_locked,
    "simultaneous_starts": _simultaneous_starts,
    "second_instance": _second_instance,
    "stale_instance": _stale_instance,
    "disk_full_on_move": _disk_full_on_move,
    "read_only_on_move": _read_only_on_move,
    "full_disk_at_start": _full_disk_at_start,
}


@contextlib.contextmanager
def read_only(directory: Path):
    """Make `directory` read-only for this process: permissions, or as root (whom
    permissions do not stop) a read-only bind mount of it."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [directory, *directory.iterdir()]}
        for p in modes:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    bind = subprocess.run(["mount", "--bind", str(directory), str(directory)],
                          capture_output=True)
    if bind.returncode != 0:
        raise Unavailable("as root, but cannot bind-mount to make a directory read-only")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(directory)], check=True,
                       capture_output=True)
        yield
    finally:
        subprocess.run(["umount", str(directory)], check=True, capture_output=True)


@contextlib.contextmanager
def tiny_disk(directory: Path, size: str = "1m"):
    """A real small disk (tmpfs) mounted on `directory`: root only."""
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}",
                                            "tmpfs", str(directory)],
                                           capture_output=True).returncode:
        raise Unavailable("a full disk needs a tmpfs mount (root)")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=True, capture_output=True)


def fill(directory: Path) -> None:
    """Fill the disk under `directory` to the last byte (ENOSPC), as an SD card fills."""
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while os.write(fd, b"x" * 512):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


def run(cases: dict, name: str, rng: random.Random) -> str | None:
    with tempfile.TemporaryDirectory(prefix=f"store-{name}-") as tmp:
        return cases[name](Path(tmp), rng)


def figures(count: int, seed: int) -> dict:
    """{class: {tried, accepted_wrongly[, first_failure | skipped]}} for every class."""
    rng = random.Random(seed)
    out = {}
    for cases in (DAMAGE, LOCKS):
        for name in cases:
            row = out[name] = {"tried": 0, "accepted_wrongly": 0}
            for _ in range(count):
                try:
                    problem = run(cases, name, rng)
                except Unavailable as exc:
                    row["skipped"] = str(exc)
                    break
                row["tried"] += 1
                if problem:
                    row["accepted_wrongly"] += 1
                    row.setdefault("first_failure", problem)
    return out
