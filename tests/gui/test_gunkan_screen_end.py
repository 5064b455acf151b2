"""軍艦将棋 at the end of a game (issue 29, small faults): the battle log shows whole lines
only, never one cut at its bottom, and 取り消し (Undo) is no longer lit once the result is
shown (the review steps through the battles instead)."""

import pytest
from test_gunkan_screen import tap_action

from companion.ui.widgets import whole_lines


def test_the_log_shows_whole_lines_and_undo_goes_out_at_the_end(gui):
    gui.tap(gui.tile("gunkan"))
    gunkan = gui.screen
    tap_action(gui, gunkan, "mode:seesaw")
    for n in range(6):  # six battles fought on a wooden seesaw, as entered before
        gunkan.session.play_all([{"type": "battle", "attacker": n % 2}, {"type": "declare", "kind": "ship"},
                                 {"type": "counterweight", "on": False},
                                 {"type": "weighed", "result": ("attacker_heavier", "defender_heavier", "balanced")[n % 3]}])
    gunkan.refresh()
    gui.pump(0.1)
    assert gunkan.can_undo and not gunkan.ids.undo.disabled
    tap_action(gui, gunkan, "attack:0")
    tap_action(gui, gunkan, "declare:port")
    assert gunkan.stage == "over"
    gui.pump(0.1)
    scroll, log = gunkan.ids.log_scroll, gunkan.ids.log
    assert log.height > scroll.height  # the log scrolls: its view is what this is about
    lines = log.text.count("\n") + 1
    line = log.texture_size[1] / lines
    assert abs(scroll.height / line - round(scroll.height / line)) < 0.05, \
        f"a line cut at the bottom: {scroll.height} px of {line:.1f} px lines"
    assert scroll.height == whole_lines(gunkan.ids.log_box.height, log.font_size)
    assert gunkan.ids.log_box.height - scroll.height < line  # no more room left than a line
    assert not gunkan.can_undo and gunkan.ids.undo.disabled  # a shown result stands
    assert "ask" not in {o.kind for o in gunkan.controller.offers("table") if o.choices == ("undo",)}
    gui.screenshot("gunkan-end-log-whole-lines")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_review_counts_battles_and_centres_a_battles_lines_under_its_title(gui, lang):
    """Issue 43: the bar counted actions (「37手目」 for 10 battles), and a reviewed battle's line
    sat at the left edge under its centred title."""
    gui.app.change_setting(language=lang)
    gui.tap(gui.tile("gunkan"))
    gunkan = gui.screen
    tap_action(gui, gunkan, "mode:seesaw")
    for n in range(3):
        gunkan.session.play_all([{"type": "battle", "attacker": n % 2}, {"type": "declare", "kind": "ship"},
                                 {"type": "counterweight", "on": False},
                                 {"type": "weighed", "result": "attacker_heavier"}])
    gunkan.refresh()
    tap_action(gui, gunkan, "attack:1")
    tap_action(gui, gunkan, "declare:port")  # 14 actions, 4 battles
    bar = gunkan.ids.review
    gui.wait_until(lambda: bar.text, what="the review bar")
    assert bar.text == {"ja": "終局（勝負 4）", "en": "The end (4 battles)"}[lang]
    gui.tap(bar.ids.prev)  # the port's battle ended the game: one step back is battle 3
    gui.pump(0.1)
    assert bar.text == {"ja": "勝負 3 / 4", "en": "Battle 3 / 4"}[lang]
    assert gunkan.big_text == {"ja": "攻撃側の勝ち", "en": "Attacker wins"}[lang] and gunkan.detail_text
    detail, big = gunkan.ids.detail, gunkan.ids.big
    middle = lambda w: w.to_window(w.center_x, w.y)[0]  # noqa: E731  (the detail lies in a ScrollView)
    assert detail.halign == big.halign == "center" and middle(detail) == pytest.approx(middle(big), abs=2)
    gui.screenshot(f"gunkan-review-battle-{lang}")
    for _ in range(3):
        gui.tap(bar.ids.prev)
    assert bar.text == {"ja": "勝負 0 / 4", "en": "Battle 0 / 4"}[lang]
