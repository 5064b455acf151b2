"""The registry of games: every `companion.games.<game>.rules` that defines `GAME`.

A game package whose `rules` module defines `GAME` (a `companion.play.state.Game`)
is a registered game; nothing else needs to list it.  The rest of a game is found in
its folder by name: its phone renderer `phone.js` (`phone_pages`) and the module of its
table screen (`screen_module`), which is only named here: importing it brings in Kivy.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache
from pathlib import Path

import companion.games
from companion.errors import CompanionError
from companion.play.state import Game


PHONE_PAGE = "phone.js"  # a game's renderer of its display models on a phone, in its folder
SCREEN = "screen"  # a game's module holding its Kivy screen class (whose `kind` is the game's name)


@cache
def _found() -> dict[str, tuple[Game, Path]]:
    """Every registered game and its folder, by name, in package order."""
    found: dict[str, tuple[Game, Path]] = {}
    for info in sorted(pkgutil.iter_modules(companion.games.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"companion.games.{info.name}.rules")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.name] = (game, Path(module.__file__).resolve().parent)
    return found


@cache
def games() -> dict[str, Game]:
    """Every registered game by name, in package order."""
    return {name: game for name, (game, _) in _found().items()}


def get(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        raise CompanionError(f"no game called {name!r}; known: {sorted(games())}") from None


def phone_pages() -> dict[str, Path]:
    """Each registered game's phone renderer (`<game>/phone.js`), for those that have one."""
    pages = {name: where / PHONE_PAGE for name, (_, where) in _found().items()}
    return {name: page for name, page in pages.items() if page.is_file()}


def screen_module(name: str) -> str | None:
    """The module of the game's table screen ("companion.games.<game>.screen"), found without
    importing it; None for a game without a screen."""
    get(name)
    module = f"companion.games.{_found()[name][1].name}.{SCREEN}"
    return module if importlib.util.find_spec(module) is not None else None
