"""The Battleship controller plays whole games without a window, in every mode.

At every step of every game: the table's display holds no seat's secret (nor any cell
of a fleet in the rules' own spelling), a seat's display holds none of the other
seat's, and input from a seat that may not make it is refused without a change.
"""

import json
import random

import pytest

from companion import i18n
from companion.games.battleship import controller
from companion.games.battleship.controller import BattleshipController
from companion.games.battleship.fleet import CELLS, LENGTH, index, label, run
from companion.play.controller import TABLE, Refused, Text, to_json
from companion.play.session import Session
from companion.store import Lineup


def words(text, lang="ja"):
    render = lambda t: t.render(lambda key, **v: i18n.translate(key, lang, **v))  # noqa: E731
    return "\n".join(map(render, text)) if isinstance(text, list) else render(text)


def kinds(c, who=TABLE):
    return [offer.kind for offer in c.offers(who)]


def start(store, rng_seed=0, **setup):
    c = BattleshipController.open(store, rng=random.Random(rng_seed))
    if c.stage() != "setup":
        c.act(TABLE, "new")  # over the unfinished game it resumed
    for name, value in setup.items():
        c.act(TABLE, name, value)
    c.act(TABLE, "start")
    return c


def think_now(c):
    """Run the computer's turn as the screen's thread would, but here and now."""
    turn = c.computer_turn()
    return bool(turn) and c.computer_done(turn, turn.think())


# the checks made at every step ---------------------------------------------------------

def shown(c, who) -> str:
    return json.dumps(to_json(c.display(who)), ensure_ascii=False)


def check_secrets(c) -> None:
    state = c.session.state
    table = shown(c, TABLE)
    for seat in (0, 1):
        assert f'"{seat}:' not in table, f"the table's display spells a fleet cell of seat {seat}"
        mine, theirs = shown(c, seat), shown(c, 1 - seat)
        for secret in state.secrets(seat):
            assert secret not in table and secret not in theirs, f"{secret} shown to another than {seat}"
            assert secret in mine  # a seat sees its own fleet
        assert f'"{seat}:' not in theirs


def probe(c) -> tuple:
    return shown(c, TABLE), shown(c, 0), shown(c, 1), list(c.session.actions), c.epoch


def check_refusals(c, rng) -> None:
    """Input a seat may not make now is refused and changes nothing."""
    offered = {who: c.offers(who) for who in (TABLE, 0, 1)}
    before = probe(c)
    for who in (0, 1):
        own = {o.kind for o in offered[who]}
        for offer in offered[TABLE] + offered[1 - who]:
            if offer.kind in own:
                continue
            value = rng.choice(offer.choices) if offer.choices else None
            with pytest.raises(Refused):
                c.act(who, offer.kind, value)
    with pytest.raises(Refused):
        c.act(TABLE, "no-such-input")
    assert probe(c) == before


# a player at the table -------------------------------------------------------------------

FLEETS = ({"carrier": "A1", "battleship": "C1", "cruiser": "E1", "submarine": "G1", "destroyer": "I1"},
          {"destroyer": "A1", "carrier": "C3", "battleship": "E5", "cruiser": "G2", "submarine": "J8"})


def fleet_at(seat: int, c) -> dict[int, str]:
    """Cell -> ship of a seat's fleet: the companion's (referee) or the one on the table (tracker)."""
    if c.session.state.referee:
        return c.session.state.fleet_cells(seat)
    return {cell: ship for ship, start in FLEETS[seat].items() for cell in run(index(start), LENGTH[ship], "h")}


def answer(c) -> dict:
    """What the defender (tracker) reads off their own board for the first shot waiting."""
    state = c.session.state
    fleet, cell = fleet_at(1 - state.turn, c), state.pending[0]
    ship = fleet.get(cell)
    if ship is None:
        return {"result": "miss"}
    hit = {shot[0] for shot in state.shots[state.turn]} | {cell}
    sunk = all(other in hit for other, kind in fleet.items() if kind == ship)
    return {"result": "sunk", "ship": ship} if sunk else {"result": "hit"} if state.options["advanced"] \
        else {"result": "hit", "ship": ship}


def step(c, rng) -> None:
    """One input, as a person at the table would make it (or the computer's turn)."""
    stage = c.stage()
    if think_now(c):
        return
    if stage == "cover":
        c.act(TABLE, "open")
    elif stage == "place":
        seat = c.private
        if "done" in kinds(c, seat):
            c.act(seat, "done")
        elif rng.random() < 0.3:
            c.act(seat, "rotate")
            try:
                c.act(seat, "cell", rng.randrange(CELLS))
            except Refused as refused:  # the rules say why, in words
                assert words(_text(refused)) not in ("", refused.key)
        else:
            c.act(seat, "random")
    elif stage == "result":
        c.act(TABLE, "continue")
    elif "answer" in kinds(c):
        c.act(TABLE, "answer", answer(c))
    elif "fire" in kinds(c):
        c.act(TABLE, "fire")
    else:
        state = c.session.state  # a cell at random, or now and then one of a ship the test knows
        free = [cell for cell in range(CELLS) if cell not in state.called(state.turn)]
        ships = [cell for cell in fleet_at(1 - state.turn, c) if cell in free]
        c.act(TABLE, "cell", rng.choice(ships if ships and rng.random() < 0.4 else free))


MODES = [dict(opponent=o, variant=v, advanced=a, first=f, **({"level": lvl} if o == "cpu" else {}))
         for o, v, a, f, lvl in [("2p", "standard", False, 0, None), ("2p", "salvo", True, 1, None),
                                 ("cpu", "standard", False, 0, "easy"), ("cpu", "salvo", True, 1, "normal"),
                                 ("cpu", "standard", True, 1, "hard"), ("tracker", "standard", False, 0, None),
                                 ("tracker", "salvo", True, 1, None)]]


@pytest.mark.parametrize("setup", MODES, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_whole_games_in_every_mode_keep_secrets_and_refuse_other_seats(store, setup):
    rng = random.Random(7)
    c = start(store, **setup)
    for _ in range(3000):
        check_secrets(c)
        check_refusals(c, rng)
        if c.session.state.is_over():
            break
        step(c, rng)
    assert c.session.state.is_over() and store.game(c.session.id).status == "finished"
    model = c.display(TABLE)
    assert "勝ち" in words(model["status"]) and model["bottom"]["kind"] == "new"
    c.act(TABLE, "new")
    assert c.stage() == "setup" and sum(c.display(TABLE)["wins"].values()) >= 1


# the flow, step by step --------------------------------------------------------------------

def test_placing_behind_the_cover_and_undo_of_ones_own_ships_only(store):
    c = start(store)
    assert c.stage() == "cover" and c.holder() == TABLE
    assert words(c.display(TABLE)["cover"]) == "プレイヤー1に画面を渡してください"
    assert "fleet" not in c.display(TABLE) and "place" not in c.display(TABLE)
    c.act(TABLE, "open")
    assert c.stage() == "place" and c.holder() == 0
    assert c.display(0)["place"]["ship"] == "carrier" and "place" not in c.display(TABLE)
    c.act(0, "cell", index("A1"))
    c.act(0, "rotate")
    assert c.display(0)["place"]["ship"] == "battleship" and c.display(0)["place"]["direction"] == "v"
    with pytest.raises(Refused) as refused:
        c.act(0, "cell", index("A2"))  # down from A2 crosses the carrier
    assert "重なります" in words(_text(refused.value))
    assert "0:A2" not in c.display(0)["place"]["fits"] and "0:B1" in c.display(0)["place"]["fits"]
    c.act(0, "undo")
    assert c.session.actions == [] and "undo" not in kinds(c, 0)
    c.act(0, "random")
    assert kinds(c, 0) == ["done", "new", "undo"]  # new: back to the start panel, the game kept
    c.act(0, "done")
    assert c.stage() == "cover" and words(c.display(TABLE)["cover"]).startswith("プレイヤー2")
    c.act(TABLE, "open")
    assert "undo" not in kinds(c, 1)  # Player 1's ships are not Player 2's to take back
    c.act(1, "random")
    c.act(1, "undo")
    assert [len(fleet) for fleet in c.session.state.fleets] == [5, 4]
    c.act(1, "random")
    c.act(1, "done")
    assert c.stage() == "play" and c.holder() == TABLE


def _text(refused: Refused) -> Text:
    return Text(refused.key, refused.params)


def placed(store, **setup):
    c, rng = start(store, **setup), random.Random(1)
    while c.stage() != "play" or c.phase() == "place":
        step(c, rng)
    return c


def test_standard_shots_are_aimed_then_fired_and_the_result_step_shows_the_volley(store):
    c = placed(store)
    target = min(c.session.state.fleet_cells(1))
    c.act(TABLE, "cell", target)
    model = c.display(TABLE)
    assert model["sea"]["aim"] == target and not c.session.actions[10:]
    assert words(model["bottom"]["label"]) == f"{label(target)} に発射" and "fire" in kinds(c)
    c.act(TABLE, "cell", target)  # a second tap fires
    assert c.stage() == "result" and c.display(TABLE)["sea"]["rings"] == [target]
    line = c.display(TABLE)["news"][0]
    assert words(line["by"]) == "プレイヤー1" and "命中" in words(line["shots"][0])
    assert "undo" not in kinds(c)  # a refereed shot is final
    c.act(TABLE, "continue")
    assert words(c.display(TABLE)["status"]) == "プレイヤー2の攻撃"
    c.act(TABLE, "cell", index("J10"))
    c.act(TABLE, "fire")
    c.act(TABLE, "continue")
    with pytest.raises(Refused) as refused:
        c.act(TABLE, "cell", target)  # called already
    assert "もう撃ちました" in words(_text(refused.value))
    assert c.display(TABLE)["sea"]["aim"] is None


def test_a_salvo_is_entered_shot_by_shot_taken_back_by_a_second_tap_then_fired(store):
    c = placed(store, variant="salvo")
    for cell in ("A1", "C3", "E5", "G7", "I9"):
        c.act(TABLE, "cell", index(cell))
    c.act(TABLE, "cell", index("I9"))
    assert c.session.state.view(None)["pending"] == ["A1", "C3", "E5", "G7"]
    assert "fire" not in kinds(c) and words(c.display(TABLE)["status"][1]) == "残り1発"
    c.act(TABLE, "undo")
    c.act(TABLE, "cell", index("G7"))
    c.act(TABLE, "cell", index("J10"))
    assert words(c.display(TABLE)["bottom"]["label"]) == "一斉射撃 5/5"
    c.act(TABLE, "fire")
    assert c.stage() == "result" and len(c.display(TABLE)["news"][0]["shots"]) == 5
    assert "undo" not in kinds(c)


def test_the_computer_plays_its_whole_turn_as_one_and_undo_never_reaches_it(store):
    c = start(store, opponent="cpu", variant="salvo", first=1, level="easy")
    assert c.stage() == "play" and c.display(TABLE)["thinking"]
    model = c.display(TABLE)
    assert words(model["status"]) == "コンピューターの番：配置中…"
    assert words(model["afloat"]) == "あなた：配置 0/5\nコンピューター：配置 0/5"  # no shots to count yet
    assert model["bottom"]["label"] is None  # nothing of the table's to fire
    assert "cell" not in kinds(c) and "undo" not in kinds(c) and "toggle" not in kinds(c)
    assert think_now(c) and store.actions(c.session.id) == c.session.actions and len(c.session.actions) == 5
    assert c.stage() == "place" and c.holder() == 0  # nobody to hide from: no cover
    c.act(0, "random")
    c.act(0, "done")
    assert think_now(c)  # its salvo: five shots and the fire, one turn
    assert len(c.session.actions) == 16 and c.session.actions[-1] == {"type": "fire"}
    assert c.stage() == "play" and "undo" not in kinds(c)
    news = c.display(TABLE)["news"]
    assert [words(line["by"]) for line in news] == ["コンピューター"] and len(news[0]["shots"]) == 5
    c.act(TABLE, "cell", index("A1"))
    assert "undo" in kinds(c)
    c.act(TABLE, "undo")
    assert len(c.session.actions) == 16


def test_a_computer_answer_after_the_game_moved_on_is_dropped(store):
    c = start(store, opponent="cpu", first=1)
    turn = c.computer_turn()
    c.act(TABLE, "new")
    assert c.computer_turn() is None  # the start panel is open: the computer waits
    c.act(TABLE, "start")
    assert not c.computer_done(turn, turn.think())
    assert c.session.actions == [] and think_now(c)


def test_the_start_panel_over_a_game_changes_nothing_of_it(store):
    """Another opponent chosen on the panel, then Back: the game goes on as it was
    (the screen used to read the panel's choice: the placer's fleet showed without a
    cover, and a refereed battle broke on a "you" that was not there)."""
    c = start(store)
    c.act(TABLE, "new")
    c.act(TABLE, "opponent", "cpu")
    assert "back" in kinds(c) and "level" in kinds(c)
    c.act(TABLE, "back")
    assert c.stage() == "cover" and c.holder() == TABLE
    check_secrets(c)
    c = placed(store)
    c.act(TABLE, "new")
    c.act(TABLE, "opponent", "cpu")
    c.act(TABLE, "back")
    assert words(c.display(TABLE)["sea"]["caption"]) == "プレイヤー1の攻撃記録"


def test_tracker_answers_refused_with_the_reason_and_undone_one_by_one(store):
    c = start(store, opponent="tracker", variant="salvo")
    assert c.stage() == "play" and words(c.display(TABLE)["status"]) == "プレイヤー1の攻撃\n残り5発"
    for cell in ("A1", "A2", "A3", "A4", "A5"):
        c.act(TABLE, "cell", index(cell))
    c.act(TABLE, "fire")
    model = c.display(TABLE)
    assert model["answering"] and model["sea"]["aim"] == index("A1") and "toggle" not in kinds(c)
    assert {"result": "sunk", "ship": "destroyer"} in model["answers"]
    with pytest.raises(Refused) as refused:
        c.act(TABLE, "answer", {"result": "sunk", "ship": "destroyer"})
    said = words(_text(refused.value))
    assert said.startswith("その回答はありえません") and "矛盾" in said
    assert words(_text(refused.value), "en").startswith("That answer is impossible")
    c.act(TABLE, "answer", {"result": "hit", "ship": "destroyer"})
    c.act(TABLE, "undo")
    assert c.session.state.view(None)["pending"] == ["A1", "A2", "A3", "A4", "A5"]
    with pytest.raises(Refused):
        c.act(TABLE, "answer", {"result": "sunk", "ship": "nonesuch"})  # not on the pad


def test_a_phone_seat_places_and_shoots_for_itself_only(store):
    c = placed(store, opponent="cpu", level="easy")
    you = c.session.players.index("you")
    assert "cell" in kinds(c, you) and kinds(c, 1 - you) == []
    c.act(you, "cell", 0)
    c.act(you, "fire")
    assert c.session.state.view(None)["boards"][you]["count"] == 1
    assert c.display(you)["fleet"] and "fleet" not in c.display(TABLE)


def test_listeners_hear_every_change_and_the_display_is_plain_json(store):
    c = BattleshipController.open(store)
    heard = []
    c.listeners.append(lambda: heard.append(c.stage()))
    c.act(TABLE, "start")
    c.act(TABLE, "open")
    assert heard == ["cover", "place"]
    json.loads(shown(c, 0))


def test_games_saved_before_lineups_were_stored_resume_with_their_opponent_and_level(old_store, monkeypatch):
    levels = []
    real = controller.BattleshipAI
    monkeypatch.setattr(controller, "BattleshipAI", lambda seat, level, rng: levels.append(level) or real(
        seat, level, rng))
    c = BattleshipController.open(old_store, Session.resume(old_store, old_store.saved("battleship:tracker")))
    assert c.opponent == "tracker" and c.setup["opponent"] == "tracker" and c.computer_seats == set()
    c = BattleshipController.open(old_store, Session.resume(old_store, old_store.saved("battleship:cpu:easy")))
    assert (c.opponent, c.level, c.setup["level"]) == ("cpu", "easy", "easy") and c.computer_seats == {1}
    assert c.stage() == "place" and c.holder() == 0  # its fleet is placed; nobody to hide from
    c.act(0, "random")
    c.act(0, "done")
    assert think_now(c) and levels == ["easy"]


@pytest.mark.parametrize("opponent, level", [("2p", None), ("tracker", None), ("cpu", "normal"), ("cpu", "hard")])
def test_who_plays_is_on_the_record_and_a_resumed_game_keeps_it(store, opponent, level):
    c = start(store, opponent=opponent, **({"level": level} if level else {}))
    resumed = BattleshipController.open(store, Session.resume(store, c.session.id))
    assert resumed.session.lineup == Lineup(opponent, level) and resumed.opponent == opponent
    assert resumed.setup == c.setup and resumed.session.record.scoreboard == c.setup_scoreboard()
