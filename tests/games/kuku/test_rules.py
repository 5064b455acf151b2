"""九九戦艦 rules (docs/rules.md §kuku): board, bombs, refusals, resolution and the end."""

import pytest

from companion.play.state import Refused
from companion.games.kuku.rules import GAME
from companion.games.kuku.board import CELLS, PRODUCTS, cells_of, judge_listing
from .test_setup import attack, bomb, placed, self_destruct_position

FLEETS = (("1×1", "5×5", "9×9"), ("3×8", "7×7", "2×1"))

CELL_COUNTS = {
    1: 1, 2: 2, 3: 2, 4: 3, 5: 2, 6: 4, 7: 2, 8: 4, 9: 3, 10: 2, 12: 4, 14: 2, 15: 2, 16: 3, 18: 4,
    20: 2, 21: 2, 24: 4, 25: 1, 27: 2, 28: 2, 30: 2, 32: 2, 35: 2, 36: 3, 40: 2, 42: 2, 45: 2,
    48: 2, 49: 1, 54: 2, 56: 2, 63: 2, 64: 1, 72: 2, 81: 1,
}


def test_cell_count_of_every_product():
    assert {n: len(cells_of(n)) for n in PRODUCTS} == CELL_COUNTS
    assert sum(CELL_COUNTS.values()) == len(CELLS) == 81


def test_seed_bomb_examples():
    assert cells_of(16) == ("2×8", "4×4", "8×2")
    assert cells_of(49) == ("7×7",)
    assert len(cells_of(12)) == len(cells_of(24)) == 4
    assert all(len(cells_of(n)) == 1 for n in (25, 49, 64, 81))
    assert cells_of(11) == ()


def test_bomb_16_attacks_its_three_cells_on_both_boards():
    state = bomb(placed(*FLEETS), 16)
    last = state.view(None)["last"]
    assert last["judgement"] == "exact" and last["cells"] == ["2×8", "4×4", "8×2"]
    assert state.view(None)["markers"] == {"2×8": "blue", "4×4": "blue", "8×2": "blue"}
    assert state.to_move() == 1


def test_bomb_lists_attacked_cells_but_attacks_only_new_ones():
    state = attack(placed(*FLEETS), "4×6", "9×8")
    state = bomb(state, 24)
    last = state.view(None)["last"]
    assert last["already"] == ["4×6"] and last["cells"] == ["3×8", "6×4", "8×3"]
    assert last["markers"] == {"3×8": "red", "6×4": "blue", "8×3": "blue"}
    assert last["hits"] == [[], ["3×8"]] and last["remaining"] == [3, 2]


def refused(state, action):
    before = state.to_json()
    with pytest.raises(Refused) as error:
        state.apply(action)
    assert state.to_json() == before
    return f"{error.value.text('ja')}\n{error.value.text('en')}"


def test_refusals_leave_the_turn_with_the_player():
    state = attack(placed(*FLEETS), "7×7", "8×8")  # 49 is now fully attacked
    assert state.to_move() == 0
    assert "攻撃済み" in refused(state, {"type": "attack", "cell": "8×8"})
    assert "not in the 9×9 table" in refused(state, {"type": "bomb", "product": 11})
    assert "already attacked" in refused(state, {"type": "bomb", "product": 49})
    refused(state, {"type": "bomb", "product": 100})
    refused(state, {"type": "attack", "cell": "10×1"})
    refused(state, {"type": "say", "pair": "2×8"})
    assert {"type": "bomb", "product": 49} not in state.legal_actions()
    assert {"type": "attack", "cell": "8×8"} not in state.legal_actions()


@pytest.mark.parametrize(
    "listing,judgement",
    [
        (["2×8", "4×4"], "omission"),
        (["2×8", "4×4", "8×2", "1×16"], "extra"),
        (["2×8", "4×4", "8×2", "3×5"], "wrong"),
        ([], "omission"),
    ],
)
def test_failed_listing_consumes_the_turn_without_attack(listing, judgement):
    state = bomb(placed(*FLEETS), 16, listing)
    last = state.view(None)["last"]
    assert last["judgement"] == judgement and last["cells"] == [] and last["markers"] == {}
    assert last["correct"] == ["2×8", "4×4", "8×2"]  # the learning moment
    assert state.view(None)["markers"] == {} and state.to_move() == 1


def test_listing_faults_name_the_pairs():
    verdict = judge_listing(24, ["3×8", "8×3", "2×12", "5×5"])
    assert verdict["faults"] == {"wrong": ["5×5"], "extra": ["2×12"], "omission": ["4×6", "6×4"]}
    assert judge_listing(24, ["6×4", "4×6", "3×8", "8×3"])["judgement"] == "exact"


def test_listing_refuses_repeats_and_stops_at_the_cap():
    state = placed(*FLEETS).apply({"type": "bomb", "product": 16})
    state = state.apply({"type": "say", "pair": "2×8"})
    refused(state, {"type": "say", "pair": "2×8"})
    for pair in ("1×1", "1×2", "1×3", "1×4"):
        state = state.apply({"type": "say", "pair": pair})
    assert state.legal_actions() == [{"type": "done"}]
    refused(state, {"type": "say", "pair": "4×4"})


def test_self_destruct_sinks_the_attackers_ship_and_can_lose_the_game():
    state = attack(placed(*FLEETS), "3×8", "5×5")  # each sinks one of the other's ships
    assert state.view(None)["remaining"] == [2, 2]
    state = attack(state, "2×1")  # seat 0 sinks seat 1's second ship ...
    state = attack(state, "7×7")  # ... and seat 1 its own last one: self-destruct
    assert state.view(None)["last"]["hits"] == [[], ["7×7"]]
    assert state.outcome().winner == 0 and state.outcome().reason == "self_destruct"
    assert state.view(None)["markers"]["7×7"] == "red"


def test_seed_example_win_by_taking_your_own_ship_down():
    extra = bomb(self_destruct_position("extra"), 24)
    assert extra.outcome().winner == 0 and extra.outcome().reason == "both_sunk_attacker_wins"
    basic = bomb(self_destruct_position("basic"), 24)
    assert basic.outcome().winner == 1 and basic.outcome().reason == "both_sunk_leader_wins"
    assert basic.view(None)["last"]["hits"] == [["3×8"], ["4×6"]]


def test_same_kind_last_ships_draw_under_the_basic_rule():
    state = placed(("3×8", "1×1", "2×1"), ("9×9", "4×6", "1×2"))
    state = bomb(attack(state, "9×9", "1×1", "1×2", "2×1"), 24)
    assert state.outcome().winner is None and state.outcome().scores == (0.5, 0.5)


def test_leader_among_several_ships_sunk_by_the_final_attack_counts():
    # seat 1 loses normal + leader to the final bomb, seat 0 its last normal
    state = placed(("3×8", "1×1", "2×1"), ("9×9", "6×4", "4×6"))
    state = bomb(attack(state, "9×9", "1×1", "5×5", "2×1"), 24)
    assert state.view(None)["last"]["hits"] == [["3×8"], ["4×6", "6×4"]]
    assert state.outcome().winner == 1


def test_game_ends_only_after_every_cell_of_the_attack():
    # the bomb sinks the opponent's last ship before (in board order) the attacker's own
    state = placed(("8×3", "1×1", "2×1"), ("9×9", "1×2", "3×8"), rule="extra")
    state = bomb(attack(state, "9×9", "1×1", "1×2", "2×1"), 24)
    assert state.outcome().reason == "both_sunk_attacker_wins"


def test_first_player_option_and_placement_order():
    state = GAME.new_state({"first": 1})
    assert state.to_move() == 1
    state = placed(*FLEETS, first=1)
    assert state.phase == "play" and state.to_move() == 1
    with pytest.raises(Refused):
        GAME.new_state({"rule": "house"})


def test_placement_refuses_shared_cells_and_extra_ships():
    state = GAME.new_state()
    state = state.apply({"type": "place", "kind": "leader", "cell": "3×8"})
    refused(state, {"type": "place", "kind": "normal", "cell": "3×8"})
    refused(state, {"type": "place", "kind": "leader", "cell": "4×4"})
    refused(state, {"type": "attack", "cell": "4×4"})


def test_views_show_only_the_seats_own_fleet():
    state = placed(*FLEETS)
    public, mine = state.view(None), state.view(0)
    assert "fleet" not in public and "fleets" not in public
    assert mine["fleet"] == ["0:normal@1×1", "0:normal@5×5", "0:leader@9×9"]
    assert "3×8" not in str(mine["fleet"]) and "fleet" in state.view(1)
    over = bomb(self_destruct_position("extra"), 24)
    assert over.view(None)["fleets"][1] == ["1:normal@9×9", "1:normal@1×2", "1:leader@4×6"]
    assert over.secrets(0) == []


# --------------------------------------------------------------------- tracker
def tracker(rule="basic"):
    return GAME.new_state({"mode": "tracker", "rule": rule})


def report(state, hits):
    return state.apply({"type": "report", "hits": hits})


def reports(state, opponent_hits, attacker_hits):
    """Both reports after an attack: the attacked player first, then the attacker."""
    return report(report(state, opponent_hits), attacker_hits)


def test_tracker_collects_reports_from_the_opponent_then_the_attacker():
    state = bomb(tracker(), 24)
    assert state.phase == "report" and state.to_move() == 1
    state = report(state, ["3×8"])
    assert state.to_move() == 0
    state = report(state, ["3×8", "6×4"])
    view = state.view(None)
    assert view["remaining"] == [1, 2] and view["markers"]["3×8"] == "red"
    assert view["markers"]["4×6"] == "blue" and state.to_move() == 1


def test_tracker_refuses_reports_that_contradict_the_facts():
    state = bomb(tracker(), 24)
    assert "only the cells just attacked" in refused(state, {"type": "report", "hits": ["1×1"]})
    refused(state, {"type": "report", "hits": ["3×8", "3×8"]})
    refused(state, {"type": "report", "hits": ["3×8", "8×3", "4×6", "6×4"]})  # more than 3 ships
    state = reports(state, ["3×8", "8×3"], [])  # seat 1 has 1 ship left
    state = report(bomb(state, 12), [])
    assert "only 1 ship" in refused(state, {"type": "report", "hits": ["2×6", "3×4"]})


def test_tracker_seed_example_asks_for_the_leader_only_when_it_matters():
    state = tracker()
    for cell in ("9×9", "1×1", "1×2", "2×1"):
        state = reports(attack(state, cell), [cell], [])
    state = reports(bomb(state, 24), ["4×6"], ["3×8"])
    assert state.phase == "leader" and state.to_move() == 1
    assert state.legal_actions() == [{"type": "leader", "cell": "4×6"}, {"type": "leader", "cell": None}]
    state = state.apply({"type": "leader", "cell": "4×6"}).apply({"type": "leader", "cell": None})
    assert state.outcome().winner == 1


def test_tracker_extra_rule_needs_no_leader_and_forces_it_when_all_sink_at_once():
    state = reports(bomb(tracker("extra"), 24), ["3×8", "8×3", "4×6"], ["6×4"])
    assert state.view(None)["remaining"] == [2, 0] and state.outcome().winner == 0
    state = reports(bomb(tracker("basic"), 12), ["2×6", "6×2", "3×4"], ["2×6", "4×3", "6×2"])
    assert state.phase == "leader"
    refused(state, {"type": "leader", "cell": None})  # all three sank now: the leader is among them
    refused(state, {"type": "leader", "cell": ["2×6", "6×2"]})  # one leader only
