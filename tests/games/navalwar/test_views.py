"""Naval War: the table view, the conservation check catching mistakes, refusals that say why."""

import json

import pytest
from .test_support import DRAW, GAME, black, in_normal_turns, red, table

from companion import i18n
from companion.play.state import Refused
from companion.games.navalwar.data import default_composition, reduced_counts
from companion.games.navalwar.rules import card_conservation


def test_the_table_view_shows_fleets_badges_minefields_smoke_squadrons_piles_and_scores():
    state = black(in_normal_turns(), "salvo-16-3", ship="ship-yamato")  # seat 0
    state = red(state, "minefield-1", fleet=2)  # seat 1
    state = black(state, "destroyer_squadron")  # seat 2
    state = black(state, "smoke")  # seat 3
    view = state.view(None)
    json.dumps(view, ensure_ascii=False)
    yamato = next(s for s in view["fleets"][1]["ships"] if s["id"] == "ship-yamato")
    assert yamato["hits"] == 3 and yamato["defence"] == 9 and yamato["calibre"] == "18"
    assert yamato["salvos"] == [{"card": "salvo-16-3", "extra": [], "hits": 3}]
    assert view["fleets"][2]["minefields"] == [{"card": "minefield-1", "by": 1}]
    assert all(s["hits"] == 1 for s in view["fleets"][2]["ships"])
    assert view["fleets"][3]["smoke"] and view["fleets"][0]["hand"] == 5
    assert view["squadrons"] == [{"n": 1, "owner": 2, "hits": [], "strikes_on_turn_of": 2}]
    assert view["piles"] == {"harbour": 34, "draw": 84, "discard": 0}
    assert view["discard"] == {"unseen": 0}
    assert view["round_points"] == [0, 0, 0, 0] and view["totals"] == [0, 0, 0, 0]
    assert view["history"] == [] and view["to_move"] == 0 and view["waiting"] == {"kind": "choose"}


def test_conservation_check_finds_a_card_in_two_places_or_lost():
    state = black(in_normal_turns(), "salvo-16-3", ship="ship-yamato")
    assert card_conservation(state) == []
    data = state.to_json()
    data["table"]["fleets"][2].append({"id": "ship-yamato", "salvos": []})
    assert "ship cards out of place" in card_conservation(GAME.state_from_json(data))[0]
    data = state.to_json()
    data["table"]["discard"]["salvo-16-3"] = 1
    assert card_conservation(GAME.state_from_json(data))
    data = state.to_json()
    data["table"]["draw"] += 1
    assert any("hidden" in p for p in card_conservation(GAME.state_from_json(data)))


def test_a_refused_action_says_why_and_changes_nothing():
    state = in_normal_turns()
    before = state.to_json()
    with pytest.raises(Refused, match="not allowed now") as err:
        state.apply({"type": "play", "card": "salvo-16-3", "ship": "ship-yamato"})  # must draw first
    assert "choose" in str(err.value)
    assert state.to_json() == before
    for junk in [True, {"type": "die", "value": True}, {"type": "first", "seat": 1.0}]:
        with pytest.raises(Refused):
            state.apply(junk)


def test_chance_values_are_kept_canonical():
    state = in_normal_turns(3)
    state = state.apply(DRAW).apply({"type": "draw", "card": "submarine"}).apply(
        {"type": "play", "card": "submarine", "ship": "ship-yamato"})
    assert state.apply({"type": "die", "value": 6.0}).to_json() == state.apply({"type": "die", "value": 6}).to_json()


def test_torpedo_boat_respects_the_carrier_screen():
    state = in_normal_turns().apply(DRAW).apply({"type": "draw", "card": "torpedo_boat"})
    ships = {a["ship"] for a in state.legal_actions()}
    assert "ship-enterprise" not in ships and "ship-hyuga" in ships
    state = state.apply({"type": "play", "card": "torpedo_boat", "ship": "ship-hyuga"}).apply({"type": "die", "value": 6})
    assert table(state)["sunk"][0] == ["ship-hyuga"] and table(state)["discard"] == {"torpedo_boat": 1}


@pytest.mark.parametrize("options, key", [({"players": 10}, "navalwar.error.players"),
                                          ({"target": 0}, "navalwar.error.target"),
                                          ({"deck": {"counts": {"smoke": -1}}}, "navalwar.error.deck"),
                                          ({"players": 9, "deck": {"counts": reduced_counts(default_composition(), 8)}},
                                           "navalwar.error.too_few")])
def test_refusals_are_message_keys_in_both_languages(options, key):
    with pytest.raises(Refused) as refused:
        GAME.new_state(options)
    assert refused.value.key == key and isinstance(refused.value, ValueError)
    ja = i18n.translate(key, "ja", **refused.value.params)
    assert ja != key and "ネイバルウォー" in ja and str(refused.value).startswith("Naval War")
    over = GAME.new_state({"players": 3, "target": 1})
    with pytest.raises(Refused) as refused:
        over.apply({"type": "die", "value": 1})
    assert refused.value.key == "navalwar.error.not_now" and refused.value.params["waiting"] == "first"
    assert "今は" in i18n.translate(refused.value.key, "ja", **refused.value.params)
