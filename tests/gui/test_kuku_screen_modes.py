"""九九戦艦 against the computer, and as the tracker of a fully physical game."""

from test_kuku_screen_helpers import assert_no_leak, open_and_start, tap_cell, type_keys


def test_computer_game_hides_its_fleet_and_announces_its_attacks(gui):
    screen = open_and_start(gui, "opp_cpu", "level_easy", names=("Aki", ""))
    assert screen.stage == "place" and screen.session.players == ["Aki", "cpu"]  # no cover
    for cell in ("1×1", "5×5", "9×9"):
        tap_cell(gui, screen, cell)
    assert_no_leak(gui, screen)
    gui.tap(screen.ids.done)
    gui.settle(screen)
    assert screen.stage == "play" and screen.session.state.phase == "play"
    assert_no_leak(gui, screen)
    gui.screenshot("1-your-turn")
    tap_cell(gui, screen, "6×6")
    gui.tap(screen.ids.primary)
    assert screen.stage == "result"
    gui.tap(screen.ids.continue_button)
    gui.settle(screen)
    assert screen.stage == "result" and screen.news_title.startswith("コンピューター")
    assert_no_leak(gui, screen)
    gui.screenshot("2-computer-attack-announced")
    gui.tap(screen.ids.continue_button)
    assert screen.stage == "play" and "Akiの番" in screen.status_text

    # the rest: the test (not the screen) knows the computer's ships and aims at them
    while not screen.session.state.is_over():
        state = screen.session.state
        if screen.stage == "play":
            targets = [c for c, _ in state.fleets[1] if c not in state.attacked()]
            own = {c for c, _ in state.fleets[0]}
            cell = next((c for c in targets if c not in own), None) or state.unattacked()[0]
            assert screen.act("move", {"type": "attack", "cell": cell})
        elif screen.stage == "result":
            screen.act("continue")
        gui.settle(screen)
        assert_no_leak(gui, screen)
    assert screen.stage in ("result", "over")
    screen.act("continue")
    # the computer's attacks are random: a last bomb may sink both fleets at once (a draw)
    said = "引き分け" if screen.session.state.outcome().winner is None else "勝ち"
    assert screen.stage == "over" and said in screen.status_text
    gui.screenshot("3-over")


def report_by_touch(gui, screen, cells: list[str]) -> None:
    for button in screen.ids.answers.children:
        if button.cell in cells:
            gui.tap(button)
    gui.tap(screen.ids.confirm)


def test_tracker_game_asks_for_hits_and_the_leader_and_decides_the_end(gui):
    screen = open_and_start(gui, "opp_tracker", names=("Aki", "Ben"))
    assert screen.stage == "play" and screen.session.state.mode == "tracker"
    # Aki: leader 1×1, normals 3×8 and 2×1; Ben: normals 4×6 and 7×7, leader 2×1
    type_keys(gui, screen, "24")
    gui.tap(screen.ids.primary)
    for pair in ("3×8", "8×3", "4×6", "6×4"):
        tap_cell(gui, screen, pair)  # a cell tapped is the pair typed
        gui.tap(screen.ids.primary)
    gui.tap(screen.ids.secondary)
    assert screen.stage == "answer" and "Ben: 攻撃されたマスに" in screen.status_text
    gui.screenshot("1-ask-ben")
    report_by_touch(gui, screen, ["4×6"])
    assert "Aki: 攻撃されたマスに" in screen.status_text
    report_by_touch(gui, screen, ["3×8"])
    assert screen.stage == "result" and "自爆" in screen.news_text
    assert "Ben「命中！」 4×6" in screen.news_text and "Aki「命中！」 3×8" in screen.news_text
    gui.screenshot("2-self-destruct")
    gui.tap(screen.ids.continue_button)

    for action in ({"type": "attack", "cell": "1×1"}, {"type": "report", "hits": ["1×1"]},
                   {"type": "report", "hits": []}, {"type": "attack", "cell": "7×7"},
                   {"type": "report", "hits": ["7×7"]}, {"type": "report", "hits": []}):
        assert screen.act("move", action), screen.notice_text
        if screen.stage == "result":
            screen.act("continue")
    assert screen.session.state.remaining() == (1, 1)

    # Ben attacks 2×1, where both have a ship: both fleets gone, the basic rule asks for the leaders
    tap_cell(gui, screen, "2×1")
    tap_cell(gui, screen, "2×1")
    report_by_touch(gui, screen, ["2×1"])
    report_by_touch(gui, screen, ["2×1"])
    assert screen.stage == "answer" and "リーダー船はありましたか" in screen.status_text
    gui.screenshot("3-ask-leader")
    report_by_touch(gui, screen, ["earlier"])
    report_by_touch(gui, screen, ["2×1"])
    gui.tap(screen.ids.continue_button)
    assert screen.stage == "over" and "Benの勝ち" in screen.status_text
    assert "リーダー船の側の勝ち" in screen.status_text
    gui.screenshot("4-over")
