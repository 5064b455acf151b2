"""The registry of games: every `companion.games.<game>.rules` that defines `GAME`.

A game package whose `rules` module defines `GAME` (a `companion.play.state.Game` named
as its folder) is a registered game; nothing else needs to list it.  A folder that is not
a game yet (no rules.py, a rules module that does not import or defines no `GAME`) is
skipped with one line in the log, never a crash: the first step of a new game is an empty
folder.  The rest of a game is found in its folder by name, without importing anything (so
the home screen and the phones' page appear quickly): its phone renderer `phone.js`
(`phone_pages`), the module of its table screen (`screen_module`), which is only named
here: importing it brings in Kivy, and the parts the shell asks every game for (`part`: the
weighing device, its rows in `companion doctor`).  The folders are wherever `companion.games`'s path has
them (a test adds one at run time).
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from functools import cache
from importlib.machinery import FileFinder
from pathlib import Path
from types import ModuleType

import companion.games
from companion.errors import CompanionError
from companion.play.state import Game

PHONE_PAGE = "phone.js"  # a game's renderer of its display models on a phone, in its folder
SCREEN = "screen/screen.py"  # a game's module holding its Kivy screen class (whose `kind` is the game's name)
log = logging.getLogger(__name__)


@cache
def folders() -> dict[str, Path]:
    """Each game's folder by its name, in name order, found without importing the game."""
    infos = sorted(pkgutil.iter_modules(companion.games.__path__), key=lambda m: m.name)
    return {info.name: _folder(info) for info in infos if info.ispkg}


def _folder(info: pkgutil.ModuleInfo) -> Path:
    finder = info.module_finder
    assert isinstance(finder, FileFinder), "games are folders on the file system"
    return Path(finder.path) / info.name


@cache
def games() -> dict[str, Game]:
    """Every registered game by name, in name order (each one's rules imported); a folder that
    is not a game yet is said once in the log and left out."""
    found: dict[str, Game] = {}
    for name, folder in folders().items():
        game, why = _game(name)
        if game is None:
            log.warning("%s: skipped, not a game yet: %s", folder, why)
        else:
            found[name] = game
    return found


def _game(name: str) -> tuple[Game | None, str]:
    """The folder's `GAME`, or None and why not."""
    module = f"companion.games.{name}.rules"
    try:
        rules = importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name == module:
            return None, "no rules.py (whose GAME, a companion.play.state.Game, makes it a game)"
        return None, f"rules.py does not import: {error}"
    except Exception as error:  # noqa: BLE001  (any fault of an unfinished game's code: said, and the app goes on)
        return None, f"rules.py does not import: {type(error).__name__}: {error}"
    game = getattr(rules, "GAME", None)
    if not isinstance(game, Game):
        return None, "rules.py defines no GAME (a companion.play.state.Game)"
    if game.name != name:
        return None, f"rules.py's GAME is named {game.name!r}; name it {name!r}, as its folder"
    return game, ""


def get(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        raise CompanionError(f"no game called {name!r}; known: {sorted(games())}") from None


def part(name: str, module: str) -> ModuleType | None:
    """The game's module `module` ("device", "doctor": a part the shell asks every game for),
    imported, or None when its folder has no such file."""
    found = (folders()[name] / f"{module}.py").is_file()
    return importlib.import_module(f"companion.games.{name}.{module}") if found else None


def phone_pages() -> dict[str, Path]:
    """Each registered game's phone renderer (`<game>/phone.js`), for those that have one."""
    pages = {name: folders()[name] / PHONE_PAGE for name in games()}
    return {name: page for name, page in pages.items() if page.is_file()}


def screen_module(name: str) -> str | None:
    """The module of the game's table screen ("companion.games.<game>.screen.screen"), found
    without importing it or its package; None for a game without a screen."""
    if name not in folders():
        raise CompanionError(f"no game called {name!r}; known: {sorted(folders())}")
    return f"companion.games.{name}.screen.screen" if (folders()[name] / SCREEN).is_file() else None
