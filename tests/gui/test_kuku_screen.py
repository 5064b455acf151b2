"""九九戦艦 refereed by the screen: fleets behind a cover, attacks and bombs by touch (docs/rules.md §kuku)."""

import word_breaks
from test_kuku_screen_helpers import assert_no_leak, open_and_start, tap_cell, type_keys


def say_bomb(gui, screen, product: str, pairs: list[str]) -> None:
    type_keys(gui, screen, product)
    gui.tap(screen.ids.primary)
    assert screen.stage == "list" and not screen.grid.show_values
    for pair in pairs:
        type_keys(gui, screen, pair)
        gui.tap(screen.ids.primary)
        assert_no_leak(gui, screen)
    gui.tap(screen.ids.secondary)


def place(gui, screen, normals, leader) -> None:
    gui.tap(screen.ids.cover_panel.ids.button)
    assert screen.stage == "place"
    gui.tap(screen.ids.kind_leader)
    tap_cell(gui, screen, leader)
    for cell in normals:
        tap_cell(gui, screen, cell)
    assert screen.can_confirm
    assert_no_leak(gui, screen)


def test_refereed_game_by_touch_with_bombs_and_no_fleet_on_the_shared_screen(gui):
    screen = open_and_start(gui, names=("Aki", "Ben"))
    assert screen.stage == "cover" and "Akiに画面を渡して" in screen.cover_text
    assert_no_leak(gui, screen)
    gui.screenshot("01-cover")
    place(gui, screen, ["1×1", "5×5"], "9×9")
    assert screen.grid.drawn["9×9"] == "L" and screen.grid.drawn["1×1"] == "N"
    gui.screenshot("02-placed")
    gui.tap(screen.ids.done)
    assert screen.stage == "cover" and "Ben" in screen.cover_text
    assert_no_leak(gui, screen)
    place(gui, screen, ["3×8", "7×7"], "2×1")
    assert not screen.ids.place_undo.disabled
    gui.tap(screen.ids.done)
    assert screen.stage == "play" and "Akiの番" in screen.status_text
    assert_no_leak(gui, screen)
    gui.screenshot("03-play")

    # a normal attack: tap to aim, tap again to attack; the result says who marks what
    tap_cell(gui, screen, "3×8")
    assert screen.grid.aim == "3×8" and "3×8 を攻撃" in screen.primary_text
    assert_no_leak(gui, screen)
    gui.screenshot("03-aimed")
    tap_cell(gui, screen, "3×8")
    assert screen.stage == "result"
    assert "3×8" in screen.news_text and "赤（命中）" in screen.news_text
    assert "Ben「命中！」" in screen.news_text and "残り\u00a0Aki\u00a03隻・ Ben\u00a02隻" in screen.news_text
    assert screen.grid.rings == ["3×8"] and screen.grid.drawn["3×8"] == "r"
    assert_no_leak(gui, screen)
    gui.screenshot("04-result-hit")
    gui.tap(screen.ids.continue_button)

    # a correct bomb: the product and every pair on the keypad
    assert "Benの番" in screen.status_text
    type_keys(gui, screen, "16")
    assert "九九ボム 16" in screen.primary_text
    gui.tap(screen.ids.primary)
    type_keys(gui, screen, "2×8")
    gui.tap(screen.ids.primary)
    type_keys(gui, screen, "4×4")
    assert "言った: 2×8" in screen.said_text
    gui.screenshot("05-listing")
    gui.tap(screen.ids.primary)
    type_keys(gui, screen, "8×2")
    gui.tap(screen.ids.primary)
    gui.tap(screen.ids.secondary)
    assert screen.stage == "result" and "正解" in screen.news_text
    assert screen.news_text.count("青（ハズレ）") == 3
    assert_no_leak(gui, screen)
    gui.screenshot("06-result-bomb")
    gui.tap(screen.ids.continue_button)

    # a failed bomb: judged only when done, then the right listing is shown
    say_bomb(gui, screen, "24", ["3×8", "8×3", "4×6"])
    assert screen.stage == "result" and "言い漏れ" in screen.news_text
    assert "正しくは: 3×8、4×6、6×4、8×3" in screen.news_text
    assert sorted(screen.grid.hints) == ["3×8", "4×6", "6×4", "8×3"]
    assert screen.session.state.attacked().keys() == {"3×8", "2×8", "4×4", "8×2"}
    assert_no_leak(gui, screen)
    gui.screenshot("07-result-failed-bomb")
    gui.tap(screen.ids.continue_button)

    # a refused attack keeps the turn
    tap_cell(gui, screen, "4×4")
    gui.tap(screen.ids.primary)
    assert "攻撃済み" in screen.notice_text and screen.stage == "play"
    gui.screenshot("08-refused")
    tap_cell(gui, screen, "2×2")  # going on past the refusal puts it away, the cell picked
    assert not screen.notice_text and not screen.ids.panels.disabled and screen.keypad.entry == "2×2"

    # the rest programmatically: Ben sinks Aki's ships, Aki attacks empty water
    targets = iter(["1×1", "5×5", "9×9"])
    water = iter(c for c in ("1×2", "1×3", "1×4", "1×5", "1×6"))
    while not screen.session.state.is_over():
        seat = screen.session.state.to_move()
        assert screen.act("move", {"type": "attack", "cell": next(targets if seat == 1 else water)})
        assert_no_leak(gui, screen)
        screen.act("continue")
        assert_no_leak(gui, screen)
    assert screen.stage == "over" and "Benの勝ち" in screen.status_text
    assert screen.grid.drawn["9×9"] == "Lr"  # after the game both fleets are shown
    gui.screenshot("09-over")
    for _ in range(5):  # back to Aki's failed bomb, the third attack
        gui.tap(screen.ids.review_prev)
    assert "3 / 8" in screen.review_title
    assert "24" in screen.review_text and "正しくは" in screen.review_text
    gui.screenshot("10-review-failed-bomb")
    # both fleets are told apart, with a legend; the step's words are whole lines (issue 29, finding 10)
    assert "■\u00a0Akiの船" in screen.ids.legend.text and "□\u00a0Benの船" in screen.ids.legend.text
    assert {seat for ships in screen.grid.owners.values() for seat, _ in ships} == {0, 1}
    line = screen.whole_lines(1, screen.ids.review.font_size)
    scroll = screen.ids.review_scroll
    assert scroll.height >= 4 * line and abs(scroll.height / line - round(scroll.height / line)) < 0.01
    assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)
    gui.app.lang = "en"
    screen.refresh()
    gui.screenshot("10-review-en")
    assert "■\u00a0Aki  □\u00a0Ben" in screen.ids.legend.text
    gui.app.lang = "ja"
    screen.refresh()
    gui.tap(screen.ids.over_report)
    assert screen.stage == "report" and "24: 1回中 1回まちがい" in screen.report_text
    assert "抜け: 6×4" in screen.report_text
    gui.screenshot("11-report")


def test_after_a_refused_bomb_a_pair_off_the_board_is_no_attack(gui):
    screen = open_and_start(gui, "opp_tracker", names=("Aki", "Ben"))
    for cell in ("2×9", "3×6", "6×3", "9×2"):  # every cell of 18, nobody hit
        for action in ({"type": "attack", "cell": cell}, {"type": "report", "hits": []},
                       {"type": "report", "hits": []}):
            assert screen.act("move", action), screen.notice_text
        screen.act("continue")
    type_keys(gui, screen, "18")
    gui.tap(screen.ids.primary)
    assert "すべて攻撃済み" in screen.notice_text and screen.stage == "play"
    assert screen.ids.panels.disabled  # the refusal stands in the panel's place, the board stays clear
    gui.screenshot("refused-bomb")
    gui.tap(screen.ids.notice)
    assert not screen.notice_text and not screen.ids.panels.disabled
    type_keys(gui, screen, "×9")
    assert screen.keypad.entry == "18×9" and screen.ids.primary.disabled  # it was "18×9 を攻撃", enabled
    gui.screenshot("refused-bomb-then-18x9")
    tap_cell(gui, screen, "9×9")
    assert not screen.ids.primary.disabled and "9×9 を攻撃" in screen.primary_text
