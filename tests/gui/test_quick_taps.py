"""Taps that come quicker than a person reads never skip what the table shows them: a run
of taps on 「コンピューターの番へ」 stops at the computer's move, and 九九戦艦's 新しいゲーム is
not where 結果を見る was (the next tap would start a new game before the result is seen)."""

import time

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch
from test_kuku_screen_helpers import open_and_start, tap_cell


def quick_taps(gui, widget, n: int, apart: float = 0.06) -> None:
    """`n` taps `apart` seconds from one down to the next, as an impatient finger: the input
    and the clock are run between them but no frame is drawn (a loaded machine draws slower
    than a finger taps), so the taps are `apart` in real time."""
    x, y = widget.to_window(*widget.center)
    for _ in range(n):
        start = time.monotonic()
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        EventLoop.dispatch_input()
        touch.touch_up()
        EventLoop.dispatch_input()
        while time.monotonic() - start < apart:
            Clock.tick()  # the computer's answer arrives, when it comes
    gui.check_layout()


def to_kuku_play(gui):
    screen = open_and_start(gui, "opp_cpu", "level_easy", names=("Aki", ""))
    for cell in ("1×1", "5×5", "9×9"):
        tap_cell(gui, screen, cell)
    gui.tap(screen.ids.done)
    gui.settle(screen)
    return screen


def test_quick_taps_on_to_the_computer_stop_at_its_move(gui):
    screen = to_kuku_play(gui)
    tap_cell(gui, screen, "6×6")
    gui.tap(screen.ids.primary)
    assert screen.stage == "result" and "コンピューターの番へ" in screen.continue_text
    gui.wait_until(lambda: not screen.locked, what="the result read")
    quick_taps(gui, screen.ids.continue_button, 4)
    gui.settle(screen)
    assert screen.stage == "result" and screen.news_title.startswith("コンピューター")  # its move, shown
    gui.screenshot("computer-move-after-quick-taps")


def test_new_game_is_not_where_see_the_result_was(gui):
    screen = to_kuku_play(gui)
    c = screen.controller
    seen = screen.ids.continue_button
    while not c.session.state.is_over():  # the test knows where the computer's ships are
        state = c.session.state
        if screen.stage == "play":
            cell = next(cell for cell, _ in state.fleets[1] if cell not in state.attacked())
            gui.tap_cell(screen.grid, cell)
            gui.tap(screen.ids.primary)
        elif screen.stage == "result":
            gui.tap(seen)
        gui.settle(screen)
    assert screen.stage == "result" and screen.continue_text == "結果を見る"
    where = seen.to_window(*seen.center)
    gui.tap(seen)
    assert screen.stage == "over"
    another = screen.ids.another
    ax, ay = another.to_window(another.x, another.y)
    assert not (ax <= where[0] <= ax + another.width and ay <= where[1] <= ay + another.height)
    gui.tap_at(*where)  # the same place again: the result stays
    assert screen.stage == "over" and c.session.state.is_over()
    gui.screenshot("kuku-over")
    gui.tap(another)
    assert screen.stage != "over"


def test_a_bounced_attack_does_not_skip_its_result(gui):
    screen = to_kuku_play(gui)
    tap_cell(gui, screen, "6×6")
    attack = screen.ids.primary
    where = attack.to_window(*attack.center)
    quick_taps(gui, attack, 2)  # the finger bounces onto 「コンピューターの番へ」, drawn where 攻撃 was
    assert screen.ids.continue_button.collide_point(*screen.ids.continue_button.to_widget(*where))
    assert screen.stage == "result" and "コンピューターの番へ" in screen.continue_text
    gui.tap(screen.ids.continue_button)  # a person's tap, once the result is read
    gui.settle(screen)
    assert screen.news_title.startswith("コンピューター")
