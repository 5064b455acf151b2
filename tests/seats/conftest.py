"""A table with an Ultimate Tic-Tac-Toe game, its room, and phones speaking the protocol."""

from __future__ import annotations

import json

import pytest
from aiohttp import WSMsgType

from companion.games.uttt.controller import UtttController
from companion.seats.claims import Claims
from companion.seats.room import Room
from companion.seats.server import call_inline, make_app
from companion.store import Store


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, driven by Playwright (one per test module)."""
    from tests.seats.browser import ARGS, CHROMIUM
    api = pytest.importorskip("playwright.sync_api")
    with api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def served_uttt(tmp_path):
    """A UTTT table served over HTTP on a free port, as the app serves its phones."""
    from tests.seats.browser import Table
    table = Table(tmp_path, UtttController.open)
    yield table
    table.stop()


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "companion.db") as s:
        yield s


@pytest.fixture
def table(store):
    controller = UtttController.open(store)
    room = Room(Claims(store))
    room.attach(controller)
    return controller, room


class Phone:
    """One phone's WebSocket; `received` keeps every message, in order."""

    def __init__(self, ws):
        self.ws = ws
        self.received: list[dict] = []

    async def send(self, message) -> None:
        await (self.ws.send_str(message) if isinstance(message, str) else self.ws.send_json(message))

    async def next(self, type_: str | None = None, timeout: float = 2.0) -> dict:
        """The next message (of `type_`, skipping others and beats)."""
        while True:
            frame = await self.ws.receive(timeout=timeout)
            if frame.type is WSMsgType.PING:  # a phone that answers no pings (autoping=False) still hears them
                continue
            assert frame.type is WSMsgType.TEXT, f"a {frame.type.name} frame, not a message: {frame.data!r}"
            message = json.loads(frame.data)
            self.received.append(message)
            if message["type"] not in ("beat", "welcome") and (type_ is None or message["type"] == type_):
                return message

    async def ask(self, message, type_: str | None = None) -> dict:
        await self.send(message)
        return await self.next(type_)


@pytest.fixture
def phones(aiohttp_client, table):
    """`await phones()` → a new phone connected with the page's Origin."""
    controller, room = table
    clients = []

    async def connect(origin: str | None = "same", **app_kw) -> Phone:
        if not clients:
            clients.append(await aiohttp_client(make_app(room, call_inline, **app_kw)))
        client = clients[0]
        headers = {"Origin": f"http://{client.host}:{client.port}"} if origin == "same" else (
            {"Origin": origin} if origin else {})
        return Phone(await client.ws_connect("/ws", headers=headers))

    connect.client = lambda: clients[0]
    return connect
