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
