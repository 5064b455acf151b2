"""What the 九九戦艦 keypad types: products ("24") and pairs ("3×8"), free of Kivy.

At most one ×, never first; each number at most two digits and never starting
with 0 (a pair said by mistake may be off the board, "2×12").
"""

from __future__ import annotations

from companion.games.kuku.board import TIMES

KEYS = ("7", "8", "9", "←", "4", "5", "6", "×", "1", "2", "3", "0")
DELETE = "←"


def typed(entry: str, key: str) -> str:
    """`entry` once `key` is pressed (unchanged when the key makes no sense there)."""
    if key == DELETE:
        return entry[:-1]
    if key == TIMES:
        return entry + TIMES if entry and TIMES not in entry else entry
    number = entry.split(TIMES)[-1]
    if len(number) < 2 and not (key == "0" and number == ""):
        return entry + key
    return entry
