"""The 九九戦艦 controller plays whole games without a window, in all three ways to play.

Every input goes through `Step`, which after each one proves that no display
holds a secret it may not: the table's none, a seat's none of the other seat's
(the rules' `secrets(seat)`, in the JSON a phone would be sent), and that no
hidden ship's cell is even named on the table's display unless it is public.
"""

import json
import random
import re

import pytest

from companion.games.kuku.board import cells_of
from companion.games.kuku import controller
from companion.games.kuku.ai import KukuAI
from companion.games.kuku.controller import KukuController
from companion.games.kuku.setup import LEVELS
from companion.play.controller import TABLE, Refused, to_json
from companion.play.session import Session
from companion.store import Lineup


def words(text, lang="ja"):
    if isinstance(text, list):
        return "\n".join(words(t, lang) for t in text)
    return text.say(lang)


def kinds(c, who=TABLE):
    return {offer.kind for offer in c.offers(who)}


def assert_no_leak(c):
    if c.session is None:
        return
    state = c.session.state
    public = set(state.attacked()) | {pad.entry for pad in c.pads.values()}
    public |= set((state.pending or {}).get("listing", []))
    public |= {cell for record in state.history if record["action"] == "bomb"
               for cell in record["correct"] + record["listing"]}  # said aloud, or the right listing
    for who in (TABLE, 0, 1):
        model = to_json(c.display(who))
        text = json.dumps(model, ensure_ascii=False)
        shown = json.dumps({k: v for k, v in model.items() if k != "offers"}, ensure_ascii=False)
        own = {secret.split("@")[1] for secret in state.secrets(who)} if who != TABLE else set()
        for seat in {0, 1} - {who}:
            for secret in state.secrets(seat):
                assert secret not in text, f"{secret} of seat {seat} shown to {who} at {c.stage()}"
                cell = secret.split("@")[1]  # (both seats may have a ship on one cell)
                assert (cell in public | own or not re.search(rf"(?<!\d){cell}(?!\d)", shown)), \
                    f"{secret} named to {who} at {c.stage()}"


class Step:
    """Input from `who`, then the secrecy check."""

    def __init__(self, c):
        self.c = c

    def __call__(self, who, kind, value=None):
        self.c.act(who, kind, value)  # a refusal is raised
        assert_no_leak(self.c)
        return True

    def refused(self, who, kind, value=None) -> str:
        """Input that must be refused, changing nothing: why, in Japanese."""
        before = json.dumps(to_json(self.c.display(who)), ensure_ascii=False)
        with pytest.raises(Refused) as refused:
            self.c.act(who, kind, value)
        assert json.dumps(to_json(self.c.display(who)), ensure_ascii=False) == before
        return refused.value.text("ja")

    def keys(self, who, text):
        for key in text:
            self(who, "key", key)

    def think(self):
        """The computer's turn, as a host thread would run it, but here and now."""
        turn = self.c.computer_turn()
        done = turn is not None and self.c.computer_done(turn, turn.think())
        assert_no_leak(self.c)
        return done


def start(store, opponent="2p", names=("Aki", "Ben"), **choices):
    c = KukuController.open(store, rng=random.Random(7))
    assert c.stage() == "setup" and c.session is None
    step = Step(c)
    step(TABLE, "choose", {"opponent": opponent})
    for name, value in choices.items():
        step(TABLE, "choose", {name: value})
    step(TABLE, "start", list(names))
    return c, step


def place(step, seat, normals, leader, cover=True):
    c = step.c
    if cover:
        assert c.stage() == "cover" and c.holder() == TABLE
        step(TABLE, "open")
    assert c.stage() == "place" and c.holder() == seat
    step(seat, "kind", "leader")
    step(seat, "cell", leader)
    for cell in normals:
        step(seat, "cell", cell)
    assert c.display(seat)["board"]["fleet"] == [f"{seat}:leader@{leader}"] + [f"{seat}:normal@{n}" for n in normals]
    assert c.display(TABLE)["board"]["fleet"] == [] and not set(c.display(1 - seat)["board"]["fleet"]) & set(
        c.display(seat)["board"]["fleet"])
    step(seat, "hide")


def test_a_refereed_game_from_the_cover_to_the_review_and_the_report(store):
    c, step = start(store)
    assert words(c.display(TABLE)["cover"]) == "Akiに画面を渡してください"
    for phone in (0, 1):  # only the table's own cover button opens the shared screen
        with pytest.raises(Refused):
            step(phone, "open")
    place(step, 0, ["1×1", "5×5"], "9×9")
    assert words(c.display(TABLE)["cover"], "en") == "Hand the screen to Ben"
    place(step, 1, ["3×8", "7×7"], "2×1")
    assert c.stage() == "play" and words(c.display(TABLE)["status"]).startswith("Akiの番")
    assert c.display(TABLE)["board"]["fleet"] == [] and len(c.display(1)["board"]["fleet"]) == 3  # a phone's own

    # a normal attack: tap to aim, tap again to attack
    step(TABLE, "cell", "3×8")
    model = c.display(TABLE)
    assert model["board"]["aim"] == "3×8" and words(model["primary"]) == "3×8 を攻撃"
    step(TABLE, "cell", "3×8")
    model = c.display(TABLE)
    assert c.stage() == "result" and model["board"]["rings"] == ["3×8"]
    news = words(model["news"])
    assert "赤（命中）" in news and "Ben「命中！」" in news and "残り\u00a0Aki\u00a03隻・ Ben\u00a02隻" in news
    step(TABLE, "continue")

    # a right bomb, typed on the keypad
    step.keys(TABLE, "16")
    assert words(c.display(TABLE)["primary"]) == "九九ボム 16"
    step(TABLE, "primary")
    assert c.stage() == "list" and c.display(TABLE)["board"]["values"] is False
    for pair in ("2×8", "4×4", "8×2"):
        step.keys(TABLE, pair)
        step(TABLE, "primary")
    assert words(c.display(TABLE)["said"]) == "言った: 2×8、4×4、8×2"
    step(TABLE, "done")
    assert words(c.display(TABLE)["news"]).count("青（ハズレ）") == 3
    step(TABLE, "continue")

    # a failed bomb: judged when done, then the right listing (the learning moment)
    step.keys(TABLE, "24")
    step(TABLE, "primary")
    for pair in ("3×8", "8×3", "4×6"):
        step(TABLE, "cell", pair)  # a tapped cell is the pair typed
        step(TABLE, "primary")
    step(TABLE, "done")
    model = c.display(TABLE)
    assert "言い漏れ" in words(model["news"]) and "正しくは: 3×8、4×6、6×4、8×3" in words(model["news"])
    assert sorted(model["board"]["hints"]) == ["3×8", "4×6", "6×4", "8×3"]
    step(TABLE, "continue")

    # a refused attack keeps the turn and is told to whoever sent it
    assert "攻撃済み" in step.refused(TABLE, "move", {"type": "attack", "cell": "4×4"}) and c.stage() == "play"
    assert step.refused(TABLE, "confirm") == "今はできません"  # not offered now
    step(TABLE, "key", "5")  # the turn goes on
    assert c.display(TABLE)["entry"] == "5"
    step(TABLE, "key", "←")
    assert "undo" not in kinds(c)  # a refereed attack is final

    targets, water = iter(["1×1", "5×5", "9×9"]), iter(["1×2", "1×3", "1×4", "1×5", "1×6"])
    while c.stage() != "over":
        if c.stage() == "result":
            step(TABLE, "continue")
        else:
            seat = c.session.state.to_move()
            assert step(seat, "move", {"type": "attack", "cell": next(targets if seat == 1 else water)})
    model = c.display(TABLE)
    assert words(model["status"]) == "Benの勝ち！\n相手の船が全滅"
    assert "0:leader@9×9" in model["board"]["fleet"]  # after the game both fleets are shown
    for _ in range(5):
        step(TABLE, "review", -1)
    model = c.display(TABLE)
    assert words(model["review_title"]) == "ふりかえり 3 / 8" and "正しくは" in words(model["review"])
    step(TABLE, "report")
    report = c.display(TABLE)["report"]
    assert report["name"] == "Aki" and "24: 1回中 1回まちがい  （抜け: 6×4）" in words(report["lines"])
    step(TABLE, "back")
    assert c.stage() == "over"
    assert store.game(c.session.id).status == "finished"


def test_input_from_a_seat_that_may_not_act_is_refused_and_changes_nothing(store):
    c, step = start(store)
    place(step, 0, ["1×1", "2×2"], "3×3")
    place(step, 1, ["4×4", "5×5"], "6×6")
    before = (list(c.session.actions), json.dumps(to_json(c.display(TABLE)), ensure_ascii=False))
    for who, kind, value in ((1, "cell", "9×9"), (1, "key", "7"), (1, "move", {"type": "attack", "cell": "9×9"}),
                             (0, "start", ["A", "B"]), (1, "new", None), (TABLE, "continue", None),
                             (TABLE, "undo", None), (TABLE, "cell", "10×10")):
        with pytest.raises(Refused) as refused:
            c.act(who, kind, value)
        theirs = who == 1 and kind in ("cell", "key", "move")  # Aki's to do: the refusal says so
        assert refused.value.key == ("play.not_yours" if theirs else "play.not_now")
        assert isinstance(refused.value, ValueError)
    assert (list(c.session.actions), json.dumps(to_json(c.display(TABLE)), ensure_ascii=False)) == before
    step(0, "cell", "9×9")  # Aki from her own seat
    step(0, "cell", "9×9")
    assert c.session.actions[-1] == {"type": "attack", "cell": "9×9"}


def test_after_a_refused_bomb_a_pair_off_the_board_is_no_attack(store):
    c, step = start(store)
    place(step, 0, ["1×1", "1×2"], "1×3")
    place(step, 1, ["1×4", "1×5"], "1×6")
    for cell in cells_of(18) + ("7×7", "8×8"):
        step(TABLE, "move", {"type": "attack", "cell": cell})
        step(TABLE, "continue")
    step.keys(TABLE, "18")
    assert "すべて攻撃済み" in step.refused(TABLE, "primary")  # every cell of 18 was attacked: the turn goes on
    step.keys(TABLE, "×9")
    model = c.display(TABLE)
    assert model["entry"] == "18×9" and "primary" not in kinds(c)  # was an enabled "attack 18×9"
    with pytest.raises(Refused):
        c.act(TABLE, "primary")
    step(TABLE, "cell", "9×9")
    assert "primary" in kinds(c) and words(c.display(TABLE)["primary"]) == "9×9 を攻撃"


def test_while_placing_undo_takes_back_only_your_own_ship(store):
    c, step = start(store)
    step(TABLE, "open")
    assert "undo" not in kinds(c, 0)
    step(0, "cell", "1×1")
    step(0, "cell", "2×2")
    step(0, "undo")
    assert c.session.actions == [{"type": "place", "kind": "normal", "cell": "1×1"}]
    step(0, "cell", "2×2")
    step(0, "cell", "3×3")
    assert "undo" in kinds(c, 0) and "undo" not in kinds(c, 1)
    step(0, "hide")
    step(TABLE, "open")
    assert "undo" not in kinds(c, 1)  # Aki's ships are not Ben's to take back
    step(1, "cell", "4×4")
    step(1, "undo")
    assert len(c.session.actions) == 3 and c.stage() == "place"


def test_a_game_resumed_mid_placement_is_covered_again(store):
    c, step = start(store)
    step(TABLE, "open")
    for cell in ("1×1", "2×2", "3×3"):
        step(0, "cell", cell)
    step(0, "hide")
    step(TABLE, "open")
    step(1, "cell", "4×4")
    again = KukuController.open(store)
    assert again.session.id == c.session.id and again.stage() == "cover" and again.holder() == TABLE
    assert_no_leak(again)


def computer_game(store, level, seed):
    c, step = start(store, "cpu", names=("Aki", ""), level=level)
    assert c.session.players == ["Aki", "cpu"] and c.stage() == "place" and c.holder() == 0  # no cover
    commits = []
    original = c.session.play_all
    c.session.play_all = lambda actions: commits.append(list(actions)) or original(actions)
    place(step, 0, ["1×1", "5×5"], "9×9", cover=False)
    assert c.stage() == "wait" and words(c.display(TABLE)["status"]) == "コンピューターが船を置いています…"
    with pytest.raises(Refused):
        step(TABLE, "move", {"type": "place", "kind": "normal", "cell": "2×2"})  # not yours
    assert step.think() and [a["type"] for a in commits[-1]] == ["place"] * 3  # its fleet in one turn
    rng, undone = random.Random(seed), False
    while c.stage() != "over":
        stage = c.stage()
        if stage == "wait":
            assert "key" not in kinds(c) and c.display(TABLE)["thinking"]
            before = c.session.state
            assert step.think()
            seat, first = c.turns()[-1]
            assert seat == 1 and c.session.actions[first:] == commits[-1]  # one turn, one commit
            if commits[-1][0]["type"] == "bomb" and not undone:  # and undone as one
                c.undo_to(first)
                assert c.session.state == before and c.stage() == "wait"
                undone = True
        elif stage == "result":
            step(TABLE, "continue")
        else:
            state = c.session.state
            own = {cell for cell, _ in state.fleets[0]}
            cells = [cell for cell in state.unattacked() if cell not in own] or state.unattacked()
            step(TABLE, "move", {"type": "attack", "cell": rng.choice(cells)})
    return c, commits


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_against_the_computer_at_each_level_its_turns_are_committed_whole(store, level):
    c, commits = computer_game(store, level, 3)
    bombs = [turn for turn in commits if turn[0]["type"] == "bomb"]
    for turn in bombs:  # a bomb listing: declared, said and done in one transaction
        assert turn[-1] == {"type": "done"} and all(a["type"] == "say" for a in turn[1:-1])
        assert len(turn) == len(cells_of(turn[0]["product"])) + 2  # always right
    assert level == "easy" or bombs
    assert store.actions(c.session.id) == c.session.actions
    assert store.game(c.session.id).status == "finished"
    assert "undo" not in kinds(c)  # at the table, a refereed attack is final


def test_a_computer_answer_after_a_new_game_is_dropped(store):
    c, step = start(store, "cpu", names=("Aki", ""), level="easy", first=1)
    assert c.stage() == "wait"
    turn = c.computer_turn()
    step(TABLE, "new")
    assert c.computer_turn() is None  # the start panel is open: the computer waits
    step(TABLE, "back")
    assert not c.computer_done(turn, turn.think())  # asked before: dropped
    assert c.session.actions == []
    step(TABLE, "key", "7") if "key" in kinds(c) else None
    fresh = c.computer_turn()
    assert c.computer_done(fresh, fresh.think()) and len(c.session.actions) == 3


def report_hits(step, cells):
    for cell in cells:
        step(TABLE, "toggle", cell)
    step(TABLE, "confirm")


def test_a_tracked_game_asks_for_hits_and_the_leader_and_undo_takes_back_what_was_typed(store):
    c, step = start(store, "tracker")
    assert c.stage() == "play" and c.session.state.mode == "tracker"
    # Aki: leader 1×1, normals 3×8 and 2×1; Ben: normals 4×6 and 7×7, leader 2×1
    step.keys(TABLE, "24")
    step(TABLE, "primary")
    for pair in ("3×8", "8×3", "4×6", "6×4"):
        step(TABLE, "cell", pair)
        step(TABLE, "primary")
    step(TABLE, "undo")  # 6×4 was said by mistake? it comes back off the listing
    assert c.session.state.pending["listing"] == ["3×8", "8×3", "4×6"]
    step(TABLE, "cell", "6×4")
    step(TABLE, "primary")
    step(TABLE, "done")
    model = c.display(TABLE)
    assert c.stage() == "answer" and words(model["status"]).startswith("Ben: 攻撃されたマスに")
    assert [a["value"] for a in model["answers"]] == ["3×8", "4×6", "6×4", "8×3"]
    assert words(model["confirm"]) == "報告する（船なし）"
    step(TABLE, "toggle", "4×6")
    assert words(c.display(TABLE)["confirm"]) == "報告する（1隻命中）"
    step(TABLE, "confirm")
    report_hits(step, ["3×8"])
    news = words(c.display(TABLE)["news"])
    assert "自爆" in news and "Ben「命中！」 4×6" in news and "Aki「命中！」 3×8" in news
    step(TABLE, "continue")
    for action in ({"type": "attack", "cell": "1×1"}, {"type": "report", "hits": ["1×1"]},
                   {"type": "report", "hits": []}, {"type": "attack", "cell": "7×7"},
                   {"type": "report", "hits": ["7×7"]}, {"type": "report", "hits": []}):
        assert step(TABLE, "move", action)
        if c.stage() == "result":
            step(TABLE, "continue")
    step(TABLE, "cell", "2×1")
    step(TABLE, "cell", "2×1")
    report_hits(step, ["2×1"])
    report_hits(step, ["2×1"])
    model = c.display(TABLE)
    assert c.stage() == "answer" and "リーダー船はありましたか" in words(model["status"])
    assert "confirm" not in kinds(c)  # one answer must be chosen
    step(TABLE, "toggle", "earlier")
    step(TABLE, "toggle", "2×1")  # one leader: the second choice replaces the first
    assert [a["chosen"] for a in c.display(TABLE)["answers"]] == [True, False]
    step(TABLE, "toggle", "earlier")
    assert [a["chosen"] for a in c.display(TABLE)["answers"]] == [False, True]
    step(TABLE, "confirm")
    report_hits(step, ["2×1"])
    step(TABLE, "continue")
    model = c.display(TABLE)
    assert c.stage() == "over" and words(model["status"]) == "Benの勝ち！\n同時全滅: リーダー船の側の勝ち"


def test_the_setup_keeps_its_choices_and_scores_and_a_new_game_abandons_the_unfinished_one(store):
    c, step = start(store, "2p", rule="extra", first=1)
    first = c.session
    assert first.record.options == {"rule": "extra", "first": 1, "mode": "referee"}
    step(TABLE, "new")
    assert c.stage() == "setup" and "back" in kinds(c)
    step(TABLE, "back")
    assert c.stage() == "cover"
    step(TABLE, "new")
    with pytest.raises(Refused):
        step(TABLE, "start", ["Aki", " "])
    step(TABLE, "choose", {"opponent": "tracker"})
    step(TABLE, "start", ["Aki", "Ben"])
    assert store.game(first.id).status == "abandoned" and c.opponent == "tracker"
    assert words(c.display(TABLE)["status"]).startswith("Benの番")
    step(TABLE, "new")
    assert [words(t) for t in c.display(TABLE)["default_names"]] == ["赤", "青"]
    step(TABLE, "choose", {"opponent": "cpu"})
    assert [words(t, "en") for t in c.display(TABLE)["default_names"]] == ["You", "Computer"]


def test_listeners_hear_every_change(store):
    c, step = start(store, "tracker")
    heard = []
    c.listeners.append(lambda: heard.append(c.display(TABLE)["entry"]))
    step.keys(TABLE, "2×")
    step(TABLE, "key", "←")
    assert heard == ["2", "2×", "2"]
    assert Session.resume(store, c.session.id).actions == []


def snapshot(c):
    return (list(c.session.actions) if c.session else None, c.stage(),
            [json.dumps(to_json(c.display(who)), ensure_ascii=False) for who in (TABLE, 0, 1)])


def a_value(offer, c, rng):
    if offer.choices:
        return rng.choice(offer.choices)
    if offer.kind == "move":
        return rng.choice(c.session.state.legal_actions())
    return ["Aki", "Ben"] if offer.kind == "start" else None


@pytest.mark.parametrize("opponent,seed", [("2p", 1), ("2p", 2), ("cpu", 3), ("tracker", 4), ("tracker", 5)])
def test_random_input_from_anyone_never_leaks_and_what_is_not_offered_changes_nothing(store, opponent, seed):
    """Random senders press random offers; at every step an input the sender was not
    offered is refused and changes nothing, and no display holds another's secret."""
    c, step = start(store, opponent, names=("Aki", "Ben"), level="easy")
    rng = random.Random(seed)
    rare = {"new", "report", "back", "review", "undo", "choose", "start", "report_name"}
    for _ in range(400):
        if c.stage() == "over":
            break
        if step.think():
            continue
        who = rng.choice([TABLE, 0, 1])
        mine = c.offers(who)
        others = {o.kind for w in (TABLE, 0, 1) if w != who for o in c.offers(w)} - {o.kind for o in mine}
        if others:
            before = snapshot(c)
            with pytest.raises(Refused):
                c.act(who, rng.choice(sorted(others)), None)
            assert snapshot(c) == before
        usual = [o for o in mine if o.kind not in rare] or mine
        if not usual:
            continue
        offer, before = rng.choice(usual if rng.random() < 0.97 else mine), snapshot(c)
        try:
            step(who, offer.kind, a_value(offer, c, rng))
        except Refused:  # the rules said no: nothing changed
            assert snapshot(c) == before
    assert c.session.actions == store.actions(c.session.id)


def test_games_saved_before_lineups_were_stored_resume_with_their_opponent_and_level(old_store, monkeypatch):
    levels = []
    monkeypatch.setattr(controller, "KukuAI", lambda level, rng: levels.append(level) or KukuAI(level, rng))
    c = KukuController.open(old_store, Session.resume(old_store, old_store.saved("kuku:tracker")))
    assert c.opponent == "tracker" and c.setup["opponent"] == "tracker" and c.session.players == ["Aki", "Ben"]
    c = KukuController.open(old_store, Session.resume(old_store, old_store.saved("kuku:cpu:hard")))
    assert c.opponent == "cpu" and c.setup["level"] == "hard" and c.computer_seats == {1}
    assert c.stage() == "place" and c.holder() == 0  # no cover against the computer
    for cell in ["1×1", "5×5"]:
        c.act(0, "cell", cell)
    c.act(0, "hide")
    turn = c.computer_turn()
    assert c.computer_done(turn, turn.think()) and levels == [LEVELS["hard"]]


@pytest.mark.parametrize("opponent, level", [("2p", None), ("tracker", None), ("cpu", "easy"), ("cpu", "hard")])
def test_who_plays_is_on_the_record_and_a_resumed_game_keeps_it(store, opponent, level):
    c, _ = start(store, opponent, **({"level": level} if level else {}))
    resumed = KukuController.open(store, Session.resume(store, c.session.id))
    assert resumed.session.lineup == Lineup(opponent, level) and resumed.opponent == opponent
    assert resumed.setup == c.setup | ({} if level else {"level": "medium"})
