"""A finished 軍艦将棋 game is reviewed battle by battle, as a group counts it (issue 43: the
review counted actions, 37 for 10 battles): ◀ ▶ stop at the start, after each battle and at
the end, and the bar says which battle of how many."""

from companion.games.gunkan.controller import GunkanController
from companion.play.controller import TABLE
from tests.games.gunkan.test_controller import words


def battle(attacker, result="attacker_heavier", reweigh=False):
    steps = [{"type": "battle", "attacker": attacker}, {"type": "declare", "kind": "ship"},
             {"type": "counterweight", "on": False}]
    return steps + ([{"type": "reweigh"}] if reweigh else []) + [{"type": "weighed", "result": result}]


def step(c, by) -> bool:
    """◀ or ▶; whether the review moved."""
    at = c.review().at
    c.act(TABLE, "review", by)
    return c.review().at != at


def test_the_review_steps_and_counts_battles_not_actions(store):
    c = GunkanController.open(store)
    c.act(TABLE, "mode", "seesaw")
    c.session.play_all(battle(0) + battle(1, "balanced", reweigh=True)
                       + [{"type": "battle", "attacker": 0}, {"type": "declare", "kind": "ship"}, {"type": "cancel"}]
                       + battle(0, "defender_heavier") + [{"type": "resign", "seat": 1}])
    assert len(c.session.actions) == 17  # 17 actions, 3 battles
    bar = lambda lang="ja": words(c.review_text(), lang)  # noqa: E731
    assert bar() == "終局（勝負 3）" and bar("en") == "The end (3 battles)"
    seen = []
    while step(c, -1):
        seen.append((bar(), words(c.display(TABLE)["big"])))
    assert seen == [("勝負 3 / 3", "守備側の勝ち"), ("勝負 2 / 3", "相打ち：両方取り除く"), ("勝負 1 / 3", "攻撃側の勝ち"),
                    ("勝負 0 / 3", "はじめ（まだ勝負なし）")]
    assert bar("en") == "Battle 0 / 3"
    forward = []
    while step(c, 1):
        forward.append(bar())
    assert forward == ["勝負 1 / 3", "勝負 2 / 3", "勝負 3 / 3", "終局（勝負 3）"]


def test_a_reviewed_battles_lines_are_centred_under_its_title_and_the_end_report_is_not(store):
    c = GunkanController.open(store)
    c.act(TABLE, "mode", "seesaw")
    c.session.play_all(battle(0) + [{"type": "resign", "seat": 1}])
    assert c.display(TABLE)["report"]  # the end: the report, read line by line
    c.act(TABLE, "review", -1)
    model = c.display(TABLE)
    assert not model["report"] and [words(line) for line in model["detail"]] == [
        "青艦隊: 攻撃された駒を盤から取り除いてください"]
