"""軍艦将棋 over the phones' protocol, judging "seesaw" without a sensor: each phone taps
its own side's buttons (the attacker attacks and says whether the counterweight is on,
the defender declares), a seat may not act for the other (refused, saying it is the
other's to do) and the seesaw's result is still entered on the table."""

from __future__ import annotations

import json

import pytest

from companion.games.gunkan.controller import GunkanController
from companion.play.controller import TABLE
from companion.seats.claims import Claims
from companion.seats.room import Room
from tests.seats.test_battleship_phones import Acts
from tests.seats.test_protocol import seated

pytestmark = pytest.mark.asyncio


@pytest.fixture
def table(store):
    controller = GunkanController.open(store)
    controller.act(TABLE, "mode", "seesaw")
    room = Room(Claims(store))
    room.attach(controller)
    return controller, room


async def test_each_phone_plays_its_own_side_of_a_battle_and_the_table_judges(phones, table):
    controller, room = table
    red, blue = (await seated(phones, room, 0))[0], (await seated(phones, room, 1))[0]
    act = Acts()
    await blue.ask({"type": "ping"}, "pong")  # every display so far has come
    offered = [m for m in blue.received if m["type"] == "display"][-1]["model"]["offers"]
    assert [(o["kind"], o["seat"], o["choices"]) for o in offered] == [("attack", 1, [1])]  # its own side only

    refused = await act(blue, "attack", 0, answer="refused")  # blue may not start red's attack
    assert refused["code"] == "not_now" and refused["text"] == "That is the other player's to do now"
    await act(red, "attack", 0)
    assert controller.state.phase == "declare" and controller.state.current.attacker == 0

    refused = await act(red, "declare", "ship", answer="refused")  # the defender declares, not the attacker
    assert refused["text"] == "That is the other player's to do now"
    await act(blue, "declare", "ship")
    assert controller.state.phase == "counterweight"
    assert (await act(blue, "counterweight", "off", answer="refused"))["code"] == "not_now"
    await act(red, "counterweight", "off")
    assert controller.state.phase == "weigh"

    refused = await act(red, "weighed", "attacker_heavier", answer="refused")  # the seesaw is the table's
    assert refused["text"] == "Not now"
    controller.act(TABLE, "weighed", "attacker_heavier")
    battle = controller.state.battles[-1]
    assert (battle.attacker, battle.declared, controller.state.phase) == (0, "ship", "idle")
    assert battle.verdict

    for seat, phone in {0: red, 1: blue}.items():
        await phone.ask({"type": "ping"}, "pong")
        displays = [m for m in phone.received if m["type"] == "display"]
        assert all(m["seat"] == seat for m in displays)
        assert all(o["seat"] in (None, seat) for m in displays for o in m["model"]["offers"])
        text = json.dumps(phone.received, ensure_ascii=False)
        for secret in controller.state.secrets(1 - seat):
            assert secret not in text
