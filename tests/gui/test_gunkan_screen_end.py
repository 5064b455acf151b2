"""軍艦将棋 at the end of a game (issue 29, small faults): the battle log shows whole lines
only, never one cut at its bottom, and 取り消し (Undo) is no longer lit once the result is
shown (the review steps through the battles instead)."""

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
