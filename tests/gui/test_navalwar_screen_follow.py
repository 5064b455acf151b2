"""Naval War: the fleets keep still under a finger (issue 29), and the player to move's
fleet is in view (issue 43).

With two players, a strip per fleet: the list follows the player to move only when their
fleet is not wholly in view (ships joined, long names wrapping the rows), brings it to the
top, and only if nobody touched the table from the entry until 0.3 s after.  With three or more, a card per
fleet, all in view; the ships shown under them are the new player to move's once no finger is
near (0.3 s after the last lifted).  A ship joining a fleet is drawn once no finger is down
and 0.3 s after."""

from __future__ import annotations

import random

import pytest

from companion.games.navalwar.screen.still import STILL_S, in_view
from test_navalwar_screen import deck_for, play_randomly, set_up


LONG = ["ship-conte-di-cavour", "ship-prince-of-wales", "ship-vittorio-veneto", "ship-north-carolina",
        "ship-king-george-v", "ship-south-dakota", "ship-west-virginia", "ship-giulio-cesare",
        "ship-pennsylvania", "ship-scharnhorst", "ship-washington", "ship-mississippi", "ship-gneisenau",
        "ship-enterprise", "ship-california", "ship-andrea-doria", "ship-caio-duilio", "ship-duke-of-york",
        "ship-new-jersey", "ship-kirishima"]  # the longest names: four fleets of them wrap their rows


def start(gui, count: int, deck: dict | None = None, ships: list | None = None):
    """A game of `count` players past the deal (of `ships` in turn, else any), set up on the
    start form by touch."""
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    nw.deck = deck or deck_for(count, draws=30)
    set_up(gui, nw, count, [f"P{i + 1}" for i in range(count)])
    gui.tap(nw.ids.start)
    session = nw.session
    if session.state.view(None)["phase"] == "setup":  # the first player, chosen after the start
        session.play({"type": "first", "seat": 0})
    while session.state.view(None)["phase"] == "deal":
        acts = session.state.legal_actions()
        session.play({"type": "deal", "ship": ships.pop(0)} if ships else acts[(len(session.actions) * 7) % len(acts)])
    nw.refresh()
    gui.pump(STILL_S + 0.1)
    return nw


def strip_of(nw, seat: int):
    return list(reversed(nw.ids.fleets.children))[seat]


def places(nw) -> list[tuple]:
    shown = nw.ids.many.ids.cards.children + nw.ids.many.ids.focus.ids.chips.children if nw.many else nw.ids.fleets.children
    return [tuple(round(v) for v in w.to_window(*w.pos)) for w in reversed(shown)]


def below(nw) -> set:
    """The ships shown under the cards."""
    return {chip.name for chip in nw.ids.many.ids.focus.ids.chips.children}


def afloat(nw, seat: int) -> set:
    return {s["name"] for s in nw.session.state.view(None)["fleets"][seat]["ships"]}


def test_the_list_follows_the_player_to_move_only_when_their_fleet_is_out_of_view(gui):
    count = 2
    deck = deck_for(count, draws=30)
    deck["counts"]["additional_ship"] = 8  # (red: played in the first turn) fleets of eight and more
    nw = start(gui, count, deck=deck, ships=list(LONG))
    session, scroll = nw.session, nw.ids.fleet_scroll
    rng = random.Random(count)
    play_randomly(session, rng, lambda view: sum(len(f["ships"]) for f in view["fleets"]) >= 16)
    nw.refresh()
    gui.pump(STILL_S + 0.2)  # the ships joined drawn once the table is still
    assert nw.ids.fleets.height > scroll.height  # it scrolls: what this is about
    gui.screenshot(f"navalwar-follow-{count}-start")
    moves = []  # per turn change: whether the list scrolled
    seat = session.state.view(None)["seat"]
    while len(moves) < 2 * count:
        gui.pump(0.05)  # the layout of the last entry
        shown = [in_view(scroll, strip_of(nw, s)) for s in range(count)]
        session.play(rng.choice(session.state.legal_actions()))
        nw.refresh()
        if session.state.view(None)["seat"] == seat:
            continue
        seat, before = session.state.view(None)["seat"], scroll.scroll_y
        shown_before = shown[seat]
        gui.wait_until(lambda: in_view(scroll, strip_of(nw, seat)), timeout=3, what=f"P{seat + 1}'s fleet in view")
        moves.append(scroll.scroll_y != before)
        if shown_before:
            assert scroll.scroll_y == before, "the list moved though the fleet to move was in view"
        elif 0 < scroll.scroll_y < 1:  # brought to the top of the view (unless the list ends first)
            strip, content = strip_of(nw, seat), nw.ids.fleets
            view_top = scroll.scroll_y * (content.height - scroll.height) + scroll.height
            assert strip.top - content.y == pytest.approx(view_top - 4, abs=2)
        if len(moves) == count:
            gui.screenshot(f"navalwar-follow-{count}-round")
    assert any(moves), moves  # the fleet out of view was brought in


def test_the_ships_below_the_cards_do_not_change_under_a_finger(gui):
    nw = start(gui, 9)
    session = nw.session
    last = session.state.view(None)["players"] - 1
    cards, shown = places(nw)[:9], below(nw)
    assert shown == afloat(nw, 0)
    finger = gui.press_at(*nw.ids.prompt.to_window(*nw.ids.prompt.center))  # a finger resting on the prompt
    try:
        while session.state.view(None)["seat"] != last:  # turns pass until the last fleet's
            session.play(random.Random(len(session.actions)).choice(session.state.legal_actions()))
            nw.refresh()
        gui.pump(0.6)
        assert nw._many.seat == 0 and shown <= below(nw), "the ships below changed under a finger"
    finally:
        finger.touch_up()
    gui.pump(0.1)
    assert nw._many.seat == 0 and shown <= below(nw), "the ships below changed as the finger lifted"
    gui.wait_until(lambda: afloat(nw, last) <= below(nw), timeout=3, what="the last player's ships below")
    assert places(nw)[:9] == cards, "a card moved"


def test_a_ship_joining_a_fleet_waits_for_the_finger_to_lift(gui):
    deck = deck_for(9, draws=30)
    deck["counts"]["additional_ship"] = 8
    nw = start(gui, 9, deck)
    session = nw.session
    rng = random.Random(5)
    joins = lambda view: any(a["type"] == "play" and a["card"] == "additional_ship"  # noqa: E731
                             for a in session.state.legal_actions())
    play_randomly(session, rng, joins)
    seat = session.state.view(None)["seat"]
    nw.refresh()
    gui.pump(STILL_S + 0.1)
    strip = nw.ids.many.ids.focus  # the player to move's fleet, under the cards
    assert nw._many.seat == seat, (nw._many.seat, seat, session.state.view(None)["phase"], below(nw))
    chips, before = len(strip.ids.chips.children), places(nw)
    finger = gui.press_at(*nw.ids.prompt.to_window(*nw.ids.prompt.center))
    session.play(next(a for a in session.state.legal_actions()
                      if a["type"] == "play" and a["card"] == "additional_ship"))
    session.play(session.state.legal_actions()[0])  # the ship taken from the harbour
    nw.refresh()
    assert len(session.state.view(None)["fleets"][seat]["ships"]) == chips + 1
    gui.pump(0.3)
    assert len(strip.ids.chips.children) == chips and places(nw) == before  # held while the finger is down
    finger.touch_up()
    gui.pump(0.1)
    assert len(strip.ids.chips.children) == chips
    gui.wait_until(lambda: len(strip.ids.chips.children) == chips + 1, timeout=3,
                   what="the ship to be drawn once the table is still")
    gui.screenshot("navalwar-follow-9-ship-joined")
