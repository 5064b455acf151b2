"""The home screen's tiles come from the registry: every registered game with a screen,
in the home screen's order; nothing lists the screens' modules again."""

import shutil

import pytest

from companion.errors import CompanionError
from companion.play import registry
from companion.ui import tiles
from tests.test_game_folders import NIM


def test_every_registered_game_has_a_tile_in_the_home_screens_order():
    assert [t.kind for t in tiles.tiles()] == ["gunkan", "kuku", "navalwar", "battleship", "uttt"]
    assert set(registry.games()) == set(registry.folders()) == {t.kind for t in tiles.tiles()}
    for t in tiles.tiles():
        assert t.screen == registry.screen_module(t.kind) == f"companion.games.{t.kind}.screen.screen"
        assert tiles.tile(t.kind) is t
    assert tiles.tile("chess") is None


def test_a_new_game_gets_a_tile_after_the_others(game_folders):
    shutil.copytree(NIM, game_folders / "nim")
    made = tiles.tiles()
    assert [t.kind for t in made] == ["gunkan", "kuku", "navalwar", "battleship", "uttt", "nim"]
    assert made[-1].glyph == "N" and made[-1].screen == "companion.games.nim.screen.screen"


def test_a_module_without_the_games_screen_class_is_a_clear_error():
    with pytest.raises(CompanionError, match="companion.errors: 0 screen classes with kind 'uttt'"):
        tiles.GameTile("uttt", "#", "companion.errors").make_screen()
