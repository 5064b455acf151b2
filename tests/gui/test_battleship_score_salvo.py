"""Battleship's score line names the players the start panel would start (issue 43 #12, #14),
and a salvo's tap past its shots is said beside the fire button, not over it (#12)."""

import word_breaks
from companion.games.battleship.fleet import label
from test_battleship_screen_helpers import open_and_start, tap_cell


def _win_as_first_player(gui, screen) -> None:
    """Both fleets at random, then the first player sinks the other's (the test knows it)."""
    for _ in range(2):
        gui.tap(screen.ids.cover_panel.ids.button)
        gui.tap(screen.ids.random_fleet)
        gui.tap(screen.ids.done)
    targets = iter(sorted(screen.session.state.fleet_cells(1)))
    misses = iter(cell for cell in range(100) if cell not in screen.session.state.fleet_cells(0))
    while not screen.session.state.is_over():
        shooter = screen.session.state.view(None)["turn"]
        assert screen.act("move", {"type": "shot", "cell": label(next(targets if shooter == 0 else misses))})
        if screen.stage == "result":
            screen.act("continue")
    gui.tap(screen.ids.bottom)  # new game: the start panel, the names as typed
    assert screen.stage == "setup"


def test_the_score_line_names_the_players_and_keeps_each_with_its_count(gui):
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    screen.ids.name_0.text, screen.ids.name_1.text = "Aki", "Ben"
    gui.tap(screen.ids.start)
    _win_as_first_player(gui, screen)
    assert screen.score_text.split() == ["Aki：1勝", "Ben：0勝"], screen.score_text
    gui.screenshot("1-score-named")
    screen.ids.name_1.text = ""  # a field left empty: the role, with the role's wins
    gui.pump(0.05)
    assert screen.score_text.split() == ["Aki：1勝", "プレイヤー2：0勝"], screen.score_text
    gui.tap(screen.ids.opp_cpu)
    assert screen.score_text.split() == ["あなた：0勝", "コンピューター：0勝"], screen.score_text

    gui.app.lang = "en"
    gui.tap(screen.ids.opp_2p)
    screen.ids.name_0.text, screen.ids.name_1.text = "Alexandra Winter", "Bartholomew Kent"
    gui.pump(0.05)
    assert "Alexandra\u00a0Winter:\u00a00\u00a0wins" in screen.score_text  # a name with a space: one unit
    assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
    gui.screenshot("2-score-long-names-en")


def test_a_tap_past_the_salvo_is_said_beside_the_fire_button_which_takes_the_next_tap(gui):
    screen = open_and_start(gui, "opp_cpu", "variant_salvo", "level_easy")
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    gui.settle(screen)
    allowed = screen.session.state.shots_allowed()
    for cell in range(allowed):
        tap_cell(gui, screen, cell * 11)  # down the diagonal
    tap_cell(gui, screen, 99)  # one past the shots
    assert screen.notice_text == "" and "全弾入力済み" in screen.tip_text
    assert screen.ids.info.text == screen.tip_text and screen.ids.bottom.opacity == 1
    gui.screenshot("3-salvo-full-said")
    gui.app.lang = "en"
    screen.show_refusal(None)
    screen.refresh()  # the model's words in the new language
    tap_cell(gui, screen, 99)
    assert "All shots in" in screen.ids.info.text
    gui.screenshot("3-salvo-full-said-en")
    gui.tap(screen.ids.bottom)  # the next tap fires: nothing to close first
    assert len(screen.session.state.shots[0]) == allowed and screen.tip_text == ""
    gui.settle(screen)
