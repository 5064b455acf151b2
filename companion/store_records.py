"""What a stored game is, and whether a row read from the database is one: a `GameRecord`
only if every field passes the row's check and reads as the store writes it, else a
`Damaged` naming the game, so no game code ever reads a damaged field (issue 26).  Split
from `companion.store`, which reads the rows and is where callers import these from."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.clock import Moment
from companion.migrations import GAME_FIELDS, game_crc
from companion.store_errors import UnreadableGame

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
    players: list[str]  # checked: strings (`check` below)
    scoreboard: str | None
    created: float
    updated: float
    status: str
    outcome: dict | None
    lineup: Lineup = Lineup()
    moves: int = 0  # how many actions its log holds
    revision: int = 0  # one more with every write: a stale copy's write is refused
    written: int = 0  # its last write's place in the order of all writes: the newest is largest
    boot: str | None = None  # that write's moment (`companion.clock`), with `updated`
    uptime: float | None = None
    synced: bool | None = None

    @property
    def moment(self) -> Moment:
        """When it was last written, as `companion.clock` compares moments."""
        return Moment(self.updated, self.boot, self.uptime, self.synced)


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


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def decode_text(raw: bytes) -> str | bytes:
    """A TEXT value; one that is not UTF-8 (damage) stays bytes, which no reader accepts,
    so only the row holding it is reported, never the whole table."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def load(text):
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None


SELECT_GAMES = (f"SELECT {', '.join(GAME_FIELDS)}, crc,"  # and how many moves are stored
                "(SELECT count(*) FROM actions WHERE game_id = games.id) FROM games")


def status_for(outcome: dict | None) -> str:
    return "finished" if outcome else "active"


def read_game(row) -> "GameRecord | Damaged":
    """A games row as read: a `GameRecord` only if every field passes the row's check and
    reads as the store wrote it, else a `Damaged` naming the game (never an exception)."""
    try:
        return _checked(row)
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
        return Damaged(row[0], kind_name(row[1]), f"{type(exc).__name__}: {exc}")


def kind_name(kind) -> str:
    """A stored name as text (a damaged one, not text, as its repr)."""
    return kind if isinstance(kind, str) else repr(kind)


def _checked(row) -> "GameRecord | Damaged":
    (id_, kind, options, players, scoreboard, created, updated, status, outcome, lineup,
     moves, revision, written, boot, uptime, synced, crc, stored) = row
    if crc is None or crc != game_crc(*row[:-2]):
        return Damaged(id_, kind_name(kind), "it was changed on disk: its check does not match")
    if stored != moves:
        return Damaged(id_, kind, f"it has {stored} moves stored, its record says {moves}")
    read_lineup = Lineup.from_json(load(lineup))
    record = GameRecord(id_, kind, load(options), load(players), scoreboard, created, updated,
                        status, load(outcome) if outcome is not None else None,
                        read_lineup or Lineup(), moves, revision, written, boot, uptime,
                        None if synced is None else bool(synced))
    bad = _unlike_written(record, read_lineup)
    return Damaged(id_, kind, f"its {bad} is not as the companion writes it") if bad else record


def _unlike_written(r: GameRecord, lineup: Lineup | None) -> str | None:
    """The first field of a record (whose check passed: a row written by an older companion,
    or mended by hand) that is not of the shape the store writes, else None (`lineup`: as read)."""
    if not isinstance(r.options, dict):
        return "options"
    if not isinstance(r.players, list) or not all(isinstance(p, str) for p in r.players):
        return "players"
    if lineup is None:
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
