"""The registry of games: every `companion.games.<game>.rules` that defines `GAME`.

A game package whose `rules` module defines `GAME` (a `companion.play.state.Game` named
as its folder) is a registered game; nothing else needs to list it.  The rest of a game is
found in its folder by name, without importing anything (so the home screen and the phones'
page appear quickly): its phone renderer `phone.js` (`phone_pages`) and the module of its
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
SCREEN = "screen.screen"  # a game's module holding its Kivy screen class (whose `kind` is the game's name)


@cache
def folders() -> dict[str, Path]:
    """Each game's folder by its name, in package order, found without importing the game."""
    root = Path(companion.games.__file__).resolve().parent
    infos = sorted(pkgutil.iter_modules(companion.games.__path__), key=lambda m: m.name)
    return {info.name: root / info.name for info in infos if info.ispkg}


@cache
def games() -> dict[str, Game]:
    """Every registered game by name, in package order (each one's rules imported)."""
    found: dict[str, Game] = {}
    for name in folders():
        game = getattr(importlib.import_module(f"companion.games.{name}.rules"), "GAME", None)
        if isinstance(game, Game):
            if game.name != name:
                raise CompanionError(f"companion/games/{name}/rules.py: GAME is named {game.name!r}; "
                                     f"name it {name!r}, as its folder")
            found[name] = game
    return found


def get(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        raise CompanionError(f"no game called {name!r}; known: {sorted(games())}") from None


def phone_pages() -> dict[str, Path]:
    """Each game's phone renderer (`<game>/phone.js`), for those that have one."""
    pages = {name: where / PHONE_PAGE for name, where in folders().items()}
    return {name: page for name, page in pages.items() if page.is_file()}


def screen_module(name: str) -> str | None:
    """The module of the game's table screen ("companion.games.<game>.screen.screen"), found without
    importing it; None for a game without a screen."""
    if name not in folders():
        raise CompanionError(f"no game called {name!r}; known: {sorted(folders())}")
    module = f"companion.games.{name}.{SCREEN}"
    return module if importlib.util.find_spec(module) is not None else None
