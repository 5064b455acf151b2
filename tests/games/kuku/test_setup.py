"""Shared set-ups for the 九九戦艦 tests."""

from companion.games.kuku.rules import GAME
from companion.games.kuku.board import cells_of


def placed(fleet0, fleet1, **options):
    """A referee game after both seats placed `fleet` = (normal, normal, leader) cells."""
    state = GAME.new_state(options)
    first = state.first
    for seat in (first, 1 - first):
        fleet = (fleet0, fleet1)[seat]
        for kind, cell in zip(("normal", "normal", "leader"), fleet):
            state = state.apply({"type": "place", "kind": kind, "cell": cell})
    return state


def bomb(state, product, listing=None):
    """Declare `product`, say `listing` (default: the right one) and finish."""
    state = state.apply({"type": "bomb", "product": product})
    for pair in cells_of(product) if listing is None else listing:
        state = state.apply({"type": "say", "pair": pair})
    return state.apply({"type": "done"})


def attack(state, *cells):
    for cell in cells:
        state = state.apply({"type": "attack", "cell": cell})
    return state


def self_destruct_position(rule):
    """The seed's example: seat 0 keeps a normal ship on 3×8, seat 1 its leader on 4×6;
    seat 0 to move."""
    state = placed(("3×8", "1×1", "2×1"), ("9×9", "1×2", "4×6"), rule=rule)
    return attack(state, "9×9", "1×1", "1×2", "2×1")
