"""The guided first game follows the referee's state, whatever order the table works in."""

import pytest

from companion import i18n
from companion.games.gunkan.controller import GunkanController, Weighing
from companion.games.gunkan.guide import NUMBERED, Guide
from companion.games.gunkan.seesaw import EMPTY, LOADED, PanStatus
from companion.play.controller import TABLE
from companion.sensing.judge import BALANCED, LEFT, Verdict

from tests.games.gunkan.test_controller import FakeSeesaw


def weigh(c, left, right, verdict=None):
    c.act(TABLE, "weighing", Weighing((PanStatus(left), PanStatus(right)), verdict, True))


def at(guide, c):
    step = guide.step(c)
    return step and (step.name, step.target, step.number)


@pytest.mark.parametrize("virtual", [True, False])
def test_one_battle_step_by_step_on_the_pans(store, virtual):
    c = GunkanController.open(store, seesaw=FakeSeesaw(), virtual=virtual)
    guide = Guide.begin(c)
    assert guide.step(c) is None  # no game yet: the screen's guided button starts one
    c.act(TABLE, "mode", "seesaw")
    piece = "tray" if virtual else "seesaw"
    assert at(guide, c) == ("attack", "actions", 1)
    c.act(TABLE, "attack", 0)
    assert at(guide, c) == ("attacker_piece", piece, 2)
    weigh(c, LOADED, EMPTY)
    assert at(guide, c) == ("declare", "actions", 3)
    c.act(TABLE, "declare", "ship")
    assert at(guide, c) == ("counterweight", "actions", 4)
    c.act(TABLE, "counterweight", "off")
    assert at(guide, c) == ("defender_piece", piece, 5)
    weigh(c, LOADED, LOADED)
    assert at(guide, c) == ("weighing", "seesaw", 6)
    weigh(c, LOADED, LOADED, Verdict(LEFT, 1.0))
    assert at(guide, c) == ("remove", piece, 7)
    weigh(c, EMPTY, EMPTY)
    assert at(guide, c) == ("done", None, None)
    words = guide.step(c).text.say("ja")
    assert words == i18n.translate("gunkan_guide.done", "ja") and not words.startswith("gunkan_guide")


def test_an_undo_or_a_cancel_takes_the_guide_back_with_it(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw(), virtual=True)
    c.act(TABLE, "mode", "seesaw")
    guide = Guide.begin(c)
    c.act(TABLE, "attack", 1)
    weigh(c, LOADED, EMPTY)
    c.act(TABLE, "cancel")
    assert at(guide, c) == ("attack", "actions", 1)
    c.act(TABLE, "attack", 1)
    c.act(TABLE, "declare", "ship")
    c.act(TABLE, "counterweight", "on")
    weigh(c, LOADED, LOADED, Verdict(BALANCED, 1.0))
    weigh(c, EMPTY, EMPTY)
    assert at(guide, c)[0] == "done"
    c.on_undo(TABLE, None, None)
    assert at(guide, c)[0] == "attack"


def test_a_mine_and_a_wooden_seesaw(store):
    c = GunkanController.open(store, seesaw=None)
    c.act(TABLE, "mode", "seesaw")
    guide = Guide.begin(c)
    c.act(TABLE, "attack", 0)
    assert at(guide, c) == ("declare", "actions", 3)  # no pans to watch: the wooden seesaw's
    c.act(TABLE, "declare", "mine")
    assert at(guide, c) == ("mine", "actions", NUMBERED.index("weighing") + 1)
    assert guide.step(c).text.key == "gunkan_guide.mine"
    c.act(TABLE, "mine", "no")
    assert at(guide, c)[0] == "done"
    guide = Guide.begin(c)
    c.act(TABLE, "attack", 1)
    c.act(TABLE, "declare", "ship")
    c.act(TABLE, "counterweight", "off")
    assert at(guide, c) == ("weighing", "actions", 6)
    assert guide.step(c).text.key == "gunkan_guide.weighing.wooden"


def test_identify_judging_has_no_guide(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw(), virtual=True)
    c.act(TABLE, "mode", "identify")
    assert Guide.begin(c).step(c) is None


def test_every_step_has_words_in_both_languages():
    for name in NUMBERED + ("mine", "done"):
        for lang in i18n.LANGUAGES:
            assert not i18n.translate(f"gunkan_guide.{name}", lang).startswith("gunkan_guide")
