"""The 九九戦艦 learning report: which bomb listings each player got wrong, across games.

Pure (no Kivy).  It replays every kuku game's action log (finished and active
ones) with the rules and gathers each judged 九九ボム listing under the name
of the seat that said it.  The computer's seat ("cpu" in a computer game) is
left out: its listings are always right and teach nobody anything.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from companion.games.kuku.rules import GAME, KukuState
from companion.play.session import Session
from companion.store import UnreadableGame

COMPUTER = "cpu"


@dataclass
class ProductStats:
    """One player's listings of one product."""

    tries: int = 0
    wrong: int = 0
    missed: Counter = field(default_factory=Counter)  # board cells left out, how often
    stray: Counter = field(default_factory=Counter)  # pairs said that do not belong, how often


def judged_listings(options: dict, players: list, actions: list) -> list[tuple[str, dict]]:
    """(player name, bomb record) for every listing judged in one game's log."""
    state = GAME.replay(options, actions)
    assert isinstance(state, KukuState), "Kuku's rules make Kuku's states"
    computer_game = COMPUTER in players
    return [
        (players[record["by"]], record)
        for record in state.history
        if record["action"] == "bomb" and not (computer_game and players[record["by"]] == COMPUTER)
    ]


def report(games: Iterable[tuple[dict, list, list]]) -> dict[str, dict[int, ProductStats]]:
    """Name → product → stats, from (options, players, actions) per game."""
    table: dict[str, dict[int, ProductStats]] = {}
    for options, players, actions in games:
        for name, record in judged_listings(options, players, actions):
            stats = table.setdefault(name, {}).setdefault(record["product"], ProductStats())
            stats.tries += 1
            if record["judgement"] != "exact":
                stats.wrong += 1
                faults = record["faults"]
                stats.missed.update(faults["omission"])
                stats.stray.update(faults["wrong"] + faults["extra"])
    return table


def store_report(store) -> dict[str, dict[int, ProductStats]]:
    """The report over the store's finished and active kuku games."""
    games = [g for g in store.games(kind="kuku") if g.status in ("finished", "active")]
    return report((s.record.options, s.players, s.actions) for s in _replayable(store, games))


def _replayable(store, games):
    """Sessions of the games, oldest first, leaving out any that cannot be read."""
    for record in reversed(games):
        try:
            yield Session.resume(store, record.id)
        except UnreadableGame:
            continue


def weakest_first(products: dict[int, ProductStats]) -> list[tuple[int, ProductStats]]:
    """A player's products, the most often wrong first (then by share wrong, then product)."""
    return sorted(products.items(), key=lambda item: (-item[1].wrong, -item[1].wrong / item[1].tries, item[0]))
