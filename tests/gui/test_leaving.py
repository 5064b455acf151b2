"""Leaving is always possible and always asked: a game left with no move is not kept (its tile
opens the setup again), a placing screen goes back to the setup, a Resume entry can be
discarded and brought back, and Ultimate Tic-Tac-Toe asks before a new game over a running
one, its buttons staying where they are whatever the score line says."""

from test_uttt_screen import tap_cell as uttt_cell


def resume_rows(gui):
    return list(gui.app.manager.get_screen("home").ids.resume.children)


def test_a_game_left_with_no_move_is_not_kept(gui):
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    gui.tap(screen.ids.start)  # two players: the cover, no move yet
    assert screen.stage == "cover" and screen.session.actions == []
    gui.tap(screen.ids.cover_panel.children[-1].children[-1])  # its ホーム
    assert gui.screen.name == "home" and resume_rows(gui) == []
    gui.tap(gui.tile("battleship"))
    assert screen.stage == "setup"  # not the empty game again


def test_the_placing_screens_go_back_to_the_setup(gui):
    gui.tap(gui.tile("battleship"))
    bs = gui.screen
    gui.tap(bs.ids.opp_cpu)
    gui.tap(bs.ids.start)
    gui.settle(bs)
    assert bs.stage == "place"
    gui.screenshot("battleship-place-to-setup")
    gui.tap(bs.ids.place_setup)
    assert bs.stage == "setup" and bs.can_back
    gui.tap(bs.ids.back_to_game)
    assert bs.stage == "place"
    gui.tap(bs.ids.place_setup)
    gui.tap(bs.ids.opp_2p)  # the mistaken computer game becomes a two-player one
    gui.tap(bs.ids.start)
    assert bs.stage == "cover" and bs.session.players == ["p1", "p2"]

    gui.app.show_home()
    gui.pump(0.05)
    gui.tap(gui.tile("kuku"))
    kuku = gui.screen
    gui.tap(kuku.ids.opp_cpu)
    gui.tap(kuku.ids.start)
    gui.settle(kuku)
    assert kuku.stage == "place"
    gui.tap_cell(kuku.grid, "1×1")
    gui.screenshot("kuku-place-to-setup")
    gui.tap(kuku.ids.place_setup)
    assert kuku.stage == "setup" and kuku.can_back
    gui.tap(kuku.ids.back_to_game)
    assert kuku.stage == "place" and len(kuku.session.state.fleets[0]) == 1


def test_a_resume_entry_is_discarded_and_brought_back(gui):
    gui.tap(gui.tile("uttt"))
    uttt_cell(gui, gui.screen, 40)
    game = gui.screen.session.id
    gui.app.show_home()
    gui.pump(0.05)
    home = gui.screen
    [row] = resume_rows(gui)
    gui.tap(row.ids.discard)
    assert resume_rows(gui) == [] and home.discarded_text
    assert gui.app.store.game(game).status == "abandoned"
    gui.screenshot("home-discarded")
    gui.tap(home.ids.undo_discard)
    assert [r.game_id for r in resume_rows(gui)] == [game] and not home.discarded_text
    gui.tap(resume_rows(gui)[0].ids.discard)
    gui.tap(gui.tile("uttt"))  # the discarded game is not opened again
    assert gui.screen.session.id != game and gui.screen.session.actions == []


def ask(gui):
    from kivy.core.window import Window

    from companion.ui.widgets import Ask

    return next((w for w in Window.children if isinstance(w, Ask)), None)


def test_a_new_uttt_game_over_a_running_one_is_asked_and_the_buttons_stay(gui):
    gui.tap(gui.tile("uttt"))
    uttt = gui.screen
    easy = uttt.ids.mode_easy
    where = easy.to_window(*easy.pos)
    gui.tap(easy)  # no move yet: at once
    assert uttt.mode == "easy" and ask(gui) is None
    assert easy.to_window(*easy.pos) == where  # the longer score line does not push the buttons down
    uttt_cell(gui, uttt, 40)
    gui.wait_until(lambda: len(uttt.session.actions) == 2, what="the computer's reply")
    gui.settle(uttt)
    begun = uttt.session.id
    for button in ("mode_hard", "another"):
        gui.tap(uttt.ids[button])
        gui.pump(0.3)
        question = ask(gui)
        assert question is not None and uttt.session.id == begun
        gui.screenshot(f"uttt-ask-{button}")
        gui.tap(question.ids.no)
        gui.pump(0.3)
        assert uttt.session.id == begun and uttt.mode == "easy" and uttt.ids.mode_easy.state == "down"
        assert uttt.ids.mode_hard.state == "normal"
    gui.tap(uttt.ids.mode_hard)
    gui.pump(0.3)
    gui.tap(ask(gui).ids.yes)
    gui.pump(0.3)
    assert uttt.session.id != begun and uttt.mode == "hard"
    assert gui.app.store.game(begun).status == "active"  # the game left stays under Resume
