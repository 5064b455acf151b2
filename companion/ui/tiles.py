"""The games the home screen offers, in its order.

A tile names its screen class as "module:Class"; the module is imported only
when the game is first opened, so the home screen appears quickly.  Every tile
leads to a screen, which `tests/gui/test_shell.py` checks.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class GameTile:
    kind: str  # the rules registry name (its title is the tile's), also the screen name
    glyph: str  # a large character drawn on the tile
    screen: str  # "companion.games.<game>.screen:<ScreenClass>"

    def make_screen(self):
        module, _, name = self.screen.partition(":")
        return getattr(importlib.import_module(module), name)()


_GAMES = "companion.games"

TILES = (
    GameTile("gunkan", "軍", f"{_GAMES}.gunkan.screen:GunkanScreen"),
    GameTile("kuku", "九九", f"{_GAMES}.kuku.screen:KukuScreen"),
    GameTile("navalwar", "艦", f"{_GAMES}.navalwar.screen:NavalWarScreen"),
    GameTile("battleship", "戦", f"{_GAMES}.battleship.screen:BattleshipScreen"),
    GameTile("uttt", "#", f"{_GAMES}.uttt.screen:UtttScreen"),
)


def tiles() -> tuple[GameTile, ...]:
    return TILES


def tile(kind: str) -> GameTile | None:
    return next((t for t in TILES if t.kind == kind), None)
