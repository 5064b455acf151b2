"""Seat claims in SQLite, beside the game they belong to.

A phone that claimed a seat holds a device key; only its SHA-256 is stored, with the
highest message number applied for it (so a message is applied at most once, even
across a restart).  The table lives in the store's own database (store migration 3) and
goes with its game (ON DELETE CASCADE).  Every row carries a check (migration 6): a row
that fails it (a seat or a game number flipped on the card would hand a phone another
seat's secrets) is no claim, and the seat it blocks can be claimed again.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from companion.migrations import claim_crc

COLUMNS = "game_id, seat, key_hash, last_seq, claimed, crc"

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
        rows = self._db.execute(f"SELECT {COLUMNS} FROM seat_claims WHERE game_id = ?", (game_id,))
        return {row[1]: Claim(*row[:4]) for row in rows if _sound(row)}

    def by_key(self, key: str) -> Claim | None:
        return self.by_hash(digest(key))

    def by_hash(self, key_hash: str) -> Claim | None:
        row = self._db.execute(f"SELECT {COLUMNS} FROM seat_claims WHERE key_hash = ?",
                               (key_hash,)).fetchone()
        return Claim(*row[:4]) if row and _sound(row) else None

    def claim(self, game_id: int, seat: int) -> str | None:
        """A fresh device key for `seat`, or None when the seat is already claimed."""
        key, claimed = secrets.token_urlsafe(32), float(self.store.clock())
        for row in self._db.execute(f"SELECT {COLUMNS} FROM seat_claims WHERE game_id = ? AND seat = ?",
                                    (game_id, seat)).fetchall():
            if not _sound(row):  # a damaged claim holds no seat
                self._db.execute("DELETE FROM seat_claims WHERE game_id = ? AND seat = ?", (game_id, seat))
        fields = (game_id, seat, digest(key), 0, claimed)
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO seat_claims (game_id, seat, key_hash, last_seq, claimed, crc)"
            " VALUES (?, ?, ?, ?, ?, ?)", (*fields, claim_crc(*fields)))
        return key if cursor.rowcount == 1 else None

    def release(self, game_id: int, seat: int) -> bool:
        cursor = self._db.execute("DELETE FROM seat_claims WHERE game_id = ? AND seat = ?", (game_id, seat))
        return cursor.rowcount == 1

    def advance(self, key_hash: str, seq: int) -> bool:
        """Record message `seq` as used; False (nothing changed) unless it is newer than the
        last and the claim passes its check."""
        row = self._db.execute(f"SELECT {COLUMNS} FROM seat_claims WHERE key_hash = ?", (key_hash,)).fetchone()
        if row is None or not _sound(row) or not row[3] < seq:
            return False
        game_id, seat, _, _, claimed, _ = row
        cursor = self._db.execute(
            "UPDATE seat_claims SET last_seq = ?, crc = ? WHERE key_hash = ? AND last_seq < ?",
            (seq, claim_crc(game_id, seat, key_hash, seq, claimed), key_hash, seq))
        return cursor.rowcount == 1


def _sound(row) -> bool:
    """Whether a seat_claims row (COLUMNS) passes its check."""
    return row[5] == claim_crc(*row[:5])
