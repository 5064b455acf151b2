"""The phones' server: aiohttp HTTP + WebSocket on its own thread with its own loop.

It only carries frames: every frame is parsed, checked for size and shape, and handed
to the `Room` on the game's thread through `marshal(fn)` (in the app: Kivy's Clock;
in tests: a direct call), so the game and its store stay single-threaded.  What the
room sends back, and what it sends on its own after a change, goes out on the socket
in order.  Plain HTTP: phones refuse WebSockets to self-signed certificates.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable

from aiohttp import WSMsgType, web

from companion import i18n
from companion.errors import CompanionError
from companion.play import registry
from companion.seats.address import host_name, local_hosts
from companion.seats.claims import digest
from companion.seats.gate import Connections, Gate, address_of
from companion.play.state import Refused
from companion.seats.room import LANGS, Link, Room, answer
from companion.seats.wire import Quiet, beat, nesting, write

STATIC = Path(__file__).resolve().parent / "static"
GAME_SCRIPTS = "<!-- each game's phone.js -->"  # where index.html loads the games' renderers
MAX_FRAME = 2048  # characters: every message a phone sends is far smaller
HARD_FRAME = 65536  # bytes: aiohttp closes the socket (1009) on anything larger
MAX_DEPTH = 8  # nesting of a frame's JSON: the deepest a phone sends is 3
HELLO_S = 3.0  # a socket with neither a known device key nor a room token by then is closed
KEEPALIVE_S = 5.0  # aiohttp closes a connection that sent no whole request for this long
BEAT_S = 1.0  # the server's beat (a message and a WebSocket ping)
QUIET_S = 8.0  # a socket silent this long (no frame, no pong) is gone: a slow link is slower than
# that only while it is down, and the table shows a lost phone within QUIET_S + BEAT_S
PROTOCOL = "companion"  # the WebSocket subprotocol; "companion.key.<device key>" beside it shows the key
KEY_PROTOCOL = "companion.key."
CLOSE_LATE = 4408  # close code: no room token or device key in time
RETRIED = (errno.EADDRINUSE, errno.EADDRNOTAVAIL)  # listening again later may work
log = logging.getLogger(__name__)

Marshal = Callable[[Callable[[], None]], None]


class SeatsError(CompanionError):
    """The phones' server could not start."""


def make_app(room: Room, marshal: Marshal, beat_s: float = BEAT_S, static: Path = STATIC,
             hosts: Callable[[], frozenset[str]] = local_hosts, gate: Gate | None = None,
             hello_s: float = HELLO_S, quiet_s: float = QUIET_S,
             phone_pages: Callable[[], dict[str, Path]] = registry.phone_pages) -> web.Application:
    """The aiohttp application; `marshal(fn)` runs `fn()` on the game's thread.  A WebSocket
    is opened only for a Host among `hosts()` (the table's own names and addresses) with
    its own page's Origin, and only while `gate` has a place for it; one that has been
    silent for `quiet_s` (neither a frame nor an answer to a ping) is taken for gone.  The page is `static`'s,
    with every game's renderer from `phone_pages()` (the registry's: each game's folder)."""
    static = static.resolve()
    scripts = {f"{name}.js": path for name, path in phone_pages().items()}
    index = (static / "index.html").read_text(encoding="utf-8").replace(
        GAME_SCRIPTS, "\n".join(f'<script src="games/{script}"></script>' for script in scripts))
    gate = gate or Gate()
    quiet = Quiet(log)

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
        if name == "index.html":
            return web.Response(text=index, content_type="text/html", headers={"Cache-Control": "no-cache"})
        if not name.isprintable():  # a NUL or a control character: no file has such a name
            return web.Response(status=404, text="not found\n")
        try:
            target = (static / name).resolve()
            inside = target.is_relative_to(static)
            found = inside and target.is_file()
        except (OSError, ValueError):  # a name too long, or one the file system refuses
            return web.Response(status=404, text="not found\n")
        if not inside:
            return web.Response(status=403, text="refused: outside the phone page's folder\n")
        if not found:
            return web.Response(status=404, text="not found\n")
        return web.FileResponse(target, headers={"Cache-Control": "no-cache"})

    async def game_page(request: web.Request) -> web.StreamResponse:
        script = scripts.get(request.match_info["name"])
        if script is None:
            return web.Response(status=404, text="not found\n")
        return web.FileResponse(script, headers={"Cache-Control": "no-cache"})

    async def alive(request: web.Request) -> web.Response:
        """A page asks this beside its socket tries, one ask at a time: an answer while no try
        has opened tells it the link is up but slow, so its tries hold on longer (phone.js)."""
        return web.Response(status=204, headers={"Cache-Control": "no-store"})

    async def strings(request: web.Request) -> web.Response:
        lang = request.query.get("lang", "en")
        return web.json_response(phone_words(lang if lang in LANGS else "en"),
                                 dumps=lambda v: json.dumps(v, ensure_ascii=False))

    async def socket(request: web.Request) -> web.StreamResponse:
        if host_name(request.host) not in hosts():
            return web.Response(status=403, text="refused: not one of this table's names or addresses\n")
        origin = request.headers.get("Origin")
        if origin != f"http://{request.host}":
            return web.Response(status=403, text="refused: foreign origin\n")
        address, key_hash = address_of((request.remote,)), _offered_key(request)
        full = web.Response(status=503, text="refused: no place for another phone now\n")
        if not gate.admit(address, key_hash):  # counted now, before anything is awaited
            return full
        held: tuple[str, str | None] | None = (address, key_hash)
        keyed = key_hash is not None
        try:
            if key_hash is not None and not await on_game(room.knows, key_hash):
                gate.leave(address, key_hash)  # an unknown key: a keyless socket (its hello is refused)
                held, keyed = None, False
                if not gate.admit(address, None):
                    return full
                held = (address, None)
            return await serve(request, keyed)
        finally:
            if held is not None:
                gate.leave(*held)

    async def serve(request: web.Request, keyed: bool) -> web.StreamResponse:
        ws = web.WebSocketResponse(protocols=(PROTOCOL,), max_msg_size=HARD_FRAME, autoping=False)
        try:
            await ws.prepare(request)
        except ConnectionResetError:  # a try the phone gave up for another (phone.js): nothing to log
            return ws
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        def put(what: str, message: dict) -> None:  # from the game's thread
            _hand_back(loop, queue.put_nowait, (what, message))

        link = Link(send=lambda m: put("send", m), close=lambda m: put("close", m))
        writer = asyncio.create_task(write(ws, queue))
        heard = [loop.time()]
        beats = asyncio.create_task(beat(queue, beat_s, quiet_s, heard, request.transport))
        late = None if keyed else loop.call_later(hello_s, _close_unless_admitted, link, queue)
        queue.put_nowait(("send", {"type": "welcome", "beat_s": beat_s, "quiet_s": quiet_s}))
        try:
            await on_game(room.connect, link)
            async for frame in ws:
                heard[0] = loop.time()
                await _handle(frame, link, room, on_game, quiet, ws)
        finally:
            if late is not None:
                late.cancel()
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
    app.router.add_get("/alive", alive)
    app.router.add_get("/games/{name}", game_page)
    app.router.add_get("/", page)
    app.router.add_get("/{path:.+}", page)
    return app


def phone_words(lang: str) -> dict[str, str]:
    """The phone page's words in `lang`: the page's own ("choose_seat") and each game's for its
    phone.js ("kuku_phone.pair", from the `<game>_phone` section of its locale)."""
    keys = list(i18n.catalog("seats")) + [f"{game}_phone.{key}" for game in registry.games()
                                          for key in i18n.catalog(f"{game}_phone")]
    return {key: i18n.translate(key if "." in key else f"seats.{key}", lang) for key in keys}


def _offered_key(request: web.Request) -> str | None:
    """The hash of the device key the page offered as a subprotocol, if any."""
    for header in request.headers.getall("Sec-WebSocket-Protocol", []):
        for offered in header.split(","):
            offered = offered.strip()
            if offered.startswith(KEY_PROTOCOL) and len(offered) > len(KEY_PROTOCOL):
                return digest(offered[len(KEY_PROTOCOL):])
    return None


def _close_unless_admitted(link: Link, queue: asyncio.Queue) -> None:
    """The hello time is over: a socket that showed no token or key goes (its place is free)."""
    if not link.admitted:
        queue.put_nowait(("close", answer(Refused("seats.hello_late"), link.lang) | {"close_code": CLOSE_LATE}))


def _hand_back(loop: asyncio.AbstractEventLoop, fn, *args) -> None:
    """`fn(*args)` on the server's loop, from any thread; nothing once the server has stopped."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:  # the loop is closed: nobody waits any more
        pass


async def _handle(frame, link: Link, room: Room, on_game, quiet: Quiet, ws: web.WebSocketResponse) -> None:
    """One frame: refused here when it is no JSON object of a sane size and depth, else the room's."""
    if frame.type == WSMsgType.PING:  # pings are answered here (autoping is off: pongs are counted)
        return await ws.pong(frame.data)
    if frame.type != WSMsgType.TEXT:
        if frame.type == WSMsgType.BINARY:
            link.send(answer(Refused("seats.malformed"), link.lang))
        return
    if len(frame.data) > MAX_FRAME:
        return link.send(answer(Refused("seats.too_large"), link.lang))
    try:
        message = json.loads(frame.data)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or nesting(message, MAX_DEPTH) > MAX_DEPTH:
        return link.send(answer(Refused("seats.malformed"), link.lang))
    try:
        await on_game(room.handle, link, message)
    except Exception:  # a fault of ours: the phone is told, the table goes on
        quiet.exception("seats: a frame could not be handled")
        link.send(answer(Refused("seats.internal"), link.lang))


class SeatServer:
    """`make_app` served on `host:port` from a thread of its own; `stop()` ends it.

    `host` "" listens on every address of this machine, IPv6 too where it has IPv6 (else a
    name or one address).  While the port is taken (another program, or the last run's
    socket not yet let go) or the address not yet there (the network still coming up),
    it tries again every `retry_s` until it can listen: `listening` says whether it does,
    `problem` why not (in English, for the log; `problem_in(lang)` says it to a person)."""

    def __init__(self, room: Room, marshal: Marshal, host: str, port: int, beat_s: float = BEAT_S,
                 retry_s: float = 2.0, gate: Gate | None = None, connections: Connections | None = None):
        self.room, self.marshal, self.host, self.port, self.beat_s = room, marshal, host, port, beat_s
        self.retry_s, self.gate, self.connections = retry_s, gate or Gate(), connections or Connections()
        self.listening = threading.Event()
        self.problem: str | None = None
        self._waiting: dict | None = None  # the words of `problem`: the catalog's values
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop_asked: asyncio.Event | None = None  # on the server's loop: stop() called
        self._retrying: asyncio.Task[None] | None = None  # on the server's loop: the retries

    @property
    def where(self) -> str:
        return f"{self.host or '*'}:{self.port}"

    def start(self) -> None:
        """Listen, or (port busy, address missing) say why in `problem` and go on trying;
        SeatsError for what no waiting mends (a name that does not resolve, no permission)."""
        tried, failure = threading.Event(), list[OSError]()
        self._thread = threading.Thread(target=self._serve, args=(tried, failure), name="seats", daemon=True)
        self._thread.start()
        tried.wait()
        if failure:
            self._thread.join()
            raise SeatsError(i18n.Words("seats.cannot_listen", where=self.where, why=str(failure[0])))

    def _serve(self, tried: threading.Event, failure: list[OSError]) -> None:
        loop = self._loop = asyncio.new_event_loop()
        loop.run_until_complete(self._run(tried, failure))
        if left := asyncio.all_tasks(loop):
            for task in left:
                task.cancel()
            loop.run_until_complete(asyncio.wait(left, timeout=2))
        loop.close()

    async def _run(self, tried: threading.Event, failure: list[OSError]) -> None:
        """Serve until `stop()`, in one run of the loop: a stop at any moment is heard."""
        stop_asked = self._stop_asked = asyncio.Event()
        self._retrying = None
        runner = web.AppRunner(make_app(self.room, self.marshal, self.beat_s, gate=self.gate),
                               handle_signals=False, shutdown_timeout=1.0, keepalive_timeout=KEEPALIVE_S)
        await runner.setup()
        self.connections.watch(runner.server)
        await self._listen(runner, tried, failure)
        if not failure:
            await stop_asked.wait()
        if self._retrying is not None:
            self._retrying.cancel()
        await runner.cleanup()

    async def _listen(self, runner: web.AppRunner, tried: threading.Event, failure: list[OSError]) -> None:
        """The first try here; while it is a passing problem, again every `retry_s` (in a task)."""
        site = web.TCPSite(runner, self.host or None, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as error:
            if error.errno not in RETRIED:
                failure.append(error)
            else:
                self._waiting = {"where": self.where, "s": f"{self.retry_s:g}",
                                 "why": "seats.port_busy" if error.errno == errno.EADDRINUSE else "seats.no_address"}
                self.problem = f"{self.problem_in('en')} ({error.strerror})"
                log.warning("seats: %s", self.problem)
                self._retrying = asyncio.get_running_loop().create_task(self._retry(runner))
            tried.set()
            return
        self._listening(site)
        tried.set()

    async def _retry(self, runner: web.AppRunner) -> None:
        while True:
            await asyncio.sleep(self.retry_s)
            site = web.TCPSite(runner, self.host or None, self.port, reuse_address=True)
            try:
                await site.start()
            except OSError:
                continue
            self._listening(site)
            log.warning("seats: listening on %s after all", self.where)
            return

    def problem_in(self, lang: str) -> str | None:
        """Why the server does not listen yet, in `lang`; None while it listens (or never tried)."""
        if self._waiting is None:
            return None
        why = i18n.translate(self._waiting["why"], lang)
        return i18n.translate("seats.waiting", lang, **(self._waiting | {"why": why}))

    def _listening(self, site: web.TCPSite) -> None:
        server = site._server  # aiohttp says the port of one site only here
        assert isinstance(server, asyncio.Server), "a started TCPSite's"
        self.port = server.sockets[0].getsockname()[1]  # the real one when 0 was asked
        self.problem = self._waiting = None
        self.listening.set()

    def stop(self) -> None:
        if self._thread is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            assert self._stop_asked is not None, "made as the loop starts, before start() returns"
            self._loop.call_soon_threadsafe(self._stop_asked.set)
        self._thread.join(timeout=5)
        self._thread = None


def call_inline(fn: Callable[[], Any]) -> None:
    """A marshal for tests: the game's thread is the caller's."""
    fn()
