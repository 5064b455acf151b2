"""The 軍艦将棋 referee state: battle steps, refusals, game ends, replay of a seed-like game."""

import json

import pytest

from companion.i18n import catalog
from companion.games.gunkan.rules import GAME
from companion.play.state import Refused, Outcome
from companion.games.gunkan.table import DECLARATIONS, PIECES, REDOS, REMOVALS, VERDICTS, declaration_of

SEESAW = {"judging": "seesaw"}
IDENTIFY = {"judging": "identify"}


def battle(attacker):
    return {"type": "battle", "attacker": attacker}


def declare(kind):
    return {"type": "declare", "kind": kind}


def weighed(result):
    return {"type": "weighed", "result": result}


def counterweight(on):
    return {"type": "counterweight", "on": on}


def identified(attacker, defender, cw=False):
    return {"type": "identified", "attacker": attacker, "defender": defender, "counterweight": cw}


def seesaw_fight(attacker, result, cw=False):
    return [battle(attacker), declare("ship"), counterweight(cw), weighed(result)]


def identify_fight(attacker, a, d, cw=False):
    return [battle(attacker), declare(declaration_of(d)), identified(a, d, cw)]


def refused(state, action, match=None):
    before = state.to_json()
    with pytest.raises(Refused, match=match):
        state.apply(action)
    assert state.to_json() == before


@pytest.mark.parametrize("options", [{"judging": "weight"}, {"first": 2}, {"first": True}, {"colour": "red"}])
def test_bad_options_are_refused(options):
    with pytest.raises(Refused):
        GAME.new_state(options)


def test_turn_follows_battles_but_either_side_may_attack():
    state = GAME.new_state({"first": 1})
    assert state.phase == "idle" and state.to_move() == 1
    state = state.apply(battle(0))  # red attacks although blue was presumed on turn
    assert state.phase == "declare" and state.to_move() == 1  # the defender declares
    state = state.apply(declare("ship"))
    assert state.phase == "counterweight" and state.to_move() == 0
    state = state.apply(counterweight(False))
    assert state.phase == "weigh" and state.to_move() == 0
    state = state.apply(weighed("defender_heavier"))
    assert state.phase == "idle" and state.to_move() == 1


def test_counterweight_without_balance_comes_off_and_is_weighed_again():
    state = GAME.replay(SEESAW, [battle(0), declare("ship"), counterweight(True), weighed("attacker_heavier")])
    assert state.phase == "weigh" and state.current.counterweight_off
    assert state.view(None)["prompt"] == "remove_counterweight"
    state = state.apply(weighed("balanced"))  # bare submarine against submarine
    entry = state.view(None)["log"][-1]
    assert entry["verdict"] == "both_removed" and entry["counterweight"] is True


def test_reweigh_only_counts_and_cancel_forgets_the_battle():
    state = GAME.replay(SEESAW, seesaw_fight(0, "balanced")[:3])
    again = state.apply({"type": "reweigh"}).apply({"type": "reweigh"})
    assert again.current.reweighs == 2 and again.phase == state.phase
    assert again.view(None)["battle"]["reweighs"] == 2
    cancelled = again.apply({"type": "cancel"})
    assert cancelled.phase == "idle" and cancelled.battles == () and cancelled.to_move() == 0


def test_removals_per_verdict_name_no_piece():
    assert set(REMOVALS) == set(VERDICTS)
    state = GAME.replay(SEESAW, seesaw_fight(0, "attacker_heavier") + seesaw_fight(1, "attacker_heavier")
                        + [battle(1), declare("mine"), {"type": "mine_hit", "minesweeper": False}])
    log = state.view(None)["log"]
    assert log[0]["remove"] == {"attacker": None, "defender": "defending_piece"}
    assert log[2]["remove"] == {"attacker": "attacking_piece", "defender": "mine"}
    assert state.view(None)["removed"] == [{"ships": 1, "mines": 1}, {"ships": 2, "mines": 0}]


def test_a_side_without_mines_cannot_declare_one():
    sweep = [battle(0), declare("mine"), {"type": "mine_hit", "minesweeper": True}]
    state = GAME.replay(SEESAW, sweep * 5 + [battle(0)])
    assert declare("mine") not in state.legal_actions()
    refused(state, declare("mine"), "mine")
    assert state.apply(declare("ship")).phase == "counterweight"


def test_port_ends_the_game_at_once_with_the_seesaw():
    state = GAME.replay(SEESAW, [battle(1), declare("port")])
    assert state.outcome() == Outcome(1, "port_captured")
    assert state.legal_actions() == [] and state.to_move() is None
    refused(state, battle(0), "over")


def test_identify_mode_checks_the_port_on_the_pan():
    state = GAME.replay(IDENTIFY, [battle(0), declare("port")])
    assert state.phase == "identify"
    refused(state, identified("landing_ship", "mine"), "pans")
    assert state.apply(identified("landing_ship", "port")).outcome() == Outcome(0, "port_captured")


def test_identify_mode_refuses_a_piece_no_longer_in_play():
    state = GAME.replay(IDENTIFY, identify_fight(0, "submarine", "carrier") + [battle(0), declare("ship")])
    assert identified("cruiser", "carrier") not in state.legal_actions()
    refused(state, identified("cruiser", "carrier"), "still in play")
    assert identified("carrier", "cruiser") in state.legal_actions()  # red's carrier survived


def test_identify_mode_refuses_a_declaration_mismatch_and_a_misplaced_counterweight():
    state = GAME.replay(IDENTIFY, [battle(0), declare("ship")])
    refused(state, identified("cruiser", "mine"), "pans")
    refused(state, identified("cruiser", "destroyer", True), "counterweight")
    refused(state, identified("mine", "destroyer"), "pans")


def test_annihilation_is_detected_by_counting_in_both_modes():
    blue_ships = ["carrier"] + ["battleship"] * 2 + ["cruiser"] * 3 + ["destroyer"] * 4 + \
                 ["minesweeper"] * 3 + ["submarine", "landing_ship"]
    # the red carrier cannot sink the blue carrier (equal: both removed); a submarine does
    actions = identify_fight(0, "submarine", "carrier") + \
        [a for ship in blue_ships[1:] for a in identify_fight(0, "carrier", ship)]
    state = GAME.replay(IDENTIFY, actions)
    assert state.outcome() == Outcome(0, "annihilation")
    assert state.view(None)["report"][1]["lost"] == {"carrier": 1, "battleship": 2, "cruiser": 3, "destroyer": 4,
                                                     "minesweeper": 3, "submarine": 1, "landing_ship": 1}
    seesaw = GAME.replay(SEESAW, [a for _ in range(15) for a in seesaw_fight(1, "defender_heavier")])
    assert seesaw.outcome() == Outcome(0, "annihilation")


def test_last_ships_trading_is_a_draw():
    actions = [a for _ in range(14) for a in seesaw_fight(0, "balanced")]
    state = GAME.replay(SEESAW, actions)
    assert not state.is_over()
    assert state.apply(battle(1)).apply(declare("ship")).apply(counterweight(False)) \
        .apply(weighed("balanced")).outcome() == Outcome(None, "mutual_annihilation")


def test_last_ship_lost_on_a_mine_loses():
    actions = [a for _ in range(14) for a in seesaw_fight(0, "defender_heavier")]
    state = GAME.replay(SEESAW, actions + [battle(0), declare("mine"), {"type": "mine_hit", "minesweeper": False}])
    assert state.outcome() == Outcome(1, "annihilation")


@pytest.mark.parametrize("action,outcome", [
    ({"type": "resign", "seat": 0}, Outcome(1, "resigned")),
    ({"type": "no_moves", "seat": 1}, Outcome(0, "no_moves")),
    ({"type": "all_ships_gone", "seats": [1]}, Outcome(0, "annihilation")),
    ({"type": "all_ships_gone", "seats": [0, 1]}, Outcome(None, "mutual_annihilation")),
])
def test_declared_ends(action, outcome):
    assert GAME.new_state(SEESAW).apply(action).outcome() == outcome


def test_identify_mode_detects_annihilation_itself():
    state = GAME.new_state(IDENTIFY)
    assert not any(a["type"] == "all_ships_gone" for a in state.legal_actions())
    refused(state, {"type": "all_ships_gone", "seats": [0]}, "identify")


def test_ends_only_between_battles():
    state = GAME.replay(SEESAW, [battle(0)])
    refused(state, {"type": "resign", "seat": 0}, "not possible now")


@pytest.mark.parametrize("action", [
    {"type": "battle", "attacker": True}, {"type": "battle", "attacker": 2}, {"type": "battle"},
    {"type": "resign", "seat": "red"}, {"type": "weighed", "result": "balanced"}, "battle", ["battle", 0],
])
def test_malformed_or_untimely_actions_are_refused(action):
    refused(GAME.new_state(SEESAW), action)


@pytest.mark.parametrize("phase_actions,action", [
    ([battle(0)], declare("sea")),
    ([battle(0), declare("ship")], counterweight(1)),
    ([battle(0), declare("ship"), counterweight(False)], weighed("left")),
    ([battle(0), declare("mine")], {"type": "mine_hit", "minesweeper": "yes"}),
])
def test_bad_values_are_refused(phase_actions, action):
    refused(GAME.replay(SEESAW, phase_actions), action)


# The seed's own game, told as battles (blue is the author, who played second).
SEED_GAME_SEESAW = (
    seesaw_fight(0, "balanced")  # battleships trade
    + seesaw_fight(1, "balanced")  # cruisers trade
    + seesaw_fight(0, "attacker_heavier", cw=True) + [weighed("attacker_heavier")]  # a submarine's probe
    + seesaw_fight(0, "balanced", cw=True)  # red's submarine sinks blue's carrier
    + seesaw_fight(1, "attacker_heavier")  # blue's battleship sinks the cruiser that lured it
    + [battle(1), declare("mine"), {"type": "mine_hit", "minesweeper": True}]
    + [battle(0), declare("mine"), {"type": "mine_hit", "minesweeper": False}]  # red hits the 4J mine
    + [{"type": "resign", "seat": 0}]
)
SEED_GAME_IDENTIFY = (
    identify_fight(0, "battleship", "battleship") + identify_fight(1, "cruiser", "cruiser")
    + identify_fight(0, "submarine", "landing_ship", True) + identify_fight(0, "submarine", "carrier")
    + identify_fight(1, "battleship", "cruiser") + identify_fight(1, "minesweeper", "mine")
    + identify_fight(0, "battleship", "mine") + [{"type": "resign", "seat": 0}]
)


@pytest.mark.parametrize("options,actions", [(SEESAW, SEED_GAME_SEESAW), (IDENTIFY, SEED_GAME_IDENTIFY)])
def test_seed_game_replays(options, actions):
    state = GAME.new_state(options)
    for n, action in enumerate(actions):
        state = state.apply(action)
        assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
        assert GAME.replay(options, json.loads(json.dumps(actions[: n + 1]))) == state
    assert state.outcome() == Outcome(1, "resigned")
    verdicts = [entry["verdict"] for entry in state.view(None)["log"]]
    assert verdicts == ["both_removed", "both_removed", "attacker_wins", "attacker_wins",
                        "attacker_wins", "mine_cleared", "both_destroyed_by_mine"]
    assert state.view(None)["removed"] == [{"ships": 4, "mines": 1}, {"ships": 4, "mines": 1}]


def test_every_screen_key_is_in_the_catalog():
    texts = catalog("gunkan")
    keys = ["seat.0", "seat.1", "judging.seesaw", "judging.identify"]
    keys += [f"prompt.{p}" for p in ("start_battle", "declare", "counterweight", "weigh",
                                     "remove_counterweight", "mine_hit", "identify", "over")]
    keys += [f"verdict.{v}" for v in VERDICTS] + [f"declared.{d}" for d in DECLARATIONS]
    keys += [f"remove.{r}" for pair in REMOVALS.values() for r in pair if r]
    keys += [f"outcome.{o}" for o in ("port_captured", "annihilation", "mutual_annihilation", "resigned", "no_moves")]
    keys += [f"piece.{p}" for p in PIECES + ("counterweight",)] + [f"redo.{r}" for r in REDOS]
    for key in keys:
        assert texts.get(key, {}).get("ja") and texts[key].get("en"), f"gunkan.yaml lacks {key}"
