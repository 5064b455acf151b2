"""The Gunkan referee plays whole games without a window: weighings are scripted inputs.

Every step is checked for leaks: no display model, the table's or a seat's, holds a
weight, a rank or a fought ship's class before the end (identify: the report after)."""

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.games.gunkan.controller import GunkanController, Weighing
from companion.games.gunkan import display
from companion.games.gunkan.display import render
from companion.games.gunkan.pieces import default_table
from companion.games.gunkan.seesaw import EMPTY, LOADED, MISFIT, REFUSED, PanStatus, Seesaw, virtual_calibration
from companion.games.gunkan.table import RANK, SHIPS, rank_label
from companion.play.controller import TABLE, Refused, to_json
from companion.sensing.judge import BALANCED, LEFT, REWEIGH, RIGHT, Verdict
from companion.sensing.simulator import ManualClock, SimulatedSeesaw
from companion.store import Store

WHO = (TABLE, 0, 1)
WEIGHT = re.compile(r"\d\s*(g|グラム)\b")


class FakeSeesaw:
    """The controller's handle on the glue: it resets the judge, marks the loads and zeroes the
    empty pans (`off`: the pans it finds too far from zero)."""

    def __init__(self, counterweight_sensed=False):
        self.counterweight_sensed = counterweight_sensed
        self.resets = self.marks = self.rezeros = 0
        self.off = []

    def rezero(self):
        self.rezeros += 1
        return list(self.off)

    def reset(self):
        self.resets += 1

    def mark(self):
        self.marks += 1


def words(text, lang="ja"):
    return render(text if isinstance(text, list) else [text], lambda key, **v: i18n.translate(key, lang, **v))


def floats(value):
    if isinstance(value, float):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from floats(v)
    elif isinstance(value, list):
        for v in value:
            yield from floats(v)


def check(c):
    """No display model tells a weight, a rank or (before the end) a fought ship, but a
    seat's `mine`: its own side, from its own view only."""
    over = c.session is not None and c.session.state.is_over()
    for who in WHO:
        model = to_json(c.display(who))
        if who != TABLE and c.session is not None:
            assert model.pop("mine") == to_json(display._mine(c.session.state.view(who), who))
        shown = json.dumps(model, ensure_ascii=False)
        assert not list(floats(model)) and not WEIGHT.search(shown), shown  # never a weight
        if c.session is None or over:
            continue
        for seat in (0, 1):
            for secret in c.session.state.secrets(seat):
                assert secret not in shown, (who, secret)
        assert not any(rank_label(ship) in shown for ship in RANK)
        if c.identify:
            assert not any(ship in shown for ship in SHIPS), shown


def act(c, who, kind, value=None):
    c.act(who, kind, value)
    check(c)


def weigh(c, verdict=None, left=LOADED, right=LOADED, changed=False):
    act(c, TABLE, "weighing", Weighing((PanStatus(left), PanStatus(right)), verdict, changed))


def empty(c):
    weigh(c, None, EMPTY, EMPTY, changed=True)


def buttons(c, who=TABLE):
    return [b["name"] for b in c.display(who)["buttons"]]


def last(c):
    return c.session.state.battles[-1].verdict


def sound(c):
    return c.display(TABLE)["cue"]["sound"]


def refused(c, who, kind, value=None):
    before = (list(c.session.actions) if c.session else None, json.dumps(to_json(c.display(TABLE))))
    with pytest.raises(Refused):
        c.act(who, kind, value)
    assert (list(c.session.actions) if c.session else None, json.dumps(to_json(c.display(TABLE)))) == before


def test_seesaw_mode_a_whole_game(store):
    seesaw = FakeSeesaw()
    c = GunkanController.open(store, seesaw=seesaw)
    assert c.stage() == "start" and buttons(c) == ["mode:seesaw", "mode:identify"]
    act(c, TABLE, "mode", "seesaw")
    assert buttons(c) == ["attack:0", "attack:1"] and buttons(c, 1) == ["attack:1"]
    assert words(c.display(TABLE)["prompt"]) == "勝負が発生したら攻撃側をタップ"

    act(c, TABLE, "attack", 0)
    assert buttons(c) == ["declare:ship", "declare:mine", "declare:port", "cancel"]
    assert buttons(c, 0) == [] and buttons(c, 1) == ["declare:ship", "declare:mine", "declare:port"]
    weigh(c, Verdict(LEFT, 1.0))  # the pans are loaded, but the defender has not declared
    assert not c.session.state.battles
    act(c, 1, "declare", "ship")  # from the defender's own seat
    act(c, TABLE, "counterweight", "off")
    resets = seesaw.resets
    weigh(c, None)  # both loaded, the judge still waiting
    assert c.display(TABLE)["weighing"] and words(c.display(TABLE)["prompt"]) == "計量中…"
    weigh(c, Verdict(LEFT, 1.0))
    assert last(c) == "attacker_wins" and sound(c) == "verdict"
    model = c.display(TABLE)
    assert c.stage() == "verdict" and model["buttons"] == [] and model["can_end"] and model["can_undo"]
    assert words(model["big"]) == "攻撃側の勝ち" and "取り除いて" in words(model["detail"][0])
    empty(c)
    assert c.stage() == "idle" and resets == seesaw.resets

    for attacker, verdict, expected in ((1, BALANCED, "both_removed"), (0, RIGHT, "defender_wins")):
        act(c, TABLE, "attack", attacker)
        act(c, TABLE, "declare", "ship")
        act(c, TABLE, "counterweight", "off")
        weigh(c, Verdict(verdict, 1.0))
        assert last(c) == expected
        empty(c)

    # the submarine carrying the counterweight balances the carrier: 6 attacked 1
    act(c, TABLE, "attack", 1)
    act(c, TABLE, "declare", "ship")
    act(c, 1, "counterweight", "on")
    weigh(c, Verdict(BALANCED, 1.0))
    assert last(c) == "attacker_wins"
    assert "・錘" in words(c.display(TABLE)["log"][0])  # placed in plain sight: public
    empty(c)

    # counterweight on and no balance: take it off; nothing is judged until a pan is touched
    act(c, TABLE, "attack", 0)
    act(c, TABLE, "declare", "ship")
    act(c, TABLE, "counterweight", "on")
    weigh(c, Verdict(RIGHT, 1.0))
    assert c.session.state.current.counterweight_off and sound(c) == "reweigh"
    assert words(c.display(TABLE)["prompt"]) == "釣り合いませんでした。錘を外して量り直してください"
    marks = seesaw.marks
    weigh(c, Verdict(RIGHT, 1.0))  # the same old reading: ignored
    assert c.session.state.current is not None and seesaw.marks == marks
    weigh(c, None, changed=True)  # the counterweight came off
    weigh(c, Verdict(RIGHT, 1.0))
    assert last(c) == "defender_wins"
    empty(c)

    # a piece fitting no class: re-weigh (counted), then a verdict after re-placing
    act(c, TABLE, "attack", 1)
    act(c, TABLE, "declare", "ship")
    act(c, TABLE, "counterweight", "off")
    weigh(c, Verdict(REWEIGH, 1.0))
    assert c.session.state.current.reweighs == 1
    assert words(c.display(TABLE)["prompt"]) == "量り直し：駒を一度下ろして、\n皿の中央に置き直してください"
    assert c.display(TABLE)["tone"] == "warn"
    weigh(c, None, changed=True)
    weigh(c, Verdict(LEFT, 1.0))
    assert last(c) == "attacker_wins"
    empty(c)

    # a mine: boom at the tap, the attacker says whether it showed a minesweeper
    act(c, TABLE, "attack", 0)
    act(c, TABLE, "declare", "mine")
    assert sound(c) == "explosion" and words(c.display(TABLE)["big"]) == "ボワ～ン！"
    assert buttons(c) == ["mine:yes", "mine:no"] and buttons(c, 1) == []
    refused(c, 1, "mine", "no")  # the defender does not answer for the attacker
    act(c, 0, "mine", "no")
    assert last(c) == "both_destroyed_by_mine" and sound(c) == "verdict"

    # undo the last battle, after a yes
    fought = len(c.session.state.battles)
    act(c, TABLE, "ask", "undo")
    assert c.display(TABLE)["question"]["name"] == "undo" and c.display(0)["question"] is None
    assert buttons(c) == ["attack:0", "attack:1"]  # as they were, under the dialog
    act(c, TABLE, "answer", "no")
    assert len(c.session.state.battles) == fought
    act(c, TABLE, "ask", "undo")
    act(c, TABLE, "answer", "yes")
    assert len(c.session.state.battles) == fought - 1 and store.actions(c.session.id) == c.session.actions

    act(c, TABLE, "attack", 1)
    act(c, TABLE, "declare", "port")
    assert c.stage() == "over" and c.session.state.outcome().reason == "port_captured" and sound(c) == "fanfare"
    model = c.display(TABLE)
    assert words(model["big"]) == "青艦隊の勝ち：軍港占領" and model["detail"] == []
    assert buttons(c) == ["new_game"] and store.game(c.session.id).status == "finished"
    act(c, TABLE, "new_game")
    assert c.stage() == "start"


def test_the_mine_button_is_gone_with_the_last_mine(store):
    c = GunkanController.open(store)
    act(c, TABLE, "mode", "seesaw")
    for _ in range(5):  # blue's five mines, all cleared
        act(c, TABLE, "attack", 0)
        act(c, TABLE, "declare", "mine")
        act(c, TABLE, "mine", "yes")
    assert c.session.state.removed[1]["mines"] == 5
    act(c, TABLE, "attack", 0)
    assert buttons(c) == ["declare:ship", "declare:port", "cancel"]
    refused(c, TABLE, "declare", "mine")
    act(c, TABLE, "cancel")
    act(c, TABLE, "attack", 1)
    assert "declare:mine" in buttons(c)  # red still has all of its own


def identify_game(store, seesaw):
    c = GunkanController.open(store, seesaw=seesaw)
    act(c, TABLE, "mode", "identify")
    return c


def test_identify_mode_a_whole_game_and_the_report_at_the_end(store):
    seesaw = FakeSeesaw(counterweight_sensed=False)
    c = identify_game(store, seesaw)
    act(c, TABLE, "attack", 0)
    assert buttons(c) == ["counterweight:tap", "cancel"] and buttons(c, 1) == []
    weigh(c, Verdict(LEFT, 1.0, "cruiser", "destroyer"))
    assert last(c) == "attacker_wins" and c.session.actions[-2:] == [
        {"type": "declare", "kind": "ship"},
        {"type": "identified", "attacker": "cruiser", "defender": "destroyer", "counterweight": False}]
    empty(c)

    # the counterweight weighs like the carrier here: the attacker's tap tells them apart
    act(c, TABLE, "attack", 1)
    refused(c, 0, "counterweight", "tap")  # the defender cannot tap for the attacker
    act(c, 1, "counterweight", "tap")
    assert c.display(TABLE)["buttons"][0]["tone"] == "accent"
    weigh(c, Verdict(BALANCED, 1.0, "carrier|submarine+counterweight", "carrier"))
    assert c.session.state.battles[-1].attacker_piece == "submarine" and last(c) == "attacker_wins"
    empty(c)

    # red's carrier is gone: a weighing that says so again is wrong, and nothing is logged; the
    # words say the record is at odds (which pan, whose, since which battle) and how to go on
    act(c, TABLE, "attack", 1)
    actions = list(c.session.actions)
    weigh(c, Verdict(LEFT, 1.0, "battleship", "carrier"))
    assert c.session.actions == actions == store.actions(c.session.id)  # no lone declaration either
    assert words(c.display(TABLE)["prompt"]) == ("記録では、右の皿の駒（赤艦隊）は第2戦でなくなった種類です。\n"
                                                 "盤を確かめ、その駒を取り除いて「勝負中止」を")
    assert words(c.display(TABLE)["prompt"], "en").startswith(
        "The record says the right pan's piece (Red fleet) is of a kind lost in battle 2. Check the board")
    assert c.display(TABLE)["tone"] == "warn" and "cancel" in buttons(c)
    weigh(c, None, changed=True)  # placed again: the record still says so
    weigh(c, Verdict(LEFT, 1.0, "battleship", "carrier"))
    assert words(c.display(TABLE)["prompt"]).startswith("記録では、右の皿の駒（赤艦隊）は第2戦")
    weigh(c, None, changed=True)
    weigh(c, Verdict(LEFT, 1.0, "battleship", "cruiser"))
    assert last(c) == "attacker_wins"
    empty(c)

    # the counterweight on anything but a submarine is refused
    act(c, TABLE, "attack", 0)
    act(c, TABLE, "counterweight", "tap")
    weigh(c, Verdict(RIGHT, 1.0, "battleship", "minesweeper"))
    assert c.session.state.current.declared is None
    assert words(c.display(TABLE)["prompt"]) == "錘はこの駒には載せられません。置き直してください"
    act(c, TABLE, "counterweight", "tap")  # untapped
    weigh(c, None, changed=True)
    weigh(c, Verdict(LEFT, 1.0, "battleship", "minesweeper"))
    assert last(c) == "attacker_wins"
    empty(c)

    # a mine on the pan makes the declaration by itself
    act(c, TABLE, "attack", 1)
    weigh(c, Verdict(RIGHT, 1.0, "minesweeper", "mine"))
    assert last(c) == "mine_cleared" and sound(c) == "explosion"
    empty(c)

    # re-weigh (not logged: nobody declared yet), then the port
    act(c, TABLE, "attack", 0)
    act(c, TABLE, "weighing", Weighing((PanStatus(LOADED, MISFIT), PanStatus(LOADED)), Verdict(REWEIGH, 1.0)))
    assert c.session.state.current.reweighs == 0 and c.display(TABLE)["tone"] == "warn"
    assert words(c.display(TABLE)["prompt"]).startswith("量り直し：左の皿の物はどの駒の重さでもありません")
    weigh(c, None, changed=True)
    weigh(c, Verdict(RIGHT, 1.0, "landing_ship", "port"))
    assert c.stage() == "over" and c.session.state.outcome().winner == 0 and sound(c) == "fanfare"
    report = [words(line) for line in c.display(TABLE)["detail"]]
    assert report[0] == "戦闘記録（全駒公開）" and "2. ⑥潜水艦→①航空母艦：攻撃側の勝ち" in report
    assert report[-2:] == ["赤艦隊 失った駒：①航空母艦×1、③巡洋艦×1、●機雷×1", "青艦隊 失った駒：④駆逐艦×1、⑤掃海艇×1"]
    assert "6. ⑦揚陸艦→◎軍港：軍港占領！" in report
    assert [words(line, "en") for line in c.display(TABLE)["detail"]][-1].startswith("Blue fleet lost: ")


def test_an_identify_battle_is_one_turn_and_undone_as_one(store):
    c = identify_game(store, FakeSeesaw(counterweight_sensed=True))
    act(c, TABLE, "attack", 0)
    assert buttons(c) == ["cancel"]  # the counterweight is sensed: no tap to ask for
    weigh(c, Verdict(LEFT, 1.0, "submarine+counterweight", "carrier"))
    assert [a["type"] for a in store.actions(c.session.id)] == ["battle", "declare", "identified"]
    assert [seat for seat, _ in c.turns()] == [0, 1, 0]  # (the declaration is the defender's)
    act(c, TABLE, "ask", "undo")
    act(c, TABLE, "answer", "yes")
    assert c.session.actions == [] == store.actions(c.session.id)


def test_the_end_of_a_game_is_asked_from_the_table(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "seesaw")
    refused(c, 0, "ask", "end")  # a seat's own screen does not end the table's game
    act(c, TABLE, "ask", "end")
    question = c.display(TABLE)["question"]
    assert [a["name"] for a in question["answers"]] == [
        "resign:0", "resign:1", "no_moves:0", "no_moves:1", "all_gone:0", "all_gone:1", "close"]
    assert words(question["answers"][1]["label"]) == "青艦隊 投了"
    assert c.display(0)["question"] is None
    act(c, TABLE, "answer", "resign:1")  # one tap never ends a game: it is asked again
    question = c.display(TABLE)["question"]
    assert words(question["title"]) == "「青艦隊 投了」で終局しますか？"
    assert [a["name"] for a in question["answers"]] == ["yes", "no"]
    act(c, TABLE, "answer", "no")
    assert not c.session.state.is_over() and c.display(TABLE)["question"] is None
    act(c, TABLE, "ask", "end")
    act(c, TABLE, "answer", "all_gone:0")
    assert not c.session.state.is_over()
    act(c, TABLE, "answer", "yes")
    assert c.session.state.outcome().reason == "annihilation" and c.session.state.outcome().winner == 1

    c = identify_game(store, FakeSeesaw())
    act(c, TABLE, "ask", "end")
    assert "all_gone:0" not in c.answers()  # identify counts the ships itself
    act(c, TABLE, "answer", "close")
    assert c.stage() == "idle" and c.display(TABLE)["question"] is None


def test_without_a_sensor_the_players_tap_what_the_wooden_seesaw_showed(store):
    c = GunkanController.open(store)
    assert buttons(c) == ["mode:seesaw"]  # identify needs the pans
    refused(c, TABLE, "mode", "identify")
    act(c, TABLE, "mode", "seesaw")
    refused(c, TABLE, "weighing", Weighing())
    act(c, TABLE, "attack", 1)
    act(c, TABLE, "declare", "ship")
    act(c, TABLE, "counterweight", "on")
    assert buttons(c) == ["weighed:attacker_heavier", "weighed:defender_heavier", "weighed:balanced", "cancel"]
    assert words(c.display(TABLE)["prompt"]) == "センサーなし：\n木製シーソーの結果をタップ"
    act(c, TABLE, "weighed", "defender_heavier")  # no balance: the counterweight comes off
    act(c, TABLE, "weighed", "balanced")
    assert last(c) == "both_removed" and c.stage() == "idle"  # no pans to wait for


def test_input_from_a_seat_that_may_not_act_is_refused_and_changes_nothing(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw(), virtual=True)
    refused(c, 0, "mode", "seesaw")
    act(c, TABLE, "mode", "seesaw")
    refused(c, 0, "attack", 1)  # red starts only its own attack
    refused(c, 0, "weighing", Weighing())  # the seesaw is at the table
    refused(c, 2, "attack", 0)  # no such seat
    refused(c, TABLE, "answer", "yes")  # nothing was asked
    act(c, 0, "attack", 0)
    refused(c, 0, "declare", "ship")  # the attacker does not declare
    refused(c, 1, "cancel")
    refused(c, TABLE, "counterweight", "on")  # not before the declaration
    refused(c, TABLE, "declare", "submarine")
    with pytest.raises(TypeError):
        c.act(TABLE, "weighing", {"pans": ["loaded", "loaded"]})
    assert c.session.actions == [{"type": "battle", "attacker": 0}]


def test_the_virtual_tray_is_told_when_the_attacker_places_next(store):
    """Issue 29 finding 3: after ⑥ on the left pan, 錘 is the attacker's next piece."""
    assert GunkanController.open(store, seesaw=FakeSeesaw()).display(TABLE)["tray"] is None  # real pans
    c = GunkanController.open(store, seesaw=FakeSeesaw(), virtual=True)
    act(c, TABLE, "mode", "seesaw")
    assert c.display(TABLE)["tray"] == {"attacker_next": False} and c.display(0)["tray"] is None
    act(c, TABLE, "attack", 0)
    weigh(c, None, LOADED, EMPTY)
    assert not c.display(TABLE)["tray"]["attacker_next"]  # the defender declares, then places
    act(c, TABLE, "declare", "ship")
    assert c.display(TABLE)["tray"]["attacker_next"]  # the attacker is asked about the counterweight
    act(c, TABLE, "counterweight", "on")
    assert c.display(TABLE)["tray"]["attacker_next"]  # it is the next piece
    weigh(c, None, LOADED, LOADED)
    assert not c.display(TABLE)["tray"]["attacker_next"]  # the defender has placed
    c = GunkanController(store, None, FakeSeesaw(), virtual=True)  # a new game beside that one
    act(c, TABLE, "mode", "identify")
    act(c, TABLE, "attack", 1)
    assert not c.display(TABLE)["tray"]["attacker_next"]
    act(c, TABLE, "counterweight", "tap")
    assert c.display(TABLE)["tray"]["attacker_next"]


def test_a_weighing_that_changes_nothing_shown_is_not_announced(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    heard = []
    c.listeners.append(lambda: heard.append(c.stage()))
    act(c, TABLE, "mode", "seesaw")
    for _ in range(3):
        weigh(c, None, EMPTY, EMPTY)
    weigh(c, None, LOADED, EMPTY)
    assert heard == ["idle", "idle"]


def test_a_resumed_game_goes_on_where_it_stood(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "identify")
    act(c, TABLE, "attack", 1)
    again = GunkanController.open(store, seesaw=FakeSeesaw())
    assert again.session.id == c.session.id and again.stage() == "battle"
    weigh(again, Verdict(LEFT, 1.0, "destroyer", "minesweeper"))
    assert again.session.state.battles[-1].verdict == "attacker_wins"


class Rig:
    """The real glue over the simulator on a manual clock, read as the screen reads it."""

    def __init__(self):
        self.clock = ManualClock(0.0)
        self.sim = SimulatedSeesaw(seed=5, clock=self.clock, table=default_table())
        self.seesaw = Seesaw(self.sim, virtual_calibration(self.sim))

    def run(self, c, seconds):
        for _ in range(round(seconds / 0.05)):
            self.clock.advance(0.05)
            self.seesaw.poll()
            act(c, TABLE, "weighing", Weighing.read(self.seesaw))


def test_whole_battles_through_the_real_seesaw_glue(store):
    rig = Rig()
    c = GunkanController.open(store, seesaw=rig.seesaw, virtual=True)
    act(c, TABLE, "mode", "identify")
    fights = [(0, "cruiser", "destroyer", "attacker_wins"), (1, "landing_ship", "minesweeper", "defender_wins"),
              (0, "minesweeper", "mine", "mine_cleared")]
    for attacker, left, right, verdict in fights:
        act(c, TABLE, "attack", attacker)
        rig.sim.place(0, left)
        rig.run(c, 0.5)
        rig.sim.place(1, right)
        rig.run(c, 4.0)
        assert last(c) == verdict and c.stage() == "verdict"
        rig.sim.clear()
        rig.run(c, 1.0)
        assert c.stage() == "idle"
    assert len(c.session.state.battles) == 3


GROUPS = list(SHIPS) + ["mine", "port", "submarine+counterweight", "carrier|submarine+counterweight",
                        "cruiser|destroyer", "mine|port", None]
PANS = [PanStatus(EMPTY), PanStatus("settling"), PanStatus(REFUSED, "overload")] + [PanStatus(LOADED)] * 5
verdicts = st.builds(Verdict, st.sampled_from([LEFT, RIGHT, BALANCED, REWEIGH, "waiting"]),
                     st.just(1.0), st.sampled_from(GROUPS), st.sampled_from(GROUPS))
weighings = st.builds(Weighing, st.tuples(st.sampled_from(PANS), st.sampled_from(PANS)),
                      st.one_of(verdicts, verdicts, verdicts, st.none()), st.booleans())


def ends(c, offer) -> bool:
    """An answer that ends the game: a way to end it, or the "yes" that confirms one."""
    kind, value = offer
    return kind == "answer" and (":" in value or value == "yes" and c.question.startswith("end:"))


@settings(max_examples=80, deadline=None)
@given(steps=st.lists(st.one_of(st.integers(0, 30), weighings, st.just(Weighing(changed=True)), st.just("end")),
                      min_size=20, max_size=150),
       mode=st.sampled_from(["seesaw", "identify"]), sensed=st.booleans())
def test_any_taps_and_weighings_keep_the_secrets_and_the_log(tmp_path_factory, steps, mode, sensed):
    """Whatever the table taps (any of its offers) and the seesaw reads, the controller
    neither fails nor leaks, and what it shows is on disk."""
    with Store.in_dir(tmp_path_factory.mktemp("gunkan")) as store:
        c = GunkanController.open(store, seesaw=FakeSeesaw(sensed))
        act(c, TABLE, "mode", mode)
        for step in steps:
            offers = [(o.kind, value) for o in c.offers(TABLE) for value in (o.choices or (None,))]
            if isinstance(step, Weighing):
                act(c, TABLE, "weighing", step)
            elif step == "end":  # the end question opens only seldom, so that games go on
                if ("ask", "end") in offers:
                    act(c, TABLE, "ask", "end")
            else:  # a tap on a button; now and then one going back, or one that ends the game
                rare = [o for o in offers if o in (("cancel", None), ("ask", "undo"), ("declare", "port"))
                        or ends(c, o)]
                taps = [o for o in offers if o not in rare + [("ask", "end"), ("weighing", None)]]
                taps = rare if step >= 27 else taps
                if taps:
                    act(c, TABLE, *taps[step % len(taps)])
            if c.stage() == "over":
                return
            assert store.actions(c.session.id) == c.session.actions


@pytest.mark.parametrize("mode,depth", [("seesaw", 8), ("identify", 5)])  # identify: random classes run out
def test_random_playouts_reach_deep_games_without_a_leak(store, mode, depth):
    """Seeded random games: taps mostly forward, weighings of every kind, pans emptied."""
    rnd, deepest = random.Random(mode), 0
    for _ in range(8):  # (ending a game takes two answers: the end, then "yes")
        c = GunkanController.open(store, seesaw=FakeSeesaw(rnd.random() < 0.5))
        act(c, TABLE, "mode", mode)
        for _ in range(400):
            offers = [(o.kind, value) for o in c.offers(TABLE) if o.kind != "weighing"
                      for value in (o.choices or (None,))]
            roll = rnd.random()
            if roll < 0.3:
                right = "port" if roll < 0.003 else rnd.choice([g for g in GROUPS if g != "port"])  # the end
                weigh(c, Verdict(rnd.choice([LEFT, RIGHT, BALANCED, BALANCED, REWEIGH]), 1.0,
                                 rnd.choice(GROUPS), right), changed=rnd.random() < 0.3)
            elif roll < 0.45:
                empty(c)
            elif roll < 0.5 or not offers:
                weigh(c, None, rnd.choice(PANS).kind, rnd.choice(PANS).kind)
            else:
                rare = [o for o in offers if o in (("cancel", None), ("ask", "undo"), ("ask", "end"),
                                                   ("declare", "port")) or ends(c, o)]
                common = [o for o in offers if o not in rare]
                act(c, TABLE, *rnd.choice(rare if roll > 0.995 or not common else common))
            assert store.actions(c.session.id) == c.session.actions
            if c.stage() == "over":
                break
        deepest = max(deepest, len(c.session.state.battles))
        if not c.session.state.is_over():
            c.session.abandon()
    assert deepest >= depth  # whole games, not only their openings


def test_untapping_the_counterweight_after_a_refusal_is_judged_again(store):
    """A slow hand: the counterweight taken off, the judge settles (still with the tapped word:
    refused again), then the attacker untaps. The untap is a change: what lies there is judged
    with the new word, not left waiting for a pan to be touched that nobody will touch."""
    c = identify_game(store, FakeSeesaw(counterweight_sensed=False))
    act(c, TABLE, "attack", 0)
    act(c, TABLE, "counterweight", "tap")
    weigh(c, Verdict(LEFT, 1.0, "battleship", "minesweeper"))
    assert words(c.display(TABLE)["prompt"]) == "錘はこの駒には載せられません。置き直してください"
    weigh(c, None, changed=True)  # the counterweight off
    weigh(c, Verdict(LEFT, 1.0, "battleship", "minesweeper"))  # judged before the untap
    assert c.await_change and not c.session.state.battles
    act(c, TABLE, "counterweight", "tap")  # untapped
    assert not c.await_change
    weigh(c, Verdict(LEFT, 1.0, "battleship", "minesweeper"))
    assert last(c) == "attacker_wins"


def test_a_re_weigh_names_the_pan_once_the_seesaw_knows_it(store):
    """The judge may ask to weigh again before it has named a pan's load a misfit (a foreign
    object still settling): the prompt then names that pan as soon as it is known."""
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "seesaw")
    act(c, TABLE, "attack", 0)
    act(c, TABLE, "declare", "ship")
    act(c, TABLE, "counterweight", "off")
    weigh(c, Verdict(REWEIGH, 1.0))
    assert words(c.display(TABLE)["prompt"]) == "量り直し：駒を一度下ろして、\n皿の中央に置き直してください"
    act(c, TABLE, "weighing", Weighing((PanStatus(LOADED, MISFIT), PanStatus(LOADED)), None))
    assert words(c.display(TABLE)["prompt"]).startswith("量り直し：左の皿の物はどの駒の重さでもありません")
    assert c.await_change


def test_the_pans_are_zeroed_before_each_battle_and_one_too_far_off_holds_it_back_and_says_why(store):
    seesaw = FakeSeesaw()
    c = GunkanController.open(store, seesaw=seesaw)
    act(c, TABLE, "mode", "seesaw")
    act(c, TABLE, "attack", 0)
    assert seesaw.rezeros == 1 and c.state.phase == "declare"
    act(c, TABLE, "cancel")
    seesaw.off = [1]
    act(c, TABLE, "attack", 0)
    assert c.state.phase == "idle" and sound(c) == "reweigh"
    prompt = c.display(TABLE)["prompt"]
    assert words(prompt).startswith("右の皿が空になっていません") and c.display(TABLE)["tone"] == "warn"
    assert "calibrate" in words(prompt, "en")
    empty(c)  # still too far off: the notice stays
    assert words(c.display(TABLE)["prompt"]).startswith("右の皿")
    seesaw.off = []  # cleared: the next poll zeroes it and takes the notice down
    empty(c)
    assert words(c.display(TABLE)["prompt"]) == "勝負が発生したら攻撃側をタップ"
    act(c, TABLE, "attack", 1)
    assert c.state.phase == "declare"


def left_won_a_battle(store):
    """A seesaw game whose first battle the attacker (red, on the left) has just won."""
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "seesaw")
    act(c, TABLE, "attack", 0)
    act(c, 1, "declare", "ship")
    act(c, TABLE, "counterweight", "off")
    weigh(c, Verdict(LEFT, 1.0))
    return c


def test_after_the_verdict_a_pan_weighing_like_no_piece_is_named_not_just_take_your_pieces_off(store):
    c = left_won_a_battle(store)
    assert words(c.display(TABLE)["prompt"]) == "皿から駒を下ろしてください"
    act(c, TABLE, "weighing", Weighing((PanStatus(EMPTY), PanStatus(LOADED, MISFIT))))
    assert c.stage() == "verdict" and words(c.display(TABLE)["prompt"]).startswith("右の皿が空になっていません")


@pytest.mark.parametrize("reason, ja, en", [("confirming", "手を離してください", "Hands off the pans"),
                                            ("held", "手を離してください", "Hands off the pans"),
                                            ("swaying", "テーブルが揺れています", "The table is shaking"),
                                            ("curved", "計量中…", "Weighing…")])
def test_while_the_verdict_waits_the_screen_says_what_for(store, reason, ja, en):
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "seesaw")
    act(c, TABLE, "attack", 0)
    act(c, 1, "declare", "ship")
    act(c, TABLE, "counterweight", "off")
    weigh(c, Verdict("unstable", 1.0, reason=reason))
    prompt = c.display(TABLE)["prompt"]
    assert (words(prompt), words(prompt, "en")) == (ja, en)
    weigh(c, Verdict(LEFT, 1.5))
    assert last(c) == "attacker_wins" and c.wait_note is None


def test_a_called_off_battle_shows_no_earlier_verdict_or_removal(store):
    """Issue 43, finding 1: after 勝負中止 with both pieces on the pans, the screen showed the
    previous battle's verdict and removal order again, and a group could take a second piece off."""
    c = left_won_a_battle(store)
    empty(c)
    act(c, TABLE, "attack", 1)
    act(c, 0, "declare", "ship")
    act(c, TABLE, "counterweight", "off")
    weigh(c)  # both pieces placed, no verdict yet
    act(c, TABLE, "cancel")
    shown = c.display(TABLE)
    assert c.stage() != "verdict"
    assert not shown["detail"], words(shown["detail"])  # no removal order
    assert words(shown["big"]) == "勝負中止" and words(shown["big"], "en") == "Called off"
    assert words(shown["prompt"]) == "駒を皿から盤に戻してください"
    empty(c)
    assert words(c.display(TABLE)["prompt"]) == "勝負が発生したら攻撃側をタップ"
