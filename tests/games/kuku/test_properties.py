"""Property tests of 九九戦艦 bombs and resolution, and leak tests over random games."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kuku.rules import GAME
from companion.games.kuku.board import CELLS, LISTING_CAP, PRODUCTS, cells_of, sayable_pairs
from .test_setup import bomb, placed

FLEETS = (("1×1", "5×5", "9×9"), ("3×8", "7×7", "2×1"))
START = placed(*FLEETS)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRODUCTS), st.randoms(use_true_random=False), st.sets(st.sampled_from(CELLS), max_size=20))
def test_an_exact_listing_in_any_order_attacks_the_unattacked_cells(product, rnd, earlier):
    state = START
    for cell in sorted(earlier):
        if state.is_over():
            return
        state = state.apply({"type": "attack", "cell": cell})
    if state.is_over() or all(cell in state.attacked() for cell in cells_of(product)):
        return
    listing = list(cells_of(product))
    rnd.shuffle(listing)
    before = state.attacked()
    after = bomb(state, product, listing)
    record = after.view(None)["last"]
    assert record["judgement"] == "exact"
    assert set(record["cells"]) == {cell for cell in cells_of(product) if cell not in before}
    assert set(after.attacked()) == set(before) | set(cells_of(product))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRODUCTS), st.data())
def test_any_other_listing_fails_and_only_passes_the_turn(product, data):
    listing = data.draw(st.lists(st.sampled_from(sayable_pairs(product)), unique=True, max_size=LISTING_CAP))
    if sorted(listing) == sorted(cells_of(product)):
        return
    after = bomb(START, product, listing)
    record = after.view(None)["last"]
    assert record["judgement"] in ("omission", "extra", "wrong")
    assert record["cells"] == [] and after.attacked() == {} and after.to_move() == 1
    assert record["correct"] == list(cells_of(product))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(CELLS), unique=True, max_size=40))
def test_markers_remaining_and_turns_follow_the_fleets(cells):
    state = START
    fleets = [set(fleet) for fleet in FLEETS]
    for n, cell in enumerate(cells):
        if state.is_over():
            break
        assert state.to_move() == n % 2
        state = state.apply({"type": "attack", "cell": cell})
        hit = any(cell in fleet for fleet in fleets)
        assert state.attacked()[cell] == ("red" if hit else "blue")
    attacked = set(state.attacked())
    assert state.view(None)["remaining"] == [3 - len(fleet & attacked) for fleet in fleets]


# ------------------------------------------------------------------------ leaks
def relocated(state, seat, rng):
    """The same position with `seat`'s afloat ships moved to other unattacked cells."""
    data = state.to_json()
    attacked = state.attacked()
    fleet = data["fleets"][seat]
    free = [cell for cell in CELLS if cell not in attacked and cell not in {c for c, _ in fleet}]
    rng.shuffle(free)
    data["fleets"][seat] = [[cell, kind] if cell in attacked else [free.pop(), kind] for cell, kind in fleet]
    return GAME.state_from_json(data)


def random_games(count):
    for seed in range(count):
        rng = random.Random(seed)
        state = GAME.new_state({"rule": ("basic", "extra")[seed % 2], "first": seed % 2})
        while not state.is_over():
            yield state, rng
            legal = state.legal_actions()
            # mostly real attacks, so games reach their end in a few dozen steps
            attacks = [a for a in legal if a["type"] in ("place", "attack", "done")]
            state = state.apply(rng.choice(attacks if attacks and rng.random() < 0.8 else legal))
        yield state, rng


def test_public_view_is_the_same_wherever_the_hidden_ships_are():
    for state, rng in random_games(12):
        public = state.view(None)
        text = json.dumps(public, ensure_ascii=False)
        for seat in (0, 1):
            for secret in state.secrets(seat):
                assert secret not in text
            if not state.is_over():  # (both fleets may hold the same token, so compare views)
                moved = relocated(state, seat, rng)
                assert moved.view(None) == public
                assert moved.view(1 - seat) == state.view(1 - seat)


def test_secrets_are_the_afloat_fleet_until_the_end():
    state = placed(*FLEETS)
    assert state.secrets(0) == ["normal@1×1", "normal@5×5", "leader@9×9"]
    assert GAME.new_state({"mode": "tracker"}).secrets(0) == []
