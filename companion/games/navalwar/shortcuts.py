"""Naval War: entries of several actions that people make as one tap or two (issue 17).

The choice panels offer every legal action on its own (choices.py); beside them:
- a black card drawn and a card then played: the hand's cards are offered at the draw
  itself (the draw is implied), and at the turn's choice of a player with carriers;
- a red card drawn that has nothing to aim at (艦艇追加, or one only discarded): drawn and
  played in its one touch (one with a target takes two: the card, the target);
- that choice: a ship tapped at once is the air strike's target;
- the first turn: "no more red cards" for the player to move and every one after
  (the refills taken as black cards).
Each is `(path, actions)`.  And when the companion rolls the dice, each die an entry
calls for joins it (`rolls`).  Actions are found by their steps' ids (`named`), never
spelled here, so the rules may spell them as they like.
"""

from __future__ import annotations

from typing import Callable

from companion.games.navalwar.choices import Step
from companion.play.controller import Text

Paths = Callable  # (state, actions) -> one path of steps per action


def extras(state, paths: Paths) -> list[tuple[list[Step], tuple]]:
    kind = _kind(state)
    if kind == "choose":
        return (_after(state, paths, "draw", lambda s: _red_draw(s, paths) + _singles(s, paths) + _black_draw(s, paths))
                + _after(state, paths, "air_strike", lambda s: _singles(s, paths)))
    if kind == "draw":
        return _red_draw(state, paths) + _black_draw(state, paths)
    if kind == "stage_hand":
        return _no_more_red(state, paths)
    return []


def named(state, paths: Paths, step: str):
    """The legal action entered by the one step `step` (None: there is none)."""
    actions = state.legal_actions()
    return next((a for a, p in zip(actions, paths(state, actions)) if [s[0] for s in p] == [step]), None)


def _kind(state) -> str | None:
    waiting = state.view(None)["waiting"]
    return waiting["kind"] if waiting else None


def _singles(state, paths: Paths) -> list:
    actions = state.legal_actions()
    return [(p, (a,)) for p, a in zip(paths(state, actions), actions)]


def _after(state, paths: Paths, step: str, then) -> list:
    """`then(state after the action of `step`)`, each entry led by that action."""
    action = named(state, paths, step)
    if action is None:
        return []
    return [(p, (action, *acts)) for p, acts in then(state.apply(action))]


def _black_draw(state, paths: Paths) -> list:
    """A black card drawn, then any card of the hand played or discarded by the same player."""
    seat = state.view(None)["seat"]
    return _after(state, paths, "hidden", lambda s: _singles(s, paths)
                  if _kind(s) == "play" and s.view(None)["seat"] == seat else [])


def _red_draw(state, paths: Paths) -> list:
    """A red card drawn and, when that is all it can do, played (or discarded) with it."""
    found = []
    actions = state.legal_actions()
    for path, action in zip(paths(state, actions), actions):
        if action["card"] != "hidden":
            after = state.apply(action)
            if _kind(after) == "red" and len(after.legal_actions()) == 1:
                found.append((path, (action, *after.legal_actions())))
    return found


def _no_more_red(state, paths: Paths) -> list:
    """No red card left in any hand of the first turn: each "no red card", and the refills black."""
    actions, seats = [], []
    while state.view(None)["phase"] == "stage":
        kind = _kind(state)
        action = named(state, paths, "no_red" if kind == "stage_hand" else "hidden" if kind == "draw" else "")
        if action is None:
            break
        if kind == "stage_hand":
            seats.append(state.view(None)["seat"])
        actions.append(action)
        state = state.apply(action)
    if len(seats) < 2:
        return []
    label = Text("navalwar_ui.no_red_rest", {"n": len(seats)})  # a count: nine names made the button tall
    return [([("no_red_rest", label)], tuple(actions))]


def rolls(state, actions: list, rng) -> list[tuple[dict, dict]]:
    """The companion's dice after `actions`, appended to them: each die the game then awaits
    (never another chance), rolled with `rng`, with the decision it answers."""
    rolled = []
    for action in actions:
        state = state.apply(action)
    while _kind(state) == "die":
        die = rng.choice(state.legal_actions())
        actions.append(die)
        rolled.append((state.view(None)["waiting"], die))
        state = state.apply(die)
    return rolled
