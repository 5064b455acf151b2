"""Naval War properties over random legal games with the full deck, 3 to 9 players.

Card conservation after every action, score arithmetic at every round end,
odds that add up, hand sizes kept, refusals that change nothing.
"""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from .test_support import GAME

from companion.play.state import CHANCE, Refused
from companion.games.navalwar.rules import card_conservation
from companion.games.navalwar.data import default_composition

SHIPS = default_composition().ship_by_id
MAX_ROUND_ACTIONS = 3000


def expected_points(last_round):
    survivors = last_round["survivors"]
    return [sum(SHIPS[s].defence for s in sunk)
            + (10 if survivors == [seat] else 0) - (0 if seat in survivors else 10)
            for seat, sunk in enumerate(last_round["sunk"])]


def legal_set(state):
    return {json.dumps(a, sort_keys=True) for a in state.legal_actions()}


def check_step(state, view, rng):
    if view["piles"]["draw"]:
        assert abs(sum(view["odds"]["cards"].values()) - 1) < 1e-9
    if view["phase"] == "turn" and state.to_move() != CHANCE and view["waiting"]["kind"] != "play":
        size = 4 if state.seats == 9 else 5
        hands = [f["hand"] for f in view["fleets"] if not f["out"]]
        assert all(n == size for n in hands) or view["piles"]["draw"] == 0
    if rng.random() < 0.3:  # a refused action leaves the state as it was
        json.dumps(view)
        assert len(legal_set(state)) == len(state.legal_actions()), "no action listed twice"
        before = state.to_json()
        for junk in ({"type": "play", "card": "salvo-18-4", "ship": "ship-nowhere"}, {"type": "die", "value": 7},
                     {"type": "no_red"}, {"type": "draw", "card": "x"}, "no_red", {"drew": "hidden"}):
            if junk not in state.legal_actions():
                try:
                    state.apply(junk)
                except Refused:
                    pass
                else:
                    raise AssertionError(f"{junk} accepted")
        assert state.to_json() == before


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 9), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_cards_and_scores(players, seed):
    rng = random.Random(seed)
    state = GAME.new_state({"players": players, "target": 1})
    rounds = 0
    round_actions = 0
    while not state.is_over():
        legal = state.legal_actions()
        assert legal
        state = state.apply(rng.choice(legal))
        round_actions += 1
        assert round_actions < MAX_ROUND_ACTIONS
        assert card_conservation(state) == []
        history = state.to_json()["history"]
        if len(history) == rounds and rng.random() > 0.1:
            continue  # the view is checked at one step in ten, and at every round end
        view = state.view(None)
        check_step(state, view, rng)
        if len(history) > rounds:
            rounds, round_actions = len(history), 0
            assert history[-1] == expected_points(view["last_round"])
            assert view["totals"] == [sum(c) for c in zip(*history)]
    totals = list(state.outcome().scores)
    assert state.outcome().winner == totals.index(max(totals)) and totals.count(max(totals)) == 1


def test_every_seat_sees_the_shared_table():
    rng = random.Random(3)
    state = GAME.new_state({"players": 4})
    for _ in range(120):
        state = state.apply(rng.choice(state.legal_actions()))
        public = state.view(None)
        for seat in range(4):
            assert state.view(seat) == {**public, "you": seat}
            assert state.secrets(seat) == []
