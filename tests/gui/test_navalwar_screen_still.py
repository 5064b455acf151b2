"""Naval War: nothing moves under a finger (issue 29, finding 4).

A sunk ship keeps its place in its fleet's row for the round (a destroyer squadron's
picks are tapped one after another: the taps meant for Musashi, Nagato, Tirpitz sank
Musashi and Scharnhorst when the row closed up at once).  A turn's main entries
(カードを引く, 航空攻撃) are always in sight at 800×480, never at the bottom of a
scrolling list.  The choice panel keeps its places as a die's banner comes and goes and
as a calibre runs out; the fleets keep theirs as a squadron leaves the middle.  And the
start form's first-game walkthrough, in both languages.
"""

from __future__ import annotations

import random

import pytest

import layout_check
import word_breaks
from companion.games.navalwar.screen.fleets import ShipChip
from kivy.core.window import Window
from test_navalwar_screen import play_randomly, short_deck, show_fleet

DEAL = ["ship-yamato", "ship-nagato", "ship-hood", "ship-ise", "ship-fuso",
        "ship-bismarck", "ship-iowa", "ship-musashi", "ship-roma", "ship-kongo",
        "ship-hiei", "ship-texas", "ship-lutzow", "ship-scheer", "ship-repulse"]


def three_players(gui, deck: dict | None = None):
    """A game of three started by touch (the whole deck unless `deck`), P1 first: at the deal."""
    gui.tap(gui.tile("navalwar"))
    screen = gui.screen
    if deck is not None:
        screen.deck = deck
    gui.tap(screen.ids.count_3)
    gui.tap(screen.ids.start)
    screen.session.play({"type": "first", "seat": 0})
    return screen


@pytest.fixture
def nw(gui):
    deck = short_deck()  # a submarine in it
    deck["counts"].update({"salvo-18-3": 2, "salvo-18-2": 1})
    screen = three_players(gui, deck)
    session = screen.session
    session.play_all([{"type": "deal", "ship": ship} for ship in DEAL] + [{"type": "no_red"}] * 3)
    if session.state.view(None)["waiting"]["kind"] == "choose":
        session.play({"type": "choose", "turn": "draw"})
    screen.refresh()
    gui.pump(0.1)
    return screen


def chips_of(gui, screen, seat: int) -> list[ShipChip]:
    """The chips of `seat`'s fleet: its strip's, or (three players or more) the ones under
    the cards, its card tapped first if another fleet's are shown."""
    if not screen.many:
        strip = list(reversed(screen.ids.fleets.children))[seat]
    else:
        show_fleet(gui, screen, seat)
        strip = screen.ids.many.ids.focus
    return list(reversed(strip.ids.chips.children))


def places(chips) -> dict[str, tuple]:
    return {chip.name: tuple(round(c) for c in chip.to_window(chip.x, chip.y)) for chip in chips}


def test_a_sunk_ship_keeps_its_place_in_the_row_for_the_round(gui, nw):
    session = nw.session
    view = session.state.view(None)
    seat = next(f["seat"] for f in view["fleets"] if f["seat"] != view["seat"])
    fleet = view["fleets"][seat]["ships"]
    target = fleet[1]  # a ship with neighbours on both sides
    gui.wait_until(lambda: places(chips_of(gui, nw, seat)), what="the fleets drawn")
    gui.pump(0.5)  # and laid out, once no finger is near (still.py)
    before = places(chips_of(gui, nw, seat))
    session.play({"type": "draw", "card": "submarine"})
    nw.refresh()
    gui.pump(0.1)
    chip = next(c for c in chips_of(gui, nw, seat) if c.name == target["name"])
    assert chip.step, "the target is offered on its chip"
    gui.tap(chip)
    die = next(t for t in nw.ids.choices.children if t.text == "6")
    gui.wait_until(lambda: not nw.locked, what="the input lock to lift")
    gui.tap(die)  # 5 or 6 sinks it
    assert not any(s["id"] == target["id"] for s in session.state.view(None)["fleets"][seat]["ships"])
    gui.pump(0.5)  # whatever waits for the finger to lift has happened
    chips = chips_of(gui, nw, seat)
    assert places(chips) == before  # every ship where it was, the sunk one too
    sunk = next(c for c in chips if c.name == target["name"])
    assert sunk.sunk and not sunk.step and sunk.detail == "撃沈" and sunk.opacity < 1
    gui.screenshot("navalwar-sunk-keeps-its-place")

    gui.tap(nw.ids.undo)  # undo: afloat again, in the same place
    chips = chips_of(gui, nw, seat)
    assert places(chips) == before and not any(c.sunk for c in chips)


def test_an_undone_deal_leaves_no_sunk_ship_behind(gui):
    # the newcomer trial, 6 players: two ships dealt to P1 and undone stayed in P1's row as
    # 撃沈, and one of them, dealt again to another fleet, was drawn in both
    nw = three_players(gui)
    session = nw.session
    session.play_all([{"type": "deal", "ship": ship} for ship in ("ship-yamato", "ship-nagato")])  # to P1
    nw.refresh()
    gui.pump(0.5)  # drawn once no finger is near (still.py)
    assert [c.name for c in chips_of(gui, nw, 0)] == ["Yamato", "Nagato"]
    gui.tap(nw.ids.undo)  # the turn's deals taken back
    gui.pump(0.5)
    assert not any(c.sunk for c in chips_of(gui, nw, 0))
    others = iter(ship for ship in DEAL if ship != "ship-nagato")
    while session.state.view(None)["phase"] == "deal":  # P1's deal, then Nagato P2's first
        seat = session.state.view(None)["waiting"]["seat"]
        first = seat == 1 and not session.state.view(None)["fleets"][1]["ships"]
        session.play({"type": "deal", "ship": "ship-nagato" if first else next(others)})
    nw.refresh()
    gui.pump(0.5)
    assert "Nagato" not in [c.name for c in chips_of(gui, nw, 0)] and not any(c.sunk for c in chips_of(gui, nw, 0))
    assert [c.name for c in chips_of(gui, nw, 1)][0] == "Nagato"
    assert sum(c.name == "Nagato" for seat in range(3) for c in chips_of(gui, nw, seat)) == 1


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_draw_and_air_strike_are_in_sight_beside_a_long_list(gui, lang):
    gui.app.lang = lang
    nw = three_players(gui)  # the whole deck: every card may be in a hand
    session = nw.session
    carriers = ["ship-akagi", "ship-yamato", "ship-hood", "ship-iowa", "ship-nagato",
                "ship-enterprise", "ship-bismarck", "ship-fuso", "ship-roma", "ship-kongo",
                "ship-hiei", "ship-texas", "ship-lutzow", "ship-scheer", "ship-repulse"]
    session.play_all([{"type": "deal", "ship": ship} for ship in carriers] + [{"type": "no_red"}] * 3)
    assert session.state.view(None)["waiting"]["kind"] == "choose"  # seat 0 has a carrier
    nw.refresh()
    gui.pump(0.1)
    shown = {t.text: t for t in nw.ids.choices.children + nw.ids.primary.children}
    words = ["カードを引く", "航空攻撃"] if lang == "ja" else ["Draw", "Air strike"]
    assert len(shown) > 8 and nw.ids.choices.height > nw.ids.choice_scroll.height  # the list scrolls
    gui.screenshot(f"navalwar-choose-{lang}")
    for word in words:
        tile = shown[word]
        x0, y0, x1, y1 = layout_check._window_rect(tile)
        clip = layout_check._clip(tile)
        assert clip[0] <= x0 and clip[1] <= y0 and x1 <= clip[2] and y1 <= clip[3], f"{word} is cut by {clip}"
        assert 0 <= y0 and y1 <= Window.height
    gui.tap(shown[words[0]])  # and it enters the draw
    assert session.actions[-1] == {"type": "choose", "turn": "draw"}


def panel_top(screen) -> float:
    scroll = screen.ids.choice_scroll
    return scroll.to_window(scroll.x, scroll.top)[1]


def test_the_panel_keeps_its_places_as_a_banner_comes_and_goes_and_a_calibre_runs_out(gui, nw):
    session = nw.session
    view = session.state.view(None)
    assert view["seat"] == 0 and view["waiting"]["kind"] == "draw"
    mine = view["fleets"][0]["ships"]  # Yamato is the only 18″ gun
    assert [s["calibre"] for s in mine].count("18") == 1
    salvos = {t.step: tuple(round(c) for c in t.to_window(t.x, t.y)) for t in nw.ids.choices.children
              if t.step.startswith("card:salvo-")}
    assert any("salvo-18" in step for step in salvos) and any("salvo-14" in step for step in salvos)
    top, main = panel_top(nw), nw.ids.primary.to_window(*nw.ids.primary.pos)

    def play(action):
        session.play(action)
        nw.refresh()
        gui.pump(0.05)

    def discard():
        play({"type": "draw", "card": "hidden"})
        play(next(a for a in session.state.legal_actions() if a["type"] == "discard"))

    discard()  # P1; P2 sinks Yamato with a submarine, its die entered by touch
    play({"type": "draw", "card": "submarine"})
    play({"type": "play", "card": "submarine", "ship": "ship-yamato"})
    before = panel_top(nw), nw.ids.primary.to_window(*nw.ids.primary.pos)
    gui.tap(next(t for t in nw.ids.choices.children if t.text == "6"))
    assert nw.banner_text and "Yamato" in nw.banner_text
    assert (panel_top(nw), nw.ids.primary.to_window(*nw.ids.primary.pos)) == before  # the banner came
    discard()  # P3
    assert not nw.banner_text and panel_top(nw) == top  # it went: the list starts where it did
    assert nw.ids.primary.to_window(*nw.ids.primary.pos) == main
    now = {t.step: tuple(round(c) for c in t.to_window(t.x, t.y)) for t in nw.ids.choices.children
           if t.step.startswith("card:salvo-")}
    assert not any("salvo-18" in step for step in now)  # P1's 18″ guns are gone...
    assert now == {step: at for step, at in salvos.items() if "salvo-18" not in step}  # ...the rest stay put
    gui.screenshot("navalwar-calibre-gone")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_start_form_offers_a_first_game_walkthrough(gui, lang):
    gui.app.lang = lang
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    gui.tap(nw.ids.walkthrough)
    popup = nw._popup
    assert popup is not None and ("航空攻撃" in popup.body if lang == "ja" else "Air strike" in popup.body)
    assert not word_breaks.problems(gui.app)
    gui.screenshot(f"navalwar-walkthrough-{lang}")
    gui.tap(popup.ids.close)
    gui.pump(0.3)
    assert nw.setting_up and nw._popup is None


def test_the_fleets_stay_put_when_a_squadron_leaves_the_middle(gui):
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    gui.tap(nw.ids.start)  # four players, the whole deck
    rng = random.Random(2)
    play_randomly(nw.session, rng, lambda view: view["squadrons"] and view["phase"] == "turn")
    nw.refresh()
    gui.pump(0.1)
    scroll = nw.ids.fleet_scroll
    top = scroll.to_window(scroll.x, scroll.top)[1]
    assert nw.squadrons_text
    play_randomly(nw.session, rng, lambda view: not view["squadrons"] and view["phase"] == "turn")
    assert nw.session.state.view(None)["round"] == 1
    nw.refresh()
    gui.pump(0.1)
    assert not nw.squadrons_text and scroll.to_window(scroll.x, scroll.top)[1] == top
