"""What each screen of 軍艦将棋 may show: the one gate for its hidden information.

The public view holds outcomes only: who attacked, what the defender declared
(ship / mine / port are announced at the table), the verdict and what each side
removes ("your attacking piece", never its class), and, judging "seesaw", whether
the counterweight was declared (it is placed in plain sight).  During the game it
never names a ship class or spells a rank, so `secrets` can list them verbatim.
Judging "identify", the full report with identities becomes public at the end.

Text keys for screens (catalog `companion/games/gunkan/locale.yaml`, gunkan:):
"gunkan.prompt.<prompt>", "gunkan.verdict.<verdict>", "gunkan.remove.<remove>",
"gunkan.outcome.<reason>", "gunkan.declared.<declared>", "gunkan.piece.<piece>".
"""

from __future__ import annotations

from typing import overload

from companion.games.gunkan.table import FLEET, PIECES, RANK, REMOVALS, rank_label

_PROMPTS = {"idle": "start_battle", "declare": "declare", "counterweight": "counterweight",
            "weigh": "weigh", "mine": "mine_hit", "identify": "identify", "over": "over"}


def public_view(state) -> dict:
    """The shared screen."""
    revealed = _revealed(state)
    view = {
        "game": "gunkan",
        "judging": state.judging,
        "phase": state.phase,
        "prompt": _prompt(state),
        "to_move": state.to_move(),
        "battle": _current(state),
        "log": [_entry(state, n, battle, revealed) for n, battle in enumerate(state.battles, 1)],
        "removed": state.removed,
        "outcome": None if state.result is None else state.result.to_json(),
    }
    if revealed:
        view["report"] = [_tally(state, seat) for seat in range(state.seats)]
    return view


def seat_view(state, seat: int) -> dict:
    """One player's screen: the public view plus, judging "identify", its own pieces,
    spelled with the seat ("0:carrier", "0:①"; see `own`)."""
    view = {**public_view(state), "seat": seat}
    if state.judging == "identify":
        view["my_losses"] = _tally(state, seat)
        for entry, battle in zip(view["log"], state.battles):
            piece = battle.piece_of(seat)
            entry["my_piece"] = own(seat, piece)
            if piece in RANK:
                entry["my_rank"] = own(seat, rank_label(piece))
    return view


@overload
def own(seat: int, name: str) -> str:
    ...


@overload
def own(seat: int, name: None) -> None:
    ...


def own(seat: int, name: str | None) -> str | None:
    """A seat's own piece (or rank) as its view spells it: "0:carrier".  The seat keeps
    one side's fought carrier from reading like the other side's."""
    return None if name is None else f"{seat}:{name}"


def secrets(state, seat: int) -> list[str]:
    """The classes and ranks of `seat`'s fought ships, as its own view spells them."""
    if _revealed(state) or state.judging != "identify":
        return []  # judging "seesaw" the companion never learns a class
    ships = {battle.piece_of(seat) for battle in state.battles} & set(RANK)
    return sorted(own(seat, name) for ship in ships for name in (ship, rank_label(ship)))


def _revealed(state) -> bool:
    return state.judging == "identify" and state.result is not None


def _prompt(state) -> str:
    phase = state.phase
    if phase == "weigh" and state.current.counterweight and state.current.counterweight_off:
        return "remove_counterweight"
    return _PROMPTS[phase]


def _current(state) -> dict | None:
    battle = state.current
    if battle is None:
        return None
    shown = {"attacker": battle.attacker, "defender": battle.defender,
             "declared": battle.declared, "reweighs": battle.reweighs}
    if state.judging == "seesaw":
        shown["counterweight"] = battle.counterweight
    return shown


def _entry(state, number: int, battle, revealed: bool) -> dict:
    attacker_removes, defender_removes = REMOVALS[battle.verdict]
    entry = {"n": number, "attacker": battle.attacker, "defender": battle.defender,
             "declared": battle.declared, "verdict": battle.verdict,
             "remove": {"attacker": attacker_removes, "defender": defender_removes}}
    if state.judging == "seesaw" and battle.declared == "ship" or revealed:
        entry["counterweight"] = battle.counterweight
    if revealed:
        entry.update(_identity("attacker", battle.attacker_piece))
        entry.update(_identity("defender", battle.defender_piece))
    return entry


def _identity(prefix: str, piece: str | None) -> dict:
    shown = {f"{prefix}_piece": piece}
    if piece in RANK:
        shown[f"{prefix}_rank"] = rank_label(piece)
    return shown


def _tally(state, seat: int) -> dict:
    """A side's lost and remaining pieces by class (judging "identify")."""
    lost = state.lost[seat]
    return {"lost": {p: lost[p] for p in PIECES if lost[p]},
            "remaining": {p: FLEET[p] - lost[p] for p in PIECES}}
