"""The Battleship computer opponent: legal, blind to the enemy fleet, sensible."""

import random

import pytest

from companion.games.battleship.ai import LEVELS, BattleshipAI, choose_fleet, choose_shots, record_from_view
from companion.games.battleship.posterior import probabilities
from companion.games.battleship.rules import GAME
from companion.games.battleship.fleet import LENGTH, index


def play_out(options, levels, seed):
    state = GAME.new_state(options)
    players = [BattleshipAI(seat, level, random.Random(seed + seat)) for seat, level in enumerate(levels)]
    for _ in range(1000):
        if state.is_over():
            return state
        seat = state.to_move()
        action = players[seat].act(state.view(seat))
        assert action in state.legal_actions()
        state = state.apply(action)
    pytest.fail("no end")


@pytest.mark.parametrize("options", [{}, {"variant": "salvo", "advanced": True}])
def test_computer_plays_whole_games_with_legal_actions(options):
    state = play_out(options, ["hard", "easy"], seed=3)
    assert state.outcome().reason == "fleet_sunk"


def test_fleets_are_legal_and_ships_never_touch():
    for seed in range(20):
        fleet = choose_fleet(random.Random(seed))
        state = GAME.replay({}, fleet)
        cells = state.fleet_cells(0)
        assert len(cells) == sum(LENGTH.values())
        for cell, ship in cells.items():
            r, c = divmod(cell, 10)
            for near in ((r + 1) * 10 + c if r < 9 else None, cell + 1 if c < 9 else None):
                assert near is None or cells.get(near, ship) == ship


def test_decisions_depend_only_on_what_was_announced():
    """Two games with different enemy fleets but the same announcements: same shot."""
    hide_a = [{"type": "place", "ship": s, "cell": f"{'ACEGI'[i]}1", "dir": "h"} for i, s in enumerate(LENGTH)]
    hide_b = [{"type": "place", "ship": s, "cell": f"{'ACEGI'[i]}6", "dir": "h"} for i, s in enumerate(LENGTH)]
    mine = [{"type": "place", "ship": s, "cell": f"{'BDFHJ'[i]}1", "dir": "h"} for i, s in enumerate(LENGTH)]
    shots = [{"type": "shot", "cell": c} for c in ("J10", "B9", "J9", "B10")]
    a = GAME.replay({}, mine + hide_a + shots)
    b = GAME.replay({}, mine + hide_b + shots)
    assert a.view(0)["boards"] == b.view(0)["boards"]
    for level in LEVELS:
        assert (BattleshipAI(0, level, random.Random(1)).act(a.view(0))
                == BattleshipAI(0, level, random.Random(1)).act(b.view(0)))


def test_hard_level_follows_up_a_hit():
    record = ((index("E5"), "hit", "cruiser"), (index("E6"), "miss", None))
    cell = choose_shots(record, 1, "hard", random.Random(0))[0]
    assert cell in {index("D5"), index("F5"), index("E4")}


def test_posterior_knows_a_sunk_ship_and_its_cells():
    record = ((index("A1"), "hit", None), (index("A2"), "sunk", "destroyer"))
    chance = probabilities(record)
    assert chance[index("A1")] == chance[index("A2")] == 0
    assert 0 < chance.max() <= 1
    view = GAME.replay({"mode": "tracker"}, []).view(0)
    assert record_from_view(view, 0) == ()


def test_salvo_shots_are_distinct_and_new():
    record = ((index("A1"), "miss", None),)
    cells = choose_shots(record, 5, "hard", random.Random(0), called=[index("E5")])
    assert len(set(cells)) == 5 and index("A1") not in cells and index("E5") not in cells
