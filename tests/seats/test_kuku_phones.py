"""九九戦艦 over the phones' protocol: a move its rules refuse is raised like every game's
refusal, and the room answers the phone with the rules' own words (nothing changed,
no "done", no display read again to find a notice)."""

from __future__ import annotations

import random

import pytest

from companion.games.kuku.controller import KukuController
from companion.play.controller import TABLE, Text
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
    assert controller.stage_of(0) == "place" and controller.private is None  # its seat places on the phone
    place = {"type": "place", "kind": "leader", "cell": "9×4"}
    await phone.send({"type": "act", "id": 1, "kind": "move", "value": place})
    await phone.next("done")
    actions = list(controller.session.actions)
    await phone.send({"type": "act", "id": 2, "kind": "move", "value": place | {"kind": "normal"}})
    refused = await phone.next("refused")
    assert refused == {"type": "refused", "code": "not_now", "id": 2, "text": "you already have a ship on 9×4"}
    assert controller.session.actions == actions
    assert [m["type"] for m in phone.received[-1:]] == ["refused"]  # no display nor "done" before it


async def test_each_phone_is_told_what_its_own_screen_can_do(table):
    """Issue 42 item 5: a phone's board takes no taps (its keypad does), and a phone has no
    fleet to hide from anyone: no 「置けた（かくす）」, it waits for the other's fleet, saying
    so; the table's words stay as they were."""
    controller, room = table
    controller.hold_remote(frozenset({0, 1}))
    for seat, (leader, normals) in {0: ("9×9", ["1×1", "5×5"]), 1: ("2×1", ["3×8", "7×7"])}.items():
        for kind, cell in [("leader", leader)] + [("normal", cell) for cell in normals]:
            controller.act(seat, "move", {"type": "place", "kind": kind, "cell": cell})
        if seat == 0:
            model = controller.display(0)
            assert [o.kind for o in model["offers"]] == ["undo"]  # nothing to hide
            assert model["status"] == Text("kuku_ui.other_placing", {"player": "Ben"})
    assert controller.stage() == "play"
    mover = controller.session.state.to_move()
    assert controller.display(mover)["status"].key == "kuku_ui.to_attack_keys"  # 「キーでマス…」
    assert controller.display(1 - mover)["status"].key == "kuku_ui.to_attack_wait"
    assert controller.display(TABLE)["status"].key == "kuku_ui.to_attack_phone"
    controller.hold_remote(frozenset())
    assert controller.display(TABLE)["status"].key == "kuku_ui.to_attack"
