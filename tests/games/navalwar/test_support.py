"""Helpers shared by the Naval War tests (no tests here): scripted deals and turns."""

from companion.play.registry import get
from companion.games.navalwar.rules import card_conservation

GAME = get("navalwar")
CHOICE = ["draw", "air_strike"]

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

    A `{"drew": ...}` at the start of a turn that offers an air strike first
    chooses to draw.
    """
    for action in actions:
        if isinstance(action, dict) and "drew" in action and state.legal_actions() == CHOICE:
            state = state.apply("draw")
        assert action in state.legal_actions(), (action, state.view(None)["waiting"])
        state = state.apply(action)
        assert card_conservation(state) == [], action
    return state


def dealt(players=4, first=0, fleets=None, **options):
    """A game just dealt: `first` is about to take the first (special) turn."""
    fleets = fleets or FLEETS
    state = GAME.new_state({"players": players, **options})
    actions = [{"first": first}] + [{"ship": s} for fleet in fleets[:players] for s in fleet]
    return apply_all(state, actions)


def in_normal_turns(players=4, first=0, fleets=None, **options):
    """A dealt game whose first turn found no red card in any hand."""
    state = dealt(players, first, fleets, **options)
    return apply_all(state, ["no_red"] * players)


def black(state, key, **target):
    """A normal turn: draw a hidden black card, then play it as `key` on `target`."""
    return apply_all(state, [{"drew": "hidden"}, {"play": key, **target}])


def red(state, key, **target):
    """A normal turn: draw the red card `key` and play it on `target`."""
    return apply_all(state, [{"drew": key}, {"play": key, **target}])


def pass_turn(state, key="salvo-14-1"):
    """A normal turn that changes nothing on the table: draw, discard a black card."""
    return apply_all(state, [{"drew": "hidden"}, {"discard": key}])


def fleet(state, seat):
    return {s["id"]: s for s in state.view(None)["fleets"][seat]["ships"]}


def table(state):
    return state.to_json()["table"]
