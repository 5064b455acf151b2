"""Battleship's start panel names who may start from the moment it opens (issue 43, item 12:
the 先攻 buttons were blank until the opponent, a name or the language changed)."""


def test_the_first_player_buttons_are_labelled_when_the_panel_first_opens(gui):
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    assert screen.name == "battleship" and screen.stage == "setup"
    gui.screenshot("battleship-setup-first-labels")
    labels = [screen.ids[f"first_{seat}"].text for seat in (0, 1)]
    assert labels == [screen.ids.name_0.hint_text, screen.ids.name_1.hint_text], labels
    assert all(label.strip() for label in labels)
