"""What the games' tests share: a store of their own, or one saved by an older companion."""

import sqlite3
from pathlib import Path

import pytest

from companion.store import FILENAME, Store

SCHEMA_1 = Path(__file__).parents[1] / "data" / "store-schema-1.sql"


@pytest.fixture
def store(tmp_path):
    with Store.in_dir(tmp_path) as store:
        yield store


@pytest.fixture
def old_store(tmp_path):
    """Unfinished games as the schema-1 companion saved them (before lineups were stored),
    migrated on opening; `old_store.saved(scoreboard)` is the id of the game on it."""
    db = sqlite3.connect(tmp_path / FILENAME)
    db.executescript(SCHEMA_1.read_text())
    db.close()
    with Store.in_dir(tmp_path) as store:
        store.saved = lambda board: next(g.id for g in store.games("active") if g.scoreboard == board)
        yield store
