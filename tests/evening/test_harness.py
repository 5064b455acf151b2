"""The evening suite's harness reaches the real app: every tile opens its game by touch."""

from companion.ui.tiles import tiles


def test_every_game_tile_opens_by_touch(gui):
    for tile in tiles():
        gui.app.show_home()
        gui.pump(0.05)
        gui.tap(gui.tile(tile.kind))
        assert gui.screen.name == tile.kind
