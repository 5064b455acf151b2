"""The phones' server: aiohttp HTTP + WebSocket on its own thread with its own loop.

It only carries frames: every frame is parsed, checked for size and shape, and handed
to the `Room` on the game's thread through `marshal(fn)` (in the app: Kivy's Clock;
in tests: a direct call), so the game and its store stay single-threaded.  What the
room sends back, and what it sends on its own after a change, goes out on the socket
in order.  Plain HTTP: phones refuse WebSockets to self-signed certificates.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable

from aiohttp import WSMsgType, web

from companion import i18n
from companion.errors import CompanionError
from companion.seats.room import LANGS, Link, Refusal, Room

STATIC = Path(__file__).resolve().parent / "static"
MAX_FRAME = 2048  # characters: every message a phone sends is far smaller
HARD_FRAME = 65536  # bytes: aiohttp closes the socket (1009) on anything larger
MAX_SOCKETS = 32  # at one table: more is someone's loop, refused before the game hears of it
log = logging.getLogger(__name__)

Marshal = Callable[[Callable[[], None]], None]


class SeatsError(CompanionError):
    """The phones' server could not start."""


def make_app(room: Room, marshal: Marshal, beat_s: float = 5.0, static: Path = STATIC) -> web.Application:
    """The aiohttp application; `marshal(fn)` runs `fn()` on the game's thread."""
    static = static.resolve()
    sockets: set = set()  # the open ones (on the server's loop only)

    async def on_game(fn, *args):
        """`fn(*args)` on the game's thread, awaited here."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def settle(method, value):
            if not future.done():
                getattr(future, method)(value)

        def run():
            try:
                result = fn(*args)
            except BaseException as error:  # noqa: BLE001  (handed back to the awaiting side)
                _hand_back(loop, settle, "set_exception", error)
            else:
                _hand_back(loop, settle, "set_result", result)

        marshal(run)
        return await future

    async def page(request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("path") or "index.html"
        target = (static / name).resolve()
        if not target.is_relative_to(static):
            return web.Response(status=403, text="refused: outside the phone page's folder\n")
        if not target.is_file():
            return web.Response(status=404, text="not found\n")
        return web.FileResponse(target, headers={"Cache-Control": "no-cache"})

    async def strings(request: web.Request) -> web.Response:
        lang = request.query.get("lang", "en")
        lang = lang if lang in LANGS else "en"
        return web.json_response({key: i18n.translate(f"seats.{key}", lang) for key in i18n.catalog("seats")},
                                 dumps=lambda v: json.dumps(v, ensure_ascii=False))

    async def socket(request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin != f"http://{request.host}":
            return web.Response(status=403, text=f"refused: foreign origin {origin!r}\n")
        if len(sockets) >= MAX_SOCKETS:
            return web.Response(status=503, text=f"refused: {MAX_SOCKETS} phones are connected already\n")
        ws = web.WebSocketResponse(max_msg_size=HARD_FRAME, heartbeat=max(beat_s * 2, 1.0))
        await ws.prepare(request)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def put(what: str, message: dict) -> None:  # from the game's thread
            _hand_back(loop, queue.put_nowait, (what, message))

        link = Link(send=lambda m: put("send", m), close=lambda m: put("close", m))
        writer = asyncio.create_task(_write(ws, queue))
        beats = asyncio.create_task(_beat(queue, beat_s))
        queue.put_nowait(("send", {"type": "welcome", "beat_s": beat_s}))
        await on_game(room.connect, link)
        sockets.add(ws)
        try:
            async for frame in ws:
                await _handle(frame, link, room, on_game)
        finally:
            sockets.discard(ws)
            beats.cancel()
            queue.put_nowait(("stop", None))
            try:  # bounded: while the app stops, its thread may no longer run what is handed to it
                await asyncio.wait_for(on_game(room.disconnect, link), 1.0)
                await writer
            except (asyncio.TimeoutError, asyncio.CancelledError):
                writer.cancel()
        return ws

    app = web.Application()
    app.router.add_get("/ws", socket)
    app.router.add_get("/strings.json", strings)
    app.router.add_get("/", page)
    app.router.add_get("/{path:.+}", page)
    return app


def _hand_back(loop: asyncio.AbstractEventLoop, fn, *args) -> None:
    """`fn(*args)` on the server's loop, from any thread; nothing once the server has stopped."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:  # the loop is closed: nobody waits any more
        pass


async def _handle(frame, link: Link, room: Room, on_game) -> None:
    """One frame: refused here when it is no JSON object of a sane size, else the room's."""
    if frame.type != WSMsgType.TEXT:
        if frame.type == WSMsgType.BINARY:
            link.send(Refusal("malformed").message(link.lang))
        return
    if len(frame.data) > MAX_FRAME:
        return link.send(Refusal("too_large").message(link.lang))
    try:
        message = json.loads(frame.data)
    except ValueError:
        message = None
    if not isinstance(message, dict):
        return link.send(Refusal("malformed").message(link.lang))
    try:
        await on_game(room.handle, link, message)
    except Exception:  # a fault of ours: the phone is told, the table goes on
        log.exception("seats: a frame could not be handled")
        link.send(Refusal("internal").message(link.lang))


async def _write(ws: web.WebSocketResponse, queue: asyncio.Queue) -> None:
    """Send what is queued, in order; a ("close", message) sends it and closes."""
    while True:
        what, message = await queue.get()
        if what == "stop":
            return
        try:
            if message is not None:
                await ws.send_str(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
            if what == "close":
                await ws.close()
        except (ConnectionError, RuntimeError):
            pass  # the phone is gone; the reader's end says so


async def _beat(queue: asyncio.Queue, beat_s: float) -> None:
    """A beat every `beat_s`: a phone that hears none for a while reconnects."""
    while True:
        await asyncio.sleep(beat_s)
        queue.put_nowait(("send", {"type": "beat"}))


class SeatServer:
    """`make_app` served on `host:port` from a thread of its own; `stop()` ends it."""

    def __init__(self, room: Room, marshal: Marshal, host: str, port: int, beat_s: float = 5.0):
        self.room, self.marshal, self.host, self.port, self.beat_s = room, marshal, host, port, beat_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None

    def start(self) -> None:
        ready, failure = threading.Event(), []
        self._thread = threading.Thread(target=self._serve, args=(ready, failure), name="seats", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            raise SeatsError(f"the phones' server cannot listen on {self.host}:{self.port}: {failure[0]}"
                             " (set seats.port in config.yaml, or seats.enabled: false)")

    def _serve(self, ready: threading.Event, failure: list) -> None:
        loop = self._loop = asyncio.new_event_loop()
        self._runner = web.AppRunner(make_app(self.room, self.marshal, self.beat_s), handle_signals=False,
                                     shutdown_timeout=1.0)
        try:
            loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
            loop.run_until_complete(site.start())
            self.port = site._server.sockets[0].getsockname()[1]  # the real one when 0 was asked
        except OSError as error:
            failure.append(error)
            loop.run_until_complete(self._runner.cleanup())
            loop.close()
            ready.set()
            return
        ready.set()
        loop.run_forever()
        loop.run_until_complete(self._runner.cleanup())
        left = asyncio.all_tasks(loop)
        for task in left:
            task.cancel()
        if left:
            loop.run_until_complete(asyncio.wait(left, timeout=2))
        loop.close()

    def stop(self) -> None:
        if self._thread is None:
            return
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._thread = None


def call_inline(fn: Callable[[], Any]) -> None:
    """A marshal for tests: the game's thread is the caller's."""
    fn()
