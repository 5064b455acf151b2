"""The salvo buttons keep their places for a round (no Kivy).

A calibre run out (its last ship sunk) leaves an empty slot where its salvos stood, so the
salvos after it stay where the player's finger knows them (issue 29: nothing moves under a
finger).  The screen keeps one `SalvoSlots` and passes each panel's choices through it.
"""

from __future__ import annotations

from companion.games.navalwar.choices import plain


class SalvoSlots:
    def __init__(self) -> None:
        self._round = None
        self._kept: dict[tuple, list[str]] = {}  # a panel -> its salvo steps in their places

    def arrange(self, round_key: tuple, panel: tuple, choices: list[dict]) -> list[dict]:
        """`choices` with the salvos in the places this panel gave them earlier in the round
        (`gone` slots for those no longer offered), the other choices after them."""
        salvos = {c["id"]: c for c in choices if c.get("salvo")}
        if self._round != round_key:
            self._round, self._kept = round_key, {}
        kept = self._kept.setdefault(panel, [])
        kept += [step for step in salvos if step not in kept]
        gone = {"id": "", "label": plain(""), "red": False, "cols": 4, "gone": True}
        return [salvos.get(step, gone) for step in kept] + [c for c in choices if not c.get("salvo")]
