"""Issue 42 item 5: two seats on phones place their fleets at the same time (九九戦艦 and
Battleship), each on its own screen; a seat at the table places there (behind its cover)
while the phone's seat places on the phone.  The log stays the truth: each placement is
an action naming its seat when it is not the seat to move, the attacks begin once both
fleets are in, and Undo takes back the placer's own last ship, never the other's.  No
display a seat (or the table) reads ever holds the other seat's ships."""

from __future__ import annotations

import json
import random
from contextlib import contextmanager

import pytest

from companion.games.battleship.controller import BattleshipController
from companion.games.battleship.fleet import index
from companion.games.kuku.controller import KukuController
from companion.play.controller import TABLE, Refused, to_json
from companion.play.session import Session
from tests.seats.browser import Table

KUKU = {0: [("leader", "9×9"), ("normal", "1×1"), ("normal", "5×5")],
        1: [("leader", "2×1"), ("normal", "3×8"), ("normal", "7×7")]}
SEA = {0: [("carrier", "A1", "h"), ("battleship", "C1", "h"), ("cruiser", "E1", "h"), ("submarine", "G1", "h"),
           ("destroyer", "I1", "h")],
       1: [("carrier", "A6", "v"), ("battleship", "A8", "v"), ("cruiser", "H1", "h"), ("submarine", "J1", "h"),
           ("destroyer", "J8", "h")]}


def kuku(store, phones=frozenset({0, 1})):
    c = KukuController.open(store, rng=random.Random(7))
    c.act(TABLE, "choose", {"opponent": "2p"})
    c.act(TABLE, "start", ["Aki", "Ben"])
    c.hold_remote(frozenset(phones))
    return c


def battleship(store, phones=frozenset({0, 1})):
    c = BattleshipController.open(store, rng=random.Random(5))
    c.act(TABLE, "start")
    c.hold_remote(frozenset(phones))
    return c


def no_leak(c) -> None:
    """Nobody reads the other seat's ships: not a phone, not the table (nor its placer's screen)."""
    state = c.session.state
    for who in (TABLE, 0, 1):
        text = json.dumps(to_json(c.display(who)), ensure_ascii=False)
        for seat in {0, 1} - {who}:
            for secret in state.secrets(seat):
                assert secret not in text, f"{secret} of seat {seat} shown to {who}"


def kuku_place(c, seat, kind, cell):
    c.act(seat, "kind", kind)
    c.act(seat, "cell", cell)
    no_leak(c)


def sea_place(c, seat, ship, cell, direction):
    if c.desks[seat].direction != direction:
        c.act(seat, "rotate")
    c.act(seat, "ship", ship)
    c.act(seat, "cell", index(cell))
    no_leak(c)


def test_two_kuku_phones_place_at_once_and_each_takes_back_only_its_own(store):
    c = kuku(store)
    assert c.stage_of(0) == c.stage_of(1) == "place" and c.stage() == "cover"  # both at once
    kuku_place(c, 1, *KUKU[1][0])  # the second placer first: it does not wait
    kuku_place(c, 0, *KUKU[0][0])
    kuku_place(c, 1, "normal", "4×4")
    kuku_place(c, 0, *KUKU[0][1])
    c.act(1, "undo")  # its own 4×4, though seat 0 placed since
    assert c.session.state.fleets == (((KUKU[0][0][1], "leader"), (KUKU[0][1][1], "normal")),
                                      ((KUKU[1][0][1], "leader"),))
    assert c.session.actions[-1] == {"type": "unplace", "seat": 1}
    c.act(0, "undo")  # its own last ship, the log's last placement: taken off the log
    assert c.session.state.fleets[0] == ((KUKU[0][0][1], "leader"),)
    with pytest.raises(Refused):  # a phone's own move never places for the other seat
        c.act(0, "move", {"type": "place", "kind": "normal", "cell": "6×6", "seat": 1})
    c.act(1, "move", {"type": "place", "kind": "normal", "cell": "6×6"})  # its own, named for it
    assert c.session.actions[-1] == {"type": "place", "kind": "normal", "cell": "6×6", "seat": 1}
    c.act(1, "undo")
    for seat in (0, 1):
        for kind, cell in KUKU[seat][1:]:
            assert c.stage_of(seat) == "place"
            kuku_place(c, seat, kind, cell)
        if seat == 0:  # its fleet in, it waits for the other's: the game is not on yet
            assert c.stage_of(0) == "place" and c.session.state.phase == "place"
            assert [o.kind for o in c.display(0)["offers"]] == ["undo"]
    assert c.stage() == "play" and c.session.state.to_move() == 0  # both fleets in: the first attacks
    assert not c.display(1)["can_undo"]  # the game is on: no fleet is taken back now
    assert Session.resume(store, c.session.id).state == c.session.state  # the log is the truth


def test_kuku_at_the_table_and_on_a_phone_place_at_the_same_time(store):
    c = kuku(store, phones={1})
    assert c.stage() == "cover" and c.stage_of(1) == "place"
    kuku_place(c, 1, *KUKU[1][0])  # the phone does not wait for the table's cover
    c.act(TABLE, "open")
    assert c.holder() == 0 and c.stage_of(1) == "place"
    for (kind, cell), theirs in zip(KUKU[0], KUKU[1][1:] + [None]):
        kuku_place(c, 0, kind, cell)
        if theirs:
            kuku_place(c, 1, *theirs)
    assert c.session.state.phase == "play" and c.stage() == "place"  # the table's placer hides its fleet first
    c.act(0, "undo")  # its own last ship, before it hides (the log's last action)
    kuku_place(c, 0, *KUKU[0][-1])
    c.act(0, "hide")
    assert c.stage() == "play"
    assert Session.resume(store, c.session.id).state == c.session.state


def test_a_phone_placing_while_the_table_places_in_turn_keeps_the_table_out_of_its_fleet(store):
    c = kuku(store, phones={0})  # the first placer on its phone, the second at the table
    kuku_place(c, 0, *KUKU[0][0])
    c.act(TABLE, "open")  # the second placer need not wait for the first
    assert c.holder() == 1
    for kind, cell in KUKU[1]:
        kuku_place(c, 1, kind, cell)
    c.act(1, "hide")
    assert c.stage() == "cover" and c.display(TABLE)["cover"][0].params == {"player": "Aki"}  # the phone's
    assert c.session.actions[0] == {"type": "place", "kind": "leader", "cell": "9×9"}  # the seat to move's
    assert all(a["seat"] == 1 for a in c.session.actions[1:])  # out of turn: named
    for kind, cell in KUKU[0][1:]:
        kuku_place(c, 0, kind, cell)
    assert c.stage() == "play"


def test_two_battleship_phones_place_at_once_and_each_takes_back_only_its_own(store):
    c = battleship(store)
    assert c.stage() == "play" and c.stage_of(0) == c.stage_of(1) == "place"
    status = c.display(TABLE)["status"]
    assert [line.key for line in status] == ["battleship_ui.phone_placing"] * 2  # both, at once
    for ours, theirs in zip(SEA[0][:2], SEA[1][:2]):
        sea_place(c, 1, *theirs)  # the second placer first: it does not wait
        sea_place(c, 0, *ours)
    c.act(1, "undo")  # its own battleship, though seat 0 placed since
    assert [ship for ship, _, _ in c.session.state.fleets[1]] == ["carrier"]
    assert len(c.session.state.fleets[0]) == 2
    sea_place(c, 1, *SEA[1][1])
    for ship in SEA[1][2:]:
        sea_place(c, 1, *ship)
    model = c.display(1)
    assert model["stage"] == "place" and model["status"][0].key == "battleship_ui.fleet_in_wait"
    assert [o.kind for o in model["offers"]] == ["undo"]  # nothing to hide, nothing to fire yet
    c.act(0, "random")  # the rest of seat 0's fleet
    assert c.phase() == "shoot" and c.stage_of(0) == "play" and c.session.state.to_move() == 0
    assert Session.resume(store, c.session.id).state == c.session.state


def test_battleship_at_the_table_and_on_a_phone_place_at_the_same_time(store):
    c = battleship(store, phones={1})
    assert c.stage() == "cover"
    sea_place(c, 1, *SEA[1][0])
    c.act(TABLE, "open")
    for ours, theirs in zip(SEA[0], SEA[1][1:] + [None]):
        sea_place(c, 0, *ours)
        if theirs:
            sea_place(c, 1, *theirs)
    c.act(0, "done")
    assert c.phase() == "shoot" and c.stage() == "play"
    assert Session.resume(store, c.session.id).state == c.session.state


# in Debian's Chromium: two phones tap their fleets in, turn about -----------------------

@contextmanager
def two_phones(browser, tmp_path, open_game):
    """A table serving `open_game`'s game, a phone in each seat (seat 1's in Japanese); at
    the end, every frame each phone heard is its own seat's, with no ship of the other seat."""
    from tests.seats.test_phone_browser import check_frames, join
    table = Table(tmp_path, open_game)
    try:
        phones = {seat: join(browser, table, seat, locale="ja-JP" if seat else "en-US") for seat in (0, 1)}
        yield table, phones
        for seat, phone in phones.items():
            check_frames(phone)
            text = json.dumps([f for f in phone.frames if f["type"] == "display"], ensure_ascii=False)
            for secret in table.call(table.controller.session.state.secrets, 1 - seat):
                assert secret not in text, f"seat {seat} heard {secret}"
    finally:
        table.stop()


@pytest.mark.browser
def test_two_kuku_phones_place_their_fleets_at_once_in_a_browser(browser, tmp_path):
    from tests.seats.test_phone_browser import open_kuku, tap
    with two_phones(browser, tmp_path, open_kuku) as (table, phones):
        c = table.controller

        def place(seat, kind, cell):
            page = phones[seat].page
            tap(phones[seat], page.locator(f'button[data-kind="{kind}"]'))
            row, col = cell.split("×")
            page.locator(".keys.pad button").nth(int(row) - 1).click()
            tap(phones[seat], page.locator(".keys.pad button").nth(int(col) - 1))

        for ours, theirs in zip(KUKU[0], KUKU[1]):  # turn about: neither waits for the other
            place(1, *theirs)
            place(0, *ours)
            if ours == KUKU[0][0]:
                phones[1].shot("kuku-placing-together-ja")
        assert table.call(c.stage) == "play"


@pytest.mark.browser
def test_two_battleship_phones_place_their_fleets_at_once_in_a_browser(browser, tmp_path):
    from tests.seats.test_phone_browser import tap
    from tests.seats.test_phone_games_browser import open_battleship, tap_cell
    with two_phones(browser, tmp_path, open_battleship) as (table, phones):
        c = table.controller

        def place(seat, ship, cell, direction):
            phone = phones[seat]
            if table.call(lambda: c.desks[seat].direction) != direction:
                tap(phone, phone.page.locator('button[data-kind="rotate"]'))
            tap(phone, phone.page.locator(f'button[data-ship="{ship}"]'))
            tap_cell(phone, index(cell))

        for ours, theirs in zip(SEA[0][:4], SEA[1][:4]):  # turn about: neither waits for the other
            place(1, *theirs)
            place(0, *ours)
        place(1, *SEA[1][4])
        phones[1].shot("battleship-placed-waiting-ja")
        assert table.call(c.phase) == "place"
        tap(phones[0], phones[0].page.locator('button[data-kind="undo"]'))  # its own last ship, the submarine
        assert table.call(lambda: [s for s, _, _ in c.session.state.fleets[0]]) == [s for s, _, _ in SEA[0][:3]]
        tap(phones[0], phones[0].page.locator('button[data-kind="random"]'))
        assert table.call(c.phase) == "shoot"
