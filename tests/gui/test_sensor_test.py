"""The sensor test from Settings, through the real window on the simulator: each pan's grams and
noise live, a press on each pan seen, and the verdict after 30 s; a fault fails it."""

import re


def open_test(gui):
    gui.tap(gui.find("設定"))
    assert gui.screen.name == "settings"
    gui.tap(gui.screen.ids.sensor_test)
    assert gui.screen.name == "sensor_test"
    return gui.screen


def test_both_pans_pressed_quiet_and_no_fault_in_30_s_passes(gui):
    screen = open_test(gui)
    gui.wait_until(lambda: re.search(r"ノイズ σ 0\.0\d\d g", screen.ids.pan0.text)
                   and re.search(r"ノイズ σ 0\.0\d\d g", screen.ids.pan1.text), what="both pans' noise")
    assert re.search(r"-?\d+\.\d\d g", screen.ids.pan0.text)  # grams, live
    assert "指で押してください" in screen.ids.pan0.text and "… 両方の皿が押すと反応し、元に戻る" in screen.checks_text
    gui.screenshot("t01-waiting")
    gui.tap(screen.ids.press0)
    gui.wait_until(lambda: "反応 ✓" in screen.ids.pan0.text, what="the left pan's press")
    assert "反応 ✓" not in screen.ids.pan1.text  # only the pressed pan
    gui.tap(screen.ids.press1)
    gui.wait_until(lambda: "反応 ✓" in screen.ids.pan1.text, what="the right pan's press")
    assert "✓ 両方の皿が押すと反応し、元に戻る" in screen.checks_text and "✓ ノイズ 0.1 g 未満" in screen.checks_text
    assert "テスト中… あと" in screen.verdict_text and not screen.passed
    gui.wait_until(lambda: screen.test.done(screen.clock()), timeout=35, what="the 30 s")
    gui.pump(0.2)
    assert screen.verdict_text == "合格 ✓" and screen.passed
    assert "✓ 30 秒間エラーなし" in screen.checks_text
    gui.screenshot("t02-pass")
    gui.tap(screen.ids.back)
    assert gui.screen.name == "settings"


def left_pan_near_zero(sensor) -> bool:
    sensor.status()  # the readings that arrived
    return abs(sensor.recent(0, 0.0)[-1].grams) < 5


def test_a_pan_pressed_past_its_cell_fails_and_says_which(gui):
    screen = open_test(gui)
    screen.test.duration_s = 4.0  # the fault is what is tested, not the 30 s
    gui.app.sensor.source.place(0, grams=1200.0)  # a hand leaning on the left pan
    gui.wait_until(lambda: screen.test.done(screen.clock()), timeout=8, what="the test's end")
    gui.pump(0.2)
    assert screen.verdict_text == "不合格 ×" and not screen.passed
    assert "× 4 秒間エラーなし：左の皿が過負荷" in screen.checks_text
    gui.screenshot("t03-fail")
    gui.app.sensor.source.clear()  # the hand lifted: the pan comes back before the test is run again
    gui.wait_until(lambda: left_pan_near_zero(gui.app.sensor), what="the left pan back near zero")
    gui.tap(screen.ids.restart)
    assert "テスト中" in screen.verdict_text and not screen.test.faults


def test_the_test_reads_in_english(gui):
    gui.app.change_setting(language="en")
    gui.tap(gui.find("Settings"))
    gui.tap(gui.screen.ids.sensor_test)
    screen = gui.screen
    gui.wait_until(lambda: "noise σ 0.0" in screen.ids.pan0.text, what="the noise")
    assert "Both pans respond to a press and come back" in screen.checks_text
    gui.screenshot("t04-en")


def test_a_press_in_the_first_second_is_seen(gui):
    """Issue 43: pressed at once, the pan showed 40 g but the press was never counted (then 不合格)."""
    screen = open_test(gui)
    gui.tap(screen.ids.press0)  # before the pan was seen at rest for a second
    gui.wait_until(lambda: re.search(r"\b(39|40)\.\d\d g", screen.ids.pan0.text), what="the press shown")
    gui.wait_until(lambda: "反応 ✓" in screen.ids.pan0.text, timeout=4, what="the first second's press counted")
    gui.screenshot("t05-first-second-press")


def test_a_check_not_met_by_the_end_is_marked_failed_not_still_waiting(gui):
    """The newcomer walk: no pan pressed in 30 s gave 不合格 × while its check still said … (as if
    waiting), so the group could not see which check failed."""
    screen = open_test(gui)
    screen.test.duration_s = 3.0  # the end is what is tested, not the 30 s
    gui.wait_until(lambda: screen.test.done(screen.clock()), timeout=8, what="the test's end")
    gui.pump(0.3)
    assert screen.verdict_text == "不合格 ×"
    assert "× 両方の皿が押すと反応し、元に戻る" in screen.checks_text and "…" not in screen.checks_text
    gui.screenshot("t05-not-pressed")
