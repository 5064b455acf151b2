"""Rules of every game, and the registry that finds them.

A module in this package that defines `GAME` (a `companion.rules.base.Game`)
is a registered game; nothing else needs to list it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from companion.errors import CompanionError
from companion.rules.base import Game


@cache
def games() -> dict[str, Game]:
    """Every registered game by name, in module order."""
    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.name] = game
    return found


def get(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        raise CompanionError(f"no game called {name!r}; known: {sorted(games())}") from None
