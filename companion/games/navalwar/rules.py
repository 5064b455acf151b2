"""ネイバルウォー Naval War (docs/rules.md §navalwar): a tracker for a physical game of 3-9 players.

The companion sees what the table shows, never the shuffled decks or the
hands: a draw is entered as `{"type": "draw", "card": "hidden"}` (a black card
into the hand) or `{"type": "draw", "card": key}` (a red card, shown and played
at once); a card's identity becomes known when it is played or discarded;
dealt and added ships, the first player and dice are chance decisions.  Every
action is `{"type": kind, ...}`; the kinds and their fields are listed in `moves`.

Where docs/rules.md §navalwar is silent, this engine decides:
- round 1's first player is a chance decision; later rounds start with the
  leader, tied leaders -> the first of them clockwise from the last first player;
- a squadron whose owner faces only smoke-covered fleets waits in the middle and
  the owner takes a normal turn; two surviving squadrons both attack that turn;
- all carriers take part in an air strike; a die for a ship already sunk is skipped;
- the carrier screen applies to every targeted attack, additional damage too, also
  for a carrier hit while alone and screened again by a ship that joined later;
- minesweeper and repair are offered only when there is something to remove
  (otherwise the card can be discarded);
- an eliminated player's hand goes to the discard pile unseen (counted, not named);
  the cards under a sunk ship and on a destroyed squadron are discarded.

Options: `players` (3-9; 2 is a house rule, marked in the view), `target`
(the total that ends the game, 100), `deck` (None for the packaged
composition, or `Composition.to_json()` of the players' own copy), `dice` (who rolls
the dice: "table", the players, whose rolls are entered, or "companion", whose rolls
the controller enters with the action that called for them; the rules need not know).
"""

from __future__ import annotations

import json
import marshal
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Mapping

from companion import i18n
from companion.errors import CompanionError
from companion.play.state import CHANCE, Game, Refused, Outcome, State
from companion.games.navalwar.data import Composition, default_composition, override, reduced_counts
from companion.games.navalwar.flow import do, hand_size, settle, start_round, totals
from companion.games.navalwar.moves import CHANCE_KINDS, options
from companion.games.navalwar.odds import conservation_problems, next_draw_odds
from companion.games.navalwar.views import public_view

DICE = ("table", "companion")  # the `dice` option
__all__ = ["DICE", "GAME", "Ending", "NavalWarState", "card_conservation", "next_draw_odds"]


class Ending(StrEnum):
    """How a game ends (its `Outcome.reason`)."""

    TARGET_REACHED = "target_reached"  # a round's end with someone at the target score


_COMPOSITIONS: dict[str, Composition] = {}


def composition_of(opts: Mapping[str, Any]) -> Composition:
    """The composition a game plays with (cached: states share it)."""
    deck = opts.get("deck")
    if deck is None:
        return default_composition()
    key = json.dumps(deck, sort_keys=True)
    if key not in _COMPOSITIONS:
        _COMPOSITIONS[key] = override(deck, "deck option")
    return _COMPOSITIONS[key]


@dataclass(frozen=True, eq=False)
class NavalWarState(State):
    """One moment of a Naval War game (immutable; `apply` returns a new one).

    `data` is the table as plain JSON; the flow (flow.py) works on a private copy of it
    when an action is applied, never on a state's own.
    """

    data: dict
    comp: Composition | None = None

    game = "navalwar"

    def __post_init__(self) -> None:
        if self.comp is None:
            object.__setattr__(self, "comp", composition_of(self.data["options"]))

    @property
    def seats(self) -> int:
        return self.data["options"]["players"]

    @property
    def composition(self) -> Composition:
        assert self.comp is not None, "__post_init__ sets it"
        return self.comp

    def to_move(self) -> int | None:
        todo = self.data["table"]["todo"]
        if not todo:
            return None
        return CHANCE if todo[0]["kind"] in CHANCE_KINDS else self.data["seat"]

    def legal_actions(self) -> list:
        return options(self.data, self.composition)

    def apply(self, action) -> "NavalWarState":
        only = action.get("card") if isinstance(action, dict) and action.get("type") == "play" else None
        legal = options(self.data, self.composition, only if isinstance(only, str) else None)
        if action not in legal or not _same(action, legal[legal.index(action)]):
            raise self._refusal(action)  # True equals 1 in Python, never as a seat
        canonical = legal[legal.index(action)]
        data = _copy(self.data)
        do(data, self.composition, canonical)
        settle(data, self.composition)
        return self.evolve(data=data)

    def _refusal(self, action) -> Refused:
        todo = self.data["table"]["todo"]
        if not todo:
            return Refused("navalwar.error.over")
        return Refused("navalwar.error.not_now", action=json.dumps(action, ensure_ascii=False),
                             waiting=todo[0]["kind"])

    @property
    def phase(self) -> str:
        """"setup", "deal", "stage", "turn" or "over"."""
        return self.data["phase"]

    def outcome(self) -> Outcome | None:
        if self.data["phase"] != "over":
            return None
        return Outcome(self.data["winner"], Ending.TARGET_REACHED, tuple(totals(self.data)))

    def to_json(self) -> dict:
        return {**_copy(self.data), "options": marshal.loads(marshal.dumps(self.data["options"]))}

    def view(self, seat: int | None) -> dict:
        """Everything is public in Naval War: each seat sees the shared table."""
        table = public_view(self.data, self.composition, self.to_move())
        return table if seat is None else {**table, "you": seat}


def _copy(d: dict) -> dict:
    """A deep copy of the changing part; the options are shared (never changed)."""
    data = marshal.loads(marshal.dumps({k: v for k, v in d.items() if k != "options"}))
    data["options"] = d["options"]
    return data


def card_conservation(state: NavalWarState) -> list[str]:
    """Every problem with card conservation (empty when every card is in one place)."""
    return conservation_problems(state.to_json(), state.composition)


def new_state(opts: dict) -> NavalWarState:
    players, target = opts["players"], opts["target"]
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 9:
        raise Refused("navalwar.error.players")
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise Refused("navalwar.error.target")
    if opts["dice"] not in DICE:
        raise Refused("navalwar.error.dice")
    try:
        comp = composition_of(opts)
    except CompanionError as err:
        raise Refused("navalwar.error.deck", error=str(err)) from None
    size = hand_size(players)
    if len(comp.ships) < players * size or comp.total_actions <= players * size:
        raise Refused("navalwar.error.too_few", players=players, ships=players * size,
                            actions=players * size + 1)
    data = {"options": dict(opts), "round": 1, "phase": "setup", "seat": None,
            "stage_order": [], "history": [], "last_round": None, "winner": None}
    start_round(data, comp, None)
    return NavalWarState(data, comp)


def state_from_json(data: Mapping) -> NavalWarState:
    return NavalWarState(marshal.loads(marshal.dumps(dict(data))))


GAME = Game(
    name="navalwar",
    title=i18n.both("navalwar.title"),
    default_options={"players": 4, "target": 100, "deck": None, "dice": "table"},
    new_state_fn=new_state,
    state_from_json_fn=state_from_json,
    # short decks (every card kind, fewer copies) keep the suite's replays quick;
    # tests/games/navalwar/test_playouts.py plays the full deck
    sample_options=(
        {"players": 3, "target": 1, "deck": {"counts": reduced_counts(default_composition(), 8)}},
        {"players": 9, "target": 1, "deck": {"counts": reduced_counts(default_composition(), 3)},
         "dice": "companion"},
        {"players": 2, "target": 1, "deck": {"counts": reduced_counts(default_composition(), 8)}},
    ),
    place=3, glyph="艦", colour=(0.25, 0.30, 0.55, 1),  # its home tile
    describe_fn=lambda options: [i18n.Words("navalwar.mode.players", n=options["players"]),
                                 i18n.Words("navalwar.mode.target", n=options["target"])],
    endings=Ending,
)


def _same(a, b) -> bool:
    """Equal, a yes/no never standing for a number: true is not seat 1 (6.0 is 6)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b
