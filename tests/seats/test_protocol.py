"""The phones' protocol over a real aiohttp server: pairing, acting, and every refusal.

Each refusal is checked to leave the game, the claims and the other phones unchanged.
"""

from __future__ import annotations

import pytest

from companion.games.uttt.rules import move
from companion.play.controller import TABLE
from tests.seats.conftest import Phone

pytestmark = pytest.mark.asyncio


async def seated(phones, room, seat: int):
    phone = await phones()
    await phone.ask({"type": "hello", "room": room.token, "lang": "en"}, "seats")
    claimed = await phone.ask({"type": "claim", "room": room.token, "seat": seat}, "claimed")
    await phone.next("display")
    return phone, claimed["device"]


async def test_claim_a_seat_then_play_and_every_phone_gets_its_own_model(phones, table):
    controller, room = table
    red, _ = await seated(phones, room, 0)
    blue, _ = await seated(phones, room, 1)
    assert room.claimed() == {0: True, 1: True}
    assert room.join_url("http://pi:8765") is None  # every seat claimed: no more QR
    mover = [red, blue][controller.session.state.to_move()]
    cell = controller.session.state.legal_cells()[0]
    start = len(mover.received)
    await mover.send({"type": "act", "id": 1, "kind": "cell", "value": cell})
    assert (await mover.next("done")) == {"type": "done", "id": 1}
    assert controller.store.actions(controller.session.id) == [move(cell)]  # on disk before "done"
    shown = [m for m in mover.received[start:] if m["type"] == "display"][-1]  # the new model came first
    assert shown["model"]["board"]["cells"][cell] is not None
    other = blue if mover is red else red
    await other.ask({"type": "ping"}, "pong")
    theirs = [m for m in other.received if m["type"] == "display"][-1]
    assert theirs["seat"] != shown["seat"] and theirs["model"]["board"]["cells"][cell] is not None
    assert theirs["model"]["offers"] == [o for o in _rendered_offers(controller, theirs["seat"])]


def _rendered_offers(controller, seat):
    from companion.seats.room import render

    return render(controller.display(seat)["offers"], "en")


async def test_seats_list_names_and_free_places(phones, table):
    controller, room = table
    await seated(phones, room, 1)
    phone = await phones()
    listing = await phone.ask({"type": "hello", "room": room.token, "lang": "ja"}, "seats")
    assert [(s["seat"], s["free"]) for s in listing["seats"]] == [(0, True), (1, False)]
    assert "番" in listing["seats"][0]["name"]


async def test_a_phone_resumes_with_its_device_key_and_gets_a_full_snapshot(phones, table):
    controller, room = table
    red, key = await seated(phones, room, 0)
    await red.ws.close()
    again = await phones()
    joined = await again.ask({"type": "hello", "device": key, "lang": "en"}, "joined")
    assert joined["seat"] == 0 and joined["last_id"] == 0
    snapshot = await again.next("display")
    assert snapshot["model"]["board"] == _public_board(controller)


def _public_board(controller):
    from companion.seats.room import render

    return render(controller.display(0)["board"], "en")


async def test_a_second_socket_of_the_same_phone_replaces_the_first(phones, table):
    controller, room = table
    red, key = await seated(phones, room, 0)
    again = await phones()
    await again.ask({"type": "hello", "device": key}, "joined")
    assert (await red.next("refused"))["code"] == "replaced"
    assert len([link for link in room.links if link.seat == 0]) == 1


async def test_release_on_the_table_frees_the_seat_and_tells_the_phone(phones, table):
    controller, room = table
    red, key = await seated(phones, room, 0)
    room.release(0)
    assert (await red.next("refused"))["code"] == "released"
    assert room.claimed() == {}
    other = await phones()
    assert (await other.ask({"type": "hello", "device": key}, "refused"))["code"] == "handed_over"  # told why, not "unknown"
    await other.ask({"type": "hello", "room": room.token}, "seats")
    assert (await other.ask({"type": "claim", "room": room.token, "seat": 0}))["type"] == "claimed"


async def test_a_new_game_on_the_table_is_a_new_room(phones, table):
    controller, room = table
    red, key = await seated(phones, room, 0)
    old = room.token
    controller.act(TABLE, "another")
    assert (await red.next("refused"))["code"] == "game_over"
    assert room.token != old
    phone = await phones()
    stale = await phone.ask({"type": "hello", "room": old})  # the QR of the game before: where the new one is
    assert stale["code"] == "room_old" and "電話" in (await phone.ask({"type": "hello", "room": old, "lang": "ja"}))["text"]
    assert (await phone.ask({"type": "hello", "device": key}))["code"] == "other_game"


async def test_a_watcher_sees_the_public_model_and_may_not_act(phones, table):
    controller, room = table
    watcher = await phones()
    await watcher.ask({"type": "hello", "room": room.token}, "seats")
    await watcher.ask({"type": "watch", "room": room.token}, "joined")
    shown = await watcher.next("display")
    assert shown["seat"] is None and shown["model"]["offers"] == []
    refused = await watcher.ask({"type": "act", "id": 1, "kind": "cell", "value": 40}, "refused")
    assert refused["code"] == "watching_only" and refused["id"] == 1
    assert controller.session.actions == []


# refusals: each with a clear message, nothing changed ----------------------------------


def snapshot(controller, room):
    return (list(controller.session.actions), dict(room.claims.of_game(room.game_id)), room.token)


@pytest.mark.parametrize("hello", [
    {"type": "hello", "room": "wrong-token"},
    {"type": "hello", "room": None},
    {"type": "hello", "room": 12},
])
async def test_a_wrong_room_token_is_refused(phones, table, hello):
    controller, room = table
    before = snapshot(controller, room)
    phone = await phones()
    refused = await phone.ask(hello, "refused")
    assert refused["code"] == "room_token" and "QR" in refused["text"]
    claim = await phone.ask({"type": "claim", "room": "wrong-token", "seat": 0}, "refused")
    assert claim["code"] == "room_token"
    assert snapshot(controller, room) == before


async def test_a_second_phone_on_a_claimed_seat_is_refused(phones, table):
    controller, room = table
    red, key = await seated(phones, room, 0)
    before = snapshot(controller, room)
    thief = await phones()
    await thief.ask({"type": "hello", "room": room.token}, "seats")
    refused = await thief.ask({"type": "claim", "room": room.token, "seat": 0}, "refused")
    assert refused["code"] == "seat_taken" and "Release" in refused["text"]
    assert snapshot(controller, room) == before
    assert [link.seat for link in room.links] == [0, None]


@pytest.mark.parametrize("seat", [2, -1, "0", True, None])
async def test_a_seat_that_does_not_exist_is_refused(phones, table, seat):
    controller, room = table
    phone = await phones()
    refused = await phone.ask({"type": "claim", "room": room.token, "seat": seat}, "refused")
    assert refused["code"] == "no_seat"
    assert room.claimed() == {}


async def test_a_guessed_device_key_is_refused(phones, table):
    controller, room = table
    await seated(phones, room, 0)
    before = snapshot(controller, room)
    guess = await phones()
    for key in ["x" * 43, "", 123]:
        refused = await guess.ask({"type": "hello", "device": key}, "refused")
        assert refused["code"] == "device_unknown"
    assert (await guess.ask({"type": "act", "id": 1, "kind": "cell", "value": 40}))["code"] == "not_joined"
    assert snapshot(controller, room) == before


async def test_a_replayed_message_is_applied_once(phones, table):
    controller, room = table
    red, key = await seated(phones, room, 0)
    blue, _ = await seated(phones, room, 1)
    first = controller.session.state.to_move()
    mover = [red, blue][first]
    cell = controller.session.state.legal_cells()[0]
    await mover.send({"type": "act", "id": 5, "kind": "cell", "value": cell})
    await mover.next("done")
    controller.undo_to(0)  # the table takes it back, so the cell would be legal again
    for seq in (5, 4):
        refused = await mover.ask({"type": "act", "id": seq, "kind": "cell", "value": cell}, "refused")
        assert refused["code"] == "replay" and refused["id"] == seq
    assert controller.session.actions == []


async def test_the_message_number_survives_a_restart(phones, table, store):
    from companion.seats.claims import Claims

    controller, room = table
    red, key = await seated(phones, room, 0)
    await red.send({"type": "act", "id": 9, "kind": "undo"})
    await red.next("refused")
    assert Claims(store).by_key(key).last_seq == 9  # what a restarted server reads


async def test_an_out_of_turn_move_is_refused_with_the_controllers_words(phones, table):
    controller, room = table
    red, _ = await seated(phones, room, 0)
    blue, _ = await seated(phones, room, 1)
    waiting = [red, blue][1 - controller.session.state.to_move()]
    refused = await waiting.ask({"type": "act", "id": 1, "kind": "cell", "value": 40}, "refused")
    assert refused["code"] == "not_now" and refused["text"] == "That is the other player's to do now"
    assert controller.session.actions == []


async def test_the_seat_comes_from_the_connection_never_the_message(phones, table):
    controller, room = table
    red, _ = await seated(phones, room, 0)
    blue, _ = await seated(phones, room, 1)
    waiting_seat = 1 - controller.session.state.to_move()
    waiting = [red, blue][waiting_seat]
    mover_seat = 1 - waiting_seat
    refused = await waiting.ask({"type": "act", "id": 1, "kind": "cell", "value": 40, "seat": mover_seat,
                                 "who": mover_seat}, "refused")
    assert refused["code"] == "not_now"
    assert controller.session.actions == []


@pytest.mark.parametrize("frame", ["not json", "[1, 2]", "42", '{"type": 3}', '{"type": "fly"}',
                                   '{"type": "act", "id": "1", "kind": "cell"}',
                                   '{"type": "act", "id": 0, "kind": "cell"}',
                                   '{"type": "act", "id": 2, "kind": null}'])
async def test_a_malformed_frame_is_refused(phones, table, frame):
    controller, room = table
    red, _ = await seated(phones, room, 0)
    before = snapshot(controller, room)
    assert (await red.ask(frame, "refused"))["code"] == "malformed"
    await red.ws.send_bytes(b"\x00\x01")
    assert (await red.next("refused"))["code"] == "malformed"
    assert snapshot(controller, room) == before
    assert (await red.ask({"type": "ping"}))["type"] == "pong"  # the socket goes on


async def test_an_oversized_frame_is_refused_and_a_huge_one_closes_the_socket(phones, table):
    from aiohttp import WSMsgType

    controller, room = table
    red, _ = await seated(phones, room, 0)
    before = snapshot(controller, room)
    big = {"type": "act", "id": 1, "kind": "cell", "value": "x" * 5000}
    assert (await red.ask(big, "refused"))["code"] == "too_large"
    await red.send("x" * 100_000)
    closing = await red.ws.receive(timeout=2)
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
    assert red.ws.close_code == 1009  # message too big
    assert snapshot(controller, room) == before


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None])
async def test_a_foreign_origin_is_refused(phones, table, origin):
    from aiohttp import WSServerHandshakeError

    controller, room = table
    await phones()  # the server is up
    with pytest.raises(WSServerHandshakeError) as refused:
        await phones(origin=origin)
    assert refused.value.status == 403
    assert room.links == [room.links[0]]


@pytest.mark.parametrize("path", ["/../store.py", "/%2e%2e/room.py", "/..%2froom.py", "/static/../../room.py",
                                  "/%2e%2e/%2e%2e/config.yaml", "/..%5croom.py"])
async def test_a_path_outside_the_static_folder_is_refused(phones, table, path):
    import asyncio

    await phones()
    client = phones.client()
    reader, writer = await asyncio.open_connection(client.host, client.port)  # the path exactly as typed
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    answer = (await reader.read()).decode(errors="replace")
    writer.close()
    status = int(answer.split()[1])
    assert status in (403, 404), answer
    assert "import" not in answer
    if status == 403:
        assert "outside the phone page's folder" in answer


async def test_a_path_that_resolves_outside_is_refused_by_name(phones, table):
    await phones()
    response = await phones.client().get("/..%2fserver.py")
    assert response.status == 403
    assert await response.text() == "refused: outside the phone page's folder\n"


async def test_the_page_and_its_words_are_served(phones, table):
    await phones()
    client = phones.client()
    page = await client.get("/")
    assert page.status == 200 and "phone.js" in await page.text()
    words = await (await client.get("/strings.json?lang=ja")).json()
    assert words["choose_seat"] == "あなたの席を選んでください"
    sizes = [len(await (await client.get(f"/{name}")).read()) for name in ("index.html", "phone.js", "phone.css")]
    assert sum(sizes) <= 50 * 1024


async def test_the_server_beats_so_that_a_phone_notices_a_dead_link(phones, table):
    phone = await phones(beat_s=0.05)
    assert await phone.ws.receive_json(timeout=1) == {"type": "welcome", "beat_s": 0.05, "quiet_s": 8.0}
    assert await phone.ws.receive_json(timeout=1) == {"type": "beat"}


async def test_a_silent_phone_is_cut_after_the_quiet_time_and_a_slow_one_is_not(phones, table):
    """Issue 42: a socket whose pong is late is not closed (the old heartbeat closed one after
    0.75 s); one that answers nothing at all (its link gone) is cut after `quiet_s`."""
    import asyncio
    import time

    controller, room = table
    await phones(beat_s=0.05, quiet_s=0.3)  # the server, with a short quiet time
    red, key = await seated(phones, room, 0)
    await red.ws.close()
    client = phones.client()
    headers = {"Origin": f"http://{client.host}:{client.port}"}
    answering = Phone(await client.ws_connect("/ws", headers=headers))  # a browser answers pings:
    reading = asyncio.create_task(_read_until_closed(answering.ws))  # aiohttp's client, while it reads
    silent = Phone(await client.ws_connect("/ws", headers=headers, autoping=False))  # a phone gone
    said = time.monotonic()  # the table hears the hello after this: its quiet time ends 0.3 s on at the soonest
    await silent.ask({"type": "hello", "device": key}, "display")
    assert room.claimed() == {0: True}
    start = time.monotonic()
    while room.claimed()[0]:
        assert time.monotonic() - start < 1.0, "a silent phone was not cut"
        await asyncio.sleep(0.01)
    assert time.monotonic() - said >= 0.3  # not before its quiet time (answering one's pings would be slow)
    await asyncio.sleep(0.5)
    assert not reading.done() and not answering.ws.closed
    reading.cancel()


async def _read_until_closed(ws):
    from aiohttp import WSMsgType

    while (message := await ws.receive()).type not in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR):
        pass
    return message


async def test_a_page_asks_whether_the_table_is_there_over_plain_http(phones, table):
    await phones()
    alive = await phones.client().get("/alive")
    assert alive.status == 204 and alive.headers["Cache-Control"] == "no-store"


async def test_a_phone_waiting_with_its_key_joins_when_its_game_is_back_on_the_table(phones, table, store):
    from companion.games.uttt.controller import UtttController

    controller, room = table
    red, key = await seated(phones, room, 0)
    game = controller.session.id
    room.attach(None)  # the table shows something else (after a restart: no game yet)
    assert (await red.next("refused"))["code"] == "game_over"
    waiting = await phones()
    assert (await waiting.ask({"type": "hello", "device": key}, "refused"))["code"] == "no_game"
    room.attach(UtttController.open(store))  # the unfinished game is opened again
    assert (await waiting.next("joined"))["seat"] == 0
    assert (await waiting.next("display"))["model"]["board"]["move_count"] == 0
    assert room.game_id == game and room.claimed() == {0: True}


async def test_more_sockets_than_a_table_has_use_for_are_refused(phones, table):
    from aiohttp import WSServerHandshakeError

    from companion.seats.gate import Gate

    first = [await phones(gate=Gate(keyless=3)) for _ in range(3)]
    with pytest.raises(WSServerHandshakeError) as refused:
        await phones()
    assert refused.value.status == 503
    await first[0].ws.close()
    await first[1].ask({"type": "ping"}, "pong")  # the server has seen the close by now
    assert (await (await phones()).ask({"type": "ping"}))["type"] == "pong"


async def test_the_table_plays_an_away_seat_until_its_phone_is_back_or_hands_it_over(phones, table, store):
    """Issue 42: a phone gone does not hold the table hostage.  While it is away the room
    says since when; the table may play its seat (the phone gets it back when it returns,
    with every move made meanwhile), or hand it to another phone (the old one is told)."""
    controller, room = table
    red, key = await seated(phones, room, 0)
    assert room.away() == {} and controller.remote == {0}
    await red.ws.close()
    await (await phones()).ask({"type": "ping"}, "pong")  # the server has seen the close by now
    assert set(room.away()) == {0} and room.away()[0] <= store.clock()
    assert controller.remote == {0}  # kept for its phone: the table may not play it yet
    room.lend(0)
    assert controller.remote == frozenset()
    controller.act(TABLE, "cell", 40)  # the table plays red's move
    back = await phones()
    await back.ask({"type": "hello", "device": key}, "joined")
    shown = await back.next("display")
    assert shown["model"]["board"]["move_count"] == 1  # what it missed
    assert controller.remote == {0} and room.away() == {} and room.lent == set()

    await back.ws.close()
    await (await phones()).ask({"type": "ping"}, "pong")
    room.release(0)  # handed to another phone
    assert room.claimed() == {} and room.away() == {}
    late = await phones()
    refused = await late.ask({"type": "hello", "device": key}, "refused")
    assert refused["code"] == "handed_over" and "another phone" in refused["text"]


async def test_a_try_given_up_during_its_handshake_is_no_error(phones, table, caplog):
    """The page tries sockets side by side and drops the rest once one opens (phone.js): a
    try whose connection is gone before the table answers its handshake was logged as an
    error with a traceback ("Error handling request", "Connection lost") every time."""
    import asyncio
    import logging
    import socket
    import struct

    await phones()
    client = phones.client()
    for _ in range(5):
        _, writer = await asyncio.open_connection(client.host, client.port)
        where = f"{client.host}:{client.port}"
        writer.write((f"GET /ws HTTP/1.1\r\nHost: {where}\r\nOrigin: http://{where}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Protocol: companion\r\n\r\n").encode())
        raw = writer.get_extra_info("socket")
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()  # a reset, as the browser's given-up try
    await asyncio.sleep(0.3)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
