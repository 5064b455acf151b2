"""The games the home screen offers.

A module here that defines `TILE` (a `GameTile`) is a game with a screen;
the home screen shows a tile for each, so no tile leads nowhere.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import Callable


@dataclass(frozen=True)
class GameTile:
    kind: str  # the rules registry name (its title is the tile's), also the screen name
    glyph: str  # a large character drawn on the tile
    make_screen: Callable  # make_screen(app) -> a kivy Screen named `kind`
    order: int = 50  # position on the home screen


@cache
def tiles() -> list[GameTile]:
    found = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        tile = getattr(module, "TILE", None)
        if isinstance(tile, GameTile):
            found.append(tile)
    return sorted(found, key=lambda t: (t.order, t.kind))


def tile(kind: str) -> GameTile | None:
    return next((t for t in tiles() if t.kind == kind), None)
