"""Battleship over the phones' protocol: a seat held by a phone places its fleet and
shoots there (the table shows only "placing on their phone n/5" and never that
fleet, and may not act for the seat), and no frame a phone receives holds a cell of
the other seat's fleet."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.battleship.controller import BattleshipController
from companion.games.battleship.fleet import index
from companion.play.controller import TABLE, Refused
from companion.seats.claims import Claims
from companion.seats.room import Room
from tests.seats.test_protocol import seated

pytestmark = pytest.mark.asyncio
FLEETS = {0: [("carrier", "A1", "h"), ("battleship", "C1", "h"), ("cruiser", "E1", "h"), ("submarine", "G1", "h"),
              ("destroyer", "I1", "h")],
          1: [("carrier", "A6", "v"), ("battleship", "A8", "v"), ("cruiser", "H1", "h"), ("submarine", "J1", "h"),
              ("destroyer", "J8", "h")]}


TRACKER = {"opponent": "tracker", "variant": "standard", "advanced": False, "first": 0, "level": "normal"}


@pytest.fixture
def table(store, request):
    """A refereed game (a test may ask for other choices with an indirect parameter)."""
    controller = BattleshipController.open(store, rng=random.Random(5), setup=getattr(request, "param", None))
    room = Room(Claims(store))
    room.attach(controller)
    controller.act(TABLE, "start")
    return controller, room


class Acts:
    def __init__(self):
        self.seq = 0

    async def __call__(self, phone, kind, value=None, answer="done"):
        self.seq += 1
        await phone.send({"type": "act", "id": self.seq, "kind": kind, "value": value})
        return await phone.next(answer)


async def test_phones_place_and_shoot_and_the_table_never_holds_their_fleets(phones, table):
    controller, room = table
    seat_phones = {seat: (await seated(phones, room, seat))[0] for seat in (0, 1)}
    act = Acts()
    assert controller.stage() == "play" and controller.holder() == TABLE  # no cover: each places on its phone
    for seat, fleet in FLEETS.items():
        phone = seat_phones[seat]
        with pytest.raises(Refused):  # the table may not place for a phone's seat
            controller.act(TABLE, "cell", 0)
        for n, (ship, cell, direction) in enumerate(fleet):
            status = controller.display(TABLE)["status"][0]
            assert status.key == "battleship_ui.phone_placing" and status.params["n"] == n
            if controller.desks[seat].direction != direction:
                await act(phone, "rotate")
            await act(phone, "ship", ship)
            await act(phone, "cell", index(cell))
        assert controller.display(TABLE).get("fleet") is None
    refused = await act(seat_phones[0], "undo", answer="refused")  # seat 1 began: seat 0's fleet stands
    assert refused["code"] == "not_now"
    assert controller.session.state.phase == "shoot"

    for target in ["A6", "J10", "A1"]:  # each phone aims and fires (two taps); either phone goes on
        mover = controller.session.state.to_move()
        await act(seat_phones[mover], "cell", index(target))
        await act(seat_phones[mover], "fire")
        assert controller.stage() == "result"
        await act(seat_phones[1 - mover], "continue")

    secrets = {seat: controller.session.state.secrets(seat) for seat in (0, 1)}
    for seat, phone in seat_phones.items():
        await phone.ask({"type": "ping"}, "pong")
        displays = [m for m in phone.received if m["type"] == "display"]
        text = json.dumps(phone.received, ensure_ascii=False)
        for secret in secrets[1 - seat]:
            assert secret not in text, f"seat {seat} was told {secret}"
        model = displays[-1]["model"]
        assert {cell for ship in model["fleet"] for cell in ship["cells"]} >= set(secrets[seat])
        assert len(model["own_sea"]) == 100


async def test_a_phone_takes_back_its_own_last_ship_until_the_other_begins(phones, table):
    controller, room = table
    red, _ = await seated(phones, room, 0)
    act = Acts()
    await act(red, "cell", 0)
    model = controller.display(0)
    assert model["can_undo"] and model["place"]["to_place"][0] == "battleship"
    assert not controller.display(TABLE)["can_undo"]  # nor the table for it
    await act(red, "undo")
    assert controller.session.state.fleets[0] == ()


@pytest.mark.parametrize("table", [TRACKER], indirect=True)
async def test_in_a_tracked_game_the_defenders_phone_answers_and_the_table_may_not(phones, table):
    controller, room = table
    blue, _ = await seated(phones, room, 1)  # the defender's phone; the shooter plays at the table
    act = Acts()
    controller.act(TABLE, "cell", index("A1"))
    controller.act(TABLE, "fire")
    assert controller.phase() == "answer"
    await blue.ask({"type": "ping"}, "pong")  # every display so far has come
    model = [m for m in blue.received if m["type"] == "display"][-1]["model"]
    answer = next(o for o in model["offers"] if o["kind"] == "answer")
    assert sorted(map(json.dumps, model["answers"])) == sorted(map(json.dumps, answer["choices"]))
    assert model["answers"][:3] == [  # by ship: its hit, then its sinking
        {"result": "miss"}, {"result": "hit", "ship": "carrier"}, {"result": "sunk", "ship": "carrier"}]
    assert model["answer_labels"][:3] == ["Miss", "Hit: Carrier", "Carrier sunk"]
    table = controller.display(TABLE)
    assert table["answering"] and table["answers"] == [] and table["answer_labels"] == []  # no pad on the table
    with pytest.raises(Refused):
        controller.act(TABLE, "answer", {"result": "miss"})

    refused = await act(blue, "answer", {"result": "sunk", "ship": "destroyer"}, answer="refused")  # one hit sinks none
    assert refused["code"] == "not_now" and "impossible" in refused["text"]
    assert controller.phase() == "answer"
    await act(blue, "answer", {"result": "hit", "ship": "carrier"})
    assert controller.phase() == "shoot" and controller.session.state.to_move() == 1
    assert controller.session.actions[-1] == {"type": "answer", "result": "hit", "ship": "carrier"}
    late = await act(blue, "answer", {"result": "miss"}, answer="refused")  # nothing to answer now
    assert late["code"] == "not_now"
