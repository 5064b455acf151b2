"""The server on its own thread and loop, the game on another (as in the app)."""

from __future__ import annotations

import asyncio
import json
import threading

import aiohttp
import pytest

from companion.games.uttt.controller import UtttController
from companion.seats.claims import Claims
from companion.seats.room import Room
from companion.seats.server import SeatServer, SeatsError
from companion.seats.thread import GameThread
from companion.store import Store


@pytest.fixture
def game(tmp_path):
    thread = GameThread()

    def open_table():
        store = Store(tmp_path / "companion.db")
        room = Room(Claims(store))
        room.attach(UtttController.open(store))
        return store, room

    store, room = thread.call(open_table)
    yield thread, room
    thread.call(store.close)
    thread.stop()


def test_frames_reach_the_game_only_on_its_thread(game):
    thread, room = game
    seen = []
    handle = room.handle
    room.handle = lambda link, message: seen.append(threading.current_thread().name) or handle(link, message)
    server = SeatServer(room, thread.marshal, "127.0.0.1", 0, beat_s=0.2)
    server.start()
    try:
        async def phone():
            url = f"http://127.0.0.1:{server.port}"
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/ws", headers={"Origin": url}) as ws:
                assert (await ws.receive_json(timeout=2))["type"] == "welcome"
                await ws.send_str(json.dumps({"type": "claim", "room": room.token, "seat": 0}))
                return [(await ws.receive_json(timeout=2))["type"] for _ in range(3)]

        assert asyncio.run(phone()) == ["claimed", "joined", "display"]
    finally:
        server.stop()
    assert seen == ["game"]
    assert thread.call(room.claimed) == {0: False}  # the phone left; its claim stays


def test_a_port_in_use_is_a_clear_error(game):
    thread, room = game
    first = SeatServer(room, thread.marshal, "127.0.0.1", 0)
    first.start()
    try:
        with pytest.raises(SeatsError, match=r"cannot listen on 127.0.0.1:\d+.*seats.port"):
            SeatServer(room, thread.marshal, "127.0.0.1", first.port).start()
    finally:
        first.stop()
