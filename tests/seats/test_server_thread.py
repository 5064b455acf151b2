"""The server on its own thread and loop, the game on another (as in the app)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import time
from pathlib import Path

import aiohttp
import pytest

from companion import i18n
from companion.games.uttt.controller import UtttController
from companion.seats.claims import Claims
from companion.seats.room import Room
from companion.seats import server as seats_server
from companion.seats.server import SeatServer, SeatsError
from tests.seats.thread import GameThread
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


def test_a_busy_port_is_tried_again_until_it_is_free(game):
    """Issue 29, 7: the phones' server gave up for good when its port was busy at start."""
    thread, room = game
    first = SeatServer(room, thread.marshal, "127.0.0.1", 0)
    first.start()
    second = SeatServer(room, thread.marshal, "127.0.0.1", first.port, retry_s=0.1)
    try:
        second.start()  # returns: it goes on trying
        assert not second.listening.is_set()
        assert re.search(r"waits for 127.0.0.1:\d+ \(another program uses the port\); trying again every 0.1 s", second.problem)
        assert second.problem_in("ja") == f"電話用のサーバーは127.0.0.1:{first.port}を待っています（ポートを別のプログラムが使用中）。0.1秒ごとに試し直します"
        first.stop()
        # No time limit of its own (the suite's timeout is the net): on a busy machine the
        # retry may take long, but it must come (issue 41, 8: first.stop() was lost, and the
        # port never freed, when it came between two runs of the server's loop).
        assert second.listening.wait() and second.problem is None and second.problem_in("ja") is None

        async def phone():
            url = f"http://127.0.0.1:{second.port}"
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/ws", headers={"Origin": url}) as ws:
                return (await ws.receive_json())["type"]

        assert asyncio.run(phone()) == "welcome"
    finally:
        first.stop()
        second.stop()


def test_a_stop_right_after_the_start_ends_the_server(game, monkeypatch):
    """Issue 41, 8: a stop() that came before the server's loop ran on after its first try was
    lost: the server went on listening and the busy-port test's retry never got the port."""
    thread, room = game
    first_try = SeatServer._listen

    async def held_off_after_the_first_try(self, *args):
        await first_try(self, *args)
        time.sleep(0.5)  # the thread off the CPU, as on a loaded machine: start() has returned

    monkeypatch.setattr(SeatServer, "_listen", held_off_after_the_first_try)
    server = SeatServer(room, thread.marshal, "127.0.0.1", 0)
    server.start()
    serving, port = server._thread, server.port
    server.stop()  # while its thread is held
    serving.join(30)
    assert not serving.is_alive()
    with socket.socket() as probe:  # the port is free again
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
        probe.listen()


def test_an_address_no_waiting_mends_is_a_clear_error(game):
    thread, room = game
    with pytest.raises(SeatsError) as refused:
        SeatServer(room, thread.marshal, "no-such-host.invalid", 0).start()
    for lang, says, not_said in (("ja", "待ち受けできません", "cannot listen"), ("en", "cannot listen on", "待ち受け")):
        text = i18n.said(refused.value, lang)  # as the home screen's notice says it
        assert says in text and not_said not in text and "no-such-host.invalid:" in text and "seats.host" in text


@pytest.mark.skipif(not socket.has_ipv6 or not Path("/proc/net/if_inet6").exists(), reason="no IPv6 here")
def test_every_address_is_listened_on_ipv6_too(game):
    thread, room = game
    from tests.seats.browser import free_port

    server = SeatServer(room, thread.marshal, "", free_port())  # port 0 would be one port per family
    server.start()
    try:
        async def phone(host):
            url = f"http://{host}:{server.port}"
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/ws", headers={"Origin": url}) as ws:
                return (await ws.receive_json(timeout=2))["type"]

        assert asyncio.run(phone("127.0.0.1")) == asyncio.run(phone("[::1]")) == "welcome"
    finally:
        server.stop()


def test_half_open_requests_are_capped_per_address_and_dropped(game, monkeypatch):
    """Issue 25, 3: 1,100 half-open requests were held for good and ran the table out of files."""
    monkeypatch.setattr(seats_server, "KEEPALIVE_S", 0.5)
    thread, room = game
    server = SeatServer(room, thread.marshal, "127.0.0.1", 0)
    server.start()
    per = server.connections.pool.per

    async def attack():
        half = []
        for _ in range(per + 12):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
            half.append((reader, writer))
        await asyncio.sleep(0.2)
        closed_at_once = sum(await asyncio.gather(*[_closed(reader) for reader, _ in half]))
        url = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/ws", headers={"Origin": url}) as ws:
            welcome = (await ws.receive_json(timeout=2))["type"]  # another address is not held up
        await asyncio.sleep(1.0)
        closed_later = sum(await asyncio.gather(*[_closed(reader) for reader, _ in half]))
        for _, writer in half:
            writer.close()
        return closed_at_once, welcome, closed_later

    try:
        closed_at_once, welcome, closed_later = asyncio.run(attack())
    finally:
        server.stop()
    assert closed_at_once == 12 and welcome == "welcome"
    assert closed_later == per + 12  # aiohttp's keepalive timeout dropped the rest


async def _closed(reader) -> bool:
    try:
        return await asyncio.wait_for(reader.read(), 0.05) == b"" or reader.at_eof()
    except asyncio.TimeoutError:
        return False
    except ConnectionError:
        return True
