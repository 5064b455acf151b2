"""The Ultimate Tic-Tac-Toe controller plays whole games without a window."""

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.games.uttt import ai, controller
from companion.games.uttt.controller import UtttController
from companion.games.uttt.rules import move
from companion.play.controller import TABLE, Refused, to_json
from companion.play.session import Session
from companion.store import Lineup, Store

X_WINS = [42, 58, 38, 22, 40, 53, 72, 1, 16, 71, 80, 75, 34, 67, 76, 27, 5, 46, 9, 7,
          63, 0, 3, 35, 4]  # X completes the diagonal 0-4-8 on the last move


def words(text, lang="ja"):
    return text.say(lang)


def kinds(controller, who=TABLE):
    return [offer.kind for offer in controller.offers(who)]


def test_a_two_player_game_from_the_table_to_its_review(store):
    c = UtttController.open(store)
    assert c.session.players == ["red", "blue"] and c.stage() == "play"
    assert words(c.display(TABLE)["status"]) == "赤の番 (×)"
    assert words(c.display(TABLE)["status"], "en") == "Red to play (×)"
    for cell in X_WINS:
        c.act(TABLE, "cell", cell)
    model = c.display(TABLE)
    assert c.stage() == "review" and words(model["result"]) == "赤の勝ち！"
    assert "cell" not in kinds(c) and "undo" not in kinds(c) and not model["interactive"]
    assert words(model["review"]) == f"{len(X_WINS)} / {len(X_WINS)} 手目"
    c.act(TABLE, "review", -1)
    earlier = c.display(TABLE)
    assert earlier["board"] == Session.resume(store, c.session.id).history()[-2].view(None)
    assert earlier["hints"]  # where that move could have gone
    json.dumps(to_json(earlier), ensure_ascii=False)  # a phone can be sent it as it is
    assert words(c.display(TABLE)["score"]) == "赤\u00a01勝・ 青\u00a00勝・ 引き分け\u00a00"


def test_input_the_seat_may_not_make_is_refused_and_changes_nothing(store):
    c = UtttController.open(store)
    with pytest.raises(Refused) as refused:
        c.act(1, "cell", 40)  # blue's phone, red's move: red's to make, it says
    assert refused.value.key == "play.not_yours" and isinstance(refused.value, ValueError)
    c.act(0, "cell", 40)  # red from its own seat
    with pytest.raises(Refused):
        c.act(TABLE, "cell", 40)  # taken: not among the offer's choices
    with pytest.raises(Refused):
        c.act(0, "mode", "hard")  # a seat's phone does not choose the table's game
    assert c.session.actions == [move(40)]


def test_undo_with_two_players_takes_back_one_move(store):
    c = UtttController.open(store)
    assert "undo" not in kinds(c)
    c.act(TABLE, "cell", 40)
    c.act(TABLE, "cell", 36)
    c.act(TABLE, "undo")
    assert c.session.actions == [move(40)] and store.actions(c.session.id) == [move(40)]


@pytest.fixture
def brief_hard(monkeypatch):
    """The hard computer as it plays (solver, smart playouts, priors) but searching 0.02 s a
    move, not its 1 s: these tests are about the flow around its moves (its time: test_ai.py)."""
    monkeypatch.setitem(ai.LEVELS, "hard", replace(ai.LEVELS["hard"], time_limit=0.02))


def think_now(c):
    """Run the computer's turn as a host thread would, but here and now."""
    turn = c.computer_turn()
    return turn and c.computer_done(turn, turn.think())


def test_against_the_computer_a_whole_game_and_undo_takes_your_move_and_its_reply(store):
    c = UtttController.open(store, rng=random.Random(1))
    c.act(TABLE, "mode", "easy")
    rng = random.Random(2)
    if c.session.players[0] == "cpu":
        assert think_now(c)
    you = c.session.players.index("you")
    c.act(TABLE, "cell", rng.choice(c.session.state.legal_cells()))
    assert c.display(TABLE)["thinking"] and "cell" not in kinds(c)  # the computer's turn
    with pytest.raises(Refused):
        c.act(TABLE, "cell", c.session.state.legal_cells()[0])
    assert think_now(c)
    before = list(c.session.actions)
    c.act(TABLE, "undo")
    assert c.session.actions == before[:-2] and c.session.state.to_move() == you
    while c.stage() == "play":
        if not think_now(c):
            c.act(TABLE, "cell", rng.choice(c.session.state.legal_cells()))
    assert store.game(c.session.id).status == "finished"


def test_a_computer_answer_after_an_undo_is_dropped(store):
    c = UtttController.open(store, rng=random.Random(3))
    c.act(TABLE, "mode", "easy")
    if c.session.players[0] == "cpu":
        think_now(c)
    c.act(TABLE, "cell", c.session.state.legal_cells()[0])
    turn = c.computer_turn()
    actions = list(c.session.actions)
    c.act(TABLE, "undo")  # while the computer thinks
    assert not c.computer_done(turn, turn.think())
    assert c.session.actions == actions[:-1]


def test_who_starts_alternates_and_a_new_mode_keeps_the_begun_game_resumable(store, brief_hard):
    c = UtttController.open(store)
    first = c.session
    c.act(TABLE, "mode", "easy")  # nothing played yet: nothing to keep
    assert store.game(first.id).status == "abandoned"
    begun = c.session
    c.act(TABLE, "cell", 40)
    c.act(TABLE, "mode", "hard")  # a stray tap on a level mid-game
    assert store.game(begun.id).status == "active" and c.mode == "hard"
    assert Session.resume(store, begun.id).actions == [move(40)]
    starters = []
    for _ in range(2):
        starters.append(c.session.players[0])
        while c.stage() == "play":
            if not think_now(c):
                c.act(TABLE, "cell", c.session.state.legal_cells()[0])
        c.act(TABLE, "another")
    assert sorted(starters) == ["cpu", "you"]
    assert UtttController.open(store).session.id == c.session.id  # the unfinished one again


def test_listeners_hear_every_change(store):
    c = UtttController.open(store)
    heard = []
    c.listeners.append(lambda: heard.append(len(c.session.actions)))
    c.act(TABLE, "cell", 40)
    c.act(TABLE, "undo")
    assert heard == [1, 0]

SENDERS = (TABLE, 0, 1)
KINDS = ("cell", "undo", "mode", "another", "review", "no_such_kind")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(SENDERS), st.sampled_from(KINDS), st.integers(-2, 82),
                          st.booleans()), max_size=60))
def test_random_senders_only_do_what_they_were_offered(tmp_path_factory, brief_hard, presses):
    with Store.in_dir(tmp_path_factory.mktemp("uttt")) as store:
        c = UtttController.open(store, rng=random.Random(0))
        for who, kind, number, offered in presses:
            offers = [o for o in c.offers(who) if o.kind == kind]
            if offered and offers and offers[0].choices:
                value = offers[0].choices[number % len(offers[0].choices)]
            else:
                value = {"mode": "hard"}.get(kind, number)
            allowed = any(o.accepts(value) for o in offers)
            before = (c.session.id, list(c.session.actions), c.epoch)
            if allowed:
                c.act(who, kind, value)
                assert c.epoch == before[2] + 1
            else:
                with pytest.raises(Refused):
                    c.act(who, kind, value)
                assert (c.session.id, list(c.session.actions), c.epoch) == before
            for seat in (0, 1):  # a phone never moves for the other seat
                assert all(o.seat in (None, seat) for o in c.offers(seat))
            json.dumps(to_json(c.display(TABLE)), ensure_ascii=False)
            if c.computer_turn():
                think_now(c)


def test_a_game_saved_before_lineups_were_stored_resumes_against_the_same_computer(old_store, monkeypatch,
                                                                                  brief_hard):
    levels = []
    real = controller.choose_move
    monkeypatch.setattr(controller, "choose_move", lambda state, level, rng: levels.append(level) or real(
        state, level, rng))
    c = UtttController.open(old_store, Session.resume(old_store, old_store.saved("uttt:cpu:hard")))
    assert c.mode == "hard" and c.display(TABLE)["mode"] == "hard" and c.computer_to_move() == 1
    turn = c.computer_turn()
    assert c.computer_done(turn, turn.think()) and levels == ["hard"] and len(c.session.actions) == 2
    # the newest unfinished one is the one written last (its stored times, 2027, are ahead of
    # this machine's clock: by the clock, the two-player game was newer)
    assert UtttController.open(old_store).session.id == c.session.id
    c = UtttController.open(old_store, Session.resume(old_store, old_store.saved("uttt:2p")))
    assert c.mode == "2p" and c.computer_to_move() is None and c.session.players == ["blue", "red"]
    assert words(c.display(TABLE)["score"]) == "赤\u00a01勝・ 青\u00a00勝・ 引き分け\u00a00"  # its finished game still counts


@pytest.mark.parametrize("mode", ["2p", "easy", "hard"])
def test_who_plays_is_on_the_record_and_a_resumed_game_keeps_it(store, mode):
    c = UtttController.open(store)
    c.act(TABLE, "mode", mode)
    resumed = UtttController.open(store, Session.resume(store, c.session.id))
    assert resumed.mode == mode and resumed.session.lineup == Lineup.of("2p" if mode == "2p" else "cpu", mode)
    assert resumed.session.record.scoreboard == ("uttt:2p" if mode == "2p" else f"uttt:cpu:{mode}")
