"""Battleship, 軍艦将棋 and Naval War on phones in a real browser (Debian's Chromium via
Playwright, one context per phone, 360×740) against the real server with the game on
its own thread: two phones play a whole Battleship game; every frame a phone receives
is its own seat's and holds no secret of the other seat.  Screenshots at 360×740."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.battleship.controller import BattleshipController
from companion.games.battleship.fleet import index
from companion.play.controller import TABLE
from tests.seats.browser import Table
from tests.seats.test_phone_browser import assert_finger_sized, check_frames, join, tap

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

RED_FLEET = [("carrier", "A1", "h"), ("battleship", "C1", "h"), ("cruiser", "E1", "h"), ("submarine", "G1", "h"),
             ("destroyer", "I10", "v")]
BLUE_SHOTS = [f"{row}{col}" for row in "ABCDEFGH" for col in (7, 8)]  # sixteen misses


def open_battleship(store):
    controller = BattleshipController.open(store, rng=random.Random(11))
    if controller.session is None:
        controller.act(TABLE, "start")
    return controller


def tap_cell(phone, cell: int) -> None:
    """A cell of the sea: its quarter first (unless shown), then the cell at finger size."""
    page, target = phone.page, phone.page.locator(f'.bzoom button[data-cell="{cell}"]')
    if not target.count():
        row, col = divmod(cell, 10)
        page.locator(f'.sea .quarter[data-quarter="{(row // 5) * 2 + col // 5}"]').first.click()
    tap(phone, target)


def no_secret_of_the_other(phones: dict, secrets: dict) -> None:
    for seat, phone in phones.items():
        check_frames(phone)
        text = json.dumps(phone.frames, ensure_ascii=False)
        for secret in secrets[1 - seat]:
            assert secret not in text, f"seat {seat} heard {secret}"


def test_two_phones_play_a_whole_battleship_game(browser, tmp_path):
    table = Table(tmp_path, open_battleship)
    try:
        c = table.controller
        red, blue = join(browser, table, 0, locale="ja-JP"), join(browser, table, 1)
        phones = {0: red, 1: blue}
        for n, (ship, cell, direction) in enumerate(RED_FLEET):
            if table.call(lambda: c.desks[0].direction) != direction:
                tap(red, red.page.locator('button[data-kind="rotate"]'))
            tap(red, red.page.locator(f'button[data-ship="{ship}"]'))
            tap_cell(red, index(cell))
            if n == 2:
                status = table.call(lambda: c.display(TABLE)["status"][0])
                assert status.key == "battleship_ui.phone_placing" and status.params["n"] == 3
                red.shot("battleship-placing-ja")
                assert_finger_sized(red)
                red.page.locator(".zoomhead button").click()  # the whole sea, under its caption
                captions = red.page.locator("#main .small").all_inner_texts()
                assert "自分の海 (船を置く)" in captions and not any("攻撃記録" in x for x in captions)  # issue 42
        tap(blue, blue.page.locator('button[data-kind="random"]'))  # the whole fleet at random
        assert table.call(c.phase) == "shoot"
        secrets = {seat: table.call(c.session.state.secrets, seat) for seat in (0, 1)}
        targets = {0: [index(s.split(":")[1]) for s in secrets[1]], 1: [index(s) for s in BLUE_SHOTS]}
        while not table.call(lambda: c.session.state.is_over()):
            mover = table.call(lambda: c.session.state.to_move())
            phone = phones[mover]
            tap_cell(phone, targets[mover].pop(0))
            if mover == 1 and len(targets[1]) == 15:
                blue.shot("battleship-aimed-en")
                assert_finger_sized(blue)
            tap(phone, phone.page.locator('button[data-kind="fire"]'))
            if table.call(c.stage) == "result":
                tap(phones[1 - mover], phones[1 - mover].page.locator('#actions button[data-kind="continue"]'))
            if mover == 0 and len(targets[0]) == 8:
                red.shot("battleship-shooting-ja")
        assert table.call(lambda: c.session.state.outcome().winner) == 0
        red.page.wait_for_timeout(200)
        red.shot("battleship-over-ja")
        blue.shot("battleship-over-en")
        no_secret_of_the_other(phones, secrets)
    finally:
        table.stop()


def test_in_a_tracked_battleship_game_the_defender_answers_on_its_phone(browser, tmp_path):
    def open_tracker(store):
        controller = BattleshipController.open(store, rng=random.Random(2), setup={
            "opponent": "tracker", "variant": "standard", "advanced": False, "first": 0, "level": "normal"})
        if controller.session is None:
            controller.act(TABLE, "start")
        return controller

    table = Table(tmp_path, open_tracker)
    try:
        c = table.controller
        blue = join(browser, table, 1, locale="ja-JP")  # the shooter plays at the table
        table.call(lambda: (c.act(TABLE, "cell", index("C3")), c.act(TABLE, "fire")))
        hit = blue.page.locator('button[data-answer="hit:cruiser"]')
        playwright_api.expect(hit).to_have_text("巡洋艦に命中")
        blue.shot("battleship-tracker-answer-ja")
        assert_finger_sized(blue)
        tap(blue, hit)
        assert table.call(lambda: c.session.actions[-1]) == {"type": "answer", "result": "hit", "ship": "cruiser"}
        playwright_api.expect(blue.page.locator("button[data-answer]")).to_have_count(0)  # blue shoots now
        tap_cell(blue, index("A1"))
        tap(blue, blue.page.locator('button[data-kind="fire"]'))
        assert table.call(c.phase) == "answer" and table.call(lambda: c.session.state.to_move()) == 0
        playwright_api.expect(blue.page.locator("button[data-answer]")).to_have_count(0)  # the table's to answer
        check_frames(blue)
    finally:
        table.stop()


# 軍艦将棋, judging "identify": a phone shows its own losses, and the other side only at the end

def open_gunkan(store):
    from companion.games.gunkan.controller import GunkanController
    from companion.play.session import Session

    games = store.games("active", kind="gunkan")
    session = Session.resume(store, games[0].id) if games else Session.start(
        store, "gunkan", {"judging": "identify"}, players=["red", "blue"], scoreboard="gunkan")
    return GunkanController.open(store, session)


GUNKAN_BATTLES = [  # red's destroyer loses to blue's cruiser; blue's battleship takes red's minesweeper
    [{"type": "battle", "attacker": 0}, {"type": "declare", "kind": "ship"},
     {"type": "identified", "attacker": "destroyer", "defender": "cruiser", "counterweight": False}],
    [{"type": "battle", "attacker": 1}, {"type": "declare", "kind": "ship"},
     {"type": "identified", "attacker": "battleship", "defender": "minesweeper", "counterweight": False}],
]


def test_a_gunkan_phone_shows_its_own_losses_and_the_other_side_only_at_the_end(browser, tmp_path):
    from companion.i18n import translate
    from companion.games.gunkan.table import PIECES

    table = Table(tmp_path, open_gunkan)
    try:
        c = table.controller
        red = join(browser, table, 0, locale="ja-JP")
        blue = join(browser, table, 1)
        for actions in GUNKAN_BATTLES:
            table.call(lambda: (c.session.play_all(actions), c.changed()))
        playwright_api.expect(red.page.locator("#main")).to_contain_text("④駆逐艦 ×1")
        playwright_api.expect(red.page.locator("#main")).to_contain_text("⑤掃海艇 ×1")
        playwright_api.expect(blue.page.locator("#main")).to_contain_text("Your losses")
        red.shot("gunkan-losses-ja")
        blue.shot("gunkan-losses-en")
        assert_finger_sized(red)
        secrets = {seat: table.call(c.session.state.secrets, seat) for seat in (0, 1)}
        assert "1:cruiser" in secrets[1] and "0:destroyer" in secrets[0]
        names = {lang: [translate(f"gunkan.piece.{p}", lang) for p in PIECES] for lang in ("ja", "en")}
        for seat, phone in {0: red, 1: blue}.items():  # before the end: no piece named outside its own side
            for frame in phone.displays():
                public = json.dumps({k: v for k, v in frame["model"].items() if k != "mine"}, ensure_ascii=False)
                assert not any(name in public for name in names["ja" if seat == 0 else "en"])
        no_secret_of_the_other({0: red, 1: blue}, secrets)

        table.call(lambda: (c.session.play_all([{"type": "resign", "seat": 1}]), c.changed()))
        playwright_api.expect(red.page.locator("#main")).to_contain_text("③巡洋艦")  # the reveal: blue's pieces
        red.page.wait_for_timeout(100)
        red.shot("gunkan-over-ja")
    finally:
        table.stop()


def test_gunkan_phones_tap_their_own_battle_buttons_and_a_refusal_is_shown(browser, tmp_path):
    from companion.games.gunkan.controller import GunkanController

    def open_seesaw(store):
        controller = GunkanController.open(store)
        if controller.session is None:
            controller.act(TABLE, "mode", "seesaw")
        return controller

    table = Table(tmp_path, open_seesaw)
    try:
        c = table.controller
        red, blue = join(browser, table, 0, locale="ja-JP"), join(browser, table, 1)
        playwright_api.expect(blue.page.locator("#actions button")).to_have_count(1)  # its own attack only
        tap(red, red.page.locator('#actions button[data-kind="attack"]'))
        red.page.evaluate("act('declare', 'mine')")  # as from a stale screen: the defender's word, not red's
        playwright_api.expect(red.page.locator("#notice")).to_have_text("それは今、相手の番です")
        playwright_api.expect(red.page.locator("#ack")).to_have_text("")  # no "sending…" left behind
        red.shot("gunkan-refused-ja")
        assert table.call(lambda: c.state.phase) == "declare"
        tap(blue, blue.page.locator('#actions button[data-kind="declare"]').first)  # a ship
        tap(red, red.page.locator('#actions button[data-kind="counterweight"]').last)  # none on
        assert table.call(lambda: (c.state.phase, c.state.current.declared)) == ("weigh", "ship")
        playwright_api.expect(red.page.locator("#actions button")).to_have_count(0)  # the seesaw is the table's
        table.call(lambda: c.act(TABLE, "weighed", "defender_heavier"))
        assert table.call(lambda: (c.state.phase, c.state.battles[-1].attacker)) == ("idle", 0)
        playwright_api.expect(blue.page.locator("#main")).to_contain_text("Red")
        check_frames(red)
        check_frames(blue)
    finally:
        table.stop()


# Naval War: a phone shows its player's fleet, the damage and the next draw's odds

def open_navalwar(store):
    from companion.games.navalwar.controller import NavalWarController

    controller = NavalWarController.open(store, rng=random.Random(3))
    if controller.session is None:
        controller.act(TABLE, "players", 2)
        controller.act(TABLE, "start", ["Aki", "Ben"])
    return controller


def table_enters(c, rng) -> None:
    """The table enters something offered, by the offers' choices (never an action's spelling)."""
    offers = {o.kind: o for o in c.offers(TABLE)}
    kind = next(k for k in ("random", "continue", "choose") if k in offers)
    c.act(TABLE, kind, rng.choice(offers[kind].choices) if offers[kind].choices else None)


def test_a_navalwar_phone_shows_its_fleet_damage_and_odds(browser, tmp_path):
    table = Table(tmp_path, open_navalwar)
    try:
        c, rng = table.controller, random.Random(8)
        aki, ben = join(browser, table, 0, locale="ja-JP"), join(browser, table, 1)

        def damaged() -> bool:
            model = c.display(0)
            return model["odds"] is not None and any(s["hits"] for s in model["own"]["ships"])

        for _ in range(400):
            if table.call(damaged):
                break
            table.call(table_enters, c, rng)
        assert table.call(damaged)
        own = table.call(lambda: c.display(0)["own"])
        main = aki.page.locator("#main")
        for ship in own["ships"]:
            playwright_api.expect(main).to_contain_text(ship["name"])
        hit = next(s for s in own["ships"] if s["hits"])
        playwright_api.expect(main).to_contain_text(f"損害 {hit['hits']}/{hit['defence']}")
        playwright_api.expect(main).to_contain_text("赤カード")
        playwright_api.expect(ben.page.locator("#main")).to_contain_text("The next draw")
        aki.shot("navalwar-fleet-ja")
        ben.shot("navalwar-fleet-en")
        assert_finger_sized(aki)
        assert_finger_sized(ben)
        for phone in (aki, ben):
            check_frames(phone)
            assert all(f["model"]["own"]["seat"] == phone.seat for f in phone.displays() if "own" in f["model"])
    finally:
        table.stop()


def test_a_navalwar_phone_taps_its_own_choice_and_the_table_moves_on(browser, tmp_path):
    from companion.seats.room import render

    table = Table(tmp_path, open_navalwar)
    try:
        c, rng = table.controller, random.Random(4)
        phones = {0: join(browser, table, 0, locale="ja-JP"), 1: join(browser, table, 1)}
        for _ in range(100):  # the table enters until a phone's player is awaited
            if table.call(c.actor) in phones:
                break
            table.call(table_enters, c, rng)
        seat = table.call(c.actor)
        phone, other = phones[seat], phones[1 - seat]
        choices = phone.page.locator(".keys.nw button[data-choice]")
        playwright_api.expect(choices.first).to_be_visible()
        playwright_api.expect(other.page.locator(".keys.nw button")).to_have_count(0)  # not the other's entry
        phone.shot("navalwar-own-choice-" + ("ja" if seat == 0 else "en"))
        assert_finger_sized(phone)
        entered, before = table.call(lambda: (len(c.session.actions), render(c.display(TABLE), "en")))
        for _ in range(8):  # a step at a time (the tree narrows) until the entry is whole
            tap(phone, choices.first)
            if table.call(lambda: len(c.session.actions)) > entered:
                break
        assert table.call(lambda: len(c.session.actions)) == entered + 1  # one whole entry, from the phone
        assert table.call(lambda: render(c.display(TABLE), "en"))["prompt"] != before["prompt"]  # the table moved on
        for p in phones.values():
            check_frames(p)
    finally:
        table.stop()


def test_navalwar_phones_show_the_companions_roll_as_the_table_does(browser, tmp_path):
    from companion.games.navalwar.controller import NavalWarController
    from companion.seats.room import render

    def open_rolling(store):
        controller = NavalWarController.open(store, rng=random.Random(3))
        if controller.session is None:
            controller.act(TABLE, "players", 2)
            controller.act(TABLE, "dice", "companion")
            controller.act(TABLE, "start", ["Aki", "Ben"])
        return controller

    table = Table(tmp_path, open_rolling)
    try:
        c, rng = table.controller, random.Random(8)
        aki, ben = join(browser, table, 0, locale="ja-JP"), join(browser, table, 1)
        for _ in range(400):  # the table enters until the companion has rolled a die
            if table.call(lambda: c.display(TABLE)["banner"]):
                break
            table.call(table_enters, c, rng)
        banners = table.call(lambda: [render(c.display(TABLE), lang)["banner"]["text"] for lang in ("ja", "en")])
        assert "出目" in banners[0] and "rolled" in banners[1]
        playwright_api.expect(aki.page.locator(".nwbanner")).to_have_text(banners[0])
        playwright_api.expect(ben.page.locator(".nwbanner")).to_have_text(banners[1])
        aki.shot("navalwar-rolled-ja")
        ben.shot("navalwar-rolled-en")
    finally:
        table.stop()
