"""A bad network between phones and the table, on loopback: a TCP proxy that delays,
jitters, loses (as TCP does: a lost segment holds everything behind it until it is sent
again), stalls, and cuts the link.

    net = Network(table_port)            # its own thread; phones go to net.url
    net.profile = PROFILES["busy"]       # 300 ms ± 300 round trip, 3 % loss, 2 s stalls
    net.outage(20)                       # the link gone for 20 s, then back by itself

An outage is a router that stops forwarding: a new connection's SYN is lost (the proxy
stops accepting and its backlog is full, so the kernel drops it and the phone's TCP
sends it again 1, 3, 7, 15 … s later), bytes on an open connection are held and sent
again by TCP's retransmission timer (0.2 s doubling) once the link is back.  With
`new="refused"` a new connection is reset at once instead (the phone's Wi-Fi itself
down); with `new="held"` it connects and then hears nothing.
`Link` is the same on an asyncio loop of one's own (bench/seats.py).
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
import threading
import time
from dataclasses import dataclass, field

CHUNK = 65536
BACKLOG = 128
RTO_S = 0.2  # TCP's first retransmission timeout (Linux's minimum); it doubles


@dataclass(frozen=True)
class Profile:
    """One direction's delay is `delay_s` ± `jitter_s` (uniform); a round trip twice that."""

    name: str
    delay_s: float = 0.0
    jitter_s: float = 0.0
    loss: float = 0.0  # share of chunks lost: each arrives `resend_s` late, and all behind it
    resend_s: float = 1.0
    stall_every_s: float = 0.0  # the whole link stalls `stall_s` at random, this often on average
    stall_s: float = 0.0


PROFILES = {
    "quiet": Profile("quiet"),
    "home": Profile("home", delay_s=0.025, jitter_s=0.015),  # round trip 20–80 ms
    "busy": Profile("busy", delay_s=0.15, jitter_s=0.15, loss=0.03, resend_s=1.0,  # a busy hotspot:
                    stall_every_s=20.0, stall_s=2.0),  # 300 ms ± 300 round trip, 3 % loss, 2 s stalls
    "slow": Profile("slow", delay_s=0.45),  # a steady 0.9 s round trip
}
OUTAGES_S = (5, 20, 60, 300)  # the outage profile: the link gone this long, then back


def resent_after(held_s: float) -> float:
    """When TCP sends a segment again that the link held for `held_s`: the first moment of its
    retransmission schedule (0.2, 0.6, 1.4, 3.0 … s, capped at 120 s apart) at or after."""
    at, step = 0.0, RTO_S
    while at < held_s:
        at, step = at + step, min(step * 2, 120.0)
    return at


def connecting(port: int, table: str = "/proc/net/tcp") -> set[int]:
    """Local ports of this machine's IPv4 connections to `port` in SYN-SENT (state 02)."""
    ports = set()
    with open(table) as rows:
        for row in list(rows)[1:]:
            local, remote, state = row.split()[1:4]
            if state == "02" and int(remote.split(":")[1], 16) == port:
                ports.add(int(local.split(":")[1], 16))
    return ports


@dataclass
class Carried:
    """One connection through the link: when it opened (monotonic), when it ended and why."""

    opened: float
    closed: float | None = None
    by: str = ""  # "phone", "table" (whose side closed first) or "refused"
    path: str = ""  # what the phone asked first ("/ws" for a WebSocket)


@dataclass
class Link:
    """The proxy on the running asyncio loop: `await start()`, then phones use `url`."""

    target: tuple[str, int]
    profile: Profile = PROFILES["quiet"]
    seed: int | None = None
    carried: list[Carried] = field(default_factory=list)
    spread: bool = False  # each connection reaches the table from a loopback address of its own (127.0.0.2 …),
    # as phones on a hotspot each have theirs: the table's limits per address count one phone each

    async def start(self, host: str = "127.0.0.1") -> str:
        self.loop = asyncio.get_running_loop()
        self.rng = random.Random(self.seed)
        self.up = asyncio.Event()
        self.up.set()
        self.new = "lost"
        self.down_since = 0.0
        self.stalled_until = 0.0
        self._tasks: set[asyncio.Task] = set()
        self._restore: asyncio.TimerHandle | None = None
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(BACKLOG)
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self._spawn(self._accept())
        self._spawn(self._stalls())
        return self.url

    def _spawn(self, coro) -> None:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # the link's state ----------------------------------------------------------------

    def outage(self, seconds: float | None = None, new: str = "lost") -> None:
        """The link goes (back by itself after `seconds`; None: until `restore()`).  A new
        connection meanwhile is `new`: "lost" (its SYNs), "refused" (reset at once) or
        "held" (connected, then nothing carried until the link is back)."""
        if self._restore is not None:
            self._restore.cancel()
        if self.up.is_set():
            self.down_since = time.monotonic()
        self.up.clear()
        self.new = new
        if new == "lost":
            self.sock.listen(0)  # the backlog is full at once: further SYNs are dropped
        self._restore = self.loop.call_later(seconds, self.restore) if seconds is not None else None

    def restore(self) -> None:
        if self._restore is not None:
            self._restore.cancel()
            self._restore = None
        self.sock.listen(BACKLOG)
        self.up.set()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.sock.close()

    async def _stalls(self) -> None:
        while True:
            if not self.profile.stall_every_s:
                await asyncio.sleep(0.5)
                continue
            await asyncio.sleep(self.rng.expovariate(1 / self.profile.stall_every_s))
            self.stalled_until = max(self.stalled_until, time.monotonic() + self.profile.stall_s)

    # connections -----------------------------------------------------------------------

    async def _accept(self) -> None:
        while True:
            if self.new == "lost":
                await self.up.wait()  # while down nothing is accepted: the backlog fills, SYNs are lost
            conn, _ = await self.loop.sock_accept(self.sock)
            record = Carried(time.monotonic())
            self.carried.append(record)
            if not self.up.is_set() and self.new == "refused":
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                conn.close()  # a reset
                record.closed, record.by = record.opened, "refused"
                continue
            self._spawn(self._carry(conn, record))

    async def _carry(self, conn: socket.socket, record: Carried) -> None:
        phone_reader, phone_writer = await asyncio.open_connection(sock=conn)
        await self.up.wait()  # accepted as the link went: it goes on once the link is back
        try:
            local = (f"127.0.0.{2 + len(self.carried) % 250}", 0) if self.spread else None
            table_reader, table_writer = await asyncio.open_connection(*self.target, local_addr=local)
        except OSError:
            phone_writer.transport.abort()
            record.closed, record.by = time.monotonic(), "table"
            return
        ends: list[str] = []
        reset = (lambda: "table" in ends, phone_writer.transport.abort)  # as the table's kernel would
        await asyncio.gather(self._pipe(phone_reader, table_writer, "phone", ends, reset, record),
                             self._pipe(table_reader, phone_writer, "table", ends), return_exceptions=True)
        record.closed, record.by = time.monotonic(), ends[0] if ends else "?"

    async def _pipe(self, reader, writer, side: str, ends: list[str], reset=None, record: Carried | None = None) -> None:
        """`side`'s bytes to the other, each chunk due one way's delay later, in order.  With
        `reset` (closed, abort): bytes that arrive after the other side `closed()` `abort()`
        the sender at once, as a closed socket's RST does, however long its own FIN is held."""
        queue: asyncio.Queue = asyncio.Queue()
        carry = self.loop.create_task(self._deliver(queue, writer, reset))
        last = 0.0
        try:
            while True:
                try:
                    data = await reader.read(CHUNK)
                except OSError:
                    data = b""
                if record is not None and not record.path and data.startswith(b"GET "):
                    record.path = data.split(b" ", 2)[1].decode("latin-1")
                p = self.profile
                due = max(last, time.monotonic() + max(0.0, p.delay_s + self.rng.uniform(-p.jitter_s, p.jitter_s)))
                if data and p.loss and self.rng.random() < p.loss:
                    due += p.resend_s
                last = due
                queue.put_nowait((due, data))
                if not data:
                    ends.append(side)
                    break
            await carry
        finally:
            carry.cancel()

    async def _deliver(self, queue: asyncio.Queue, writer, reset) -> None:
        while True:
            due, data = await queue.get()
            while True:
                now = time.monotonic()
                if not self.up.is_set():
                    await self.up.wait()  # held; TCP sends it again on its own schedule
                    held = time.monotonic() - max(self.down_since, due)
                    due = max(due, self.down_since) + resent_after(held)
                elif now < max(due, self.stalled_until):
                    await asyncio.sleep(max(due, self.stalled_until) - now)
                else:
                    break
            if not data:
                writer.close()
                return
            if reset is not None and reset[0]():
                reset[1]()
                return
            try:
                writer.write(data)
                await writer.drain()
            except OSError:
                return


class Network:
    """A `Link` on a thread of its own (for tests that drive browsers synchronously)."""

    def __init__(self, port: int, profile: Profile = PROFILES["quiet"], seed: int | None = 0, host: str = "127.0.0.1",
                 spread: bool = False):
        self.loop = asyncio.new_event_loop()
        self.link = Link((host, port), profile, seed, spread=spread)
        self._thread = threading.Thread(target=self.loop.run_forever, name="netem", daemon=True)
        self._thread.start()
        self.url = self._call(self.link.start(host))

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def _soon(self, fn, *args) -> None:
        self.loop.call_soon_threadsafe(fn, *args)

    @property
    def profile(self) -> Profile:
        return self.link.profile

    @profile.setter
    def profile(self, profile: Profile) -> None:
        self.link.profile = profile

    def outage(self, seconds: float | None = None, new: str = "lost") -> None:
        done = threading.Event()
        self._soon(lambda: (self.link.outage(seconds, new), done.set()))
        done.wait(5)

    def restore(self) -> None:
        done = threading.Event()
        self._soon(lambda: (self.link.restore(), done.set()))
        done.wait(5)

    def carried(self) -> list[Carried]:
        return list(self.link.carried)

    def connecting(self) -> set[int]:
        """The phones' connections to this link still waiting for their SYN to be answered
        (SYN-SENT, from /proc/net/tcp: the phones are on this machine): their local ports."""
        return connecting(self.link.port)

    def sockets(self) -> list[Carried]:
        """The WebSockets carried so far (open or closed)."""
        return [c for c in self.link.carried if c.path == "/ws"]

    def stop(self) -> None:
        self._call(self.link.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self.loop.close()
