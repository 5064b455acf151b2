"""Seat claims in SQLite, beside the game they belong to.

A phone that claimed a seat holds a device key; only its SHA-256 is stored, with the
highest message number applied for it (so a message is applied at most once, even
across a restart).  The table lives in the store's own database (store migration 3) and
goes with its game (ON DELETE CASCADE).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()  # any str a frame may hold


@dataclass(frozen=True)
class Claim:
    game_id: int
    seat: int
    key_hash: str
    last_seq: int


class Claims:
    """The claims over a `Store`'s connection; used from the store's thread only."""

    def __init__(self, store):
        self.store = store
        self._db = store._db  # the store's one connection (single-threaded, autocommit)

    def of_game(self, game_id: int) -> dict[int, Claim]:
        rows = self._db.execute("SELECT game_id, seat, key_hash, last_seq FROM seat_claims"
                                " WHERE game_id = ?", (game_id,))
        return {row[1]: Claim(*row) for row in rows}

    def by_key(self, key: str) -> Claim | None:
        return self.by_hash(digest(key))

    def by_hash(self, key_hash: str) -> Claim | None:
        row = self._db.execute("SELECT game_id, seat, key_hash, last_seq FROM seat_claims"
                               " WHERE key_hash = ?", (key_hash,)).fetchone()
        return Claim(*row) if row else None

    def claim(self, game_id: int, seat: int) -> str | None:
        """A fresh device key for `seat`, or None when the seat is already claimed."""
        key = secrets.token_urlsafe(32)
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO seat_claims (game_id, seat, key_hash, claimed) VALUES (?, ?, ?, ?)",
            (game_id, seat, digest(key), self.store.clock()))
        return key if cursor.rowcount == 1 else None

    def release(self, game_id: int, seat: int) -> bool:
        cursor = self._db.execute("DELETE FROM seat_claims WHERE game_id = ? AND seat = ?", (game_id, seat))
        return cursor.rowcount == 1

    def advance(self, key_hash: str, seq: int) -> bool:
        """Record message `seq` as used; False (nothing changed) unless it is newer than the last."""
        cursor = self._db.execute("UPDATE seat_claims SET last_seq = ? WHERE key_hash = ? AND last_seq < ?",
                                  (seq, key_hash, seq))
        return cursor.rowcount == 1
