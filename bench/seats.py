"""Phones' figures on loopback: the table (game thread + server) in this process, nine
phones (two seated, seven watching) in a child process speaking the real protocol.

- tap_to_ack_ms (median, p95): a seated phone sends a move (or an undo), until its "done"
  (the action is on disk by then).
- tap_to_table_ms (p95): the same tap, until the table's controller has changed
  (CLOCK_MONOTONIC is shared between the two processes).
- fanout_ms (p95): from the table's change until the last of the nine phones has its new model.
- reconnect_s (median, max): a seated phone's socket is cut; after the page's first
  retry delay at its longest (0.25 s) it connects again and has its full snapshot.
- server_rss_mb: what aiohttp, the room and the server with nine phones add to this process.
Targets (issue 15): ack median <= 50 ms, p95 <= 150 ms with 9 phones; reconnect <= 1 s; <= 25 MB.

--app: the same nine phones against the real Kivy app (under Xvfb when there is no
display) at 800x480, its Ultimate Tic-Tac-Toe screen open and the room handing every
frame to Kivy's Clock as the app does (issue 25).  Besides the figures above:
- drop_detected_s (max): a seated phone's network goes silent (no close: a proxy stops
  carrying its bytes); until the table's room sees the phone gone, and until the phone
  itself (phone.js's rule: nothing heard for the server's QUIET_S) notices.
- back_s (median, max): the network comes back; until the phone, retrying as phone.js
  does (a new try every STEP_MS beside the earlier ones), has its seat's snapshot again.
- server_rss_mb: what starting the phones' server and connecting the nine phones added
  to the app's memory.
Taps come --gap apart (1 s: people take turns; back to back, a tap waits for the
table's redraw of the last move, which the ack need not).
Targets (issue 25, 42): ack median <= 40 ms, p95 <= 120 ms; drop <= 10 s (issue 42: a slow
link is not taken for a lost one); back <= 1 s; <= 25 MB.
--network PROFILE: two phones in Chromium through a bad network (bench/_seats_network.py):
quiet, home, busy or slow (taps lost, sockets closed, tap->ack), or outage (back in the
seat after each of --outages seconds; --wifi: the browsers offline too; --sleep: the
pages frozen too, as phones with their screens off); --watchers N: N more phones watching
(7: the issue's nine), each connection from a loopback address of its own.
Usage: python bench/seats.py [--json] [--taps N] [--cuts N] [--app [--drops N]]
       python bench/seats.py --network {quiet,home,busy,slow,outage} [--outages 5,20,60,300] [--wifi] [--sleep]
                             [--watchers 7]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIRST_RETRY_S = 0.25  # phone.js: the first reconnect waits 0.125..0.25 s
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout: its tests' helpers (the game's thread, Xvfb)
PHONE_JS = (ROOT / "companion" / "seats" / "static" / "phone.js").read_text()
STEP_S, STEP_GRACE_S = (int(re.search(rf"{name} = (\d+)", PHONE_JS).group(1)) / 1000
                        for name in ("STEP_MS", "STEP_GRACE"))
PLIES = 12  # moves played before taking them all back: no Ultimate Tic-Tac-Toe game ends this soon


def rss_mb() -> float:
    kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS"))
    return kb / 1024


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


# the phones (child process) --------------------------------------------------------


async def phones(url: str, token: str, taps: int, cuts: int, drop_count: int = 0, gap_s: float = 0.0,
                 connected=lambda: None) -> dict:
    import aiohttp

    sessions: dict = {}  # each phone from an address of its own, as on a real Wi-Fi

    def own(n: int):
        if n not in sessions:
            sessions[n] = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + n}", 0)))
        return sessions[n]

    async with aiohttp.ClientSession() as http:
        async def connect(key=None, via=url, n=0):
            protocols = ("companion",) + ((f"companion.key.{key}",) if key else ())
            ws = await own(n).ws_connect(f"{via}/ws", headers={"Origin": url}, protocols=protocols)
            assert (await ws.receive_json(timeout=5))["type"] == "welcome"
            return ws

        async def until(ws, kind):
            while True:
                message = await ws.receive_json(timeout=5)
                if message["type"] == kind:
                    return message

        seated, keys = [], []
        for seat in (0, 1):
            ws = await connect(n=seat)
            await ws.send_json({"type": "claim", "room": token, "seat": seat})
            keys.append((await until(ws, "claimed"))["device"])
            seated.append([ws, await until(ws, "display")])
        watchers = []
        for n in range(7):
            ws = await connect(n=2 + n)
            await ws.send_json({"type": "watch", "room": token})
            await until(ws, "display")
            watchers.append(ws)

        async def settle(ws, shown=None):
            """Everything sent so far, read (up to a pong); the newest display model."""
            await ws.send_json({"type": "ping"})
            while (message := await ws.receive_json(timeout=5))["type"] != "pong":
                shown = message if message["type"] == "display" else shown
            return shown

        for entry in seated:  # a claim tells everyone: start from what each phone shows now
            entry[1] = await settle(entry[0], entry[1])
        for ws in watchers:
            await settle(ws)
        connected()

        samples, seq, played, undoing = [], 0, 0, False
        for _ in range(taps):
            await asyncio.sleep(gap_s)
            seq += 1
            undoing = (undoing or played == PLIES) and played > 0
            mover = next(i for i, (_, shown) in enumerate(seated)
                         if any(o["kind"] == ("undo" if undoing else "cell") for o in shown["model"]["offers"]))
            ws = seated[mover][0]
            offer = next(o for o in seated[mover][1]["model"]["offers"] if o["kind"] == ("undo" if undoing else "cell"))
            sent = time.monotonic()
            await ws.send_json({"type": "act", "id": seq, "kind": offer["kind"],
                                "value": offer["choices"][0] if offer["choices"] else None})
            arrived = {}
            for i, (other, _) in enumerate(seated):
                seated[i][1] = await until(other, "display")
                arrived[f"s{i}"] = time.monotonic()
            acked = (await until(ws, "done"), time.monotonic())[1]
            for i, other in enumerate(watchers):
                await until(other, "display")
                arrived[f"w{i}"] = time.monotonic()
            played += -1 if undoing else 1
            samples.append({"sent": sent, "ack": acked, "all": max(arrived.values()), "undo": bool(undoing)})

        reconnects = []
        for _ in range(cuts):
            await seated[0][0].close()
            cut = time.monotonic()
            await asyncio.sleep(FIRST_RETRY_S)
            ws = await connect(keys[0])
            await ws.send_json({"type": "hello", "device": keys[0]})
            seated[0][1] = await until(ws, "display")
            seated[0][0] = ws
            reconnects.append(time.monotonic() - cut)
        drops = [await drop(http, url, keys[1], seated[1][0]) for _ in range(drop_count)]
        for ws in [s[0] for s in seated] + watchers:
            await ws.close()
        for session in sessions.values():
            await session.close()
        return {"samples": samples, "reconnects": reconnects, "drops": drops}


class Blackhole:
    """A TCP proxy to the table that can go silent (bytes held, nothing closed) and come back."""

    def __init__(self, target: str):
        self.host, self.port = target.split("//")[1].split(":")
        self.silent = False
        self.tasks: set = set()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _client(self, reader, writer):
        while self.silent:  # a connection while the network is gone: never answered
            await asyncio.sleep(0.01)
        up_reader, up_writer = await asyncio.open_connection(self.host, int(self.port))

        async def pipe(src, dst):
            while data := await src.read(65536):
                while self.silent:
                    await asyncio.sleep(0.01)
                dst.write(data)
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer), return_exceptions=True)


async def drop(http, url: str, key: str, ws_direct, down_s: float = 4.0) -> dict:
    """One silent drop of a seated phone connected through a `Blackhole`, and its return."""
    import aiohttp

    from companion.seats.server import QUIET_S

    await ws_direct.close()
    hole = Blackhole(url)
    via = await hole.start()
    headers = {"Origin": url, "Host": url.split("//")[1]}  # the table's own, as the page sends them
    for _ in range(int(QUIET_S * 4) + 8):  # the table holds the key's last two sockets until it sees them go
        try:
            ws = await http.ws_connect(f"{via}/ws", headers=headers, autoping=True,
                                       protocols=("companion", f"companion.key.{key}"))
            break
        except aiohttp.WSServerHandshakeError as refused:
            if refused.status != 503:
                raise
            await asyncio.sleep(0.25)
    await ws.send_json({"type": "hello", "device": key})
    while (await ws.receive_json(timeout=5))["type"] != "display":
        pass
    heard = time.monotonic()
    receiving = asyncio.create_task(ws.receive())
    hole.silent = True
    gone = time.monotonic()
    noticed = None
    while noticed is None:  # phone.js: checks every 250 ms whether nothing was heard for QUIET_S
        await asyncio.sleep(0.25)
        if receiving.done():
            heard, receiving = time.monotonic(), asyncio.create_task(ws.receive())
        if time.monotonic() - heard > QUIET_S:
            noticed = time.monotonic()
    receiving.cancel()
    await asyncio.sleep(max(0.0, gone + down_s - time.monotonic()))

    async def retry():  # phone.js: a new try every STEP_MS beside the earlier ones, each given up after STEP_GRACE more
        tries: set[asyncio.Task] = set()
        while True:
            tries.add(asyncio.create_task(asyncio.wait_for(http.ws_connect(
                f"{via}/ws", headers=headers, protocols=("companion", f"companion.key.{key}")), STEP_S + STEP_GRACE_S)))
            done, tries = await asyncio.wait(tries, timeout=STEP_S * random.uniform(0.75, 1.25),
                                             return_when=asyncio.FIRST_COMPLETED)
            opened = [task.result() for task in done if not task.exception()]
            if opened:
                for task in tries:
                    task.cancel()
                for extra in opened[1:]:
                    await extra.close()
                return opened[0]

    trying = asyncio.create_task(retry())
    await asyncio.sleep(random.uniform(0.3, 1.5))  # the phone has been trying a while when the network is back
    hole.silent = False
    back_at = time.monotonic()
    ws2 = await trying
    await ws2.send_json({"type": "hello", "device": key})
    while (await ws2.receive_json(timeout=5))["type"] != "display":
        pass
    back = time.monotonic() - back_at
    await ws2.close()
    await ws.close()
    hole.server.close()
    return {"gone": gone, "phone_noticed_s": noticed - gone, "back_s": back}


BEAT_S = 1.0  # the server's beat (companion.seats.server.BEAT_S)


# the table (this process) -------------------------------------------------------------


def table(taps: int, cuts: int) -> dict:
    before = rss_mb()
    from companion.games.uttt.controller import UtttController
    from companion.store import Store

    with tempfile.TemporaryDirectory() as data:
        from tests.seats.thread import GameThread

        thread = GameThread()
        store = thread.call(Store, Path(data) / "companion.db")
        controller = thread.call(UtttController.open, store)
        game_rss = rss_mb()  # the game alone, for the baseline of what the phones add
        from companion.seats.claims import Claims
        from companion.seats.room import Room
        from companion.seats.server import SeatServer

        changes: list[float] = []
        room = thread.call(lambda: Room(Claims(store)))
        thread.call(room.attach, controller)
        moves = [0]

        def moved():  # a tap's change (not a phone joining): the log grew or shrank
            if len(controller.session.actions) != moves[0]:
                moves[0] = len(controller.session.actions)
                changes.append(time.monotonic())

        thread.call(controller.listeners.insert, 0, moved)
        server = SeatServer(room, thread.marshal, "127.0.0.1", 0)
        server.start()
        try:
            child = subprocess.run([sys.executable, __file__, "--phones", f"http://127.0.0.1:{server.port}", room.token,
                                    str(taps), str(cuts)], capture_output=True, text=True, timeout=600)
            if child.returncode:
                raise SystemExit(child.stderr)
            result = json.loads(child.stdout)
            added = rss_mb() - game_rss
        finally:
            server.stop()
            thread.call(store.close)
            thread.stop()
    samples = result["samples"]
    assert len(changes) == len(samples), (len(changes), len(samples))
    ack = [1000 * (s["ack"] - s["sent"]) for s in samples]
    to_table = [1000 * (at - s["sent"]) for at, s in zip(changes, samples)]
    fanout = [1000 * (s["all"] - at) for at, s in zip(changes, samples)]
    return {
        "phones": 9, "taps": len(samples), "cuts": len(result["reconnects"]),
        "tap_to_ack_ms_median": round(statistics.median(ack), 2), "tap_to_ack_ms_p95": round(p95(ack), 2),
        "tap_to_table_ms_p95": round(p95(to_table), 2), "fanout_ms_p95": round(p95(fanout), 2),
        "reconnect_s_median": round(statistics.median(result["reconnects"]), 3),
        "reconnect_s_max": round(max(result["reconnects"]), 3),
        "server_rss_mb": round(added, 1), "process_rss_mb_before": round(before, 1),
        "targets": {"tap_to_ack_ms_median": 50, "tap_to_ack_ms_p95": 150, "reconnect_s": 1.0, "server_rss_mb": 25},
    }


# the real app as the table (--app) -----------------------------------------------------------


def app_table() -> None:
    """The app in this process (a child of the bench), on Xvfb when there is no display."""
    from tests.virtual_display import ensure_display

    ensure_display()
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ["KIVY_NO_ARGS"] = "1"
    import dataclasses
    import threading

    from companion import config
    from companion.ui.app import CompanionApp
    from kivy.clock import Clock
    from kivy.core.window import Window

    data = tempfile.mkdtemp(prefix="bench-seats-")
    path = Path(data) / "config.yaml"
    path.write_text(f"data_dir: {data}\nseats:\n  enabled: false\n  host: 127.0.0.1\n"
                    f"  port: {free_port()}\nsound:\n  enabled: false\n")
    cfg = config.load(path, with_settings=False)
    app = CompanionApp(cfg)
    report: dict = {"changes": [], "claims": []}

    def begin(_):
        Window.size = (800, 480)
        app.open_game("uttt")  # as a tap on its tile: a new two-player game
        Clock.schedule_once(serve, 3.0)  # once its first frames are drawn (fonts, textures)

    def serve(_):
        controller = app.manager.current_screen.controller
        report["rss_before_mb"] = rss_mb()
        app.cfg = dataclasses.replace(cfg, seats=dataclasses.replace(cfg.seats, enabled=True))
        app._start_seats()
        room = app.seats.room
        moves = [len(controller.session.actions)]

        def moved():
            if len(controller.session.actions) != moves[0]:
                moves[0] = len(controller.session.actions)
                report["changes"].append(time.monotonic())

        controller.listeners.insert(0, moved)
        room.listeners.append(lambda: report["claims"].append((time.monotonic(), {str(k): v for k, v in
                                                                                   room.claimed().items()})))
        print(json.dumps({"url": f"http://127.0.0.1:{app.seats.port}", "token": room.token}), flush=True)

        def wait():
            sys.stdin.readline()  # the nine phones are connected
            report["rss_after_mb"] = rss_mb()
            sys.stdin.read()
            Clock.schedule_once(lambda _: app.stop())

        threading.Thread(target=wait, daemon=True).start()

    Clock.schedule_once(begin, 1.0)
    app.run()
    print(json.dumps(report), flush=True)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def app(taps: int, cuts: int, drops: int, gap_s: float) -> dict:
    child = subprocess.Popen([sys.executable, __file__, "--app-table"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
    try:
        line = child.stdout.readline()
        while line and not line.startswith("{"):
            line = child.stdout.readline()
        where = json.loads(line)

        def connected():
            child.stdin.write("connected\n")
            child.stdin.flush()

        result = asyncio.run(phones(where["url"], where["token"], taps, cuts, drops, gap_s, connected))
    finally:
        child.stdin.close()
        lines = [line for line in child.stdout.read().splitlines() if line.startswith("{")]
        child.wait(timeout=60)
    table_side = json.loads(lines[-1])
    samples, changes = result["samples"], table_side["changes"]
    assert len(changes) == len(samples), (len(changes), len(samples))
    ack = [1000 * (s["ack"] - s["sent"]) for s in samples]
    to_table = [1000 * (at - s["sent"]) for at, s in zip(changes, samples)]
    detected = []
    for d in result["drops"]:
        seen = next(t for t, claimed in table_side["claims"] if t > d["gone"] and not claimed.get("1", True))
        detected.append(seen - d["gone"])
    noticed = [d["phone_noticed_s"] for d in result["drops"]]
    back = [d["back_s"] for d in result["drops"]]
    return {
        "app": True, "window": "800x480", "gap_s": gap_s, "phones": 9, "taps": len(samples), "cuts": len(result["reconnects"]),
        "drops": len(result["drops"]),
        "tap_to_ack_ms_median": round(statistics.median(ack), 2), "tap_to_ack_ms_p95": round(p95(ack), 2),
        "tap_to_ack_ms_max": round(max(ack), 2), "tap_to_table_ms_p95": round(p95(to_table), 2),
        "reconnect_s_median": round(statistics.median(result["reconnects"]), 3),
        "reconnect_s_max": round(max(result["reconnects"]), 3),
        "drop_detected_by_table_s_max": round(max(detected), 3),
        "drop_noticed_by_phone_s_max": round(max(noticed), 3),
        "back_s_median": round(statistics.median(back), 3), "back_s_max": round(max(back), 3),
        "server_rss_mb": round(table_side["rss_after_mb"] - table_side["rss_before_mb"], 1),
        "targets": {"tap_to_ack_ms_median": 40, "tap_to_ack_ms_p95": 120, "drop_s": 10.0, "back_s": 1.0,
                    "server_rss_mb": 25},
    }


def main() -> None:
    if sys.argv[1:] == ["--app-table"]:
        return app_table()
    if len(sys.argv) > 1 and sys.argv[1] == "--phones":
        url, token, taps, cuts = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        print(json.dumps(asyncio.run(phones(url, token, taps, cuts))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--app", action="store_true", help="the real Kivy app as the table (Xvfb)")
    parser.add_argument("--drops", type=int, default=5, help="with --app: silent drops and returns")
    parser.add_argument("--gap", type=float, default=1.0,
                        help="with --app: seconds between taps (the table's redraw of the last move is done)")
    parser.add_argument("--network", choices=("quiet", "home", "busy", "slow", "outage"),
                        help="two phones in Chromium through tests/seats/netem.py's proxy")
    parser.add_argument("--outages", default="5,20,60,300", help="with --network outage: seconds, comma-separated")
    parser.add_argument("--wifi", action="store_true", help="with --network outage: the browsers offline too")
    parser.add_argument("--sleep", action="store_true", help="with --network outage: the pages frozen too")
    parser.add_argument("--watchers", type=int, default=0, help="with --network: phones watching besides the seated two")
    args = parser.parse_args()
    if args.network:
        sys.path.insert(0, str(ROOT))
        from bench._seats_network import run

        outages = tuple(float(s) for s in args.outages.split(","))
        report = run(args.network, min(args.taps, 40), outages, args.wifi, sleep=args.sleep,  # at most one game's taps
                     watchers=args.watchers)
    else:
        report = app(args.taps, args.cuts, args.drops, args.gap) if args.app else table(args.taps, args.cuts)
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
