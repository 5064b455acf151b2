"""Hypothesis properties of 軍艦将棋: the state accepts exactly its legal actions, tallies agree,
and the battle table is consistent with itself and with the wooden seesaw."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.play.state import Refused
from companion.games.gunkan.rules import GAME
from companion.games.gunkan.table import (
    COMPARISONS, DECLARATIONS, FLEET, PIECES, SHIPS, judge_identified, judge_seesaw,
)

MIRROR = {"attacker_wins": "defender_wins", "defender_wins": "attacker_wins", "both_removed": "both_removed"}
MASS = {"carrier": 22, "battleship": 20, "cruiser": 18, "destroyer": 16, "minesweeper": 14,
        "submarine": 12, "landing_ship": 10}  # the wooden seesaw's defaults (grams)
ENDS = ("resign", "no_moves", "all_ships_gone", "cancel")
SEAT_VALUES = [0, 1, 2, -1, True, None, "0"]

# Every action shape with every value worth trying, legal or not.
UNIVERSE = (
    [{"type": t, "attacker": s} for t in ("battle",) for s in SEAT_VALUES]
    + [{"type": t, "seat": s} for t in ("resign", "no_moves") for s in SEAT_VALUES]
    + [{"type": "all_ships_gone", "seats": s} for s in ([0], [1], [0, 1], [1, 0], [], [2], 0)]
    + [{"type": "declare", "kind": k} for k in DECLARATIONS + ("carrier", None)]
    + [{"type": "counterweight", "on": v} for v in (True, False, 1, None)]
    + [{"type": "weighed", "result": r} for r in COMPARISONS + ("heavier", None)]
    + [{"type": "mine_hit", "minesweeper": v} for v in (True, False, 0)]
    + [{"type": "identified", "attacker": a, "defender": d, "counterweight": cw}
       for a in PIECES for d in PIECES + ("counterweight",) for cw in (False, True)]
    + [{"type": "reweigh"}, {"type": "cancel"}, {"type": "weigh"}, {"type": None}, {}, "cancel", None]
)


def accepts(state, action):
    try:
        state.apply(action)
    except Refused:
        return False
    return True


@settings(max_examples=20, deadline=None)
@given(judging=st.sampled_from(["seesaw", "identify"]), first=st.integers(0, 1),
       choices=st.lists(st.integers(0, 10**6), min_size=20, max_size=80))
def test_apply_accepts_exactly_the_legal_actions(judging, first, choices):
    options = {"judging": judging, "first": first}
    state = GAME.new_state(options)
    log = []
    for choice in choices:
        before = state.to_json()
        legal = state.legal_actions()
        accepted = [a for a in UNIVERSE if accepts(state, a)]
        assert sorted(map(json.dumps, accepted)) == sorted(map(json.dumps, legal))
        assert state.to_json() == before
        if not legal:
            assert state.is_over() and state.to_move() is None
            break
        fights = [a for a in legal if a["type"] not in ENDS]
        pool = fights if fights and choice % 50 else legal  # ends are rare, so games go on
        action = pool[choice % len(pool)]
        state = state.apply(action)
        log.append(action)
        assert GAME.replay(options, json.loads(json.dumps(log))) == state


@settings(max_examples=40, deadline=None)
@given(choices=st.lists(st.integers(0, 10**6), max_size=150))
def test_identify_tally_matches_the_public_counts(choices):
    state = GAME.new_state({"judging": "identify"})
    for choice in choices:
        legal = [a for a in state.legal_actions() if a["type"] not in ENDS]
        if not legal:
            break
        state = state.apply(legal[choice % len(legal)])
        for seat in (0, 1):
            lost = state.lost[seat]
            assert all(lost[p] <= FLEET[p] for p in PIECES)
            assert sum(lost[s] for s in SHIPS) == state.removed[seat]["ships"]
            assert lost["mine"] == state.removed[seat]["mines"]


@given(st.sampled_from(SHIPS), st.sampled_from(SHIPS))
def test_swapping_roles_mirrors_the_verdict_except_the_submarine_exception(a, d):
    there, back = judge_identified(a, d).verdict, judge_identified(d, a).verdict
    if {a, d} == {"submarine", "carrier"}:
        assert there == back == "attacker_wins"  # whoever attacks wins
    else:
        assert back == MIRROR[there]


@given(st.sampled_from(SHIPS), st.sampled_from(SHIPS))
def test_honest_seesaw_agrees_with_identification(a, d):
    """The counterweight on exactly when a submarine attacks: the seesaw then knows the full table."""
    cw = a == "submarine"

    def compare(left, right):
        return COMPARISONS[0] if left > right else COMPARISONS[1] if left < right else COMPARISONS[2]

    ruling = judge_seesaw(compare(MASS[a] + 10 * cw, MASS[d]), cw)
    if ruling.redo == "remove_counterweight":
        ruling = judge_seesaw(compare(MASS[a], MASS[d]))
    assert ruling.verdict == judge_identified(a, d, cw).verdict == judge_identified(a, d).verdict
