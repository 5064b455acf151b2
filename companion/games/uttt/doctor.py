"""What `companion doctor` says of Ultimate Tic-Tac-Toe: which search its computer runs and how fast."""

from __future__ import annotations

from companion.games.uttt import ai, core
from companion.games.uttt.rules import Engine


def checks() -> list[tuple[str, bool, str]]:
    """The doctor's rows for this game: (name, ok, what it found)."""
    return [("UTTT search", *search())]


def search(seconds: float = 0.2) -> tuple[bool, str]:
    """Which search the UTTT computer runs (the compiled core or pure Python) and how fast:
    上級's search from the empty board for `seconds`, as iterations a second."""
    config = ai.config_for("hard", time_limit=seconds)
    _, done, backend = ai.search_move(Engine(), config, seed=1)
    rate = f"{done / seconds:,.0f} iterations/s"
    if backend == "core":
        return True, f"compiled core, {rate}"
    return False, f"pure Python, {rate} (上級 much weaker): for the compiled core, {core.INSTALL}, then make"
