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
