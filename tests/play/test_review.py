"""The review of a finished game, without a window: every game's log stepped through.

`Review` rebuilds the state after the first k actions (the replay of the log's first
k); the controllers of Gunkan, Battleship and Naval War offer ◀ ▶ once the game is
over (never before; Gunkan steps battle by battle), draw each step from the table's view
of that moment, and at no step show a secret the rules held then (`secrets(seat)`); Undo after the end (a
tracked Battleship) leaves no stale review behind.
"""

import json
import random

import pytest

from companion.games.battleship.controller import BattleshipController
from companion.games.gunkan.controller import GunkanController
from companion.games.gunkan.display import battle_stops
from companion.games.navalwar.controller import NavalWarController
from companion.play.controller import TABLE, Refused, to_json
from companion.play.registry import games
from companion.play.review import Review
from companion.play.session import Session
from companion.store import Lineup, Store

PLAYERS = {"gunkan": ["red", "blue"], "battleship": ["p1", "p2"], "uttt": ["red", "blue"],
           "kuku": ["red", "blue"]}


@pytest.fixture
def store(tmp_path):
    store = Store.in_dir(tmp_path)
    yield store
    store.close()


def finished(store, kind, options, seed):
    """A game of `kind` played to its end at random, stored, and resumed as from History."""
    players = PLAYERS.get(kind) or [f"P{n}" for n in range(options.get("players", 2))]
    lineup = Lineup("tracker") if options.get("mode") == "tracker" else Lineup()
    session = Session.start(store, kind, options, players=players, lineup=lineup)
    rng = random.Random(seed)
    while not session.state.is_over():
        session.play(rng.choice(session.state.legal_actions()))
    return Session.resume(store, session.id)


def say(model, lang):
    return json.dumps(to_json(model), ensure_ascii=False) + "".join(
        text.say(lang) for text in texts(model))


def texts(value):
    """Every Text in a display model, so that what it says is checked too."""
    if hasattr(value, "say"):
        yield value
        for param in value.params.values():
            yield from texts(param)
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from texts(item)


GAMES = [pytest.param(kind, options, id=f"{kind}-{i}")
         for kind, game in games().items() for i, options in enumerate(game.sample_options)]


@pytest.mark.parametrize("kind,options", GAMES)
def test_a_review_steps_through_the_log_and_rebuilds_each_state(store, kind, options):
    session = finished(store, kind, options, seed=1)
    review = Review(session)
    n = len(session.actions)
    assert review.n == n and review.at == n and review.at_end and review.state == session.state
    assert not review.step(1) and review.at == n  # nothing after the end
    rng = random.Random(2)
    for at in sorted(rng.sample(range(n + 1), min(n + 1, 12))):
        review.step(at - review.at)
        assert review.at == at and review.state == session.game.replay(options, session.actions[:at])
        assert review.action == (session.actions[at - 1] if at else None)
        assert review.before == (session.game.replay(options, session.actions[:at - 1]) if at else None)
    assert review.step(-10 ** 6) and review.at == 0 and review.state == session.game.new_state(options)
    assert not review.step(-1) and review.before is None


CONTROLLERS = {"gunkan": GunkanController.open, "battleship": BattleshipController.open,
               "navalwar": NavalWarController.open}
STOPS = {"gunkan": battle_stops}  # 軍艦将棋 steps battle by battle, as a group counts (issue 43)
REVIEWED = [pytest.param(kind, options, seed, id=f"{kind}-{i}-{seed}")
            for kind in CONTROLLERS for i, options in enumerate(games()[kind].sample_options)
            for seed in (3, 4)]


@pytest.mark.parametrize("kind,options,seed", REVIEWED)
def test_the_table_reviews_a_finished_game_move_by_move_and_no_step_shows_a_secret(store, kind, options, seed):
    session = finished(store, kind, options, seed)
    c = CONTROLLERS[kind](store, session)
    n = len(session.actions)
    end = c.display(TABLE)
    assert "review" in [o.kind for o in c.offers(TABLE)]
    if kind == "gunkan":
        assert c.review_text().say("ja") == f"終局（勝負 {len(session.state.battles)}）"
    else:
        assert c.review_text().say("en") == f"move {n} / {n}" and c.review_text().say("ja") == f"{n} / {n} 手目"
    stops = list(STOPS.get(kind, lambda review: range(n + 1))(c.review()))
    for seat in range(session.state.seats):
        with pytest.raises(Refused):
            c.act(seat, "review", -1)  # the table's, not a phone's
    states = session.history()
    drawn = set()
    for at in reversed(stops):
        assert c.review().at == at and c.shown() == states[at]
        model = c.display(TABLE)
        words = say(model, "ja") + say(model, "en")
        for seat in range(session.state.seats):
            for secret in states[at].secrets(seat):
                assert secret not in words, f"step {at} shows seat {seat}'s {secret!r}"
        drawn.add(json.dumps(to_json(model), ensure_ascii=False))
        if at:
            c.act(TABLE, "review", -1)
    assert len(drawn) > min(len(stops) - 1, 3)  # the steps are drawn, not the end again and again
    for _ in stops[1:]:
        c.act(TABLE, "review", 1)
    assert c.review().at_end and to_json(c.display(TABLE)) == to_json(end)


def test_no_review_while_a_game_is_played(store):
    c = BattleshipController.open(store, None)
    c.act(TABLE, "start")
    assert c.review() is None and c.review_text() is None and "review" not in [o.kind for o in c.offers(TABLE)]
    with pytest.raises(Refused):
        c.act(TABLE, "review", -1)


def test_undo_after_the_end_of_a_tracked_game_drops_the_review(store):
    session = finished(store, "battleship", {"mode": "tracker", "variant": "salvo", "advanced": True}, seed=5)
    c = BattleshipController.open(store, session)
    c.act(TABLE, "review", -1)
    c.act(TABLE, "undo")  # a tracked game: every action was typed in, so the last can go
    assert not c.session.state.is_over() and c.review() is None and c.shown() is c.session.state
