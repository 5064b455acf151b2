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
Usage: python bench/seats.py [--json] [--taps N] [--cuts N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIRST_RETRY_S = 0.25  # phone.js: the first reconnect waits 0.125..0.25 s
PLIES = 12  # moves played before taking them all back: no Ultimate Tic-Tac-Toe game ends this soon


def rss_mb() -> float:
    kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS"))
    return kb / 1024


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(round(0.95 * len(values))) - 1)]


# the phones (child process) --------------------------------------------------------


async def phones(url: str, token: str, taps: int, cuts: int) -> dict:
    import aiohttp

    async with aiohttp.ClientSession() as http:
        async def connect():
            ws = await http.ws_connect(f"{url}/ws", headers={"Origin": url})
            assert (await ws.receive_json(timeout=5))["type"] == "welcome"
            return ws

        async def until(ws, kind):
            while True:
                message = await ws.receive_json(timeout=5)
                if message["type"] == kind:
                    return message

        seated, keys = [], []
        for seat in (0, 1):
            ws = await connect()
            await ws.send_json({"type": "claim", "room": token, "seat": seat})
            keys.append((await until(ws, "claimed"))["device"])
            seated.append([ws, await until(ws, "display")])
        watchers = []
        for _ in range(7):
            ws = await connect()
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

        samples, seq, played, undoing = [], 0, 0, False
        for _ in range(taps):
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
            ws = await connect()
            await ws.send_json({"type": "hello", "device": keys[0]})
            seated[0][1] = await until(ws, "display")
            seated[0][0] = ws
            reconnects.append(time.monotonic() - cut)
        for ws in [s[0] for s in seated] + watchers:
            await ws.close()
        return {"samples": samples, "reconnects": reconnects}


# the table (this process) -------------------------------------------------------------


def table(taps: int, cuts: int) -> dict:
    before = rss_mb()
    from companion.games.uttt.controller import UtttController
    from companion.store import Store

    with tempfile.TemporaryDirectory() as data:
        from companion.seats.thread import GameThread

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


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--phones":
        url, token, taps, cuts = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        print(json.dumps(asyncio.run(phones(url, token, taps, cuts))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--cuts", type=int, default=20)
    args = parser.parse_args()
    report = table(args.taps, args.cuts)
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
