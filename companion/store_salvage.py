"""What a set-aside database still gives back (issue 26).

SQLite may call a file damaged (its quick check fails: a broken index, a page of another
table) while most of its rows still read.  Setting the whole file aside then took every
game out of Resume until someone repaired it.  Now the rows that still read, table by
table under the current schema's columns, are copied into the new database.  Each row
keeps its own check, so a row the damage reached is named at the store's edge like any
damaged game, and a game that lost a move no longer matches its row's count of moves.
The file itself stays where it was set aside, untouched.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.migrations import MIGRATIONS, SCHEMA
from companion.store_records import decode_text


def salvage(aside: Path, db: sqlite3.Connection) -> int:
    """Copy what `aside` still reads into `db` (new, of the current schema); the number of
    games copied.  An old file of another schema version, or one that opens not at all,
    gives nothing back."""
    try:
        old = sqlite3.connect(f"{aside.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    old.text_factory = decode_text
    try:
        old.execute("PRAGMA writable_schema=ON")  # a damaged line of the schema hides no other table
        if old.execute("PRAGMA user_version").fetchone()[0] != len(MIGRATIONS):
            return 0
        db.execute("BEGIN IMMEDIATE")
        try:
            copied = {table: _copy(old, db, table, columns) for table, columns in SCHEMA.items()}
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return copied.get("games", 0)
    except (sqlite3.Error, UnicodeDecodeError):
        return 0
    finally:
        old.close()


def _copy(old: sqlite3.Connection, db: sqlite3.Connection, table: str, columns: list[str]) -> int:
    """The rows of `table` that read, in the order SQLite gives them, up to the first that
    does not; a row the new database refuses (its game lost, a broken CHECK) is left out."""
    names, marks = ", ".join(columns), ", ".join("?" * len(columns))
    copied = 0
    try:  # by position: the damage may have renamed a column in the schema's text, and a
        # row in the wrong columns fails its own check
        rows = old.execute(f"SELECT * FROM {table}")
        if len(rows.description) != len(columns):
            return 0
        for row in rows:
            try:
                db.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", row)
                copied += 1
            except sqlite3.IntegrityError:
                continue
    except sqlite3.DatabaseError:  # the rest of the table is past the damage (or renamed by it)
        pass
    return copied
