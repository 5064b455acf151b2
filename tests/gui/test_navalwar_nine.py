"""Naval War's fleet side of the table (issue 43, findings 6-8).

Every ship a fleet holds is drawn where it can be seen (finding 6: California, the fifth
of P3's Italian-and-more fleet, was drawn nowhere; not seen again here, dealt from the
store or by touch, in either language: these keep it so); a minefield laid moves no ship
(finding 8: the badges widened the name column); and with six to nine players every
fleet is in view at once, the player to move's whole, without scrolling (finding 7: the
list stayed on P1-P3 while P6 was to move).
"""

from __future__ import annotations

import random

import pytest

import layout_check
from companion.games.navalwar.screen.fleets import ShipChip
from companion.games.navalwar.screen.still import STILL_S
from kivy.core.window import Window
from kivy.uix.label import Label
from test_navalwar_screen import deck_for, play_randomly, short_deck, show_fleet, tap_choice, tiles
from test_navalwar_screen_follow import LONG, start

P3 = ["ship-andrea-doria", "ship-caio-duilio", "ship-conte-di-cavour", "ship-ark-royal", "ship-california"]
OTHERS = ["ship-yamato", "ship-nagato", "ship-hood", "ship-ise", "ship-fuso",
          "ship-bismarck", "ship-iowa", "ship-musashi", "ship-roma", "ship-kongo"]


def deal(session, fleets: list[list[str]]) -> None:
    """Deal each seat its ships, in the order the deal asks for them."""
    left = [list(f) for f in fleets]
    while session.state.view(None)["phase"] == "deal":
        seat = session.state.view(None)["waiting"]["seat"]
        session.play({"type": "deal", "ship": left[seat].pop(0)})


def seen(widget) -> bool:
    """Whether all of `widget` is drawn inside the window and any ScrollView holding it."""
    x0, y0, x1, y1 = layout_check._window_rect(widget)
    c0, d0, c1, d1 = layout_check._clip(widget)
    return (layout_check._visible(widget) and c0 - 1 <= x0 and d0 - 1 <= y0 and x1 <= c1 + 1 and y1 <= d1 + 1
            and 0 <= x0 and 0 <= y0 and x1 <= Window.width and y1 <= Window.height)


def drawn(screen, kind=ShipChip) -> list:
    """The widgets of `kind` on the screen drawn wholly in view."""
    return [w for w in screen.walk(restrict=True) if isinstance(w, kind) and seen(w)]


def drawn_ships(screen) -> dict[str, ShipChip]:
    return {chip.name: chip for chip in drawn(screen) if not chip.sunk}


def places(widgets) -> dict:
    return {key: tuple(round(c) for c in w.to_window(w.x, w.y)) for key, w in widgets.items()}


def every_ship_seen(gui, nw) -> None:
    """Every ship of every fleet drawn in view: with a strip each, at once; with a card
    each (three players or more), the fleet's ships under the cards once its card is tapped."""
    for seat, fleet in enumerate(nw.session.state.view(None)["fleets"]):
        if nw.many:
            show_fleet(gui, nw, seat)
        for ship in fleet["ships"]:
            assert ship["name"] in drawn_ships(nw), f"P{seat + 1}'s {ship['name']} is not drawn in view"


def check_table(gui, nw, what: str) -> None:
    """The player to move's ships drawn in view, every fleet's name, every target ≥ 48 px."""
    view = nw.session.state.view(None)
    names = [f"P{seat + 1}" for seat in range(view["players"])]
    headers = {label.text.split()[0] for label in drawn(nw, Label) if label.text.split()}
    assert set(names) <= headers, f"{what}: fleets whose name is out of view: {set(names) - headers}"
    mover = view["fleets"][view["seat"]]["ships"]
    missing = {ship["name"] for ship in mover} - set(drawn_ships(nw))
    assert not missing, f"{what}: {names[view['seat']]} to move, their {missing} out of view"
    for target in [w for w in nw.ids.game.walk(restrict=True) if getattr(w, "step", "") and seen(w)]:
        assert min(target.width, target.height) >= 48, f"{what}: {target} is {target.size}"


def test_every_ship_dealt_is_drawn_in_view(gui):
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    nw.deck = short_deck()
    gui.tap(nw.ids.count_3)
    gui.tap(nw.ids.start)
    session = nw.session
    session.play({"type": "first", "seat": 0})
    deal(session, [OTHERS[:5], OTHERS[5:], P3])
    nw.refresh()
    gui.pump(0.5)
    gui.screenshot("navalwar-three-italians")
    assert "California" in {s["name"] for s in session.state.view(None)["fleets"][2]["ships"]}
    every_ship_seen(gui, nw)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_ship_dealt_by_touch_is_drawn_in_view(gui, lang):
    gui.app.lang = lang
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    gui.tap(nw.ids.count_3)
    gui.tap(nw.ids.start)
    session = nw.session
    gui.tap(tiles(nw)["seat:0"])
    left = [OTHERS[:5], OTHERS[5:], list(P3)]
    while session.state.view(None)["phase"] == "deal":
        seat = session.state.view(None)["waiting"]["seat"]
        gui.wait_until(lambda: not nw.locked, what="the input lock to lift")
        tap_choice(gui, tiles(nw)["ship:" + left[seat].pop(0)])
    gui.pump(1.0)
    gui.screenshot(f"navalwar-three-italians-touch-{lang}")
    every_ship_seen(gui, nw)


@pytest.mark.parametrize("count, lang", [(3, "ja"), (4, "ja"), (6, "ja"), (9, "ja"), (3, "en"), (6, "en"), (9, "en")])
def test_every_fleet_and_the_player_to_move_s_ships_are_in_view(gui, count, lang):
    gui.app.lang = lang
    nw = start(gui, count)
    session = nw.session
    check_table(gui, nw, "the first turn")
    gui.screenshot(f"navalwar-{count}-{lang}-start")
    rng, seat, turns = random.Random(count), session.state.view(None)["seat"], 0
    while turns < count + 2:
        plays = [a for a in session.state.legal_actions() if a["type"] == "play"]
        session.play(rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(session.state.legal_actions()))
        nw.refresh()
        view = session.state.view(None)
        if view["phase"] != "turn" or view["seat"] == seat:
            continue
        seat, turns = view["seat"], turns + 1
        gui.pump(STILL_S + 0.2)  # the new player's fleet comes once the table is still
        check_table(gui, nw, f"turn {turns}, P{seat + 1} to move")
        if turns == count:
            gui.screenshot(f"navalwar-{count}-{lang}-round")


@pytest.mark.parametrize("count", [3, 6])
def test_a_target_ship_is_a_tap_on_its_fleet_then_on_the_ship(gui, count):
    # the re-trial, three players: a strip per fleet, five long names two rows each, and a
    # target fleet's second row was off the list while its ships were lit
    nw = start(gui, count, ships=list(LONG))
    session = nw.session

    def other_fleet_targeted(view):
        nw.refresh()
        return view["phase"] == "turn" and any(
            nw.model["targets"] and ship["id"] in nw.model["targets"]
            for fleet in view["fleets"] if fleet["seat"] != view["seat"] for ship in fleet["ships"])

    play_randomly(session, random.Random(3), other_fleet_targeted)
    gui.pump(STILL_S + 0.2)
    view = session.state.view(None)
    seat = next(f["seat"] for f in view["fleets"] if f["seat"] != view["seat"]
                and any(s["id"] in nw.model["targets"] for s in f["ships"]))
    cards = {card.seat: card for card in nw.ids.many.ids.cards.children}
    before = places(cards)
    assert cards[seat].marked and all(min(c.size) >= 48 for c in cards.values())
    gui.tap(cards[seat])
    gui.screenshot(f"navalwar-{count}-target-fleet-opened")
    ships = drawn_ships(nw)
    lit = [s["name"] for s in view["fleets"][seat]["ships"] if s["id"] in nw.model["targets"]]
    assert all(name in ships and ships[name].step for name in lit), f"of {lit} in view: {list(ships)}"
    ship = next(s for s in view["fleets"][seat]["ships"] if s["id"] in nw.model["targets"])
    assert places(cards) == before, "a card moved"
    count = len(session.actions)
    gui.tap(ships[ship["name"]])
    gui.pump(0.1)
    assert len(session.actions) > count or nw.controller.shown_prefix(nw.controller.actor()) != [], "the ship named"


@pytest.mark.parametrize("count", [4, 6])
def test_a_minefield_laid_moves_no_ship(gui, count):
    deck = deck_for(count, draws=30)
    deck["counts"].update({"minefield-1": 4, "minefield-2": 4})
    nw = start(gui, count, deck)
    session = nw.session
    laid = lambda a: a["type"] == "play" and a["card"].startswith("minefield")  # noqa: E731
    play_randomly(session, random.Random(count), lambda view: any(laid(a) for a in session.state.legal_actions())
                  and not any(f["minefields"] for f in view["fleets"]))
    nw.refresh()
    gui.pump(STILL_S + 0.2)
    before = places(drawn_ships(nw))
    session.play(next(a for a in session.state.legal_actions() if laid(a)))
    nw.refresh()
    gui.pump(STILL_S + 0.2)
    assert any(f["minefields"] for f in session.state.view(None)["fleets"])
    gui.screenshot(f"navalwar-{count}-minefield")
    assert places(drawn_ships(nw)) == before, "a ship moved when the minefield was laid"


def test_an_eliminated_fleet_s_card_fits_in_english(gui):
    gui.app.lang = "en"
    nw = start(gui, 5)
    fleet = nw.model["fleets"][3] | {"out": True, "ships": []}  # as the table shows a fleet out
    card = next(c for c in nw.ids.many.ids.cards.children if c.seat == 3)
    card.show(fleet, nw.tr, {}, "")
    gui.pump(0.1)
    assert card.badges == "Eliminated" and not card.counts
    gui.screenshot("navalwar-5-en-eliminated")  # the layout check: nothing shortened


def test_a_new_round_shows_its_first_player_s_fleet_under_the_cards(gui):
    # the re-trial, 3 players: the player who sank the last fleet (its card tapped) moved
    # first in round 2, and the fleet they had tapped stayed under the cards all round
    nw = start(gui, 3)
    mover = nw.session.state.view(None)["seat"]
    other = next(card for card in nw.ids.many.ids.cards.children if card.seat != mover)
    show_fleet(gui, nw, other.seat)
    fleets, tr, targets, fleet_targets, (game, round_) = nw._many._drawn
    nw._many.draw(fleets, tr, {}, {}, mover, (game, round_ + 1))  # the next round, the same player first
    gui.pump(STILL_S + 0.2)
    assert nw._many.seat == mover and not other.focused
