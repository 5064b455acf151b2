"""Battleship rules: placement, shots, salvo, advanced announcements, tracker answers."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.play.state import Refused
from companion.games.battleship.rules import GAME
from companion.games.battleship.deduce import consistent
from companion.games.battleship.fleet import index

FLEET = [  # seat 0 and seat 1 use the same layout in these tests
    {"type": "place", "ship": "carrier", "cell": "A1", "dir": "h"},
    {"type": "place", "ship": "battleship", "cell": "C1", "dir": "h"},
    {"type": "place", "ship": "cruiser", "cell": "E1", "dir": "h"},
    {"type": "place", "ship": "submarine", "cell": "G1", "dir": "h"},
    {"type": "place", "ship": "destroyer", "cell": "J9", "dir": "h"},
]


def shot(cell):
    return {"type": "shot", "cell": cell}


def placed(options=None):
    return GAME.replay(options, FLEET + FLEET)


def test_placement_refuses_overlap_off_sea_and_moving_a_placed_ship():
    state = GAME.new_state({})
    state = state.apply(FLEET[0])
    for bad in ({"type": "place", "ship": "cruiser", "cell": "A3", "dir": "v"},  # overlaps carrier
                {"type": "place", "ship": "cruiser", "cell": "J9", "dir": "h"},  # off the sea
                {"type": "place", "ship": "carrier", "cell": "D1", "dir": "h"},  # already placed
                {"type": "place", "ship": "cruiser", "cell": "K1", "dir": "h"},
                {"type": "place", "ship": "cruiser", "cell": "b5", "dir": "h"},  # not canonical
                {"type": "place", "ship": "cruiser", "cell": "B5", "dir": "d"}):
        with pytest.raises(Refused):
            state.apply(bad)
        assert bad not in state.legal_actions()
    assert state.to_move() == 0 and len(state.legal_actions()) == len(set(map(json.dumps, state.legal_actions())))


def test_standard_game_hits_sinks_and_wins():
    state = placed()
    assert state.phase == "shoot" and state.to_move() == 0
    state = state.apply(shot("J9"))
    assert state.view(None)["boards"][0]["shots"][-1] == {"cell": "J9", "result": "hit", "volley": 0,
                                                          "ship": "destroyer"}
    with pytest.raises(Refused, match="already called"):
        state.apply(shot("J10")).apply(shot("J9"))
    state = state.apply(shot("J1")).apply(shot("J10")).apply(shot("J2"))
    assert state.view(None)["boards"][0]["last"][0]["result"] == "sunk"
    assert state.view(None)["boards"][0]["grid"][9] == "........##"
    for cell in ["A1", "A2", "A3", "A4", "A5", "C1", "C2", "C3", "C4", "E1", "E2", "E3", "G1", "G2", "G3"]:
        state = state.apply(shot(cell))
        if not state.is_over():
            state = state.apply(shot(_free(state)))
    assert state.outcome().winner == 0 and state.legal_actions() == []


def _free(state):
    return next(a["cell"] for a in state.legal_actions() if a["type"] == "shot")


def test_advanced_mode_names_the_sunk_ship_only():
    state = placed({"advanced": True}).apply(shot("J9"))
    public = state.view(None)["boards"][0]["shots"]
    assert public[-1] == {"cell": "J9", "result": "hit", "volley": 0}
    state = state.apply(shot("A10")).apply(shot("J10"))
    assert state.view(None)["boards"][0]["shots"][-1]["ship"] == "destroyer"
    assert state.view(None)["boards"][0]["sunk"] == ["destroyer"]
    assert "destroyer" not in json.dumps(state.view(None)["boards"][0]["shots"][0])


def test_salvo_counts_ships_afloat_and_reports_every_shot():
    state = placed({"variant": "salvo"})
    assert state.shots_allowed() == 5
    assert {"type": "fire"} not in state.legal_actions()
    for cell in ["J9", "J10", "A1", "B1", "B2"]:
        state = state.apply(shot(cell))
    assert state.legal_actions() == [{"type": "fire"}]
    with pytest.raises(Refused):
        state.apply(shot("B3"))
    state = state.apply({"type": "fire"})
    last = state.view(None)["boards"][0]["last"]
    assert [s["result"] for s in last] == ["hit", "sunk", "hit", "miss", "miss"]
    assert state.to_move() == 1 and state.shots_allowed() == 4  # seat 1 lost its destroyer


def test_views_never_show_an_unhit_ship_but_the_owner_sees_its_fleet():
    state = placed().apply(shot("A1"))
    public = json.dumps(state.view(None))
    mine = state.view(1)["fleet"]
    assert mine[0]["hits"] == ["1:A1"] and "1:A2" in mine[0]["cells"]
    assert "fleet" not in state.view(None)
    for seat in (0, 1):
        for secret in state.secrets(seat):
            assert secret not in public
            assert secret not in json.dumps(state.view(1 - seat))


def tracker(options=None):
    return GAME.new_state({"mode": "tracker", **(options or {})})


def answer(result, ship=None):
    return {"type": "answer", "result": result, **({"ship": ship} if ship else {})}


def test_tracker_takes_answers_and_refuses_impossible_ones():
    state = tracker().apply(shot("A1"))
    assert state.to_move() == 1 and state.phase == "answer"
    assert answer("sunk", "destroyer") not in state.legal_actions()  # nothing hit before
    with pytest.raises(Refused, match="no fleet") as refused:
        state.apply(answer("sunk", "carrier"))
    japanese = refused.value.text("ja")
    assert "撃沈" in japanese and "sunk" not in japanese
    state = state.apply(answer("hit", "destroyer"))
    state = state.apply(shot("J1")).apply(answer("miss"))
    state = state.apply(shot("A2"))
    assert answer("hit", "destroyer") not in state.legal_actions()  # both cells hit: it is sunk
    state = state.apply(answer("sunk", "destroyer"))
    assert state.view(None)["boards"][0]["sunk"] == ["destroyer"]


def test_tracker_refuses_a_carrier_sunk_with_too_few_hits_in_a_line():
    state = tracker({"advanced": True})
    for cell, result in [("A1", "hit"), ("A2", "hit"), ("A3", "hit"), ("A4", "miss")]:
        state = state.apply(shot(cell)).apply(answer(result))
        state = state.apply(shot(_free(state))).apply(answer("miss"))
    state = state.apply(shot("B1"))
    assert answer("sunk", "carrier") not in state.legal_actions()
    assert answer("sunk", "cruiser") not in state.legal_actions()  # no line of 3 hits through B1
    assert answer("sunk", "destroyer") in state.legal_actions()  # A1-B1


def test_tracker_salvo_collects_answers_in_order():
    state = tracker({"variant": "salvo"})
    for cell in ["A1", "A2", "A3", "A4", "A5"]:
        state = state.apply(shot(cell))
    state = state.apply({"type": "fire"})
    assert state.view(None)["pending"] == ["A1", "A2", "A3", "A4", "A5"]
    state = state.apply(answer("hit", "destroyer")).apply(answer("sunk", "destroyer"))
    for _ in range(3):
        state = state.apply(answer("miss"))
    assert state.to_move() == 1 and state.shots_allowed() == 4  # its destroyer is gone
    assert state.view(None)["boards"][0]["grid"][0] == "##ooo....."


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_public_view_is_the_same_whoever_hides_where(seed):
    """Referee play and the same answers typed into the tracker look identical in public."""
    rng = random.Random(seed)
    options = {"variant": rng.choice(["standard", "salvo"]), "advanced": rng.random() < 0.5}
    state = GAME.new_state(options)
    while state.phase == "place":
        state = state.apply(rng.choice(state.legal_actions()))
    mirror = GAME.new_state({**options, "mode": "tracker"})
    for _ in range(40):
        if state.is_over():
            break
        action = rng.choice(state.legal_actions())
        before = len(state.shots[state.turn])
        shooter = state.turn
        state = state.apply(action)
        mirror = mirror.apply(action)
        for cell, result, ship, _ in state.shots[shooter][before:]:
            named = ship if result == "sunk" or not options["advanced"] else None
            mirror = mirror.apply(answer(result, named))
        public, shadow = state.view(None), mirror.view(None)
        for view in (public, shadow):
            view["options"].pop("mode"), view.pop("placed")
        assert public == shadow
        for seat in (0, 1):
            for secret in state.secrets(seat):
                assert secret not in json.dumps(public)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 99), st.sampled_from(["miss", "hit", "sunk"]),
                          st.sampled_from([None, "carrier", "cruiser", "destroyer"])), max_size=8))
def test_every_consistent_record_has_a_fleet_behind_it(shots):
    """`consistent` agrees with a brute-force check on tiny records: a sink needs its hits."""
    cells = [c for c, _, _ in shots]
    if len(set(cells)) != len(cells):
        return
    record = tuple((c, r, None if r == "miss" else s) for c, r, s in shots)
    sinks = [s for _, r, s in record if r == "sunk"]
    if any(s is None for s in sinks) or len(sinks) != len(set(sinks)):
        assert not consistent(record) or not sinks or None not in sinks
        return
    hits = sum(r != "miss" for _, r, _ in record)
    if consistent(record):
        from companion.games.battleship.fleet import LENGTH
        assert hits >= sum(LENGTH[s] for s in sinks)


def test_json_round_trip_and_bad_options():
    state = placed({"variant": "salvo"}).apply(shot("B5"))
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    for bad in ({"variant": "blitz"}, {"mode": "spy"}, {"first": 2}, {"advanced": "yes"}):
        with pytest.raises(Refused):
            GAME.new_state(bad)
    assert index("J10") == 99


JUNK_VALUES = st.one_of(st.none(), st.integers(-2, 120), st.text(max_size=4), st.lists(st.integers(), max_size=2),
                        st.sampled_from(["carrier", "A1", "J10", "h", "v", "hit", "miss", "sunk", "shot"]))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([{}, {"variant": "salvo"}, {"mode": "tracker"}]),
       st.dictionaries(st.sampled_from(["type", "ship", "cell", "dir", "result"]), JUNK_VALUES, max_size=4),
       st.sampled_from(["place", "shot", "fire", "answer"]))
def test_whatever_apply_accepts_is_listed_and_junk_is_refused(options, action, kind):
    state = GAME.new_state(options)
    if options.get("mode") != "tracker":
        state = GAME.replay(options, FLEET + FLEET)
    else:
        state = state.apply(shot("E5"))
    action = {**action, "type": action.get("type", kind)}
    try:
        after = state.apply(action)
    except Refused:
        return
    assert action in state.legal_actions() and after != state
