"""The hard shooter's look-ahead: how it groups the answers a cell could give."""

import numpy as np

from companion.games.battleship.fleet import CELLS, NAMES, index
from companion.games.battleship.lookahead import answers
from companion.games.battleship.sampler import Draws


def test_a_hit_is_one_answer_whatever_the_ship_and_a_sinking_names_its_ship():
    """Two drawn fleets: the destroyer on A1-A2 (A1 hit) or the battleship on A2-A5 (A1 water)."""
    destroyer, battleship = 1 + NAMES.index("destroyer"), 1 + NAMES.index("battleship")
    owner = np.zeros((2, CELLS), dtype=np.int8)
    owner[0, [index("A1"), index("A2")]] = destroyer
    owner[1, [index(f"A{n}") for n in range(2, 6)]] = battleship
    shot = np.zeros(CELLS, dtype=bool)
    shot[index("A1")] = True
    code = answers(Draws(owner, np.array([0.5, 0.5]), shot), ~shot)
    assert code[0, index("A2")] == 1 + destroyer  # its last cell: "sunk, destroyer"
    assert code[1, index("A2")] == code[1, index("A3")] == 1  # a battleship's hit, told as any hit
    assert code[0, index("A3")] == code[1, index("J10")] == 0  # water
    assert code.max() < 2 + len(NAMES)  # miss, hit and a sinking per ship: the groups the look-ahead splits into
