"""九九戦艦 over the phones' protocol: a move its rules refuse is raised like every game's
refusal, and the room answers the phone with the rules' own words (nothing changed,
no "done", no display read again to find a notice)."""

from __future__ import annotations

import random

import pytest

from companion.games.kuku.controller import KukuController
from companion.play.controller import TABLE
from companion.seats.claims import Claims
from companion.seats.room import Room
from tests.seats.test_protocol import seated

pytestmark = pytest.mark.asyncio


@pytest.fixture
def table(store):
    controller = KukuController.open(store, rng=random.Random(5))
    room = Room(Claims(store))
    room.attach(controller)
    controller.act(TABLE, "start", ["Aki", "Ben"])
    return controller, room


async def test_a_phone_told_why_the_rules_refuse_its_move_in_their_words(phones, table):
    controller, room = table
    phone, _ = await seated(phones, room, 0)
    assert controller.stage() == "place" and controller.private == 0  # its seat places on the phone
    place = {"type": "place", "kind": "leader", "cell": "9×4"}
    await phone.send({"type": "act", "id": 1, "kind": "move", "value": place})
    await phone.next("done")
    actions = list(controller.session.actions)
    await phone.send({"type": "act", "id": 2, "kind": "move", "value": place | {"kind": "normal"}})
    refused = await phone.next("refused")
    assert refused == {"type": "refused", "code": "not_now", "id": 2, "text": "you already have a ship on 9×4"}
    assert controller.session.actions == actions
    assert [m["type"] for m in phone.received[-1:]] == ["refused"]  # no display nor "done" before it
