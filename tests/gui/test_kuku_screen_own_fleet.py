"""九九戦艦 against the computer: the player at the table may see their own fleet, an attack
on their own ship asks once more (issue 43 #13), and a name keeps its count (#14)."""

import word_breaks
from test_kuku_screen_helpers import assert_no_leak, open_and_start, tap_cell


def _placed_against_the_computer(gui, name="Aki"):
    screen = open_and_start(gui, "opp_cpu", "level_easy", "first_0", names=(name, ""))
    for cell in ("1×1", "5×5", "9×9"):
        tap_cell(gui, screen, cell)
    gui.tap(screen.ids.done)
    gui.settle(screen)
    assert screen.stage == "play"
    return screen


def test_my_fleet_shows_on_request_and_hides_again(gui):
    screen = _placed_against_the_computer(gui)
    mine = dict(screen.session.state.fleets[0])
    assert screen.grid.ships == {} and screen.ids.peek.opacity == 1
    gui.screenshot("1-fleet-hidden")
    gui.tap(screen.ids.peek)
    assert screen.grid.ships == mine and screen.peeking
    screen.grid.redraw()
    assert {cell for cell, mark in screen.grid.drawn.items() if set(mark) & {"N", "L"}} == set(mine)
    assert_no_leak(gui, screen)  # the computer's fleet is still nowhere
    gui.screenshot("2-fleet-shown")
    gui.app.lang = "en"
    screen.refresh()  # the model's words in the new language
    gui.screenshot("2-fleet-shown-en")
    gui.app.lang = "ja"
    gui.tap(screen.ids.peek)
    assert screen.grid.ships == {} and not screen.peeking


def test_attacking_my_own_leader_asks_once_more(gui):
    screen = _placed_against_the_computer(gui)
    state = screen.session.state
    leader = next(cell for cell, kind in state.fleets[0] if kind == "leader")
    tap_cell(gui, screen, leader)
    tap_cell(gui, screen, leader)  # the second tap would attack: held, with why
    assert leader not in screen.session.state.attacked() and screen.stage == "play"
    assert "リーダー船" in screen.warn_text and screen.ids.said.text == screen.warn_text
    assert screen.notice_text == ""  # said in the panel, nothing to close
    gui.screenshot("3-own-leader-warned")
    gui.app.lang = "en"
    screen.act("key", "1")  # another entry: the warning goes
    assert screen.warn_text == ""
    tap_cell(gui, screen, leader)
    gui.tap(screen.ids.primary)  # the attack button asks too
    assert "own leader" in screen.warn_text and leader not in screen.session.state.attacked()
    gui.screenshot("3-own-leader-warned-en")
    gui.tap(screen.ids.primary)  # again: the player meant it
    assert leader in screen.session.state.attacked()


def test_a_long_name_keeps_its_count_and_the_legend_its_marks(gui):
    screen = _placed_against_the_computer(gui, name="Alexandra")
    assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
    gui.screenshot("4-remaining-long-name")
    while not screen.session.state.is_over():  # the rest: the test aims at the computer's ships
        state = screen.session.state
        if screen.stage == "play":
            own = {c for c, _ in state.fleets[0]}
            targets = [c for c, _ in state.fleets[1] if c not in state.attacked() and c not in own]
            assert screen.act("move", {"type": "attack", "cell": (targets or state.unattacked())[0]})
        elif screen.stage == "result":
            screen.act("continue")
        gui.settle(screen)
        assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
    screen.act("continue")
    gui.settle(screen)
    assert screen.stage == "over" and screen.ids.legend.text
    for lang in ("ja", "en"):
        gui.app.lang = lang
        screen.refresh()
        assert not word_breaks.problems(gui.app), (lang, word_breaks.problems(gui.app))
        gui.screenshot(f"5-over-legend-{lang}")
    gui.tap(screen.ids.another)  # the start panel: the score names the computer in words
    for lang, computer in (("en", "Computer"), ("ja", "コンピューター")):
        gui.app.lang = lang
        screen.refresh()
        assert f"{computer}\u00a0" in screen.score_text and "cpu" not in screen.score_text, screen.score_text
        assert not word_breaks.problems(gui.app), (lang, word_breaks.problems(gui.app))
        gui.screenshot(f"6-score-{lang}")
