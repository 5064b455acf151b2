"""The virtual pieces tray opens where a person expects and the counterweight goes with the
submarine (issue 29, finding 3: after ⑥ on the left pan the tray reopened on the right, so
錘 landed on the defender's pan and ⑥ with 錘 against ① was recorded as 相打ち).

Every piece here is placed as a person does it: open the tray, tap the piece, never the pan."""

import pytest

from test_gunkan_screen import GENTLE_HANDS, assert_no_secrets, tap_action


@pytest.fixture
def gunkan(gui):
    gui.tap(gui.tile("gunkan"))
    gui.app.sensor.source.with_realism(**GENTLE_HANDS)
    return gui.screen


def put(gui, screen, piece):
    """Open the tray and tap a piece, on whichever pan the tray chose; the pan it opened on."""
    gui.tap(screen.ids.tray)
    opened_on = screen.dialog.pan
    gui.tap(screen.dialog.buttons[piece])
    assert screen.dialog.parent is None
    return opened_on


def pans(gui):
    sim = gui.app.sensor.source
    return [[label for _, label, _ in sim.loads(pan)] for pan in ("L", "R")]


def submarine_with_counterweight_attacks(gui, screen, seat):
    """Judging "seesaw": ⑥ on the attacker's pan, a ship declared, the counterweight said to be on."""
    tap_action(gui, screen, "mode:seesaw")
    tap_action(gui, screen, f"attack:{seat}")
    put(gui, screen, "submarine")
    tap_action(gui, screen, "declare:ship")
    tap_action(gui, screen, "counterweight:on")


def verdict(gui, screen, fought):
    gui.wait_until(lambda: len(screen.session.state.battles) > fought, timeout=10, what="the verdict")
    assert_no_secrets(gui, screen)
    return screen.session.state.battles[-1]


def test_seesaw_the_submarine_with_the_counterweight_beats_the_carrier(gui, gunkan):
    submarine_with_counterweight_attacks(gui, gunkan, 0)
    assert put(gui, gunkan, "counterweight") == "L"  # the attacker was just asked: their pan
    assert pans(gui) == [["submarine", "counterweight"], []]
    assert put(gui, gunkan, "carrier") == "R"  # the defender's turn: the tray opens on the right
    assert pans(gui) == [["submarine", "counterweight"], ["carrier"]]
    battle = verdict(gui, gunkan, 0)
    assert (battle.verdict, battle.counterweight) == ("attacker_wins", True)
    assert "攻撃側の勝ち" in gunkan.big_text and "錘" in gunkan.log_text


def test_the_counterweight_goes_with_the_submarine_whichever_pan_is_chosen(gui, gunkan):
    submarine_with_counterweight_attacks(gui, gunkan, 1)
    gui.tap(gunkan.ids.tray)
    gui.tap(gunkan.dialog.buttons["pan:R"])
    gui.tap(gunkan.dialog.buttons["counterweight"])  # the right pan chosen: 錘 still rides on ⑥
    assert pans(gui) == [["submarine", "counterweight"], []]
    put(gui, gunkan, "carrier")
    assert pans(gui) == [["submarine", "counterweight"], ["carrier"]]
    assert verdict(gui, gunkan, 0).verdict == "attacker_wins"


def test_the_tray_takes_the_counterweight_off_when_asked(gui, gunkan):
    submarine_with_counterweight_attacks(gui, gunkan, 0)
    put(gui, gunkan, "counterweight")
    put(gui, gunkan, "battleship")
    gui.wait_until(lambda: "錘を外して" in gunkan.prompt_text, what="take the counterweight off")
    gui.tap(gunkan.ids.tray)
    button = gunkan.dialog.buttons["counterweight"]
    assert "外す" in button.text  # the one counterweight is on a pan: its button takes it off
    gui.screenshot("tray-counterweight-off")
    gui.tap(button)
    assert pans(gui) == [["submarine"], ["battleship"]]
    assert verdict(gui, gunkan, 0).verdict == "defender_wins"  # the bare ⑥ against ②


def test_identify_the_counterweight_rides_on_the_attacker(gui, gunkan):
    tap_action(gui, gunkan, "mode:identify")
    tap_action(gui, gunkan, "attack:0")
    tap_action(gui, gunkan, "counterweight:tap")
    put(gui, gunkan, "submarine")
    put(gui, gunkan, "counterweight")
    put(gui, gunkan, "carrier")
    assert pans(gui) == [["submarine", "counterweight"], ["carrier"]]
    battle = verdict(gui, gunkan, 0)
    assert (battle.verdict, battle.attacker_piece, battle.defender_piece) == ("attacker_wins", "submarine", "carrier")


def test_the_final_report_shows_whole_lines_and_whole_words(gui, gunkan):
    """Issue 29, finding 10: the report was cut at the bottom and broke 「⑦揚｜陸艦」."""
    import word_breaks

    tap_action(gui, gunkan, "mode:identify")
    fights = [("cruiser", "destroyer"), ("battleship", "landing_ship"), ("minesweeper", "mine"),
              ("destroyer", "battleship"), ("cruiser", "cruiser"), ("landing_ship", "port")]
    for n, (attacker, defender) in enumerate(fights):
        tap_action(gui, gunkan, f"attack:{n % 2}")
        put(gui, gunkan, attacker)
        put(gui, gunkan, defender)
        if defender != "port":
            verdict(gui, gunkan, n)
            gui.tap(gunkan.ids.tray)
            gui.tap(gunkan.dialog.buttons["clear"])
            gui.wait_until(lambda: gunkan.stage == "idle", what="empty pans")
    gui.wait_until(lambda: gunkan.stage == "over", what="the port captured")
    gui.pump(0.2)
    gui.screenshot("report")
    assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
    scroll, detail = gunkan.ids.detail_scroll, gunkan.ids.detail
    line = gunkan.whole_lines(1, detail.font_size)
    assert scroll.height >= 5 * line  # room for the report, not two lines of it
    assert abs(scroll.height / line - round(scroll.height / line)) < 0.01  # whole lines: none cut
    assert "⑦揚陸艦" in detail.text
