"""The full battle table of 軍艦将棋, every attacker × defender × counterweight, in both judging modes.

The oracle is the table written out by hand from docs/rules.md §gunkan; the seesaw mode is
driven through the referee state with a simulated wooden seesaw (default masses).
"""

import pytest

from companion.games.gunkan.rules import GAME
from companion.play.state import Refused
from companion.games.gunkan.table import (
    COMPARISONS, PIECES, SHIPS, Ruling, declaration_of, judge_identified, judge_mine, judge_seesaw,
)


# Row: attacker, column: defender (carrier … landing ship).  A attacker wins, D defender wins, = both removed.
SHIP_TABLE = """
carrier      = A A A A A A
battleship   D = A A A A A
cruiser      D D = A A A A
destroyer    D D D = A A A
minesweeper  D D D D = A A
submarine    A D D D D = A
landing_ship D D D D D D =
"""
LETTER = {"A": "attacker_wins", "D": "defender_wins", "=": "both_removed"}
WRITTEN = {
    (row.split()[0], defender): LETTER[mark]
    for row in SHIP_TABLE.strip().splitlines()
    for defender, mark in zip(SHIPS, row.split()[1:])
}
# The wooden seesaw's masses (grams; the defaults of companion/games/gunkan/pieces.py).
MASS = {"carrier": 22, "battleship": 20, "cruiser": 18, "destroyer": 16, "minesweeper": 14,
        "submarine": 12, "landing_ship": 10, "mine": 26, "port": 30, "counterweight": 10}

CASES = [(a, d, cw) for a in SHIPS for d in PIECES for cw in (False, True)]


def written(attacker, defender):
    if defender == "port":
        return "port_captured"
    if defender == "mine":
        return "mine_cleared" if attacker == "minesweeper" else "both_destroyed_by_mine"
    return WRITTEN[attacker, defender]


def expected(attacker, defender, counterweight, judging):
    """The written table, with what each judging mode can and cannot see."""
    if judging == "identify":
        return "refused" if counterweight and attacker != "submarine" else written(attacker, defender)
    if defender in ("mine", "port"):
        return written(attacker, defender)  # nothing is weighed; the counterweight plays no part
    if (attacker, defender) == ("submarine", "carrier") and not counterweight:
        return "defender_wins"  # the exception must be claimed with the counterweight
    if (attacker, defender) == ("landing_ship", "battleship") and counterweight:
        return "attacker_wins"  # an illegal counterweight balancing: the wooden seesaw cannot know
    return written(attacker, defender)


def compare(left, right):
    return "attacker_heavier" if left > right else "defender_heavier" if left < right else "balanced"


def seesaw_battle(attacker, defender, counterweight):
    """Play one battle judging "seesaw" as the table would; return the state after it."""
    state = GAME.new_state({"judging": "seesaw"})
    state = state.apply({"type": "battle", "attacker": 0})
    state = state.apply({"type": "declare", "kind": declaration_of(defender)})
    if defender == "mine":
        return state.apply({"type": "mine_hit", "minesweeper": attacker == "minesweeper"})
    if defender == "port":
        return state
    state = state.apply({"type": "counterweight", "on": counterweight})
    extra = MASS["counterweight"] if counterweight else 0
    state = state.apply({"type": "weighed", "result": compare(MASS[attacker] + extra, MASS[defender])})
    if state.phase == "weigh":  # no balance with the counterweight: it came off
        assert state.view(None)["prompt"] == "remove_counterweight"
        state = state.apply({"type": "weighed", "result": compare(MASS[attacker], MASS[defender])})
    return state


def identify_battle(attacker, defender, counterweight):
    state = GAME.new_state({"judging": "identify"})
    state = state.apply({"type": "battle", "attacker": 1})
    state = state.apply({"type": "declare", "kind": declaration_of(defender)})
    return state.apply({"type": "identified", "attacker": attacker, "defender": defender,
                        "counterweight": counterweight})


@pytest.mark.parametrize("attacker,defender,counterweight", CASES)
def test_seesaw_mode(attacker, defender, counterweight):
    state = seesaw_battle(attacker, defender, counterweight)
    want = expected(attacker, defender, counterweight, "seesaw")
    assert state.battles[-1].verdict == want
    assert state.view(None)["log"][-1]["verdict"] == want
    assert state.is_over() == (want == "port_captured")


@pytest.mark.parametrize("attacker,defender,counterweight", CASES)
def test_identify_mode(attacker, defender, counterweight):
    want = expected(attacker, defender, counterweight, "identify")
    if want == "refused":
        with pytest.raises(Refused, match="counterweight"):
            identify_battle(attacker, defender, counterweight)
        assert judge_identified(attacker, defender, counterweight) == Ruling(redo="counterweight_not_allowed")
        return
    state = identify_battle(attacker, defender, counterweight)
    assert state.battles[-1].verdict == want
    assert judge_identified(attacker, defender, counterweight) == Ruling(want)
    assert state.view(None)["log"][-1]["verdict"] == want


@pytest.mark.parametrize("comparison", COMPARISONS)
@pytest.mark.parametrize("counterweight", [False, True])
def test_judge_seesaw(comparison, counterweight):
    plain = {"attacker_heavier": "attacker_wins", "defender_heavier": "defender_wins", "balanced": "both_removed"}
    if not counterweight:
        assert judge_seesaw(comparison) == Ruling(plain[comparison])
    elif comparison == "balanced":
        assert judge_seesaw(comparison, True) == Ruling("attacker_wins")  # 6 attacked 1
    else:
        assert judge_seesaw(comparison, True) == Ruling(redo="remove_counterweight")


def test_judge_mine():
    assert judge_mine(True) == Ruling("mine_cleared")
    assert judge_mine(False) == Ruling("both_destroyed_by_mine")


@pytest.mark.parametrize("bad", [("mine", "carrier"), ("port", "mine"), ("carrier", "counterweight"), ("ace", "port")])
def test_judge_identified_rejects_non_pieces(bad):
    with pytest.raises(ValueError):
        judge_identified(*bad)


def test_judge_seesaw_rejects_unknown_comparison():
    with pytest.raises(ValueError):
        judge_seesaw("left")


def test_counterweight_balances_only_the_carrier():
    """The masses the table relies on: submarine + counterweight = carrier, nothing else balances legally."""
    loaded = MASS["submarine"] + MASS["counterweight"]
    assert [ship for ship in SHIPS if MASS[ship] == loaded] == ["carrier"]
