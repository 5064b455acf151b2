"""The app beside game folders that are not games yet (issue 45): it starts, and its home,
rules, history and phones go on with the games there are; each folder is one line in the log."""

import logging
import shutil

from companion.play import registry
from tests.conftest import forget_games
from tests.test_game_folders import GAMES, NIM, make


def test_the_app_starts_and_its_screens_open_beside_unfinished_game_folders(game_folders, gui, caplog):
    make(game_folders, "chess", {})  # the first step of a new game
    make(game_folders, "go", {"rules.py": "from companion.games.go import board\n"})  # half written
    shutil.copytree(NIM, game_folders / "nim", ignore=shutil.ignore_patterns("screen"))  # no screen yet
    forget_games()
    with caplog.at_level(logging.WARNING):
        gui.restart()
        assert {tile.kind for tile in gui.screen.ids.tiles.children} == GAMES
        gui.app.show_rules()
        gui.pump(0.1)
        assert set(gui.screen.tab_buttons) == GAMES
        gui.app.show_screen("history")
        gui.pump(0.1)
        assert gui.screen.ids.nothing.opacity == 1
        assert set(registry.phone_pages()) == GAMES | {"nim"}  # a registered game, its renderer served
    lines = [r.getMessage() for r in caplog.records if str(game_folders) in r.getMessage()]
    assert sorted(line.removeprefix(f"{game_folders}/").split(":")[0] for line in lines) == ["chess", "go", "nim"]


def test_a_game_folder_made_at_run_time_gets_its_tile_rules_page_and_history_row(game_folders, gui):
    """tests/data/nim/ is a whole game in one folder: nothing outside it names it."""
    shutil.copytree(NIM, game_folders / "nim")
    forget_games()
    gui.restart()
    tile = gui.tile("nim")
    assert (tile.glyph, tile.title) == ("N", "ニム") and list(gui.screen.ids.tiles.children)[0] is tile  # last
    gui.screenshot("home-with-nim-ja")
    gui.tap(tile)
    nim = gui.screen
    assert nim.name == "nim" and nim.heap.text == "残り 7 本"
    for n in (3, 3, 1):  # red, blue, red: red takes the last
        gui.tap(next(b for b in nim.takes.children if b.text == str(n)))
    assert nim.controller.session.state.outcome().winner == 0 and not nim.takes.children
    gui.tap(nim.bar.ids.rules)
    rules = gui.screen
    assert rules.name == "rules" and rules.kind == "nim" and rules.tab_buttons["nim"].text == "ニム"
    assert rules.blocks[0].text == "ニム" and "最後の1本" in rules.blocks[1].text
    gui.screenshot("rules-nim-ja")
    gui.app.show_screen("history")
    gui.pump(0.1)
    row = gui.screen.ids.rows.children[0]
    assert row.text.startswith("ニム · 7本の山") and row.text.endswith("赤 対 青  →  赤の勝ち")
    gui.app.lang = "en"
    gui.screen.refresh()
    assert gui.screen.ids.rows.children[0].text.startswith("Nim · a heap of 7")
    gui.screenshot("history-nim-en")
