"""What a failure of the store is, and SQLite's and the disk's errors said to a person.

Every `StoreError` message says what to do; `translate` turns an sqlite3 or OS error met
while doing something into one.  (Split from `companion.store`, which raises them all and
is where callers import them from.)
"""

from __future__ import annotations

import errno
from pathlib import Path

from companion.errors import CompanionError


class StoreError(CompanionError):
    """The database could not be used; the message says why and what to do."""


class StoreBusy(StoreError):
    """Another program holds the database's lock for longer than we wait."""


class StoreUnwritable(StoreError):
    """The disk is read-only or full: nothing was written, nothing lost."""


class OutOfSequence(StoreError):
    """An action whose number does not follow the game's log (a stale copy of the game)."""


class UnreadableGame(StoreError):
    """A game whose stored rows cannot be read: left out, kept on disk for repair."""


class DataDirInUse(StoreError):
    """Another companion already uses this data directory."""


# SQLite's primary result codes (https://sqlite.org/rescode.html) by what they mean for us.
BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED
DAMAGED = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
UNWRITABLE = {3, 8, 10, 13, 14}  # PERM, READONLY, IOERR, FULL, CANTOPEN


class CorruptFile(Exception):
    """Internal: the file is not a healthy companion database (set it aside)."""


def code_of(exc: BaseException) -> int | None:
    """SQLite's primary result code of an sqlite3 error (None for other errors)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if code is not None else None


def translate(exc: BaseException, path: Path, doing: str) -> StoreError:
    """A StoreError a person can act on for an sqlite3 or OS error met while `doing`."""
    code = code_of(exc)
    if code in BUSY:
        return StoreBusy(
            f"{path} is locked by another program (a backup, or sqlite3 in a terminal?) and "
            f"stayed locked while {doing}. Nothing was changed and "
            "every game is intact: close that program and try again.")
    if code == 13 or getattr(exc, "errno", None) == errno.ENOSPC:
        return StoreUnwritable(
            f"the disk holding {path} is full ({doing}). Nothing was lost, but nothing new "
            "can be saved: free some space (df -h shows it) and try again.")
    if code in UNWRITABLE or isinstance(exc, OSError):
        return StoreUnwritable(
            f"{path} cannot be written ({doing}: {exc}). Nothing was lost: make the data "
            "directory writable for this user (ls -l shows who owns it; a read-only SD card "
            "or mount?) and try again.")
    return StoreError(f"{path}: {exc} ({doing})")
