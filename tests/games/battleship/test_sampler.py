"""The fleets the hard level draws: each one agrees with every answer seen, and together they are fair."""

import random
from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, index, masks, placements
from companion.games.battleship.sampler import draw


def random_fleet(rng):
    while True:
        owner, taken = {}, 0
        for ship in NAMES:
            _, _, mask = rng.choice(placements(LENGTH[ship]))
            if mask & taken:
                break
            taken |= mask
            owner.update((c, ship) for c in range(CELLS) if mask >> c & 1)
        else:
            return owner


def answers(owner, cells, advanced):
    """The record a fleet gives to shots at `cells`, as the rules announce it."""
    record, hits = [], {}
    for cell in cells:
        ship = owner.get(cell)
        if ship is None:
            record.append((cell, "miss", None))
            continue
        hits[ship] = hits.get(ship, 0) + 1
        sunk = hits[ship] == LENGTH[ship]
        record.append((cell, "sunk" if sunk else "hit", ship if sunk or not advanced else None))
    return record


def fleet_of(row):
    owner = {c: NAMES[v - 1] for c, v in enumerate(row) if v}
    return owner


def is_legal(owner):
    for ship in NAMES:
        cells = sorted(c for c, s in owner.items() if s == ship)
        mask = sum(1 << c for c in cells)
        if len(cells) != LENGTH[ship] or mask not in masks(LENGTH[ship]):
            return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80), st.booleans())
def test_every_drawn_fleet_gives_the_answers_seen(seed, shots, advanced):
    rng = random.Random(seed)
    truth = random_fleet(rng)
    cells = list(range(CELLS))
    # aim near the hits as a shooter would, so records hold ships half found and sunk
    aimed = sorted(cells, key=lambda c: rng.random() - 0.5 * (c in truth))[:shots]
    record = answers(truth, aimed, advanced)
    draws = draw(record, 150, np.random.default_rng(seed))
    assert np.isclose(draws.weight.sum(), 1.0) and (draws.weight >= 0).all()
    for row, weight in zip(draws.owner, draws.weight):
        if weight > 0:
            owner = fleet_of(row)
            assert is_legal(owner)
            assert answers(owner, [c for c, _, _ in record], advanced) == record


def test_draws_weigh_fleets_uniformly_where_ships_crowd():
    """Two ships left in a small sea: the drawn chance matches exact counting over pairs."""
    sea = [index(c) for c in ("A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "C1", "C2")]
    truth = {index("A1"): "cruiser", index("A2"): "cruiser", index("A3"): "cruiser",
             index("B1"): "destroyer", index("B2"): "destroyer"}
    rest = random.Random(0)
    far = [c for c in range(CELLS) if c not in sea]
    for ship, start in (("carrier", "J1"), ("battleship", "I1"), ("submarine", "H1")):
        s = index(start)
        truth.update((s + i, ship) for i in range(LENGTH[ship]))
    record = answers(truth, [c for c in far if c not in truth] + [c for c in far if c in truth], advanced=False)
    assert {ship for _, r, ship in record if r == "sunk"} == {"carrier", "battleship", "submarine"}
    free = sum(1 << c for c in sea)
    pairs = [(a, b) for a, b in product(masks(3), masks(2)) if not a & b and not (a | b) & ~free]
    exact = sum(np.array([((a | b) >> c) & 1 for c in range(CELLS)]) for a, b in pairs) / len(pairs)
    drawn = draw(record, 6000, np.random.default_rng(rest.getrandbits(32))).chance()
    assert np.abs(drawn[sea] - exact[sea]).max() < 0.04  # (sunk ships' cells are ships in every draw)
    # counting each ship alone (ignoring that they cannot overlap) is off by more than that here
    alone = np.zeros(CELLS)
    for length in (3, 2):
        fits = [m for m in masks(length) if not m & ~free]
        alone += np.array([sum((m >> c) & 1 for m in fits) for c in range(CELLS)]) / len(fits)
    assert np.abs(alone[sea] - exact[sea]).max() > 0.08


def test_a_record_no_fleet_explains_still_draws_somewhere_to_shoot():
    record = [(index("A1"), "sunk", "carrier")]  # a carrier cannot sink on its first hit
    draws = draw(record, 50, np.random.default_rng(0))
    assert draws.owner.shape == (50, CELLS) and draws.chance()[1:].max() > 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 70), st.booleans())
def test_spread_averages_each_free_ship_over_the_placements_open_to_it(seed, shots, advanced):
    rng = random.Random(seed)
    truth = random_fleet(rng)
    aimed = sorted(range(CELLS), key=lambda c: rng.random() - 0.5 * (c in truth))[:shots]
    draws = draw(answers(truth, aimed, advanced), 12, np.random.default_rng(seed))
    shot = sum(1 << c for c in aimed)
    for row, weight, spread in zip(draws.owner, draws.weight, draws.spread()):
        if weight == 0:
            continue
        ships = {name: sum(1 << c for c in range(CELLS) if row[c] == 1 + i) for i, name in enumerate(NAMES)}
        exact = np.zeros(CELLS)
        for name, mask in ships.items():
            if mask & shot:  # on a hit: stays where the draw put it
                exact += [mask >> c & 1 for c in range(CELLS)]
                continue
            others = sum(ships.values()) & ~mask
            open_ = [m for m in masks(LENGTH[name]) if not m & (shot | others)]
            exact += np.array([[m >> c & 1 for c in range(CELLS)] for m in open_]).mean(axis=0)
        assert np.allclose(spread, exact, atol=1e-5) and np.isclose(spread.sum(), sum(LENGTH.values()))
