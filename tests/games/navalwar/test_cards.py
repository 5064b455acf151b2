"""Naval War: every card effect and every ruling of docs/rules.md §navalwar about cards and attacks."""

import pytest
from .test_support import AIR_STRIKE, DRAW, GAME, apply_all, black, fleet, in_normal_turns, pass_turn, red, table

from companion.play.state import CHANCE, Refused


def targets(state):
    return {a.get("ship") for a in state.legal_actions() if a["type"] in ("play", "deal")} - {None}


def after_black_draw(state):
    return apply_all(state, [{"type": "draw", "card": "hidden"}])


# --- salvo ---------------------------------------------------------------------------

def test_salvo_offers_only_own_calibres_afloat_and_enemy_ships_that_can_be_hit():
    state = after_black_draw(in_normal_turns())  # seat 0: 16", 15", 15", 11", carrier
    salvos = {a["card"] for a in state.legal_actions() if a["type"] == "play" and a["card"].startswith("salvo")}
    assert {k.split("-")[1] for k in salvos} == {"16", "15", "11"}
    hit = targets(state)
    assert not hit & set(fleet(state, 0)), "no player may damage their own ships"
    assert "ship-enterprise" not in hit, "a carrier is screened while its fleet has other ships"
    assert {"ship-yamato", "ship-iowa", "ship-roma"} <= hit
    with pytest.raises(Refused):
        state.apply({"type": "play", "card": "salvo-14-1", "ship": "ship-yamato"})  # no 14" gun
    with pytest.raises(Refused):
        state.apply({"type": "play", "card": "salvo-16-3", "ship": "ship-nelson"})  # own ship


def test_salvo_hits_accumulate_and_the_last_hit_takes_the_ship():
    state = black(in_normal_turns(), "salvo-15-3", ship="ship-hyuga")  # seat 0
    assert fleet(state, 1)["ship-hyuga"]["hits"] == 3
    state = pass_turn(state)  # seat 1
    state = black(state, "salvo-12.6-2", ship="ship-hyuga")  # seat 2: 5 hits >= 5
    assert "ship-hyuga" not in fleet(state, 1)
    assert table(state)["sunk"][2] == ["ship-hyuga"]
    assert table(state)["discard"]["salvo-15-3"] == 1  # the ship's cards are discarded
    assert state.view(None)["round_points"][2] == 5


def test_salvo_on_a_destroyer_squadron_only_by_others_and_four_hits_destroy_it_for_nothing():
    state = black(in_normal_turns(), "destroyer_squadron")  # seat 0 puts one in the middle
    state = after_black_draw(state)  # seat 1
    assert {"type": "play", "card": "salvo-18-2", "squadron": 1} in state.legal_actions()
    state = apply_all(state, [{"type": "play", "card": "salvo-18-2", "squadron": 1}])
    assert state.view(None)["squadrons"][0]["hits"] == ["salvo-18-2"]
    state = after_black_draw(state)  # seat 2
    state = apply_all(state, [{"type": "play", "card": "salvo-16-2", "squadron": 1}])
    view = state.view(None)
    assert view["squadrons"] == [] and all(f["sunk"] == [] for f in view["fleets"])
    assert table(state)["discard"] == {"destroyer_squadron": 1, "salvo-18-2": 1, "salvo-16-2": 1}


def test_own_squadron_is_not_a_salvo_target():
    state = black(in_normal_turns(2), "destroyer_squadron")  # seat 0
    state = black(state, "smoke")  # seat 1 hides, so seat 0's squadron waits
    state = after_black_draw(state)
    assert len(state.view(None)["squadrons"]) == 1
    assert not any("squadron" in a for a in state.legal_actions())


# --- destroyer squadron -------------------------------------------------------------

def squadron_ready(players=4):
    state = black(in_normal_turns(players), "destroyer_squadron")
    for _ in range(players - 1):
        state = pass_turn(state)
    return state


def test_squadron_attacks_on_its_owners_next_turn_as_the_whole_turn():
    state = squadron_ready()
    draw_before = table(state)["draw"]
    assert state.to_move() == 0 and state.legal_actions() == [{"type": "attack", "fleet": 1}, {"type": "attack", "fleet": 2}, {"type": "attack", "fleet": 3}]
    state = apply_all(state, [{"type": "attack", "fleet": 1}])
    assert state.to_move() == CHANCE and len(state.legal_actions()) == 6
    state = apply_all(state, [{"type": "die", "value": 3}])
    picks = {a["ship"] for a in state.legal_actions()}
    assert "ship-enterprise" not in picks, "the owner's picks respect the carrier screen"
    state = apply_all(state, [{"type": "sink", "ship": "ship-yamato"}, {"type": "sink", "ship": "ship-hyuga"}, {"type": "sink", "ship": "ship-lutzow"}])
    assert table(state)["sunk"][0] == ["ship-yamato", "ship-hyuga", "ship-lutzow"]
    assert state.view(None)["squadrons"] == []
    assert state.view(None)["seat"] == 1 and table(state)["draw"] == draw_before, "no draw that turn"


def test_squadron_roll_above_the_fleet_size_sinks_the_whole_fleet_carrier_last():
    state = apply_all(squadron_ready(), [{"type": "attack", "fleet": 1}, {"type": "die", "value": 6}])
    for ship in ["ship-yamato", "ship-hyuga", "ship-lutzow", "ship-repulse"]:
        assert {"type": "sink", "ship": "ship-enterprise"} not in state.legal_actions()
        state = apply_all(state, [{"type": "sink", "ship": ship}])
    state = apply_all(state, [{"type": "sink", "ship": "ship-enterprise"}])
    view = state.view(None)
    assert view["fleets"][1]["out"] and view["fleets"][1]["hand"] == 0
    assert view["round_points"][1] == -10 and view["round_points"][0] == 9 + 5 + 3 + 4 + 3


def test_smoke_on_a_fleet_blocks_the_squadron():
    state = black(in_normal_turns(), "destroyer_squadron")  # seat 0
    state = black(state, "smoke")  # seat 1 hides
    state = pass_turn(pass_turn(state))
    assert state.legal_actions() == [{"type": "attack", "fleet": 2}, {"type": "attack", "fleet": 3}]


def test_squadron_waits_while_every_other_fleet_is_under_smoke():
    state = black(in_normal_turns(2), "destroyer_squadron")  # two players (house rule)
    state = black(state, "smoke")
    # a normal turn instead (no air strike either: the only enemy fleet is hidden)
    assert state.to_move() == CHANCE and {"type": "draw", "card": "hidden"} in state.legal_actions()
    assert len(state.view(None)["squadrons"]) == 1


def test_squadron_of_an_eliminated_player_is_removed():
    fleets = [["ship-lutzow", "ship-graf-spee", "ship-scheer", "ship-shokaku", "ship-akagi"],
              ["ship-yamato", "ship-hyuga", "ship-repulse", "ship-enterprise", "ship-nelson"],
              ["ship-iowa", "ship-bismarck", "ship-andrea-doria", "ship-texas", "ship-roma"]]
    state = black(in_normal_turns(3, fleets=fleets), "destroyer_squadron")
    state = red(state, "minefield-2", fleet=0)  # seat 1
    state = red(state, "minefield-1", fleet=0)  # seat 2: 3 hits sink all five
    view = state.view(None)
    assert view["fleets"][0]["out"] and view["squadrons"] == []
    assert sorted(view["fleets"][2]["sunk"]) == sorted(fleets[0])
    assert table(state)["discard"]["destroyer_squadron"] == 1


# --- air strikes ----------------------------------------------------------------------

def test_air_strike_instead_of_drawing_names_all_targets_then_rolls():
    fleets = [["ship-nelson", "ship-shokaku", "ship-akagi", "ship-hood", "ship-warspite"],
              ["ship-yamato", "ship-hyuga", "ship-lutzow", "ship-repulse", "ship-enterprise"],
              ["ship-iowa", "ship-bismarck", "ship-andrea-doria", "ship-graf-spee", "ship-texas"]]
    state = in_normal_turns(3, fleets=fleets)
    draw_before = table(state)["draw"]
    state = apply_all(state, [AIR_STRIKE])
    assert "ship-enterprise" not in targets(state) and not targets(state) & set(fleet(state, 0))
    assert state.view(None)["waiting"]["carrier"] == "ship-shokaku"
    state = apply_all(state, [{"type": "strike", "ship": "ship-yamato"}])
    assert state.to_move() == 0, "every carrier names its target before any die is rolled"
    assert state.view(None)["waiting"]["carrier"] == "ship-akagi"
    state = apply_all(state, [{"type": "strike", "ship": "ship-iowa"}, {"type": "die", "value": 1}, {"type": "die", "value": 2}])
    assert table(state)["sunk"][0] == ["ship-yamato"] and "ship-iowa" in fleet(state, 2)
    assert table(state)["draw"] == draw_before and state.view(None)["seat"] == 1


def test_air_strike_roll_skipped_when_both_carriers_named_a_ship_already_sunk():
    fleets = [["ship-nelson", "ship-shokaku", "ship-akagi", "ship-hood", "ship-warspite"],
              ["ship-yamato", "ship-hyuga", "ship-lutzow", "ship-repulse", "ship-enterprise"],
              ["ship-iowa", "ship-bismarck", "ship-andrea-doria", "ship-graf-spee", "ship-texas"]]
    state = apply_all(in_normal_turns(3, fleets=fleets),
                      [AIR_STRIKE, {"type": "strike", "ship": "ship-yamato"}, {"type": "strike", "ship": "ship-yamato"}, {"type": "die", "value": 1}])
    assert state.view(None)["seat"] == 1  # the second roll had nothing left to sink


def test_air_strike_is_blocked_by_smoke():
    state = black(in_normal_turns(), "salvo-16-1", ship="ship-yamato")
    state = black(state, "smoke")  # seat 1
    state = pass_turn(pass_turn(state))
    state = apply_all(state, [AIR_STRIKE])
    assert not targets(state) & set(fleet(state, 1))


# --- red cards --------------------------------------------------------------------------

def test_a_red_card_drawn_is_played_at_once_and_is_the_whole_turn():
    state = in_normal_turns()
    state = apply_all(state, [DRAW, {"type": "draw", "card": "minefield-1"}])
    assert all("fleet" in a for a in state.legal_actions()), "only the red card can be played"
    state = apply_all(state, [{"type": "play", "card": "minefield-1", "fleet": 2}])
    assert state.view(None)["seat"] == 1 and table(state)["hands"][0]["n"] == 5


def test_additional_damage_needs_a_salvo_on_an_enemy_ship_and_takes_the_ship():
    state = in_normal_turns()
    state = apply_all(state, [DRAW, {"type": "draw", "card": "additional_damage-2"}])
    assert state.legal_actions() == [{"type": "discard", "card": "additional_damage-2"}], "Decision: no target, discarded"
    state = apply_all(state, [{"type": "discard", "card": "additional_damage-2"}])
    state = black(state, "salvo-14-3", ship="ship-roma")  # seat 1 (14" Hyuga): Roma 3/6
    state = black(state, "smoke")  # seat 2
    state = black(state, "smoke")  # seat 3 hides; additional damage is not blocked by smoke
    state = apply_all(state, [DRAW, {"type": "draw", "card": "additional_damage-2"}])
    assert state.legal_actions() == [{"type": "play", "card": "additional_damage-2", "ship": "ship-roma", "salvo": 0}]
    state = apply_all(state, [{"type": "play", "card": "additional_damage-2", "ship": "ship-roma", "salvo": 0}])
    assert fleet(state, 3)["ship-roma"]["hits"] == 5
    state = apply_all(state, [{"type": "draw", "card": "additional_damage-1"},
                              {"type": "play", "card": "additional_damage-1", "ship": "ship-roma", "salvo": 0}])
    assert table(state)["sunk"][1] == ["ship-roma"], "the player of the additional damage takes it"


def test_minefield_hits_every_ship_carriers_too_and_the_last_layer_takes_them():
    state = red(in_normal_turns(), "minefield-2", fleet=1)  # seat 0 on seat 1's fleet
    assert {s: v["hits"] for s, v in fleet(state, 1).items()} == dict.fromkeys(fleet(state, 1), 2)
    state = pass_turn(state)  # seat 1
    state = red(state, "minefield-1", fleet=1)  # seat 2: 3 hits sink Lutzow and Enterprise
    assert sorted(table(state)["sunk"][2]) == ["ship-enterprise", "ship-lutzow"]
    assert len(state.view(None)["fleets"][1]["minefields"]) == 2


def test_minefield_hits_ships_added_later_credited_to_the_last_minefield():
    state = red(in_normal_turns(), "minefield-2", fleet=3)  # seat 0
    state = red(state, "minefield-1", fleet=3)  # seat 1: Scheer (3) sinks
    assert table(state)["sunk"][1] == ["ship-scheer"]
    state = pass_turn(state)  # seat 2
    state = apply_all(state, [{"type": "draw", "card": "additional_ship"}, {"type": "play", "card": "additional_ship"}])
    assert state.to_move() == CHANCE and {"type": "deal", "ship": "ship-akagi"} in state.legal_actions()
    state = apply_all(state, [{"type": "deal", "ship": "ship-akagi"}])  # a 3-point carrier into 3 mine hits
    assert table(state)["sunk"][1] == ["ship-scheer", "ship-akagi"]
    state = pass_turn(state)  # seat 0
    state = apply_all(state, [{"type": "draw", "card": "additional_ship"}, {"type": "play", "card": "additional_ship"},
                              {"type": "deal", "ship": "ship-gneisenau"}])
    assert fleet(state, 1)["ship-gneisenau"]["hits"] == 0


def test_smoke_blocks_minefields_and_torpedo_boats_but_not_submarines():
    state = black(in_normal_turns(), "smoke")  # seat 0
    state = apply_all(state, [{"type": "draw", "card": "minefield-1"}])
    assert {"type": "play", "card": "minefield-1", "fleet": 0} not in state.legal_actions()
    state = apply_all(state, [{"type": "play", "card": "minefield-1", "fleet": 2}])
    state = apply_all(state, [{"type": "draw", "card": "torpedo_boat"}])  # seat 2
    assert not targets(state) & set(fleet(state, 0))
    state = apply_all(state, [{"type": "play", "card": "torpedo_boat", "ship": "ship-yamato"}, {"type": "die", "value": 5}])
    state = apply_all(state, [{"type": "draw", "card": "submarine"}])  # seat 3
    assert "ship-nelson" in targets(state)
    assert "ship-shokaku" not in targets(state), "Decision: the screen applies to submarines"
    state = apply_all(state, [{"type": "play", "card": "submarine", "ship": "ship-nelson"}, {"type": "die", "value": 5}])
    assert table(state)["sunk"][3] == ["ship-nelson"]
    assert "ship-yamato" in fleet(state, 1), "a torpedo boat needs a 6"


def test_torpedo_boat_sinks_on_six_submarine_misses_on_four():
    state = red(in_normal_turns(), "torpedo_boat", ship="ship-bismarck")
    state = apply_all(state, [{"type": "die", "value": 6}])
    assert table(state)["sunk"][0] == ["ship-bismarck"]
    state = red(state, "submarine", ship="ship-iowa")
    state = apply_all(state, [{"type": "die", "value": 4}])
    assert "ship-iowa" in fleet(state, 2) and table(state)["discard"]["submarine"] == 1


def test_additional_ship_takes_a_harbour_ship_and_is_discarded_when_the_harbour_is_empty():
    fleets = [["ship-nelson", "ship-hood", "ship-warspite", "ship-rodney", "ship-renown"],
              ["ship-yamato", "ship-musashi", "ship-lutzow", "ship-repulse", "ship-scheer"]]
    kept = {s for f in fleets for s in f} | {"ship-akagi"}
    from companion.games.navalwar.data import default_composition
    counts = {s.id: 0 for s in default_composition().ships if s.id not in kept}
    state = in_normal_turns(2, fleets=fleets, deck={"counts": counts})
    state = red(state, "additional_ship")
    assert state.legal_actions() == [{"type": "deal", "ship": "ship-akagi"}]
    state = apply_all(state, [{"type": "deal", "ship": "ship-akagi"}])
    assert "ship-akagi" in fleet(state, 0)
    state = apply_all(state, [{"type": "draw", "card": "additional_ship"}])
    assert state.legal_actions() == [{"type": "discard", "card": "additional_ship"}], "Decision: empty harbour"


# --- black cards --------------------------------------------------------------------

def test_minesweeper_clears_every_minefield_in_front_of_own_fleet_with_their_hits():
    state = red(in_normal_turns(), "minefield-2", fleet=1)
    state = after_black_draw(state)  # seat 1
    assert {"type": "play", "card": "minesweeper"} in state.legal_actions()
    state = apply_all(state, [{"type": "play", "card": "minesweeper"}])
    assert state.view(None)["fleets"][1]["minefields"] == []
    assert all(s["hits"] == 0 for s in fleet(state, 1).values())
    state = after_black_draw(state)  # seat 2 has no minefield: no sweeping
    assert {"type": "play", "card": "minesweeper"} not in state.legal_actions()


def test_repair_removes_one_salvo_with_its_additional_damage_from_an_own_ship():
    state = black(in_normal_turns(), "salvo-16-2", ship="ship-iowa")  # seat 0
    state = pass_turn(state)
    state = after_black_draw(state)  # seat 2
    assert {a.get("ship") for a in state.legal_actions() if a["type"] == "play" and a["card"] == "repair"} == {"ship-iowa"}
    state = apply_all(state, [{"type": "play", "card": "repair", "ship": "ship-iowa", "salvo": 0}])
    assert fleet(state, 2)["ship-iowa"]["hits"] == 0
    assert table(state)["discard"] == {"salvo-16-2": 1, "repair": 1, "salvo-14-1": 1}


def test_repair_takes_the_additional_damage_along():
    state = black(in_normal_turns(), "salvo-16-2", ship="ship-iowa")  # seat 0
    state = red(state, "additional_damage-2", ship="ship-iowa", salvo=0)  # seat 1: 4/7
    state = black(state, "repair", ship="ship-iowa", salvo=0)  # seat 2
    assert fleet(state, 2)["ship-iowa"]["salvos"] == []
    assert table(state)["discard"]["additional_damage-2"] == 1


def test_smoke_lasts_until_its_owners_next_turn():
    state = black(in_normal_turns(), "smoke")  # seat 0
    assert state.view(None)["fleets"][0]["smoke"]
    state = after_black_draw(state)  # seat 1
    assert not targets(state) & set(fleet(state, 0)), "salvos are blocked by smoke"
    state = apply_all(state, [{"type": "discard", "card": "salvo-14-1"}])
    state = pass_turn(pass_turn(state))
    assert not state.view(None)["fleets"][0]["smoke"], "lifted as seat 0's turn begins"
    assert table(state)["discard"]["smoke"] == 1


def test_an_unplayable_red_card_is_discarded():
    state = black(in_normal_turns(2), "smoke")  # seat 0 hides; seat 1 draws a torpedo boat
    state = apply_all(state, [{"type": "draw", "card": "torpedo_boat"}])
    assert state.legal_actions() == [{"type": "discard", "card": "torpedo_boat"}]


def test_two_surviving_squadrons_both_attack_in_their_owners_turn():
    state = black(in_normal_turns(), "destroyer_squadron")  # seat 0
    state = pass_turn(pass_turn(state))
    data = state.to_json()  # seat 0 had put a second squadron in the middle earlier
    data["table"]["squadrons"].append({"n": 2, "owner": 0, "hits": []})
    data["table"]["seen"]["destroyer_squadron"] = 2
    data["table"]["draw"] -= 1  # played from the hand, which was refilled
    state = pass_turn(GAME.state_from_json(data))  # seat 3
    state = apply_all(state, [{"type": "attack", "fleet": 2}, {"type": "die", "value": 1}, {"type": "sink", "ship": "ship-iowa"}])
    assert state.view(None)["waiting"] == {"kind": "squadron", "n": 2} and state.to_move() == 0
    state = apply_all(state, [{"type": "attack", "fleet": 3}, {"type": "die", "value": 2}, {"type": "sink", "ship": "ship-roma"}, {"type": "sink", "ship": "ship-kongo"}])
    assert table(state)["sunk"][0] == ["ship-iowa", "ship-roma", "ship-kongo"]
    assert state.view(None)["squadrons"] == [] and state.view(None)["seat"] == 1


def test_additional_damage_respects_the_screen_of_a_ship_that_joined_the_carrier_later():
    # docs/rules.md: the carrier screen covers every attack, also a carrier hit while
    # alone and screened again by a ship that joined its fleet later
    state = black(in_normal_turns(), "destroyer_squadron")  # seat 0
    state = pass_turn(pass_turn(pass_turn(state)))
    state = apply_all(state, [{"type": "attack", "fleet": 1}, {"type": "die", "value": 4}, {"type": "sink", "ship": "ship-yamato"}, {"type": "sink", "ship": "ship-hyuga"},
                              {"type": "sink", "ship": "ship-lutzow"}, {"type": "sink", "ship": "ship-repulse"}])
    state = pass_turn(state)  # seat 1: the Enterprise alone
    state = black(state, "salvo-16-1", ship="ship-enterprise")  # seat 2: exposed, 1/3
    state = pass_turn(pass_turn(state))  # seats 3 and 0
    state = apply_all(state, [{"type": "draw", "card": "additional_ship"}, {"type": "play", "card": "additional_ship"},
                              {"type": "deal", "ship": "ship-musashi"}])  # seat 1: the Musashi screens it again
    state = apply_all(state, [{"type": "draw", "card": "additional_damage-2"}])  # seat 2
    assert "ship-enterprise" not in targets(state), "the screen covers additional damage too"
    assert state.legal_actions() == [{"type": "discard", "card": "additional_damage-2"}]
