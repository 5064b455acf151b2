"""Whatever a seated phone sends to any of the five games, it is answered: a refusal in words
or the change it made, never an internal error, an exception out of the room (a traceback
in the server's log) or a dropped connection (issue 28: every refusal is a `Refused`, and
the room answers each one).

The phones play on as the game goes: most frames are something a seat's offer allows now
(so the game reaches its later stages), the others garbage values, kinds no offer names,
another seat's inputs and the table's.  GARBAGE_EXAMPLES=200 tries more (a longer run: none found
anything when this was written)."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.play.controller import TABLE
from companion.play.state import Refused
from companion.seats.claims import Claims
from companion.seats.room import Link, Room
from companion.store import Store

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)


def open_uttt(store):
    from companion.games.uttt.controller import UtttController

    return UtttController.open(store, rng=random.Random(1))


def open_kuku(store):
    from companion.games.kuku.controller import KukuController

    controller = KukuController.open(store, rng=random.Random(5))
    controller.act(TABLE, "start", ["Aki", "Ben"])
    return controller


def open_battleship(store):
    from companion.games.battleship.controller import BattleshipController

    controller = BattleshipController.open(store, rng=random.Random(5))
    controller.act(TABLE, "start")
    return controller


def open_gunkan(store):
    from companion.games.gunkan.controller import GunkanController

    controller = GunkanController.open(store)
    controller.act(TABLE, "mode", "seesaw")
    return controller


def open_navalwar(store):
    from companion.games.navalwar.controller import NavalWarController

    controller = NavalWarController.open(store, rng=random.Random(3))
    controller.act(TABLE, "players", 2)
    controller.act(TABLE, "start", ["Aki", "Ben"])
    return controller


GAMES = {"uttt": open_uttt, "kuku": open_kuku, "battleship": open_battleship, "gunkan": open_gunkan,
         "navalwar": open_navalwar}


def seated_room(store, open_game):
    controller = open_game(store)
    room = Room(Claims(store))
    room.attach(controller)
    phones = {}
    for seat in room.seats():
        sent: list[dict] = []
        link = Link(send=sent.append, close=sent.append)
        room.connect(link)
        room.handle(link, {"type": "hello", "room": room.token})
        room.handle(link, {"type": "claim", "room": room.token, "seat": seat})
        assert link.seat == seat, sent
        phones[seat] = (link, sent)
    assert phones, "no seat for a phone"
    return controller, room, phones


def an_input(data, controller, seat):
    """(kind, value) a phone of `seat` sends: an offer of its own now, mostly."""
    own = [o for o in controller.offers(seat) if o.kind != "undo"]
    others = [o for o in controller.offers(TABLE)]
    pick = data.draw(st.sampled_from(["own"] * 6 + ["other", "garbage_value", "garbage_kind"]))
    if pick == "own" and own:
        offer = data.draw(st.sampled_from(own))
        return offer.kind, data.draw(st.sampled_from(list(offer.choices))) if offer.choices else data.draw(JSON)
    if pick == "other" and others:
        offer = data.draw(st.sampled_from(others))
        return offer.kind, data.draw(st.sampled_from(list(offer.choices))) if offer.choices else data.draw(JSON)
    kinds = sorted(controller.handlers())
    if pick == "garbage_kind":
        return data.draw(st.sampled_from(kinds + ["x", "", "__init__", "weighing"]) | st.text(max_size=6)), data.draw(JSON)
    return data.draw(st.sampled_from(kinds)), data.draw(JSON)


TABLE_KEEPS_TO = {"new", "another", "mode", "ask", "end", "resign", "undo"}  # the table starts no other game


def the_table_enters(data, controller) -> None:
    """The table enters one of its offers (the seesaw's result, Naval War's dice and cards)."""
    offers = [o for o in controller.offers(TABLE) if o.kind not in TABLE_KEEPS_TO]
    if offers:
        offer = data.draw(st.sampled_from(offers))
        try:
            controller.act(TABLE, offer.kind, data.draw(st.sampled_from(list(offer.choices))) if offer.choices else None)
        except Refused:
            pass


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=int(os.environ.get("GARBAGE_EXAMPLES", 12)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_whatever_a_phone_sends_it_is_answered(tmp_path_factory, game, data):
    with Store(tmp_path_factory.mktemp(game) / "companion.db") as store:
        controller, room, phones = seated_room(store, GAMES[game])
        seq = {seat: 0 for seat in phones}
        for _ in range(data.draw(st.integers(5, 40), label="frames")):
            if controller.session is None or controller.session.state.is_over():
                break
            if data.draw(st.integers(0, 3)) == 0:
                the_table_enters(data, controller)
                continue
            seat = data.draw(st.sampled_from(sorted(phones)))
            link, sent = phones[seat]
            kind, value = an_input(data, controller, seat)
            seq[seat] += 1
            before = len(sent)
            room.handle(link, {"type": "act", "id": seq[seat], "kind": kind, "value": value})  # never raises
            replies = sent[before:]
            json.dumps(replies, ensure_ascii=False)
            answers = [m for m in replies if m.get("id") == seq[seat] and m["type"] in ("refused", "done")]
            assert len(answers) == 1, (kind, value, replies)
            assert answers[0].get("code") != "internal"
            if answers[0]["type"] == "refused":
                assert answers[0]["text"] and "Traceback" not in answers[0]["text"]
            assert link.seat == seat, f"the phone was let go after {kind!r} {value!r}"


GARBAGE = [("undo", {"a": [1, None]}), ("cell", "Z99"), ("no such kind", 1), ("weighing", "heavy"),
           ("start", None), ("choose", [[[]]]), ("place", {"kind": "leader", "cell": 1e300}), ("fire", -1)]


@pytest.fixture(params=sorted(GAMES))
def table(request, store):
    controller = GAMES[request.param](store)
    room = Room(Claims(store))
    room.attach(controller)
    return controller, room


@pytest.mark.asyncio
async def test_over_the_socket_each_game_answers_garbage_and_keeps_the_phone(phones, table):
    """Through the real server: every garbage input is answered in the phone's words, and
    the same socket is still seated and answering after all of them."""
    from tests.seats.test_protocol import seated

    controller, room = table
    phone, _ = await seated(phones, room, room.seats()[0])
    for seq, (kind, value) in enumerate(GARBAGE, start=1):
        await phone.send({"type": "act", "id": seq, "kind": kind, "value": value})
        answered = await phone.next()
        while answered["type"] == "display":
            answered = await phone.next()
        assert answered["type"] in ("refused", "done") and answered.get("id") == seq, answered
        assert answered.get("code") != "internal", answered
    assert (await phone.ask({"type": "ping"}, "pong")) == {"type": "pong"}
    assert room.claimed() == {room.seats()[0]: True}
