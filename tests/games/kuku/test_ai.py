"""The 九九戦艦 computer opponent: legal, view-only, right listings, and sensible choices."""

import random

import numpy as np
import pytest

from companion.games.kuku.ai import LEVELS, Knowledge, KukuAI, opponent_posterior
from companion.games.kuku.rules import GAME
from companion.games.kuku.board import CELLS, cells_of


def play(levels, seed, rule="basic"):
    rng = random.Random(seed)
    players = [KukuAI(level, rng) for level in levels]
    state = GAME.new_state({"rule": rule, "first": seed % 2})
    while not state.is_over():
        seat = state.to_move()
        action = players[seat].act(state.view(seat))
        assert action in state.legal_actions()
        state = state.apply(action)
    return state


@pytest.mark.parametrize("levels", [(3, 1), (2, 3), (1, 2)])
def test_every_level_places_plays_to_the_end_and_lists_right(levels):
    for seed in range(2):
        state = play(levels, seed, ("basic", "extra")[seed])
        bombs = [r for r in state.history if r["action"] == "bomb"]
        assert all(r["judgement"] == "exact" for r in bombs)


def position(rule, unattacked, fleets, sunk):
    """A referee position, seat 0 to move, every cell attacked but `unattacked`."""
    markers = [[cell, "red" if any(cell in s for s in sunk) else "blue"] for cell in CELLS if cell not in unattacked]
    data = GAME.new_state({"rule": rule}).to_json() | {
        "phase": "play",
        "fleets": [[[cell, kind] for kind, cell in zip(("normal", "normal", "leader"), f)] for f in fleets],
        "markers": markers,
        "hits": [list(s) for s in sunk],
    }
    return GAME.state_from_json(data)


ENDGAME = dict(
    unattacked=cells_of(24),
    fleets=(("3×8", "1×1", "1×2"), ("2×1", "2×2", "4×6")),
    sunk=(("1×1", "1×2"), ("2×1", "2×2")),
)


def test_strong_takes_its_own_ship_down_when_that_wins():
    state = position("extra", **ENDGAME)
    for seed in range(5):
        assert KukuAI(3, random.Random(seed)).act(state.view(0)) == {"type": "bomb", "product": 24}


def test_strong_spares_its_last_ship_when_the_basic_rule_would_not_reward_it():
    state = position("basic", **ENDGAME)
    for seed in range(5):
        action = KukuAI(3, random.Random(seed)).act(state.view(0))
        assert action["type"] == "attack" and action["cell"] in ("8×3", "4×6", "6×4")


def test_strong_spares_its_own_ships_early():
    state = GAME.new_state()
    for kind, cell in (("normal", "4×6"), ("normal", "2×3"), ("leader", "2×4")):
        state = state.apply({"type": "place", "kind": kind, "cell": cell})
    for kind, cell in (("normal", "1×1"), ("normal", "5×5"), ("leader", "9×9")):
        state = state.apply({"type": "place", "kind": kind, "cell": cell})
    for seed in range(5):
        action = KukuAI(3, random.Random(seed)).act(state.view(0))
        assert action.get("product") not in (24, 6, 8) and action.get("cell") not in ("4×6", "2×3", "2×4")


def test_decisions_depend_on_the_view_only():
    rng = random.Random(1)
    players = [KukuAI(3, rng), KukuAI(3, rng)]
    state = GAME.new_state()
    while len(state.history) < 6 or state.to_move() != 0 or state.phase != "play":
        seat = state.to_move()
        state = state.apply(players[seat].act(state.view(seat)))
    # the same position with seat 1's afloat ships elsewhere looks the same to seat 0
    data = state.to_json()
    attacked = state.attacked()
    free = [c for c in CELLS if c not in attacked and c not in {c for c, _ in data["fleets"][1]}]
    data["fleets"][1] = [[c if c in attacked else free.pop(), k] for c, k in data["fleets"][1]]
    moved = GAME.state_from_json(data)
    assert moved != state and moved.view(0) == state.view(0)
    assert KukuAI(3, random.Random(9)).act(moved.view(0)) == KukuAI(3, random.Random(9)).act(state.view(0))


def test_posterior_suspects_a_product_the_opponent_keeps_avoiding():
    # seat 1 plays greedy with a ship on 4×6: it never bombs 24, the biggest product
    state = GAME.new_state()
    for seat_fleet in (("9×9", "8×8", "7×7"), ("4×6", "1×1", "5×5")):
        for kind, cell in zip(("normal", "normal", "leader"), seat_fleet):
            state = state.apply({"type": "place", "kind": kind, "cell": cell})
    greedy = KukuAI(2, random.Random(0))
    for cell in ("9×8", "8×9", "9×7", "7×9", "8×7"):
        state = state.apply({"type": "attack", "cell": cell})
        while state.to_move() == 1:
            state = state.apply(greedy.act(state.view(1)))
    products = [r["product"] for r in state.history if r["by"] == 1]
    assert 24 not in products and {6, 8, 12, 18} <= set(products)
    known = Knowledge.from_view(state.view(0))
    fleets, weights, _ = opponent_posterior(known, 4000, np.random.default_rng(0))
    on_24 = np.isin(fleets, [CELLS.index(c) for c in cells_of(24)]).sum(axis=1)
    prior = 3 * 4 / known.unattacked.sum()
    assert weights @ on_24 > 2.5 * prior


def test_levels_are_checked():
    assert LEVELS == (1, 2, 3)
    with pytest.raises(ValueError):
        KukuAI(4)


def test_an_unknown_level_is_refused_in_each_language():
    from companion.errors import UnknownLevel
    from companion.i18n import said

    with pytest.raises(UnknownLevel) as refused:
        KukuAI(4)
    assert said(refused.value, "ja") == "強さ 4 はありません（[1, 2, 3] のどれか）。"
    assert said(refused.value, "en") == "No level 4; choose one of [1, 2, 3]."
