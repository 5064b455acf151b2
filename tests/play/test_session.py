"""Sessions: the rules state and its durable log move together."""

import pytest

from companion.games.uttt.rules import move
from companion.play.state import Refused
from companion.play.session import Session, tally
from companion.store import Store, StoreError

X_WINS = [move(cell) for cell in [42, 58, 38, 22, 40, 53, 72, 1, 16, 71, 80, 75, 34, 67, 76, 27,
                                  5, 46, 9, 7, 63, 0, 3, 35, 4]]


@pytest.fixture
def store(tmp_path):
    with Store.in_dir(tmp_path) as store:
        yield store


def test_every_action_is_logged_before_it_is_adopted(store):
    session = Session.start(store, "uttt", players=["red", "blue"], scoreboard="s")
    session.play(move(40))
    assert store.actions(session.id) == [move(40)]
    with pytest.raises(Refused):
        session.play(move(40))  # taken: refused, nothing written
    assert store.actions(session.id) == [move(40)] and session.actions == [move(40)]


def test_resume_replays_the_log(store):
    session = Session.start(store, "uttt")
    for action in X_WINS[:10]:
        session.play(action)
    again = Session.resume(store, session.id)
    assert again.state == session.state and again.actions == X_WINS[:10]


def test_finishing_records_the_outcome_once_and_undo_reopens(store):
    session = Session.start(store, "uttt", players=["red", "blue"], scoreboard="s")
    for action in X_WINS:
        session.play(action)
    record = store.game(session.id)
    assert record.status == "finished" and record.outcome["winner"] == 0
    assert tally(store, "s") == {"red": {"win": 1, "loss": 0, "draw": 0},
                                 "blue": {"win": 0, "loss": 1, "draw": 0}}
    Session.resume(store, session.id)  # a restart does not count it again
    assert tally(store, "s")["red"]["win"] == 1
    session.undo()
    assert store.game(session.id).status == "active" and tally(store, "s") == {}
    assert session.actions == X_WINS[:-1]


def test_history_has_every_state_for_review(store):
    session = Session.start(store, "uttt")
    for action in X_WINS[:5]:
        session.play(action)
    history = session.history()
    assert len(history) == 6 and history[-1] == session.state
    assert history[0].legal_actions() == [move(cell) for cell in range(81)]


def test_bad_options_are_refused_before_anything_is_written(store):
    with pytest.raises(Refused, match="unknown option"):
        Session.start(store, "uttt", options={"colour": "green"})
    assert store.games() == []


def test_play_all_commits_a_turn_of_several_actions_or_nothing(store):
    session = Session.start(store, "uttt", players=["red", "blue"], scoreboard="s")
    with pytest.raises(Refused):
        session.play_all([move(40), move(36), move(40)])  # the third is taken: the first two are not kept
    assert session.actions == [] and store.actions(session.id) == []
    session.play_all(X_WINS[:3])
    assert store.actions(session.id) == X_WINS[:3] == session.actions
    assert Session.resume(store, session.id).state == session.state


def test_a_turn_the_store_cannot_write_leaves_no_half_of_it(store):
    session = Session.start(store, "uttt")
    store._db.execute("CREATE TRIGGER refuse BEFORE INSERT ON actions WHEN NEW.seq = 1"
                      " BEGIN SELECT RAISE(ABORT, 'the disk says no'); END")  # the 2nd row fails
    with pytest.raises(StoreError, match="the disk says no"):
        session.play_all(X_WINS[:2])
    assert store.actions(session.id) == [] and session.actions == []
