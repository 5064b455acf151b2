"""Naval War: seating and deal, the first (special) turn, round end, scoring, rounds to the target."""

import random

import pytest
from .test_support import DRAW, GAME, NO_RED, apply_all, dealt, fleet, in_normal_turns, pass_turn, red, table

from companion.play.state import CHANCE, Refused
from companion.games.navalwar.rules import card_conservation, next_draw_odds
from companion.games.navalwar.data import default_composition

WEAK = ["ship-lutzow", "ship-graf-spee", "ship-scheer", "ship-shokaku", "ship-akagi"]  # all 3s
STRONG = ["ship-yamato", "ship-hyuga", "ship-repulse", "ship-enterprise", "ship-nelson"]
THREE = [WEAK, STRONG, ["ship-iowa", "ship-bismarck", "ship-texas", "ship-roma", "ship-andrea-doria"]]


def only(counts):
    """A `deck` option holding just these action cards (all 54 ships)."""
    return {"counts": {**{k: 0 for k, _ in default_composition().actions}, **counts}}


# --- seating and deal -------------------------------------------------------------------

def test_players_three_to_nine_and_two_as_a_marked_house_rule():
    for bad in (1, 10, "4", True):
        with pytest.raises(Refused):
            GAME.new_state({"players": bad})
    assert GAME.new_state({"players": 2}).view(None)["house_rule"] == "two_players"
    assert GAME.new_state({"players": 3}).view(None)["house_rule"] is None
    with pytest.raises(Refused):
        GAME.new_state({"target": 0})


def test_first_player_is_a_chance_decision_then_ships_are_entered_per_player():
    state = GAME.new_state({"players": 4})
    assert state.to_move() == CHANCE and state.legal_actions() == [{"type": "first", "seat": s} for s in range(4)]
    state = apply_all(state, [{"type": "first", "seat": 2}, {"type": "deal", "ship": "ship-hood"}])
    assert state.view(None)["waiting"] == {"kind": "deal", "seat": 0}
    with pytest.raises(Refused):
        state.apply({"type": "deal", "ship": "ship-hood"})  # already dealt


def test_deal_five_each_and_the_first_player_starts_the_first_turn():
    state = dealt(4, first=2)
    tbl = table(state)
    assert [len(f) for f in tbl["fleets"]] == [5] * 4 and len(tbl["harbour"]) == 54 - 20
    assert [h["n"] for h in tbl["hands"]] == [5] * 4 and tbl["draw"] == 108 - 20
    assert state.to_move() == 2 and state.view(None)["phase"] == "stage"


def test_nine_players_are_dealt_four_of_each():
    ships = [s.id for s in default_composition().ships]
    state = GAME.new_state({"players": 9})
    state = apply_all(state, [{"type": "first", "seat": 0}] + [{"type": "deal", "ship": s} for s in ships[:36]])
    tbl = table(state)
    assert [len(f) for f in tbl["fleets"]] == [4] * 9 and tbl["draw"] == 108 - 36
    assert all(h == {"n": 4, "unknown": 4} for h in tbl["hands"])


# --- the first turn -------------------------------------------------------------------

def test_first_turn_plays_red_cards_refills_and_plays_red_cards_drawn():
    state = dealt(4, first=0)
    legal = state.legal_actions()
    assert NO_RED in legal and {"type": "play", "card": "additional_ship"} in legal
    assert {"type": "discard", "card": "additional_damage-1"} in legal, "additional damage is discarded in the first turn"
    assert not any(a["type"] == "play" and a["card"].startswith("salvo") for a in legal)
    state = apply_all(state, [{"type": "play", "card": "minefield-2", "fleet": 1}])
    assert table(state)["hands"][0] == {"n": 4, "unknown": 4} and state.to_move() == 0
    state = apply_all(state, [NO_RED, {"type": "draw", "card": "torpedo_boat"}])
    assert state.legal_actions()[0]["card"] == "torpedo_boat", "a red card drawn is played at once"
    state = apply_all(state, [{"type": "play", "card": "torpedo_boat", "ship": "ship-iowa"}, {"type": "die", "value": 6},
                              {"type": "draw", "card": "hidden"}])
    assert table(state)["hands"][0] == {"n": 5, "unknown": 0}
    assert state.to_move() == 1 and table(state)["sunk"][0] == ["ship-iowa"]


def test_first_turn_allows_one_minefield_per_fleet_only():
    state = apply_all(dealt(4, first=0), [{"type": "play", "card": "minefield-1", "fleet": 2}, NO_RED,
                                          {"type": "draw", "card": "hidden"}])  # seat 0 refilled; now seat 1
    mined = [a["fleet"] for a in state.legal_actions()
             if a["type"] == "play" and a["card"] == "minefield-2"]
    assert mined == [0, 3]
    state = apply_all(state, [NO_RED, NO_RED, NO_RED])  # normal turns from seat 0
    state = red(state, "minefield-2", fleet=2)
    assert len(state.view(None)["fleets"][2]["minefields"]) == 2


def test_no_red_is_refused_when_too_few_black_cards_remain():
    deck = only({"smoke": 6, "repair": 4, "additional_ship": 8, "minefield-1": 2, "minefield-2": 2,
                 "submarine": 2, "torpedo_boat": 2, "additional_damage-1": 4, "additional_damage-2": 2})
    state = apply_all(dealt(4, first=0, deck=deck), [NO_RED, NO_RED])  # 10 black cards in hands
    assert NO_RED not in state.legal_actions(), "seat 2's hand must hold red cards"
    harbour = table(state)["harbour"]
    for ship in harbour[:5]:
        state = apply_all(state, [{"type": "play", "card": "additional_ship"}, {"type": "deal", "ship": ship}])
    assert state.to_move() == CHANCE and state.legal_actions()[0] == {"type": "draw", "card": "additional_ship"}
    assert {"type": "draw", "card": "hidden"} not in state.legal_actions(), "no black card can be left in the pile"


def test_odds_of_the_next_draw_follow_what_is_known():
    state = dealt(4)
    assert next_draw_odds(state)["red"] == pytest.approx(22 / 108)  # hands may hold red cards
    state = apply_all(state, [NO_RED] * 4)  # now only the pile can
    odds = next_draw_odds(state)
    assert odds["red"] == pytest.approx(22 / 88)
    assert odds["salvo"]["14"] == pytest.approx((1 - 22 / 88) * 20 / 86)
    state = apply_all(state, [DRAW, {"type": "draw", "card": "minefield-2"}, {"type": "play", "card": "minefield-2", "fleet": 1}])
    assert next_draw_odds(state)["cards"]["minefield-2"] == pytest.approx(1 / 87)
    assert state.view(None)["odds"] == next_draw_odds(state)


# --- a whole round, scripted ---------------------------------------------------------------

def test_a_complete_four_player_round_from_deal_to_scoring():
    deck = only({"salvo-16-3": 4, "salvo-15-2": 4, "salvo-14-2": 8, "salvo-11-1": 2, "smoke": 2,
                 "repair": 1, "minesweeper": 1, "minefield-2": 2, "submarine": 1,
                 "additional_ship": 1, "destroyer_squadron": 1, "additional_damage-1": 1})
    state = dealt(4, first=1, deck=deck)  # 28 cards: 20 dealt, 8 in the pile
    # the first turn, clockwise from seat 1
    state = apply_all(state, [{"type": "play", "card": "minefield-2", "fleet": 3}, NO_RED, {"type": "draw", "card": "submarine"},
                              {"type": "play", "card": "submarine", "ship": "ship-iowa"}, {"type": "die", "value": 5}, {"type": "draw", "card": "hidden"}])
    assert table(state)["sunk"][1] == ["ship-iowa"]
    state = apply_all(state, [NO_RED])  # seat 2
    state = apply_all(state, [{"type": "discard", "card": "additional_damage-1"}, {"type": "play", "card": "minefield-2", "fleet": 1},
                              NO_RED, {"type": "draw", "card": "hidden"}, {"type": "draw", "card": "hidden"}])  # seat 3
    state = apply_all(state, [NO_RED])  # seat 0
    view = state.view(None)
    assert view["phase"] == "turn" and view["seat"] == 1 and view["piles"]["draw"] == 4
    # normal turns from seat 1
    state = apply_all(state, [DRAW, {"type": "draw", "card": "hidden"}, {"type": "play", "card": "salvo-14-2", "ship": "ship-scheer"}])
    assert table(state)["sunk"][1] == ["ship-iowa", "ship-scheer"]  # 2 mine hits + 2 >= 3
    state = pass_turn(state, "salvo-15-2")  # seat 2
    state = apply_all(state, [{"type": "draw", "card": "additional_ship"}, {"type": "play", "card": "additional_ship"},
                              {"type": "deal", "ship": "ship-gneisenau"}])  # seat 3: joins its mined fleet
    assert fleet(state, 3)["ship-gneisenau"]["hits"] == 2
    # seat 0 draws the last card; the turn is finished, then the round ends
    state = apply_all(state, [{"type": "draw", "card": "hidden"}])
    assert state.view(None)["round"] == 1 and state.view(None)["piles"]["draw"] == 0
    state = apply_all(state, [{"type": "play", "card": "salvo-16-3", "ship": "ship-graf-spee"}])
    view = state.view(None)
    assert view["round"] == 2 and view["history"] == [[3, 7 + 3, 0, 0]]
    assert view["last_round"]["sunk"] == [["ship-graf-spee"], ["ship-iowa", "ship-scheer"], [], []]
    assert view["totals"] == [3, 10, 0, 0] and view["first"] == 1, "the leader starts round 2"
    assert view["phase"] == "deal" and view["piles"] == {"harbour": 54, "draw": 28, "discard": 0}
    assert card_conservation(state) == []


def test_elimination_scores_minus_ten_and_the_sole_survivor_ten():
    state = in_normal_turns(2, fleets=[WEAK, STRONG])
    state = red(pass_turn(state), "minefield-2", fleet=0)  # seat 1
    state = pass_turn(state)  # seat 0
    state = red(state, "minefield-1", fleet=0)  # seat 1: every ship of seat 0 sinks
    view = state.view(None)
    assert view["history"] == [[-10, 15 + 10]] and view["round"] == 2 and view["first"] == 1


def test_an_eliminated_player_discards_the_hand_unseen_and_is_skipped():
    state = in_normal_turns(3, fleets=THREE)
    state = red(pass_turn(state), "minefield-2", fleet=0)
    state = red(state, "minefield-1", fleet=0)  # seat 2 sinks all of seat 0
    tbl = table(state)
    assert tbl["out"] == [True, False, False] and tbl["hands"][0] == {"n": 0, "unknown": 0}
    assert tbl["discard_hidden"] == {"black": 5, "any": 0}
    assert state.view(None)["seat"] == 1, "seat 0 is skipped"
    assert state.view(None)["round_points"] == [-10, 0, 15]


# --- rounds to the target ---------------------------------------------------------------------

def conserved_pile(state, reduce_by):
    data = state.to_json()
    data["table"]["draw"] -= reduce_by
    data["table"]["discard_hidden"]["any"] += reduce_by
    return GAME.state_from_json(data)


def last_turn(history, first=0):
    """Seat `first`'s normal turn with one card left in the pile and `history` behind."""
    state = in_normal_turns(3, first=first, fleets=THREE)
    state = conserved_pile(state, table(state)["draw"] - 1)
    data = state.to_json()
    data["history"] = history
    return GAME.state_from_json(data)


def test_highest_total_over_the_target_wins():
    state = pass_turn(last_turn([[60, 95, 101]]))
    assert state.is_over() and state.outcome().winner == 2
    assert state.outcome().scores == (60, 95, 101) and state.legal_actions() == []


def test_an_exact_tie_at_the_top_plays_another_round_started_by_a_tied_leader():
    state = pass_turn(last_turn([[120, 0, 120]], first=1))
    view = state.view(None)
    assert not state.is_over() and view["round"] == 2 and view["history"] == [[120, 0, 120], [0, 0, 0]]
    # Decision (ours): of the tied leaders, the first clockwise from last round's first player
    assert view["first"] == 2


def test_a_multi_round_game_to_the_target():
    rng = random.Random(7)
    state = GAME.new_state({"players": 3, "target": 100})
    rounds_seen = 0
    while not state.is_over():
        state = state.apply(rng.choice(state.legal_actions()))
        history = state.view(None)["history"]
        if len(history) > rounds_seen:  # a round just ended: check its arithmetic
            rounds_seen = len(history)
            last = state.view(None)["last_round"]
            ships = default_composition().ship_by_id
            expected = [sum(ships[s].defence for s in sunk)
                        + (10 if seat in last["survivors"] and len(last["survivors"]) == 1 else 0)
                        - (10 if seat not in last["survivors"] else 0)
                        for seat, sunk in enumerate(last["sunk"])]
            assert history[-1] == expected
            totals = [sum(col) for col in zip(*history)]
            assert state.view(None)["totals"] == totals
            if not state.is_over():
                best = max(totals)
                assert best < 100 or totals.count(best) > 1
                assert totals[state.view(None)["first"]] == best, "the leader starts"
    assert rounds_seen >= 2
    totals = state.outcome().scores
    assert max(totals) >= 100 and totals.count(max(totals)) == 1
    assert state.outcome().winner == totals.index(max(totals))
