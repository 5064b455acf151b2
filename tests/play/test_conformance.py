"""The conformance suite: every registered game keeps the contract of play/state.py.

Seeded random legal playouts to the end; at every step every legal action is a JSON
object `{"type": kind, ...}`, the state survives a JSON round-trip, equals the replay of
its log, refuses illegal actions without changing, and no view holds a secret it may not: the table's view none of any seat's,
a seat's view none of another seat's (`secrets(seat)` is spelled per seat, e.g.
"1:C3", so that it cannot be mistaken for what another seat legitimately sees).
"""

import dataclasses
import json
import random

import pytest

from companion.play.registry import games
from companion.play.state import CHANCE, Refused

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


@pytest.mark.parametrize("name", sorted(games()))
def test_every_game_names_how_it_can_end(name):
    endings = games()[name].endings
    assert endings and all(ending.value == ending.name.lower() for ending in endings)


def roundtrip(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name,options,seed", CASES)
def test_random_playout_keeps_the_contract(name, options, seed):
    game = games()[name]
    rng = random.Random(seed)
    state = game.new_state(options)
    assert dataclasses.is_dataclass(state) and state.__dataclass_params__.frozen  # written by evolve()
    log = []
    seen_actions = []
    for _ in range(MAX_STEPS):
        assert game.state_from_json(roundtrip(state.to_json())) == state
        assert game.replay(options, roundtrip(log)) == state
        check_views(state)
        legal = state.legal_actions()
        assert isinstance(state.phase, str) and (state.phase == "over") == state.is_over()
        check_illegal_refused(state, legal, seen_actions, rng)
        if state.is_over():
            assert legal == [] and state.to_move() is None
            outcome = state.outcome()
            assert type(outcome).from_json(roundtrip(outcome.to_json())) == outcome
            assert outcome.reason in {ending.value for ending in game.endings}, f"{outcome.reason!r}: not an Ending"
            return
        assert legal, f"{name}: game not over but no legal action"
        assert state.to_move() == CHANCE or 0 <= state.to_move() < state.seats
        for action in legal:
            assert action in state
            assert roundtrip(action) == action, f"action {action!r} is not plain JSON"
            assert type(action) is dict and type(action.get("type")) is str, f"{action!r}: not {{\"type\": ...}}"
        action = rng.choice(legal)
        seen_actions.extend(rng.sample(legal, min(3, len(legal))))
        state = state.apply(action)
        log.append(action)
    pytest.fail(f"{name}: no end after {MAX_STEPS} random actions")


def check_views(state):
    """The table's view holds no seat's secret, and no seat's view holds another's."""
    public = json.dumps(state.view(None), ensure_ascii=False)
    views = [json.dumps(state.view(seat), ensure_ascii=False) for seat in range(state.seats)]
    for owner in range(state.seats):
        for secret in state.secrets(owner):
            assert secret not in public, f"the table's view leaks seat {owner}'s {secret!r}"
            for seat, view in enumerate(views):
                assert seat == owner or secret not in view, f"seat {seat}'s view holds seat {owner}'s {secret!r}"


def check_illegal_refused(state, legal, seen_actions, rng):
    before = state.to_json()
    candidates = JUNK + rng.sample(seen_actions, min(5, len(seen_actions)))
    for action in candidates:
        if action in legal:
            continue
        assert action not in state
        with pytest.raises(Refused) as refused:
            state.apply(action)
        assert state.to_json() == before
        assert all(refused.value.text(lang) != refused.value.key for lang in ("ja", "en"))
