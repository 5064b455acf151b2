"""The on-screen keyboard (display.on_screen_keyboard), typed by touch at 800×480."""

from __future__ import annotations

import pytest
from kivy.core.window import Window
from kivy.uix.vkeyboard import VKeyboard

from companion import config


@pytest.fixture
def gui_config(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\nlanguage: ja\ndisplay:\n  on_screen_keyboard: true\n")
    return config.load(path)


def keyboard() -> VKeyboard | None:
    return next((w for w in Window.children if isinstance(w, VKeyboard)), None)


def key_rects(kb: VKeyboard) -> dict[str, tuple[float, float, float, float]]:
    """Every key's rectangle in window pixels (x, y, width, height), by its label."""
    layout = kb.available_layouts[kb.layout]
    rects = {}
    for line in range(1, layout["rows"] + 1):
        keys = layout[f"{kb.layout_mode}_{line}"]
        for (label, *_), (pos, size) in zip(keys, kb.layout_geometry[f"LINE_{line}"]):
            x, y = kb.to_parent(*pos)  # the keyboard is a scaled Scatter on the window
            rects[label] = (x, y, size[0] * kb.scale, size[1] * kb.scale)
    return rects


def type_keys(gui, kb: VKeyboard, labels) -> None:
    """Touch the keys with these labels, one after another, as they are drawn then."""
    for label in labels:
        x, y, w, h = key_rects(kb)[label]
        gui.tap_at(x + w / 2, y + h / 2)


def test_names_are_typed_on_the_screen_keys_above_which_the_field_shows(gui):
    gui.tap(gui.tile("navalwar"))
    screen = gui.screen
    gui.tap(screen.ids["count_9"])
    last = screen._name_fields()[-1]
    gui.tap(last)
    gui.pump(0.2)
    kb = keyboard()
    assert kb is not None and kb.target is last
    keys_top = kb.y + kb.height * kb.scale
    assert kb.width * kb.scale == pytest.approx(800)
    x, y = last.to_window(*last.pos)
    assert y >= keys_top and y + last.height <= 480  # lifted above the keys, still on screen
    rects = key_rects(kb)
    assert min(h for *_, h in rects.values()) >= 48 and min(w for _, _, w, _ in rects.values()) >= 48
    gui.screenshot("keyboard-navalwar-last-name")

    last.text = ""
    type_keys(gui, kb, ["し", "よ", "小", "う", "は", "゛゜", "゛゜"])  # the app speaks Japanese: かな first
    assert last.text == "しょうぱ"
    type_keys(gui, kb, ["カナ", "ア", "キ"])
    gui.screenshot("keyboard-katakana")
    type_keys(gui, kb, ["かな", "ABC"])
    gui.screenshot("keyboard-latin")  # (the layout is redrawn on the next frame)
    type_keys(gui, kb, ["a", "Aa", "B", "Aa", "del", "c"])
    assert last.text == "しょうぱアキac"

    gui.tap(screen.ids["count_3"])  # a tap elsewhere ends the typing: keys gone, screen back down
    gui.pump(0.2)
    assert keyboard() is None and gui.app.manager.y == 0


def test_kuku_names_show_above_the_keys(gui):
    gui.tap(gui.tile("kuku"))
    fields = [w for w in gui.widgets(gui.screen) if type(w).__name__ == "KukuNameField"]
    assert len(fields) == 2
    gui.tap(fields[0])
    gui.pump(0.2)
    kb = keyboard()
    assert kb is not None and kb.target is fields[0]
    x, y = fields[0].to_window(*fields[0].pos)
    assert y >= kb.y + kb.height * kb.scale and y + fields[0].height <= 480
    gui.screenshot("keyboard-kuku-name")


def test_settings_turn_the_keys_off_and_on_at_once(gui):
    gui.tap(gui.find("設定"))
    gui.tap(gui.screen.ids.keyboard_off)
    gui.screenshot("settings-keys-off")
    gui.tap(gui.find("ホーム"))
    gui.tap(gui.tile("kuku"))
    field = next(w for w in gui.widgets(gui.screen) if type(w).__name__ == "KukuNameField")
    gui.tap(field)
    gui.pump(0.2)
    assert field.focus and keyboard() is None
    field.focus = False
    gui.screen.go_home()
    gui.pump(0.1)
    gui.tap(gui.find("設定"))
    gui.tap(gui.screen.ids.keyboard_on)
    gui.tap(gui.find("ホーム"))
    gui.tap(gui.tile("kuku"))
    gui.tap(field)
    gui.pump(0.2)
    assert keyboard() is not None
