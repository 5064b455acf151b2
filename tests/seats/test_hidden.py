"""A hidden-information game over the phones' protocol: a refereed 九九戦艦 game whose
fleets are placed and attacks chosen on two phones.  Every frame each phone receives is
checked to hold none of the other seat's ships, while its own are there."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.kuku.controller import KukuController
from companion.play.controller import TABLE, Refused, Text
from companion.seats.claims import Claims
from companion.seats.room import Room
from tests.seats.test_protocol import seated

pytestmark = pytest.mark.asyncio
FLEETS = {0: ("9×9", ["1×1", "5×5"]), 1: ("2×1", ["3×8", "7×7"])}


@pytest.fixture
def table(store):
    controller = KukuController.open(store, rng=random.Random(7))
    room = Room(Claims(store))
    room.attach(controller)
    controller.act(TABLE, "choose", {"opponent": "2p"})
    controller.act(TABLE, "start", ["Aki", "Ben"])
    return controller, room


async def act(phone, seq, kind, value=None):
    await phone.send({"type": "act", "id": seq, "kind": kind, "value": value})
    answer = await phone.next("done")
    assert answer["id"] == seq


async def test_two_phones_place_and_attack_and_hear_no_secret_of_the_other(phones, table):
    controller, room = table
    assert controller.stage() == "cover"
    seat_phones = {seat: (await seated(phones, room, seat))[0] for seat in (0, 1)}
    seq = 0
    for seat, (leader, normals) in FLEETS.items():
        with pytest.raises(Refused):  # a seat held by a phone: the table's cover stays shut
            controller.act(TABLE, "open")
        assert controller.display(TABLE)["cover"] == [Text("seats.on_phone", {"player": name})
                                                      for name in ["Aki", "Ben"][seat:]]  # those still placing
        phone = seat_phones[seat]
        assert controller.stage_of(seat) == "place"  # it places on its phone at once: no cover to open there
        assert controller.display(TABLE)["stage"] == "cover"  # the table stays covered
        assert controller.holder() == TABLE and controller.display(TABLE)["board"]["fleet"] == []
        with pytest.raises(Refused):  # nor may the table place for it
            controller.act(TABLE, "cell", "4×4")
        for kind, value in [("kind", "leader"), ("cell", leader)] + [("cell", n) for n in normals]:  # nothing to hide
            seq += 1
            await act(phone, seq, kind, value)
    assert controller.stage() == "play"
    secrets = {seat: controller.session.state.secrets(seat) for seat in (0, 1)}
    assert all(len(tokens) == 3 for tokens in secrets.values())

    for target in ["4×4", "6×6", "8×8", "2×2"]:  # each seat attacks from its phone; the table continues
        mover = controller.session.state.to_move()
        for _ in range(2):  # aim, then attack
            seq += 1
            await act(seat_phones[mover], seq, "cell", target)
        controller.act(TABLE, "continue")

    for seat, phone in seat_phones.items():
        await phone.ask({"type": "ping"}, "pong")  # everything sent so far has arrived
        displays = [m for m in phone.received if m["type"] == "display"]
        assert displays and all(m["seat"] == seat for m in displays)
        text = json.dumps(phone.received, ensure_ascii=False)
        for secret in secrets[1 - seat]:
            assert secret not in text, f"seat {seat} was told {secret}"
        assert set(secrets[seat]) <= set(displays[-1]["model"]["board"]["fleet"])  # its own fleet, always
