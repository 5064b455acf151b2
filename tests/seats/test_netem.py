"""The bad network the phone tests use (tests/seats/netem.py) does what it says: a round
trip as long as its profile, an outage that loses new connections' SYNs and holds bytes
(sent again on TCP's schedule once the link is back), a refused one that resets."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.seats.netem import Link, Profile, resent_after



async def echo_server():
    async def echo(reader, writer):
        while data := await reader.read(1024):
            writer.write(data)
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def round_trip(reader, writer, payload: bytes = b"x") -> float:
    start = time.monotonic()
    writer.write(payload)
    await writer.drain()
    assert await reader.readexactly(len(payload)) == payload
    return time.monotonic() - start


def test_tcp_sends_held_bytes_again_on_its_own_schedule():
    assert [resent_after(s) for s in (0.0, 0.1, 0.5, 5.0, 20.0)] == pytest.approx([0.0, 0.2, 0.6, 6.2, 25.4])


@pytest.mark.asyncio
async def test_a_round_trip_takes_the_profiles_delay_both_ways():
    server, port = await echo_server()
    link = Link(("127.0.0.1", port), Profile("test", delay_s=0.1, jitter_s=0.02), seed=1)
    await link.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", link.port)
    trips = [await round_trip(reader, writer) for _ in range(5)]
    assert all(0.16 <= t <= 0.3 for t in trips), trips
    writer.close()
    await link.stop()
    server.close()


@pytest.mark.asyncio
async def test_an_outage_holds_bytes_loses_new_connections_and_ends():
    server, port = await echo_server()
    link = Link(("127.0.0.1", port))
    await link.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", link.port)
    assert await round_trip(reader, writer) < 0.1
    link.outage(0.5)
    held = asyncio.ensure_future(round_trip(reader, writer))
    await asyncio.sleep(0.2)
    assert not held.done()  # frozen: nothing crosses, nothing is closed
    extra = [asyncio.ensure_future(asyncio.open_connection("127.0.0.1", link.port)) for _ in range(4)]
    await asyncio.sleep(0.2)
    assert sum(c.done() for c in extra) <= 2  # the backlog's place and the accept under way; the rest lost
    assert 0.5 <= await held <= 1.5  # after the link is back, on TCP's schedule
    link.outage(None, "refused")
    refused_reader, _ = await asyncio.open_connection("127.0.0.1", link.port)
    with pytest.raises(ConnectionResetError):  # reset at once
        await asyncio.wait_for(refused_reader.read(1), 1.0)
    link.restore()
    assert await round_trip(reader, writer) < 0.1
    for c in extra:
        c.cancel()
    writer.close()
    await link.stop()
    server.close()
