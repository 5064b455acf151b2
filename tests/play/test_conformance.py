"""The conformance suite: every registered game keeps the contract of rules/base.py.

Seeded random legal playouts to the end; at every step the state survives a JSON
round-trip, equals the replay of its log, refuses illegal actions without
changing, and its public view holds none of any seat's secrets.
"""

import json
import random

import pytest

from companion.play.registry import games
from companion.play.state import CHANCE, IllegalAction

MAX_STEPS = 3000
JUNK = [None, "garbage", -1, 10**9, 3.5, {}, [], {"type": "no-such-action"}, [[[]]]]

CASES = [
    pytest.param(name, options, seed, id=f"{name}-{i}-{seed}")
    for name, game in games().items()
    for i, options in enumerate(game.sample_options)
    for seed in range(3)
]


def test_some_games_are_registered():
    assert games(), "no game registered"


def roundtrip(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name,options,seed", CASES)
def test_random_playout_keeps_the_contract(name, options, seed):
    game = games()[name]
    rng = random.Random(seed)
    state = game.new_state(options)
    log = []
    seen_actions = []
    for _ in range(MAX_STEPS):
        assert game.state_from_json(roundtrip(state.to_json())) == state
        assert game.replay(options, roundtrip(log)) == state
        check_views(state)
        legal = state.legal_actions()
        check_illegal_refused(state, legal, seen_actions, rng)
        if state.is_over():
            assert legal == [] and state.to_move() is None
            outcome = state.outcome()
            assert type(outcome).from_json(roundtrip(outcome.to_json())) == outcome
            return
        assert legal, f"{name}: game not over but no legal action"
        assert state.to_move() == CHANCE or 0 <= state.to_move() < state.seats
        for action in legal:
            assert roundtrip(action) == action, f"action {action!r} is not plain JSON"
        action = rng.choice(legal)
        seen_actions.extend(rng.sample(legal, min(3, len(legal))))
        state = state.apply(action)
        log.append(action)
    pytest.fail(f"{name}: no end after {MAX_STEPS} random actions")


def check_views(state):
    public = json.dumps(state.view(None), ensure_ascii=False)
    for seat in range(state.seats):
        json.dumps(state.view(seat))
        for secret in state.secrets(seat):
            assert secret not in public, f"public view leaks seat {seat}'s {secret!r}"


def check_illegal_refused(state, legal, seen_actions, rng):
    before = state.to_json()
    candidates = JUNK + rng.sample(seen_actions, min(5, len(seen_actions)))
    for action in candidates:
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert state.to_json() == before
