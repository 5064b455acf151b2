"""The home screen's tiles come from the registry: every registered game with a screen,
in the home screen's order; nothing lists the screens' modules again."""

import shutil

import pytest

from companion.errors import CompanionError
from companion.play import registry
from companion.ui import tiles
from tests.conftest import forget_games
from tests.test_game_folders import NIM


def test_every_registered_game_has_a_tile_in_the_home_screens_order():
    assert [t.kind for t in tiles.tiles()] == ["gunkan", "kuku", "navalwar", "battleship", "uttt"]
    assert set(registry.games()) == set(registry.folders()) == {t.kind for t in tiles.tiles()}
    for t in tiles.tiles():
        assert t.screen == registry.screen_module(t.kind) == f"companion.games.{t.kind}.screen.screen"
        assert tiles.tile(t.kind) is t
    assert tiles.tile("chess") is None


def test_each_game_says_its_tiles_place_glyph_and_colour():
    assert [(t.glyph, t.colour) for t in tiles.tiles()] == [(registry.get(t.kind).glyph, registry.get(t.kind).colour)
                                                             for t in tiles.tiles()]
    assert [registry.get(t.kind).place for t in tiles.tiles()] == [1, 2, 3, 4, 5]
    assert len({t.glyph for t in tiles.tiles()}) == len({t.colour for t in tiles.tiles()}) == 5


def test_a_new_game_gets_a_tile_after_the_others_and_one_that_says_its_place_among_them(game_folders):
    shutil.copytree(NIM, game_folders / "nim")
    made = tiles.tiles()
    assert [t.kind for t in made] == ["gunkan", "kuku", "navalwar", "battleship", "uttt", "nim"]
    assert (made[-1].glyph, made[-1].colour) == ("N", ()) and made[-1].screen == "companion.games.nim.screen.screen"
    rules = game_folders / "nim" / "rules.py"
    rules.write_text(rules.read_text() + 'import dataclasses\nGAME = dataclasses.replace(GAME, place=1.5, glyph="山")\n')
    forget_games(game_folders)
    assert [(t.kind, t.glyph) for t in tiles.tiles()][:3] == [("gunkan", "軍"), ("nim", "山"), ("kuku", "九九")]


def test_a_module_without_the_games_screen_class_is_a_clear_error():
    with pytest.raises(CompanionError, match="companion.errors: 0 screen classes with kind 'uttt'"):
        tiles.GameTile("uttt", "#", "companion.errors").make_screen()
