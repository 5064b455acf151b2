"""Attacks on the phones' server, as someone at the table with a laptop (or a flaky Wi-Fi)
would make them; loopback only.  The table (game thread, store, room, server) runs in a
child process under the open-files limit deploy/companion.service gives it
(LimitNOFILE), the attacks in this one, from eight addresses (127.0.0.2-9).  Per class: tries, and successes (each an attack that got what it wanted);
all successes must be 0.  The child counts every log record with a traceback (any is a
success of the `malformed` class) and the most files it held open.

Usage: python bench/seat_attacks.py [--json] [--guesses N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout: its tests' helper (the game's thread)
SERVICE = ROOT / "deploy" / "companion.service"
NOFILE = int(next(line.split("=")[1] for line in SERVICE.read_text().splitlines() if line.startswith("LimitNOFILE=")))


# the table (child process) -------------------------------------------------------------


def table() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    from companion.games.uttt.controller import UtttController
    from companion.seats.claims import Claims
    from companion.seats.room import Room
    from companion.seats.server import SeatServer
    from tests.seats.thread import GameThread
    from companion.store import Store

    tracebacks = []

    class Count(logging.Handler):
        def emit(self, record):
            if record.exc_info or record.levelno >= logging.ERROR:
                detail = logging.Formatter().formatException(record.exc_info) if record.exc_info else ""
                tracebacks.append(f"{record.getMessage()[:200]} {detail[-300:]}".strip())

    logging.getLogger().addHandler(Count())
    with tempfile.TemporaryDirectory() as data:
        thread = GameThread()
        store = thread.call(Store, Path(data) / "companion.db")
        room = thread.call(lambda: Room(Claims(store)))
        thread.call(room.attach, thread.call(UtttController.open, store))
        server = SeatServer(room, thread.marshal, "127.0.0.1", 0)
        server.start()
        fds = [0]

        def sample():
            while True:
                fds[0] = max(fds[0], len(os.listdir("/proc/self/fd")))
                time.sleep(0.05)

        threading.Thread(target=sample, daemon=True).start()
        print(json.dumps({"url": f"http://127.0.0.1:{server.port}", "token": room.token}), flush=True)
        for _ in sys.stdin:  # a line asks for the peaks so far (and starts them anew); the end: done
            pools = {"keyless": server.gate.keyless, "keyed": server.gate.keyed, "tcp": server.connections.pool}
            print(json.dumps({name: {"size": p.size, "per": p.per, "peak": p.peak, "peak_per": p.peak_per}
                              for name, p in pools.items()} | {"open_files": fds[0]}), flush=True)
            for pool in pools.values():
                pool.peak, pool.peak_per = len(pool), max(pool.held.values(), default=0)
        server.stop()
        thread.call(store.close)
        thread.stop()
    print(json.dumps({"tracebacks": tracebacks, "max_open_files": fds[0], "nofile": NOFILE}), flush=True)


# the attacks (this process) ------------------------------------------------------------------


class Phone:
    """A WebSocket read all the time (so pings are answered, as a browser does); `next(kind)`."""

    def __init__(self, ws):
        self.ws, self.queue = ws, asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.queue.put_nowait(json.loads(message.data))
        self.queue.put_nowait(None)

    async def next(self, kind: str, timeout: float = 3.0) -> dict:
        while True:
            data = await asyncio.wait_for(self.queue.get(), timeout)
            if data is None:
                self.queue.put_nowait(None)
                raise ConnectionError(f"closed ({self.ws.close_code})")
            if data["type"] == kind or (kind != "refused" and data["type"] == "refused"):
                return data

    async def send(self, message) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


class Attacker:
    def __init__(self, url: str, token: str, stats):
        self.url, self.token, self.stats = url, token, stats
        self.host = url.split("//")[1]
        self.sessions: dict[str, aiohttp.ClientSession] = {}
        self.results: dict[str, dict] = {}

    def session(self, local: str = "127.0.0.1") -> aiohttp.ClientSession:
        if local not in self.sessions:
            connector = aiohttp.TCPConnector(local_addr=(local, 0), limit=0)
            self.sessions[local] = aiohttp.ClientSession(connector=connector)
        return self.sessions[local]

    async def ws(self, local="127.0.0.1", host=None, origin=None, key=None):
        host = host or self.host
        protocols = ("companion",) + ((f"companion.key.{key}",) if key else ())
        ws = await self.session(local).ws_connect(f"{self.url}/ws", protocols=protocols, headers={
            "Host": host, "Origin": origin if origin is not None else f"http://{host}"})
        phone = Phone(ws)
        await phone.next("welcome")
        return phone

    async def try_ws(self, **kw):
        try:
            return await self.ws(**kw)
        except (aiohttp.WSServerHandshakeError, aiohttp.ClientError, asyncio.TimeoutError, OSError):
            return None

    def record(self, name: str, tries: int, successes: int, **extra) -> None:
        self.results[name] = {"tries": tries, "successes": successes} | extra
        print(f"  {name}: {tries} tries, {successes} successes {extra or ''}", file=sys.stderr, flush=True)

    async def close(self):
        for session in self.sessions.values():
            await session.close()


async def until(phone: Phone, kind: str) -> dict:
    return await phone.next(kind)


async def ask(phone: Phone, message, kind: str) -> dict:
    await phone.send(message)
    return await phone.next(kind)


async def seat(a: Attacker, n: int):
    ws = await a.ws()
    await ask(ws, {"type": "hello", "room": a.token}, "seats")
    key = (await ask(ws, {"type": "claim", "room": a.token, "seat": n}, "claimed"))["device"]
    await until(ws, "display")
    return ws, key


async def alive(ws) -> bool:
    try:
        return (await ask(ws, {"type": "ping"}, "pong"))["type"] == "pong"
    except (ConnectionError, asyncio.TimeoutError, RuntimeError, aiohttp.ClientError):
        return False


async def closeall(sockets) -> None:
    await asyncio.gather(*[s.close() for s in sockets if s is not None], return_exceptions=True)


ADDRESSES = [f"127.0.0.{n}" for n in range(2, 10)]


async def attacks(a: Attacker, guesses: int) -> None:
    red, red_key = await seat(a, 0)
    blue, blue_key = await seat(a, 1)
    watcher = await a.ws()
    await ask(watcher, {"type": "watch", "room": a.token}, "display")

    # 1. concurrency: counted before the handshake (the table's own peaks say what was held at once)
    await a.stats()
    one = await asyncio.gather(*[a.try_ws(local="127.0.0.2") for _ in range(200)])
    many = await asyncio.gather(*[a.try_ws(local=ADDRESSES[i % 8]) for i in range(200)])
    opened = [s for s in one + many if s is not None]
    peaks = (await a.stats())["keyless"]
    a.record("concurrent_flood", 400, max(0, peaks["peak"] - peaks["size"]) + max(0, peaks["peak_per"] - peaks["per"]),
             accepted=len(opened), held_at_once=peaks["peak"], from_one_address=peaks["peak_per"])

    # 2. keyless sockets fill every place; the seated phone whose Wi-Fi went comes back
    fails = 0
    for _ in range(10):
        await red.close()
        extra = await asyncio.gather(*[a.try_ws(local=addr) for addr in ADDRESSES for _ in range(6)])
        started = time.monotonic()
        red = await a.try_ws(key=red_key)
        try:
            joined = red is not None and (await ask(red, {"type": "hello", "device": red_key}, "joined"))["seat"] == 0
        except (ConnectionError, asyncio.TimeoutError):
            joined = False
        fails += not joined or time.monotonic() - started > 1.0
        opened += extra
        if red is None:
            red, red_key = await seat(a, 0)
    a.record("keyless_lockout", 10, fails)
    await closeall(opened)
    await asyncio.sleep(0.3)

    # 3. a keyless socket that never shows a token keeps its place
    squat = [await a.try_ws(local=ADDRESSES[i % 8]) for i in range(20)]
    await asyncio.sleep(3.0 + 1.0)
    a.record("hello_squat", 20, sum([await alive(s) for s in squat if s is not None]))
    await closeall(squat)

    # 4. half-open HTTP requests: 1,100 (more than systemd's default open files)
    half = []
    for i in range(1100):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", int(a.host.split(":")[1]),
                                                           local_addr=(ADDRESSES[i % 8], 0))
        except OSError:
            continue
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        half.append((reader, writer))
    honest_new = await a.try_ws(local="127.0.0.1")
    seq = 1
    moved = await ask(red, {"type": "act", "id": seq, "kind": "undo"}, "refused")  # an answer, not "internal"
    answered = moved.get("code") not in (None, "internal")
    await asyncio.sleep(5.0 + 2.0)
    held = 0
    for reader, writer in half:
        try:
            held += await asyncio.wait_for(reader.read(), 0.01) != b""
        except asyncio.TimeoutError:
            held += 1
        except ConnectionError:
            pass
        writer.close()
    tcp = (await a.stats())["tcp"]
    a.record("half_open_http", len(half), held + (honest_new is None) + (not answered), held_after_7s=held,
             connections_at_once=tcp["peak"], table_open_files=(await a.stats())["open_files"])
    await closeall([honest_new])

    # 5. malformed input: each answered with a refusal (or 4xx), the socket going on
    frames = [json.dumps({"type": "hello", "room": "トークン"}), json.dumps({"type": "hello", "room": "\ud800"}),
              json.dumps({"type": "claim", "room": "ｔｏｋｅｎ", "seat": 0}), json.dumps({"type": "hello", "device": "\udfff"}),
              *[json.dumps({"type": "act", "id": n, "kind": "cell", "value": 0})
                for n in (2**63, 2**63 - 1, 2**64, 2**53, -1, 0)],
              "[" * 1000 + "]" * 1000, '{"type":"act","id":3,"kind":"cell","value":' + "[" * 990 + "]" * 990 + "}",
              '{"a":' * 400 + "1" + "}" * 400, "x" * 3000, "{" * 2000, '{"type": "act", "id": 1e400, "kind": "x"}',
              json.dumps({"type": ["hello"]}), json.dumps({"type": "lang", "lang": ["ja"]})]
    bad = 0
    for frame in frames:
        probe = await a.ws()
        await ask(probe, {"type": "hello", "room": a.token}, "seats")
        try:  # the frame, then a ping: what comes before the pong is the frame's answer (if any)
            await probe.send(frame)
            answers = []
            await probe.send({"type": "ping"})
            while (answer := await probe.next("pong"))["type"] != "pong":
                answers.append(answer)
            bad += any(m.get("code") == "internal" for m in answers)
        except (ConnectionError, asyncio.TimeoutError):
            bad += 1
        await probe.close()
    for path in ["/phone.js%00", "/%00", "/phone.js%00.png", "/%01", "/a%0ab", "/%ff%fe", "/" + "a" * 4000]:
        status = (await get(a, path)).split(" ", 2)[1]
        bad += not status.startswith("4")
    a.record("malformed", len(frames) + 7, bad)

    # 6. DNS rebinding: a forged Host with its matching Origin; 7. a foreign Origin
    names = ["evil.example", f"evil.example:{a.host.split(':')[1]}", "192.0.2.200", "localhost.evil.example",
             "127.0.0.1.nip.io", "pi.local.evil"]
    a.record("host_rebinding", len(names), sum([await a.try_ws(host=n) is not None for n in names]))
    origins = ["http://evil.example", "null", "", f"https://{a.host}", f"http://{a.host}.evil"]
    a.record("foreign_origin", len(origins), sum([await a.try_ws(origin=o) is not None for o in origins]))

    # 8. guessed room tokens, 9. guessed device keys (a socket that shows none valid is closed
    # after the hello time: the attacker opens another and goes on)
    for name, field, size in (("guessed_tokens", "room", 16), ("guessed_keys", "device", 32)):
        hits, sockets, probe = 0, 1, await a.ws()
        for _ in range(guesses):
            guess = {"type": "hello", field: secrets.token_urlsafe(size)}
            try:
                hits += (await ask(probe, guess, "refused"))["type"] != "refused"
            except (ConnectionError, aiohttp.ClientError, asyncio.TimeoutError):
                probe, sockets = await a.ws(), sockets + 1
        await probe.close()
        a.record(name, guesses, hits, sockets_needed=sockets)

    # 10. taking a claimed seat; 11. acting for another seat; 12. replays
    taker, taken = await a.ws(), 0
    await ask(taker, {"type": "hello", "room": a.token}, "seats")
    for n in range(32):
        answer = await ask(taker, {"type": "claim", "room": a.token, "seat": n % 2}, "refused")
        taken += answer["type"] == "claimed"
    a.record("seat_taking", 32, taken)
    for_other = 0
    for n in range(20):
        answer = await ask(watcher, {"type": "act", "id": 10 + n, "kind": "cell", "value": n, "seat": 1}, "refused")
        for_other += answer["type"] == "done"
    display = await ask(blue, {"type": "lang", "lang": "en"}, "display")
    offers = [o for o in display["model"]["offers"] if o["kind"] == "cell"]
    mover, other = (blue, red) if offers else (red, blue)
    if not offers:
        offers = [o for o in (await ask(red, {"type": "lang", "lang": "en"}, "display"))["model"]["offers"]
                  if o["kind"] == "cell"]
    for n in range(20):  # the other seat (not on the move) tries, claiming the mover's seat
        answer = await ask(other, {"type": "act", "id": 100 + n, "kind": "cell", "value": offers[0]["choices"][0],
                                   "seat": 1 if mover is blue else 0}, "refused")
        for_other += answer["type"] == "done"
    a.record("acting_for_another", 40, for_other)
    done = await ask(mover, {"type": "act", "id": 500, "kind": "cell", "value": offers[0]["choices"][0]}, "done")
    replayed = 0
    for _ in range(50):
        replayed += (await ask(mover, {"type": "act", "id": done["id"], "kind": "undo"}, "refused"))["type"] == "done"
    a.record("replay", 50, replayed)

    # 13. paths outside the page's folder
    paths = ["/../store.py", "/%2e%2e/room.py", "/..%2froom.py", "/static/../../room.py", "/%2e%2e/%2e%2e/config.yaml",
             "/..%5croom.py", "//etc/passwd", "/%2fetc%2fpasswd", "/....//room.py"]
    leaked = 0
    for path in paths:
        answer = await get(a, path)
        leaked += answer.split()[1] == "200" or "import" in answer or "root:" in answer
    a.record("path_traversal", len(paths), leaked)
    await closeall([red, blue, watcher, taker])


async def get(a: Attacker, path: str) -> str:
    """The server's whole answer to GET `path`, the path exactly as typed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", int(a.host.split(":")[1]))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {a.host}\r\nConnection: close\r\n\r\n".encode())
    try:
        return (await asyncio.wait_for(reader.read(), 5)).decode(errors="replace")
    finally:
        writer.close()


async def attack(url: str, token: str, guesses: int, stats) -> dict:
    a = Attacker(url, token, stats)
    try:
        await attacks(a, guesses)
    finally:
        await a.close()
    return a.results


def main() -> None:
    if sys.argv[1:] == ["--table"]:
        return table()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--guesses", type=int, default=1000, help="room tokens and device keys guessed, each")
    args = parser.parse_args()
    child = subprocess.Popen([sys.executable, __file__, "--table"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
    where = json.loads(child.stdout.readline())

    async def stats() -> dict:
        def ask_child():
            child.stdin.write("stats\n")
            child.stdin.flush()
            return json.loads(child.stdout.readline())
        return await asyncio.get_running_loop().run_in_executor(None, ask_child)

    try:
        results = asyncio.run(attack(where["url"], where["token"], args.guesses, stats))
    finally:
        child.stdin.close()
        end = json.loads(child.stdout.readline() or "{}")
        child.wait(timeout=30)
    results["malformed"]["successes"] += len(end.get("tracebacks", []))
    report = {"classes": results, "tracebacks_logged": end.get("tracebacks", []),
              "table_max_open_files": end.get("max_open_files"), "table_nofile_limit": end.get("nofile"),
              "successes": sum(r["successes"] for r in results.values())}
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))
    sys.exit(1 if report["successes"] else 0)


if __name__ == "__main__":
    main()
