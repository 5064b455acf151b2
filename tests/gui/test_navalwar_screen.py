"""Naval War through the real screen, with touch events (docs/rules.md §navalwar).

A short deck (the players' own copy, 19 action cards: 4 left to draw after
the deal) keeps a whole round to a few dozen entries: set-up, the deal, the
first turn, an air strike with dice (one rolled by the companion), a red card
drawn and played at a target, a salvo, a discard, the round's scores, undo.
"""

from __future__ import annotations

import gc

import pytest

from companion.games.navalwar.screen.chart import TotalsChart
from companion.games.navalwar.screen.still import STILL_S
from companion.games.navalwar.data import default_composition, reduced_counts
from companion.games.navalwar.display import SHIPS_IN_HAND
from companion.play.controller import TABLE
from kivy.uix.scrollview import ScrollView


def short_deck() -> dict:
    counts = {k: 0 for k, _ in default_composition().actions}
    counts.update({"salvo-14-2": 5, "salvo-16-3": 4, "salvo-15-2": 3, "salvo-11-1": 2,
                   "smoke": 1, "repair": 1, "destroyer_squadron": 1,
                   "submarine": 1, "minefield-1": 1})
    return {"counts": counts}


def deck_for(players: int, draws: int = 8) -> dict:
    """A short deck for `players`: the hands dealt and `draws` cards left to draw (the
    round's length), of every kind where there is room."""
    full = dict(default_composition().actions)
    counts = reduced_counts(default_composition(), 6)  # every kind once or more: 32 cards
    need = SHIPS_IN_HAND.get(players, 5) * players + draws
    kinds = list(counts)
    i = 0
    while sum(counts.values()) < need:  # more of each kind in turn, up to the real deck's
        key = kinds[i % len(kinds)]
        counts[key] += counts[key] < full[key]
        i += 1
    for key in reversed(kinds * 2):  # fewer: the rarer kinds go first, salvos last
        if sum(counts.values()) == need:
            break
        counts[key] -= counts[key] > 0
    return {"counts": counts}


@pytest.fixture
def nw(gui):
    gui.tap(gui.tile("navalwar"))
    assert gui.screen.name == "navalwar"
    return gui.screen


def tiles(screen):
    """What may be tapped now, by step: the choice buttons and the targets on the fleet panel
    (with five players or more: on the cards, and the ships of the fleet shown under them)."""
    found = {t.step: t for fleets in (screen.ids.fleets, screen.ids.many)
             for t in fleets.walk(restrict=True) if getattr(t, "step", "")}
    return found | {t.step: t for t in screen.ids.choices.children + screen.ids.primary.children}


def open_fleet_of(gui, screen, step: str) -> None:
    """A ship to name in a fleet not shown under the cards: tap its fleet's card first."""
    view = screen.session.state.view(None)
    seat = next((f["seat"] for f in view["fleets"] for s in f["ships"] if step == f"ship:{s['id']}"), None)
    if screen.many and seat is not None and step not in tiles(screen):
        gui.tap(next(c for c in screen.ids.many.ids.cards.children if c.seat == seat))


def show_fleet(gui, screen, seat: int) -> None:
    """Three players or more: `seat`'s card tapped (once the input lock lifts), until its ships
    are the ones under the cards."""
    card = next(card for card in screen.ids.many.ids.cards.children if card.seat == seat)
    if not card.focused:
        gui.wait_until(lambda: not screen.locked, what="the input lock to lift")
        gui.tap(card)
        gui.wait_until(lambda: card.focused, timeout=2, what=f"P{seat + 1}'s ships under the cards")


def enter(gui, screen, action) -> None:
    """Tap the choice buttons that enter `action` (only legal ones are offered)."""
    path = screen.controller.tree().path_of(action)
    for step in path[len(screen.controller.shown_prefix(TABLE)):]:
        open_fleet_of(gui, screen, step)
        # (a ship that joined a fleet under a finger is drawn once the screen is still)
        gui.wait_until(lambda: step in tiles(screen), timeout=STILL_S + 5, what=f"{step} to be offered")
        shown = tiles(screen)
        tap_choice(gui, shown[step])


def tap_choice(gui, tile) -> None:
    """Scroll the choice into view when it is not (as a finger would), then tap it."""
    scroll = tile.parent
    while scroll is not None and not isinstance(scroll, ScrollView) and scroll.parent is not scroll:
        scroll = scroll.parent  # (the Window is its own parent)
    if not isinstance(scroll, ScrollView):
        scroll = None  # a main entry: never scrolled
    _, y = tile.to_window(*tile.center)
    _, bottom = scroll.to_window(*scroll.pos) if scroll else (0, 0)
    if scroll and not bottom < y < bottom + scroll.height:
        scroll.scroll_to(tile, padding=4, animate=False)
        gui.pump(0.03)
    gui.tap(tile)


def set_up(gui, screen, count: int, names: list[str]) -> None:
    gui.tap(screen.ids[f"count_{count}"])
    fields = screen._name_fields()
    for field, name in zip(fields, names):
        gui.tap(field)
        field.insert_text(name)
    gui.pump(0.05)


def test_the_hidden_pane_survives_a_garbage_collection(gui, nw):
    # kv ids are weak: a pane out of the widget tree must still be held by the screen
    assert nw.setting_up and nw.ids.game.parent is None
    gui.pump(0.1)  # let the clock drop its pending layout calls, which hold widgets too
    gc.collect()
    set_up(gui, nw, 3, [])
    nw.deck = short_deck()
    gui.tap(nw.ids.start)
    assert not nw.setting_up and nw.ids.game.parent is nw.ids.body.__self__


def test_setup_and_a_short_round_with_touches(gui, nw):
    assert nw.setting_up
    set_up(gui, nw, 3, ["Aki"])  # the others keep their default names
    gui.screenshot("navalwar-setup-3")
    nw.deck = short_deck()
    gui.tap(nw.ids.start)
    assert nw.session.players == ["Aki", "P2", "P3"]
    gui.tap(tiles(nw)["seat:0"])

    # the deal: the whole catalogue at once, searched by calibre or by name
    assert len(tiles(nw)) == 54 and not nw.ids.fleet_scroll.get_root_window() or nw.cataloguing
    gui.screenshot("navalwar-deal")
    gui.tap(nw.ids.search)
    nw.ids.search.insert_text("18")
    gui.pump(0.05)
    assert set(tiles(nw)) == {"ship:ship-yamato", "ship:ship-musashi"}
    gui.tap(tiles(nw)["ship:ship-yamato"])
    assert nw.ids.search.text == ""  # found: the search is cleared
    gui.tap(nw.ids.search)
    nw.ids.search.insert_text("akag")
    gui.pump(0.05)
    gui.screenshot("navalwar-deal-search")
    gui.tap(tiles(nw)["ship:ship-akagi"])
    nw.ids.search.text = ""
    gui.pump(0.05)
    while nw.session.state.view(None)["phase"] == "deal":  # a ship dealt stays in its place, faint
        tap_choice(gui, next(t for t in reversed(nw.ids.choices.children) if not t.disabled))
    view = nw.session.state.view(None)
    assert [len(f["ships"]) for f in view["fleets"]] == [5, 5, 5]
    assert view["fleets"][0]["ships"][0]["name"] == "Yamato"
    gui.screenshot("navalwar-first-turn")

    # the round, one entry at a time through the choice panels
    done: set[str] = set()
    shots = 0
    while nw.session.state.view(None)["round"] == 1:
        state = nw.session.state
        kind = state.view(None)["waiting"]["kind"]
        acts = state.legal_actions()
        if kind == "die" and "rolled" not in done:
            done.add("rolled")
            gui.tap(nw.ids.extra)
            assert "コンパニオンの出目" in nw.last_text
            continue
        action = choose(kind, acts, done)
        if kind in ("play", "red") and shots < 2:
            shots += 1
            tree = nw.controller.tree()
            first = tree.path_of(action)[0]
            if tree.choices(nw.controller.shown_prefix(TABLE))[0].action is None:
                tap_choice(gui, tiles(nw)[first])
            gui.screenshot(f"navalwar-{kind}-{shots}")
        before = len(nw.session.actions)
        enter(gui, nw, action)
        assert nw.session.actions[before:] == [action]
    assert {"salvo", "discard", "air_strike", "red"} <= done
    popup = nw._popup
    assert popup is not None and "第1ラウンド終了" in popup.title
    gui.screenshot("navalwar-round-over")
    gui.tap(popup.ids.scores_button)
    assert nw._popup is None
    view = nw.session.state.view(None)
    assert view["round"] == 2 and view["waiting"]["kind"] == "deal"
    assert sum(view["totals"]) == sum(view["history"][0])

    # undo takes back the round's last entry; the summary shows again when it is re-entered
    last = nw.session.actions[-1]
    gui.tap(nw.ids.undo)
    assert nw.session.state.view(None)["round"] == 1
    enter(gui, nw, last)
    assert nw._popup is not None
    gui.tap(nw._popup.ids.scores_button)
    gui.tap(nw.ids.chart_button)
    gui.screenshot("navalwar-chart")
    chart = next(w for w in nw._popup.walk() if isinstance(w, TotalsChart))
    chart.history = [[(r * 7 + s * 3) % 11 for s in range(int(chart.players))] for r in range(20)]
    shown = [text for text, *_ in chart.drawn_texts()]
    assert "20" in shown and "100" in shown  # the last round and the target; the layout check: none touching
    gui.screenshot("navalwar-chart-20-rounds")  # the layout check: 18 px, inside the chart, no overlap
    gui.tap(nw._popup.ids.scores_button)


def choose(kind: str, acts: list, done: set):
    """A scripted player: one air strike, one salvo, one discard, else the first choice."""
    if kind == "choose":
        if "air_strike" not in done:
            done.add("air_strike")
            return {"type": "choose", "turn": "air_strike"}
        return {"type": "choose", "turn": "draw"}
    if kind in ("stage_hand",):
        return {"type": "no_red"}
    if kind == "draw":
        if "red" not in done and {"type": "draw", "card": "submarine"} in acts:
            done.add("red")
            return {"type": "draw", "card": "submarine"}
        return {"type": "draw", "card": "hidden"} if {"type": "draw", "card": "hidden"} in acts else acts[-1]
    if kind == "play":
        salvos = [a for a in acts if a["type"] == "play" and a["card"].startswith("salvo")]
        if "salvo" not in done and salvos:
            done.add("salvo")
            return salvos[-1]
        if "discard" not in done:
            done.add("discard")
            return next(a for a in acts if a["type"] == "discard")
        return next((a for a in acts if a["type"] == "play"), acts[-1])
    return acts[0]


def test_nine_players_fit(gui, nw):
    set_up(gui, nw, 9, ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Goro", "Hana", "Ichi"])
    gui.screenshot("navalwar-setup-9")
    gui.tap(nw.ids.start)
    session = nw.session
    session.play({"type": "first", "seat": 4})
    while session.state.view(None)["phase"] == "deal":
        session.play(session.state.legal_actions()[(len(session.actions) * 7) % 20])
    for _ in range(9):
        session.play({"type": "no_red"})
    nw.refresh()
    gui.screenshot("navalwar-nine-players")
    view = session.state.view(None)
    cards = nw.ids.many.ids.cards.children
    assert len(cards) == 9 and view["phase"] == "turn" and nw.many  # a card each, all in view
    assert all(card.top <= nw.ids.many.top and card.y >= nw.ids.many.y for card in cards)

    # after a power cut the tile resumes the same game, entry for entry
    entries = list(session.actions)
    gui.restart()
    gui.tap(gui.tile("navalwar"))
    assert not gui.screen.setting_up and gui.screen.session.actions == entries


def play_randomly(session, rng, until, limit=600) -> None:
    """Random legal entries, mostly card plays, until `until(view)` holds."""
    for _ in range(limit):
        if until(session.state.view(None)):
            return
        acts = session.state.legal_actions()
        plays = [a for a in acts if a["type"] == "play"]
        session.play(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(acts))
    raise AssertionError("the condition never came up")


def test_mid_game_table_shows_squadrons_minefields_smoke_and_discards(gui, nw):
    import random

    gui.tap(nw.ids.start)  # four players, default names
    session = nw.session

    def busy(view):
        return (view["phase"] == "turn" and view["squadrons"] and view["round"] == 1
                and any(f["minefields"] for f in view["fleets"])
                and any(f["smoke"] for f in view["fleets"]))

    play_randomly(session, random.Random(1), busy)
    nw.refresh()
    gui.pump(0.1)
    view = session.state.view(None)
    assert "水雷戦隊" in nw.squadrons_text
    texts = gui.texts()
    assert "機雷" in texts and "煙幕" in texts and "次のカード" in texts
    gui.screenshot("navalwar-mid-game")
    gui.tap(nw.ids.discards)
    assert str(view["piles"]["discard"]) in nw.discard_text and nw._popup is not None
    gui.screenshot("navalwar-discards")
    gui.tap(nw._popup.ids.close)
    gui.pump(0.2)  # the pop-up fades out (drawing is quicker now than the fade)
    gui.app.lang = "en"  # the English text fits too
    nw.refresh()
    assert "Squadron" in nw.squadrons_text
    gui.screenshot("navalwar-mid-game-en")


def test_a_house_game_ends_at_the_target_and_a_new_game_starts_from_the_form(gui, nw):
    import random

    nw.deck, nw.target = short_deck(), 1
    gui.tap(nw.ids.count_2)  # the two-player house game, marked as such
    gui.tap(nw.ids.start)
    assert "ハウスルール" in nw.title_text
    play_randomly(nw.session, random.Random(2), lambda view: view["phase"] == "over")
    nw.refresh()
    popup = nw._popup
    assert popup is not None and "勝ち" in popup.title
    gui.screenshot("navalwar-game-over")
    gui.tap(popup.ids.scores_button)
    assert nw.setting_up and nw._popup is None


def test_a_double_tap_enters_one_action(gui, nw):
    from kivy.tests.common import UnitTestTouch

    gui.tap(nw.ids.start)
    gui.tap(tiles(nw)["seat:0"])
    gui.wait_until(lambda: not nw.locked, what="the input lock to lift")  # the deal's names drawn
    first = nw.ids.choices.children[-1]
    for _ in range(2):  # two quick taps on the same spot, no frame between them
        touch = UnitTestTouch(*first.to_window(*first.center))
        touch.touch_down()
        touch.touch_up()
    assert len(nw.session.actions) == 2


def test_the_start_form_starts_with_the_first_player_and_undo_brings_back_the_choice(gui, nw):
    set_up(gui, nw, 4, ["Aki"])
    firsts = list(reversed(nw.ids.firsts.children))
    assert [b.text for b in firsts] == ["Akiから\nはじめる", "P2から\nはじめる", "P3から\nはじめる", "P4から\nはじめる"]
    gui.screenshot("navalwar-setup-firsts")
    gui.app.lang = "en"
    nw.refresh()
    gui.screenshot("navalwar-setup-firsts-en")
    gui.tap(list(reversed(nw.ids.firsts.children))[1])  # one tap: the game, and P2 first
    assert nw.session.actions == [{"type": "first", "seat": 1}] and nw.cataloguing
    gui.tap(nw.ids.undo)  # the choice of the first player comes back, whole
    assert nw.session.actions == [] and set(tiles(nw)) == {f"seat:{s}" for s in range(4)}
    assert nw.extra_text  # at random too


def test_with_many_players_the_first_player_is_chosen_after_start(gui, nw):
    set_up(gui, nw, 6, [])
    assert not nw.ids.firsts.children
    gui.tap(nw.ids.start)
    assert set(tiles(nw)) == {f"seat:{s}" for s in range(6)}


def test_long_names_leave_the_first_player_to_the_next_panel(gui, nw):
    set_up(gui, nw, 5, ["Takahashi", "Kobayashi", "Yamamoto", "Watanabe", "Nakamura"])
    assert not nw.ids.firsts.children  # five such buttons and Start do not fit one row
    gui.screenshot("navalwar-setup-long-names")  # the layout check: nothing off the window
    gui.tap(nw.ids.start)
    assert set(tiles(nw)) == {f"seat:{s}" for s in range(5)}


def test_the_companion_rolls_when_the_form_says_so_and_the_banner_shows_it(gui, nw):
    import random

    assert nw.ids.dice_table.state == "down"  # by default the dice are rolled at the table
    set_up(gui, nw, 9, ["Aki", "Ben", "Chie", "Dai", "Emi", "Fumi", "Goro", "Hana", "Ichi"])
    gui.tap(nw.ids.dice_companion)
    assert nw.ids.dice_companion.state == "down" and nw.controller.setup["dice"] == "companion"
    gui.screenshot("navalwar-setup-dice-9")
    gui.app.lang = "en"
    nw.refresh()
    gui.screenshot("navalwar-setup-dice-9-en")
    gui.tap(nw.ids.count_5)
    gui.screenshot("navalwar-setup-dice-5-en")
    gui.app.lang = "ja"
    nw.refresh()
    gui.screenshot("navalwar-setup-dice-5")
    gui.tap(nw.ids.count_4)
    gui.tap(list(reversed(nw.ids.firsts.children))[2])  # P3 first
    assert nw.session.record.options["dice"] == "companion"
    nw.controller.rng = random.Random(1)
    session, deal = nw.session, ["ship-akagi", "ship-yamato", "ship-nagato", "ship-hood", "ship-ise",
                                 "ship-bismarck", "ship-iowa", "ship-fuso", "ship-roma", "ship-kongo",
                                 "ship-hiei", "ship-texas", "ship-lutzow", "ship-scheer", "ship-repulse",
                                 "ship-rodney", "ship-warspite", "ship-haruna", "ship-missouri", "ship-nelson"]
    session.play_all([{"type": "deal", "ship": ship} for ship in deal] + [{"type": "no_red"}] * 4)
    session.play({"type": "draw", "card": "torpedo_boat"})  # Chie's red card, played at once
    nw.refresh()
    gui.pump(0.1)
    enter(gui, nw, {"type": "play", "card": "torpedo_boat", "ship": "ship-iowa"})
    roll = session.actions[-1]
    assert roll["type"] == "die" and session.actions[-2]["card"] == "torpedo_boat"
    assert f"出目 {roll['value']}" in nw.banner_text and "Iowa" in nw.banner_text
    assert not nw.extra_text  # no die to roll or enter
    gui.screenshot("navalwar-companion-rolled")
    gui.tap(nw.ids.undo)
    assert session.actions[-1] == {"type": "draw", "card": "torpedo_boat"} and not nw.banner_text
