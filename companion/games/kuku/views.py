"""What each screen of 九九戦艦 may show: the one gate for its hidden information.

The table's view holds the attacks, hits and announcements (players say them aloud);
a seat's view adds its own fleet.  Ships are spelled with their seat ("1:leader@4×6"),
so `secrets(seat)` can list them verbatim and no seat's ship reads like another's.
Fleets become public when a refereed game is over.
"""

from __future__ import annotations


def ship_token(seat: int, kind: str, cell: str) -> str:
    """How a ship is spelled in views: ``"1:leader@4×6"`` (seat 1's leader on 4×6).

    The seat is part of the spelling so that one seat's ship can never read like
    another's, in a view or in `secrets`.
    """
    return f"{seat}:{kind}@{cell}"


def ship_of(token: str) -> tuple[str, str]:
    """(kind, cell) of a ship token."""
    kind, _, cell = token.partition(":")[2].partition("@")
    return kind, cell


def fleet_tokens(state, seat: int) -> list[str]:
    return [ship_token(seat, kind, cell) for cell, kind in state.fleets[seat]]


def view(state, seat: int | None) -> dict:
    public = {
        "game": state.game,
        "mode": state.mode,
        "rule": state.rule,
        "first": state.first,
        "phase": state.phase,
        "to_move": state.to_move(),
        "turn": state.turn,
        "placed": [len(fleet) for fleet in state.fleets],
        "markers": state.attacked(),
        "remaining": list(state.remaining()),
        "bomb": state.pending if state.phase == "list" else None,
        "awaiting": _awaiting(state),
        "last": state.history[-1] if state.history else None,
        "history": list(state.history),
        "outcome": state.result.to_json() if state.result else None,
    }
    if state.phase == "over" and state.mode == "referee":
        public["fleets"] = [fleet_tokens(state, s) for s in (0, 1)]
    if seat is None or state.mode == "tracker":
        return public | {"seat": seat}
    sunk = set(state.hits[seat])
    return public | {
        "seat": seat,
        "fleet": fleet_tokens(state, seat),
        "sunk": [ship_token(seat, kind, cell) for cell, kind in state.fleets[seat] if cell in sunk],
    }


def _awaiting(state) -> dict | None:
    """What the tracker is waiting for (reports are public: players announce hits aloud)."""
    if state.phase not in ("report", "leader"):
        return None
    key = "reports" if state.phase == "report" else "leaders"
    return {"cells": state.pending["record"]["cells"], "seat": state._awaited_seat(), key: state.pending[key]}


def secrets(state, seat: int) -> list[str]:
    """`seat`'s ships while they are hidden (a refereed game not yet over)."""
    if state.mode == "tracker" or state.phase == "over":
        return []
    return fleet_tokens(state, seat)
