"""Helpers shared by the Naval War tests (no tests here): scripted deals and turns."""

from companion.play.registry import get
from companion.games.navalwar.rules import card_conservation

GAME = get("navalwar")
NO_RED = {"type": "no_red"}
DRAW = {"type": "choose", "turn": "draw"}  # a normal turn: draw rather than strike
AIR_STRIKE = {"type": "choose", "turn": "air_strike"}

# Fleets dealt in the scripted games (calibre, defence): every kind of ship present.
FLEETS = [
    # 16/6, 15/5, 15/5, 11/5, carrier 3
    ["ship-nelson", "ship-warspite", "ship-hood", "ship-scharnhorst", "ship-shokaku"],
    # 18/9, 14/5, 11/3, 15/4, carrier 3
    ["ship-yamato", "ship-hyuga", "ship-lutzow", "ship-repulse", "ship-enterprise"],
    # 16/7, 15/8, 12.6/4, 11/3, 14/4
    ["ship-iowa", "ship-bismarck", "ship-andrea-doria", "ship-graf-spee", "ship-texas"],
    # 15/6, 14/5, 11/3, 15/4, 15/4
    ["ship-roma", "ship-kongo", "ship-scheer", "ship-renown", "ship-ramillies"],
]


def apply_all(state, actions):
    """Apply `actions` in turn, checking card conservation after each one.

    A drawn card at the start of a turn that offers an air strike first chooses to draw.
    """
    for action in actions:
        if action["type"] == "draw" and state.legal_actions() == [DRAW, AIR_STRIKE]:
            state = state.apply(DRAW)
        assert action in state.legal_actions(), (action, state.view(None)["waiting"])
        state = state.apply(action)
        assert card_conservation(state) == [], action
    return state


def dealt(players=4, first=0, fleets=None, **options):
    """A game just dealt: `first` is about to take the first (special) turn."""
    fleets = fleets or FLEETS
    state = GAME.new_state({"players": players, **options})
    actions = [{"type": "first", "seat": first}] + [{"type": "deal", "ship": s} for fleet in fleets[:players] for s in fleet]
    return apply_all(state, actions)


def in_normal_turns(players=4, first=0, fleets=None, **options):
    """A dealt game whose first turn found no red card in any hand."""
    state = dealt(players, first, fleets, **options)
    return apply_all(state, [NO_RED] * players)


def black(state, key, **target):
    """A normal turn: draw a hidden black card, then play it as `key` on `target`."""
    return apply_all(state, [{"type": "draw", "card": "hidden"}, {"type": "play", "card": key, **target}])


def red(state, key, **target):
    """A normal turn: draw the red card `key` and play it on `target`."""
    return apply_all(state, [{"type": "draw", "card": key}, {"type": "play", "card": key, **target}])


def pass_turn(state, key="salvo-14-1"):
    """A normal turn that changes nothing on the table: draw, discard a black card."""
    return apply_all(state, [{"type": "draw", "card": "hidden"}, {"type": "discard", "card": key}])


def fleet(state, seat):
    return {s["id"]: s for s in state.view(None)["fleets"][seat]["ships"]}


def table(state):
    return state.to_json()["table"]
