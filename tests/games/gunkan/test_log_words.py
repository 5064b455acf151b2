"""The battle log's words a newcomer reads: the counterweight said in full in English (the newcomer
walk read "Attacker wins +cw" and could not tell what cw was)."""

from companion.games.gunkan.controller import GunkanController
from companion.play.controller import TABLE
from companion.sensing.judge import BALANCED, Verdict
from tests.games.gunkan.test_controller import FakeSeesaw, act, weigh, words


def test_the_log_names_the_counterweight_in_full(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "seesaw")
    act(c, TABLE, "attack", 1)
    act(c, TABLE, "declare", "ship")
    act(c, 1, "counterweight", "on")
    weigh(c, Verdict(BALANCED, 1.0))  # the submarine with its counterweight balances the carrier
    line = c.display(TABLE)["log"][0]
    assert words(line, "en").endswith("Attacker wins\n    with the counterweight"), words(line, "en")
    assert words(line, "ja").endswith("攻撃側の勝ち・錘")


def test_the_end_reports_losses_with_each_languages_comma():
    """Identify judging's end report listed English losses with the Japanese 、."""
    from companion.games.gunkan import display

    view = {"log": [], "report": [{"lost": {"carrier": 1, "cruiser": 2}}, {"lost": {}}]}
    lines = [words(line, "en") for line in display._report(view)]
    assert lines[1].endswith("1 Carrier×1, 3 Cruiser×2") and "、" not in "".join(lines), lines
    assert words(display._report(view)[1], "ja").endswith("①航空母艦×1、③巡洋艦×2")
