"""One phone's socket on the server's loop: what is queued for it is written in order
(`write`), it is beaten and pinged, and cut once it has been silent too long (`beat`);
frames are checked for nesting (`nesting`); tracebacks are rate-limited (`Quiet`)."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from aiohttp import web


def nesting(value, limit: int) -> int:
    """How deep `value` nests (lists and dicts), counted up to `limit` + 1, without recursion."""
    deepest, level = 0, [(value, 1)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > limit:
                break
            level.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class Quiet:
    """Tracebacks to the log at most once a minute (a broken phone's loop never fills the log)."""

    def __init__(self, logger: logging.Logger, every_s: float = 60.0):
        self.logger, self.every_s, self.last, self.missed = logger, every_s, -every_s, 0

    def exception(self, text: str) -> None:
        now = time.monotonic()
        if now - self.last < self.every_s:
            self.missed += 1
            return
        self.logger.exception("%s (%d more since the last one logged)", text, self.missed)
        self.last, self.missed = now, 0


async def write(ws: web.WebSocketResponse, queue: asyncio.Queue) -> None:
    """Send what is queued, in order; a ("close", message) sends it and closes; ("ping", None) pings."""
    while True:
        what, message = await queue.get()
        if what == "stop":
            return
        try:
            if what == "ping":
                await ws.ping()
            elif what == "close":
                code = message.pop("close_code", 1000)
                await ws.send_str(dumps(message))
                await ws.close(code=code)
            elif message is not None:
                await ws.send_str(dumps(message))
        except (ConnectionError, RuntimeError):
            pass  # the phone is gone; the reader's end says so


def dumps(message: dict) -> str:
    # ensure_ascii=False keeps Japanese readable on the wire; a lone surrogate (from a
    # phone's frame) goes escaped, as no UTF-8 text may hold it
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode()
    except UnicodeEncodeError:
        text = json.dumps(message, separators=(",", ":"))
    return text


async def beat(queue: asyncio.Queue, beat_s: float, quiet_s: float,
                heard: list[float], transport) -> None:
    """A beat and a ping every `beat_s`: a phone that hears none for a while reconnects, and
    one that has said nothing (not even a browser's pong) for `quiet_s` is cut here, without
    a closing handshake (its link is gone), so that the table sees it gone."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(beat_s)
        if loop.time() - heard[0] > quiet_s:
            if transport is not None:
                transport.abort()
            return
        queue.put_nowait(("send", {"type": "beat"}))
        queue.put_nowait(("ping", None))
