"""A game folder made at run time (tests/data/nim/) is played from a phone with nothing outside
it naming it: the page loads its renderer and its words, a seat gets its display and acts."""

import re
import shutil

import pytest

from companion.seats.claims import Claims
from companion.seats.room import Room
from tests.test_game_folders import NIM

pytestmark = pytest.mark.asyncio


@pytest.fixture
def table(store, game_folders):
    shutil.copytree(NIM, game_folders / "nim")
    from companion.games.nim.controller import NimController

    controller = NimController.open(store)
    room = Room(Claims(store))
    room.attach(controller)
    return controller, room


async def test_a_new_games_phone_page_its_words_and_a_seat_that_takes(phones, table):
    controller, room = table
    phone = await phones()
    client = phones.client()
    page = await (await client.get("/")).text()
    assert "games/nim.js" in re.findall(r'src="([^"]+)"', page)
    assert "renderers.nim = " in await (await client.get("/games/nim.js")).text()
    assert (await (await client.get("/strings.json?lang=ja")).json())["nim_phone.take"] == "取る本数"
    await phone.ask({"type": "hello", "room": room.token, "lang": "ja"}, "seats")
    await phone.ask({"type": "claim", "room": room.token, "seat": 0}, "claimed")
    shown = await phone.next("display")
    assert shown["kind"] == "nim" and shown["model"]["status"] == "残り 7 本"
    assert shown["model"]["offers"][0]["choices"] == [1, 2, 3]
    await phone.send({"type": "act", "id": 1, "kind": "take", "value": 3})
    assert (await phone.next("done")) == {"type": "done", "id": 1}
    assert controller.session.state.heap == 4
