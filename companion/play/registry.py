"""The registry of games: every `companion.games.<game>.rules` that defines `GAME`.

A game package whose `rules` module defines `GAME` (a `companion.play.state.Game`)
is a registered game; nothing else needs to list it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import companion.games
from companion.errors import CompanionError
from companion.play.state import Game


@cache
def games() -> dict[str, Game]:
    """Every registered game by name, in package order."""
    found: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(companion.games.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"companion.games.{info.name}.rules")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.name] = game
    return found


def get(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        raise CompanionError(f"no game called {name!r}; known: {sorted(games())}") from None
