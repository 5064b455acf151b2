"""Naval War's action panel (the right-hand side) by touch, with the full 108-card deck
(issue 43, findings 9-11; issue 42's 「以降 赤カードな｜し」): nothing in it moves from
panel to panel where a finger knows it, a red card takes two touches, every step has its
way back, and no Japanese word is broken across lines."""

from __future__ import annotations

import random
import time

import pytest

import word_breaks
from companion.play.controller import TABLE
from companion.games.navalwar.data import default_composition
from companion.games.navalwar.screen.screen import NEW_CHOICES_S
from companion.games.navalwar.screen.still import STILL_S
from test_navalwar_screen import enter, open_fleet_of, tap_choice, tiles

FIRST_TURN = {"stage_hand", "draw"}


def started(gui, players: int, lang: str = "ja", seed: int = 3):
    """A game with the packaged deck, its ships dealt (by the engine: not what is tested),
    at the first turn; the screen drawn."""
    gui.app.lang = lang
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    gui.tap(nw.ids[f"count_{players}"])
    gui.tap(nw.ids.start)
    session, rng = nw.session, random.Random(seed)
    session.play({"type": "first", "seat": 0})
    while session.state.view(None)["phase"] == "deal":
        session.play(rng.choice(session.state.legal_actions()))
    nw.refresh()
    gui.pump(0.1)
    return nw


def places(nw) -> dict[str, tuple]:
    """Where each button of the panel is drawn (window coordinates), by its step."""
    shown = nw.ids.choices.children + nw.ids.primary.children
    return {t.step: (round(t.to_window(*t.pos)[0]), round(t.to_window(*t.pos)[1]), round(t.width))
            for t in shown if t.step}


def waiting(nw) -> str:
    return nw.session.state.view(None)["waiting"]["kind"]


@pytest.mark.parametrize("players", [3, 6, 9])
def test_the_first_turns_panel_keeps_every_button_in_its_place(gui, players):
    # finding 9: 6 players, the last 魚雷艇 played in P2's first turn: 艦艇追加 jumped and
    # 「赤カードもうない」 took its place
    nw = started(gui, players)
    session = nw.session
    first = places(nw)
    assert "card:torpedo_boat" in first and "card:additional_ship" in first and "no_red" in first
    gui.screenshot(f"navalwar-panel-first-turn-{players}")
    for seat in (0, 1):  # both torpedo boats played: none left to offer
        target = next(a for a in session.state.legal_actions() if a.get("card") == "torpedo_boat")
        enter(gui, nw, target)
        enter(gui, nw, {"type": "die", "value": 2})
        enter(gui, nw, {"type": "no_red"})
        if waiting(nw) == "draw":
            enter(gui, nw, {"type": "draw", "card": "hidden"})
    assert session.state.view(None)["seat"] == 2 and waiting(nw) == "stage_hand"
    now = places(nw)
    assert "card:torpedo_boat" not in now
    moved = {step: (first[step], at) for step, at in now.items() if step in first and first[step] != at}
    assert not moved, f"moved from P1's panel to P3's: {moved}"
    gui.screenshot(f"navalwar-panel-first-turn-{players}-p3")


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("players", [3, 6, 9])
def test_every_first_turn_button_is_whole_and_no_word_is_broken(gui, players, lang):
    # finding 9: with nine players "Minefield" was half cut off at the panel's bottom;
    # issue 42: 「以降 赤カードな｜し」 broke mid-word
    nw = started(gui, players, lang)
    for seat in range(players):
        scroll = nw.ids.choice_scroll
        bottom, top = scroll.to_window(*scroll.pos)[1], scroll.to_window(scroll.x, scroll.top)[1]
        for tile in nw.ids.choices.children:
            y0, y1 = tile.to_window(tile.x, tile.y)[1], tile.to_window(tile.x, tile.top)[1]
            assert bottom - 1 <= y0 and y1 <= top + 1, f"{tile.text!r} is cut off ({y0:.0f}-{y1:.0f} in {bottom:.0f}-{top:.0f})"
        assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
        rest = tiles(nw).get("no_red_rest")
        assert rest is None or "\n" in rest.text and rest.text.count("\n") == 1, rest.text  # two lines, as written
        if seat == 1:  # the first entry said under the list
            gui.screenshot(f"navalwar-panel-first-turn-{players}-{lang}")
        enter(gui, nw, {"type": "no_red"})
        if waiting(nw) == "draw":
            enter(gui, nw, {"type": "draw", "card": "hidden"})
        if nw.session.state.view(None)["phase"] != "stage":
            break


def choice_top(nw) -> int:
    scroll = nw.ids.choice_scroll
    return round(scroll.to_window(scroll.x, scroll.top)[1])


@pytest.mark.parametrize("players", [4, 9])
def test_the_choices_never_move_down_as_the_prompt_grows(gui, players):
    # finding 9: a growing prompt (a step chosen, "tap the target") pushed the choices down 28 px
    nw = started(gui, players, seed=players)
    session, rng = nw.session, random.Random(players)
    top, seen, deeper = choice_top(nw), 0, 0
    while session.state.view(None)["round"] == 1 and seen < 120:
        seen += 1
        nw.refresh()
        gui.pump(0.02)
        if nw.cataloguing:  # a ship from the harbour: the catalogue takes the whole width
            session.play(rng.choice(session.state.legal_actions()))
            continue
        assert choice_top(nw) == top, f"after {seen} entries: {nw.prompt_text!r}"
        steps = [t for t in nw.ids.choices.children + nw.ids.primary.children if t.step and not t.disabled]
        inner = [t for t in steps if next(c for c in nw.controller.tree().choices(
            nw.controller.shown_prefix(TABLE)) if c.id == t.step).action is None]
        if inner and deeper < 12:  # a step into a card: the prompt says the card and the target to tap
            deeper += 1
            gui.tap(rng.choice(inner))
            assert choice_top(nw) == top, f"one step in: {nw.prompt_text!r}"
            if deeper in (1, 6):
                gui.screenshot(f"navalwar-panel-step-in-{players}-{deeper}")
            gui.tap(nw.ids.back)
        session.play(rng.choice(session.state.legal_actions()))
    assert deeper, "no step into a card was tried"


@pytest.mark.parametrize("players", [4, 9])
def test_the_deal_keeps_every_name_in_its_place(gui, players):
    # finding 10: the list closed up after each pick; the names moved under the finger
    gui.app.lang = "ja"
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    gui.tap(nw.ids[f"count_{players}"])
    gui.tap(nw.ids.start)
    gui.tap(tiles(nw)["seat:0"])
    rng = random.Random(players)

    def names():
        return {t.text: t.to_window(*t.pos) for t in nw.ids.choices.children}

    before = names()
    for pick in range(18):
        offered = [t for t in nw.ids.choices.children if t.step and not t.disabled]
        tile = rng.choice(offered)
        ship = tile.step.split(":", 1)[1]
        gui.tap(tile)
        assert nw.session.actions[-1] == {"type": "deal", "ship": ship}
        now = names()
        assert now == before, f"pick {pick + 1} ({tile.text}) moved {[n for n in now if now[n] != before.get(n)]}"
        assert tile.disabled and tile.opacity < 1 and tile.text in now  # dim, in its place
        if pick == 6:
            gui.screenshot(f"navalwar-panel-deal-{players}")


def turn_with(gui, nw, rng, wanted, limit=4000):
    """Play at random (as earlier entries would have) until `wanted(state, actions)` names an
    action; the screen drawn."""
    session = nw.session
    for _ in range(limit):
        assert not session.state.is_over(), "never offered"
        if nw.controller.stage() != "play":
            nw.act("continue")
        acts = session.state.legal_actions()
        found = wanted(session.state, acts)
        if found is not None:
            nw.refresh()
            gui.pump(STILL_S + 0.05)  # a ship that joined between the touches is drawn once still
            return found
        usual = [a for a in ({"type": "draw", "card": "hidden"}, {"type": "no_red"}) if a in acts]
        session.play(usual[0] if usual and rng.random() < 0.8 else rng.choice(acts))  # most cards are black
    raise AssertionError("never offered")


def red_draw(kind):
    """A turn where the card drawn may be a red `kind` with targets to choose (艦艇追加: none)."""
    def wanted(state, acts):
        waiting = state.view(None)["waiting"]["kind"]
        if state.view(None)["phase"] != "turn" or waiting not in ("draw", "choose"):
            return None
        drawing = state.apply({"type": "choose", "turn": "draw"}) if waiting == "choose" else state
        draw = next((a for a in drawing.legal_actions() if a["card"].startswith(kind)), None)
        if draw is None or kind != "additional_ship" and drawing.apply(draw).legal_actions()[0]["type"] != "play":
            return None
        return draw
    return wanted


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_red_card_drawn_takes_two_touches(gui, lang):
    # finding 11: kind -> value -> 「すぐに使います」 were three
    nw = started(gui, 6, lang, seed=11)
    rng = random.Random(11)
    for kind in ("minefield", "additional_damage", "torpedo_boat", "additional_ship"):
        draw = turn_with(gui, nw, rng, red_draw(kind))
        before = len(nw.session.actions)
        gui.screenshot(f"navalwar-panel-red-{kind}-{lang}")
        tap_choice(gui, tiles(nw)[f"card:{draw['card']}"])  # one touch: the card as drawn
        if kind == "additional_ship":  # nothing to aim at: drawn and played, the harbour is next
            assert waiting(nw) == "harbour" and draw in nw.session.actions[before:]
            continue
        assert draw in nw.session.actions[before:]
        if nw.session.actions[-1] != draw:  # its one target: played with it, in the one touch
            assert nw.session.actions[-1]["card"] == draw["card"]
            continue
        gui.pump(STILL_S + 0.05)
        assert waiting(nw) == "red"
        gui.screenshot(f"navalwar-panel-red-{kind}-target-{lang}")
        target = rng.choice(nw.controller.tree().choices(nw.controller.shown_prefix(TABLE))).id
        open_fleet_of(gui, nw, target)  # three players or more: a ship in another fleet is its card first
        tap_choice(gui, tiles(nw)[target])  # the second: its target
        entered = nw.session.actions[before:]
        played = entered[entered.index(draw) + 1]
        assert played["type"] == "play" and played["card"] == draw["card"], entered


def test_the_air_strikes_target_step_has_back(gui):
    # finding 11: the air-strike target step had no 戻る
    nw = started(gui, 4, seed=5)
    rng = random.Random(5)
    turn_with(gui, nw, rng, lambda state, acts: acts[0] if state.view(None)["waiting"]["kind"] == "choose" else None)
    before = list(nw.session.actions)
    gui.tap(tiles(nw)["air_strike"])
    assert waiting(nw) == "strike" and nw.can_back and nw.ids.back.opacity == 1
    gui.screenshot("navalwar-panel-strike-back")
    gui.tap(nw.ids.back)
    assert nw.session.actions == before and waiting(nw) == "choose"
    assert "air_strike" in tiles(nw)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_rules_page_says_where_the_card_list_is_in_words(gui, lang):
    # finding 11: the rules tab pointed to navalwar_deck.md, which a group cannot open
    gui.app.lang = lang
    gui.app.show_home()
    gui.pump(0.1)
    gui.tap(gui.screen.ids.rules)
    gui.tap(gui.screen.tab_buttons["navalwar"])
    text = gui.texts(gui.screen)
    assert ".md" not in text
    assert ("デッキを数える" if lang == "ja" else "Count your deck") in text


def test_the_start_forms_too_few_cards_breaks_no_word(gui):
    # finding 11: 「…31枚以上が必／要です」
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    gui.tap(nw.ids.count_6)
    nw.deck = {"counts": {key: 20 if key == "salvo-14-1" else 0 for key, _ in default_composition().actions}}
    gui.pump(0.05)
    gui.tap(nw.ids.start)
    assert nw.session is None and "以上が必要です" in nw.ids.deck_error.text.replace("\n", "")
    assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
    gui.screenshot("navalwar-panel-too-few")


def test_the_harbours_catalogue_leaves_the_fleets_their_room(gui):
    # the catalogue takes the whole width: the squadrons' line, squeezed to a letter a line,
    # kept that height for the round and the fleet list had none left (seen by the bench, 9 players)
    nw = started(gui, 4, seed=4)
    rng = random.Random(4)  # a destroyer squadron on the table when an additional ship is drawn
    turn_with(gui, nw, rng, lambda state, acts: acts[0] if state.view(None)["waiting"]["kind"] == "harbour"
              and state.view(None)["squadrons"] else None)
    assert nw.cataloguing and nw.squadrons_text
    gui.tap(next(t for t in nw.ids.choices.children if t.step and not t.disabled))
    gui.pump(0.1)
    assert not nw.cataloguing and nw.ids.squadrons.height < 60 and nw.ids.fleet_area.height > 200, \
        (nw.ids.squadrons.height, nw.ids.fleet_area.height)


def test_no_new_button_is_drawn_under_the_finger_nor_pressed_by_a_double_tap(gui):
    # finding new (the drawn evening): after カードを引く, 黒のカード was drawn at once where it had
    # been; a step deeper (a red card, then its target) took no lock: a double tap's second touch
    # pressed whatever the next step drew there
    from kivy.tests.common import UnitTestTouch

    nw = started(gui, 3)
    for step in ("no_red", "card:additional_damage-2"):  # an entry (the next seat's panel), a step deeper
        actions, prefix = len(nw.session.actions), nw.controller.shown_prefix(TABLE)
        gui.wait_until(lambda: not nw.locked, what="the input lock to lift")
        x, y = (v + 4 for v in tiles(nw)[step].to_window(*tiles(nw)[step].pos))
        downs = []
        for _ in range(2):  # a double tap, 0.15 s apart
            touch = UnitTestTouch(x, y)
            downs.append(time.monotonic())
            touch.touch_down()
            gui.pump(0.03)
            touch.touch_up()
            gui.pump(0.12)
        in_time = time.monotonic() - downs[0] < NEW_CHOICES_S  # (a loaded machine's slow frames: not)
        assert (len(nw.session.actions), nw.controller.shown_prefix(TABLE)) != (actions, prefix)
        if in_time:
            assert nw.ids.choices.opacity == 0 and nw.ids.primary.opacity == 0  # nothing new under the finger
        entered = nw.session.actions[actions:]
        if downs[1] - downs[0] < NEW_CHOICES_S:
            assert len(entered) <= 1, entered  # the second touch pressed nothing
        gui.wait_until(lambda: nw.ids.primary.opacity == 1 or nw.ids.choices.opacity == 1, timeout=1,
                       what="the new choices")


@pytest.mark.parametrize("players, words", [(2, "目標の艦を艦隊欄でタップ"), (3, "艦隊のカード→目標の艦をタップ")])
def test_a_ships_target_is_asked_for_where_it_is_tapped(gui, players, words):
    # the newcomer trial: with a card per fleet (three players or more) the prompt said "Tap the
    # target ship in the fleets", but the first touch is the fleet's card (its ships then shown
    # under the cards)
    nw = started(gui, players)
    tap_choice(gui, tiles(nw)["card:submarine"])  # its target: a ship
    gui.wait_until(lambda: words in nw.prompt_text, timeout=2, what=f"{words} in {nw.prompt_text!r}")
    gui.screenshot(f"navalwar-target-prompt-{players}")


def test_the_prompt_keeps_to_its_three_lines_when_a_die_banner_leaves(gui):
    # the full-deck evening, 3 players: a squadron's pick prompt was fitted while its die's
    # banner made the head taller; once the banner left, its four lines overflowed the three
    nw = started(gui, 3)
    gui.wait_until(lambda: not nw.locked and nw.choices_shown, what="the panel at rest")
    gui.pump(0.5)
    nw.banner_text = "水雷戦隊の攻撃\n5\nP2の艦隊"  # the head grows under a die's banner
    gui.wait_until(lambda: nw.ids.head.height > 120, timeout=2, what="the head grown under the banner")
    nw._fit_prompt(["P1の番", "撃沈する艦艇を選んでください（残り4隻）", "艦隊のカード→目標の艦をタップ"], [])
    nw.ids.prompt.texture_update()
    assert nw.ids.prompt.texture_size[1] + 6 <= 96, nw.ids.prompt.text  # the head once the banner leaves
    assert "タップ" in nw.ids.prompt.text  # who moves left out, what to do kept
