"""軍艦将棋's guided first battle on the real screen (issue 29: the walkthrough was only a
help page): a new group taps 案内つきで はじめての一戦 and is led, a step at a time, through
its first battle on the (simulated) seesaw, by touch, in Japanese and in English.  Each
step's card stands in the log's place, and what it is about is outlined in gold."""

import pytest

from test_gunkan_screen import GENTLE_HANDS, assert_no_secrets, tap_action

from companion import i18n


def open_gunkan(gui, lang="ja"):
    gui.app.lang = lang  # as Settings sets it
    gui.tap(gui.tile("gunkan"))
    gui.app.sensor.source.with_realism(**GENTLE_HANDS)
    return gui.screen


def put(gui, screen, piece):
    gui.tap(screen.ids.tray)
    gui.tap(screen.dialog.buttons[piece])
    assert screen.dialog.parent is None


def card(screen, lang):
    return screen.guide_heading, screen.guide_text


def said(key, lang, **values):
    return i18n.translate(f"gunkan_guide.{key}", lang, **values)


def outlines(gui, screen, widget):
    """The gold outline is drawn around `widget`, where it is now."""
    assert screen.guide_widget is widget
    line = next(i for i in screen.canvas.after.children if type(i).__name__ == "Line")
    x, y = widget.pos
    assert line.rectangle == pytest.approx((x - 3, y - 3, widget.width + 6, widget.height + 6), abs=1)


def at(screen, lang, step, n):
    heading, text = card(screen, lang)
    assert heading == (said("heading", lang, n=n, of=7) if n else said("heading_done", lang))
    assert text == said(step, lang) if not i18n.catalog("gunkan_guide").get(f"{step}.virtual") \
        else text == said(f"{step}.virtual", lang)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_new_group_is_led_through_its_first_battle(gui, lang):
    gunkan = open_gunkan(gui, lang)
    gui.screenshot(f"guide-{lang}-0-start")
    assert gunkan.guide_text == said("invite", lang) and not gunkan.guiding
    gui.tap(gunkan.ids.guide_button)
    assert gunkan.stage == "idle" and gunkan.session.state.judging == "seesaw"
    at(gunkan, lang, "attack", 1)
    outlines(gui, gunkan, gunkan.ids.actions)
    assert gunkan.ids.log_box.opacity == 0  # the card is in the log's place (no battle yet)
    gui.screenshot(f"guide-{lang}-1-attack")

    tap_action(gui, gunkan, "attack:0")
    at(gunkan, lang, "attacker_piece", 2)
    outlines(gui, gunkan, gunkan.ids.tray)
    gui.screenshot(f"guide-{lang}-2-attacker-piece")
    put(gui, gunkan, "cruiser")
    gui.wait_until(lambda: "declare" in gunkan.guide_text or gunkan.guide_heading.endswith("3/7")
                   or "3 of 7" in gunkan.guide_heading, what="the declare step")
    at(gunkan, lang, "declare", 3)
    gui.screenshot(f"guide-{lang}-3-declare")
    tap_action(gui, gunkan, "declare:ship")
    at(gunkan, lang, "counterweight", 4)
    gui.screenshot(f"guide-{lang}-4-counterweight")
    tap_action(gui, gunkan, "counterweight:off")
    at(gunkan, lang, "defender_piece", 5)
    outlines(gui, gunkan, gunkan.ids.tray)
    put(gui, gunkan, "destroyer")
    gui.wait_until(lambda: gunkan.stage == "verdict" or "6" in gunkan.guide_heading, what="the weighing step")
    if gunkan.stage != "verdict":  # a quick judge may be done before a frame shows the weighing
        at(gunkan, lang, "weighing", 6)
        outlines(gui, gunkan, gunkan.ids.seesaw)
    gui.wait_until(lambda: gunkan.stage == "verdict", timeout=10, what="the verdict")
    at(gunkan, lang, "remove", 7)
    assert_no_secrets(gui, gunkan)
    gui.screenshot(f"guide-{lang}-7-remove")
    gui.tap(gunkan.ids.tray)
    gui.tap(gunkan.dialog.buttons["clear"])
    gui.wait_until(lambda: gunkan.stage == "idle", what="the pans to be empty")
    at(gunkan, lang, "done", None)
    assert gunkan.guide_widget is None
    gui.screenshot(f"guide-{lang}-8-done")

    gui.tap(gunkan.ids.guide_button)
    assert gunkan.guide_text == "" and gunkan.ids.log_box.opacity == 1
    assert gunkan.session.state.battles[-1].verdict == "attacker_wins"  # the cruiser outweighs the destroyer


def test_the_guide_ends_when_asked_and_a_new_game_starts_without_it(gui):
    gunkan = open_gunkan(gui)
    gui.tap(gunkan.ids.guide_button)
    tap_action(gui, gunkan, "attack:1")
    gui.pump(0.35)  # the card's button is where the log was: no input lock for it, but a person's pace
    gui.tap(gunkan.ids.guide_button)
    assert gunkan.guide_text == "" and gunkan.guide_widget is None
    tap_action(gui, gunkan, "cancel")
    assert gunkan.guide_text == ""  # closed stays closed
    gunkan.new_game()
    gui.pump(0.1)
    assert gunkan.guide_text and not gunkan.guiding  # a new game invites again
