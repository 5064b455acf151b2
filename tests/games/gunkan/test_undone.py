"""An undone battle (取り消し) brings back no earlier verdict: the newcomer walk undid battle 2 and
the screen said battle 1's 「攻撃側の勝ち／青艦隊: 攻撃された駒を盤から取り除いてください」 again,
as a called-off battle once did (issue 43, finding 1): a group may take a second piece off."""

import pytest

from companion.games.gunkan.controller import GunkanController
from companion.games.gunkan.seesaw import EMPTY, LOADED
from companion.play.controller import TABLE
from companion.sensing.judge import LEFT, RIGHT, Verdict
from tests.games.gunkan.test_controller import FakeSeesaw, act, empty, weigh, words


def two_battles(store):
    c = GunkanController.open(store, seesaw=FakeSeesaw())
    act(c, TABLE, "mode", "seesaw")
    for attacker, verdict in ((0, LEFT), (1, RIGHT)):
        act(c, TABLE, "attack", attacker)
        act(c, TABLE, "declare", "ship")
        act(c, TABLE, "counterweight", "off")
        weigh(c, Verdict(verdict, 1.0))
        if attacker == 0:
            empty(c)
    return c  # battle 2's pieces still on the pans


def undo(c):
    act(c, TABLE, "ask", "undo")
    act(c, TABLE, "answer", "yes")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_an_undone_battle_shows_no_earlier_verdict_and_asks_for_its_pieces_back(store, lang):
    c = two_battles(store)
    empty(c)  # the group lifted battle 2's pieces (and took its loser off the board), then undid it
    undo(c)
    model = c.display(TABLE)
    assert len(c.session.state.battles) == 1 and c.stage() == "idle"
    assert words(model["big"], lang) == {"ja": "勝負を取り消しました", "en": "Battle undone"}[lang]
    assert words(model["detail"][0], lang) == {
        "ja": "盤から取り除いた駒があれば戻してください",
        "en": "Put back on the board any piece it took off"}[lang]
    assert "取り除いてください" not in words(model["detail"][0], "ja")
    act(c, TABLE, "attack", 0)  # the next battle: the undo is no longer news
    act(c, TABLE, "cancel")
    assert words(c.display(TABLE)["big"]) == "勝負中止"


def test_undone_with_its_pieces_still_on_the_pans_asks_for_them_back_on_the_board(store):
    c = two_battles(store)  # undone before the pans were emptied
    undo(c)
    weigh(c, None, LOADED, LOADED)
    model = c.display(TABLE)
    assert words(model["big"]) == "勝負を取り消しました"
    assert words(model["prompt"]) == "駒を皿から盤に戻してください"
    weigh(c, None, EMPTY, EMPTY, changed=True)
    assert c.stage() == "idle" and words(c.display(TABLE)["big"]) == "勝負を取り消しました"
