"""The games the home screen offers, in its order: every registered game with a screen.

The registry says which games there are and where each one's screen is
(`registry.games`, `registry.screen_module`, which names the module without importing it);
the module is imported only when the game is first opened, so the home screen appears
quickly, and its screen class is the one whose `kind` is the game's.  A game without a
screen yet gets no tile, said once in the log.  Each game says its place, glyph and colour
(`GAME.place`, `.glyph`, `.colour`); the shell names none.  Every tile leads to a screen,
which `tests/gui/test_shell.py` checks.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from functools import cache

from companion.errors import CompanionError
from companion.play import registry

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameTile:
    kind: str  # the rules registry name (its title is the tile's), also the screen name
    glyph: str  # a large character drawn on the tile
    screen: str  # the module of its screen, "companion.games.<game>.screen.screen"
    colour: tuple[float, ...] = ()  # the tile's ((): the panels')

    def make_screen(self):
        module = importlib.import_module(self.screen)
        found = [value for value in vars(module).values() if isinstance(value, type)
                 and value.__module__ == module.__name__ and getattr(value, "kind", None) == self.kind]
        if len(found) != 1:
            raise CompanionError(f"{self.screen}: {len(found)} screen classes with kind {self.kind!r}; "
                                 "give exactly one screen class that kind")
        return found[0]()


@cache
def tiles() -> tuple[GameTile, ...]:
    games = registry.games()
    kinds = sorted(games, key=lambda kind: (games[kind].place, kind))
    found = tuple(GameTile(kind, games[kind].glyph or kind[:1].upper(), module, games[kind].colour)
                  for kind in kinds if (module := registry.screen_module(kind)) is not None)
    for kind in set(kinds) - {t.kind for t in found}:
        log.warning("%s: no tile: no %s (its table screen) yet", registry.folders()[kind], registry.SCREEN)
    return found


def tile(kind: str) -> GameTile | None:
    return next((t for t in tiles() if t.kind == kind), None)
