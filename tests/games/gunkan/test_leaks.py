"""軍艦将棋 hidden information: the shared screen shows outcomes only.

Random long games (most actions are battles, so fleets really get destroyed)
check every public view for class names, rank spellings and identity fields;
non-interference checks that swapping hidden identities for others with the
same verdicts leaves the public view (and the other seat's view) unchanged.
"""

import json
import random

import pytest

from companion.games.gunkan.rules import GAME
from companion.games.gunkan.table import SHIPS, judge_identified, rank_label

IDENTITY_KEYS = {"attacker_piece", "defender_piece", "attacker_rank", "defender_rank",
                 "my_piece", "my_rank", "my_losses", "report", "weight", "mass", "grams", "comparison"}
NAMES = list(SHIPS) + [rank_label(ship) for ship in SHIPS]
SEEDS = range(12)


RARE = ("resign", "no_moves", "all_ships_gone", "cancel")


def random_game(options, seed, rare_chance=0.004):
    """Actions of a random game that mostly fights: ends, cancels and port attacks are rare."""
    rng = random.Random(seed)
    state, actions = GAME.new_state(options), []
    while not state.is_over():
        legal = state.legal_actions()
        fights = [a for a in legal if a["type"] not in RARE and a.get("kind") != "port"]
        action = rng.choice(legal if rng.random() < rare_chance or not fights else fights)
        actions.append(action)
        state = state.apply(action)
    return actions


def states_of(options, actions):
    state = GAME.new_state(options)
    yield state
    for action in actions:
        state = state.apply(action)
        yield state


def keys_of(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


@pytest.mark.parametrize("judging", ["seesaw", "identify"])
@pytest.mark.parametrize("seed", SEEDS)
def test_public_view_names_no_piece_during_the_game(judging, seed):
    options = {"judging": judging}
    battles = 0
    for state in states_of(options, random_game(options, seed)):
        view = state.view(None)
        battles = len(state.battles)
        if state.is_over() and judging == "identify":
            assert "report" in view and state.secrets(0) == state.secrets(1) == []
            continue
        text = json.dumps(view, ensure_ascii=False)
        assert not [name for name in NAMES if name in text], text
        assert not keys_of(view) & IDENTITY_KEYS
        for seat in (0, 1):
            assert not [s for s in state.secrets(seat) if s in text]
    assert battles >= 5  # the random games really fight


def test_identify_games_reach_annihilation_and_reveal_everything():
    ends = set()
    for seed in SEEDS:
        actions = random_game({"judging": "identify"}, seed, rare_chance=0.0)
        final = GAME.replay({"judging": "identify"}, actions)
        ends.add(final.outcome().reason)
        report = final.view(None)
        assert all("attacker_piece" in entry for entry in report["log"])
        lost_ships = [sum(n for p, n in side["lost"].items() if p in SHIPS) for side in report["report"]]
        assert lost_ships == [side["ships"] for side in report["removed"]]
    assert ends <= {"annihilation", "mutual_annihilation", "port_captured"} and "annihilation" in ends


def verdict_of(action):
    return judge_identified(action["attacker"], action["defender"], action["counterweight"]).verdict


def twin_game(actions, observer, rng):
    """Pairs of states: the game, and a twin where every identification is swapped for
    another one with the same verdict (keeping the observer's own piece)."""
    options = {"judging": "identify"}
    real, twin = GAME.new_state(options), GAME.new_state(options)
    swaps = 0
    for action in actions:
        other = action
        if action["type"] == "identified":
            own = None if observer is None else "attacker" if observer == real.current.attacker else "defender"
            candidates = [a for a in twin.legal_actions() if a["type"] == "identified"
                          and verdict_of(a) == verdict_of(action) and (own is None or a[own] == action[own])]
            if not candidates:
                return
            other = rng.choice(candidates)
            swaps += other != action
        real, twin = real.apply(action), twin.apply(other)
        yield real, twin, swaps


@pytest.mark.parametrize("observer", [None, 0, 1])
@pytest.mark.parametrize("seed", SEEDS)
def test_hidden_identities_do_not_change_what_others_see(observer, seed):
    actions = random_game({"judging": "identify"}, seed)
    swaps = 0
    for real, twin, swaps in twin_game(actions, observer, random.Random(seed)):
        if not real.is_over():
            assert real.view(observer) == twin.view(observer)
        assert real.outcome() == twin.outcome()
    assert swaps > 0  # the twin really differed


def test_seesaw_public_view_shows_the_counterweight_but_no_piece():
    state = GAME.replay({"judging": "seesaw"}, [
        {"type": "battle", "attacker": 0}, {"type": "declare", "kind": "ship"},
        {"type": "counterweight", "on": True}, {"type": "weighed", "result": "balanced"}])
    entry = state.view(None)["log"][-1]
    assert entry == {"n": 1, "attacker": 0, "defender": 1, "declared": "ship", "verdict": "attacker_wins",
                     "remove": {"attacker": None, "defender": "defending_piece"}, "counterweight": True}


def test_identify_public_view_hides_even_the_counterweight_until_the_end():
    actions = [{"type": "battle", "attacker": 0}, {"type": "declare", "kind": "ship"},
               {"type": "identified", "attacker": "submarine", "defender": "carrier", "counterweight": True}]
    state = GAME.replay({"judging": "identify"}, actions)
    assert "counterweight" not in state.view(None)["log"][-1]
    assert state.view(0)["log"][-1]["my_piece"] == "submarine"
    assert state.view(1)["log"][-1]["my_piece"] == "carrier"
    assert state.view(1)["my_losses"]["lost"] == {"carrier": 1}
    over = state.apply({"type": "resign", "seat": 1})
    assert over.view(None)["log"][-1]["counterweight"] is True
    assert over.view(None)["log"][-1]["attacker_rank"] == "⑥"
