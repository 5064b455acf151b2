"""The salvo buttons keep their places for a round (no Kivy).

A calibre run out (its last ship sunk) leaves an empty slot where its salvos stood, so the
salvos after it stay where the player's finger knows them (issue 29: nothing moves under a
finger).  The screen keeps one `SalvoSlots` and passes each panel's choices through it.
"""

from __future__ import annotations

from companion.games.navalwar.choices import plain


class SalvoSlots:
    def __init__(self) -> None:
        self._round: tuple | None = None
        self._kept: dict[tuple, list[str]] = {}  # a panel -> its salvo steps in their places

    def arrange(self, round_key: tuple, panel: tuple, choices: list[dict]) -> list[dict]:
        """`choices` with the salvos in the places this panel gave them earlier in the round
        (`gone` slots for those no longer offered), the other choices after them."""
        salvos = {c["id"]: c for c in choices if c.get("salvo")}
        if self._round != round_key:
            self._round, self._kept = round_key, {}
        kept = self._kept.setdefault(panel, [])
        kept += [step for step in salvos if step not in kept]
        return [salvos.get(step, _gone(4)) for step in kept] + [c for c in choices if not c.get("salvo")]


def card_slots(choices: list[dict], keys: list[str]) -> list[dict]:
    """The cards offered (`card:<key>` steps) in the composition's order `keys`, an empty slot
    for each one not offered (its last copy seen, or nothing for it to do), if any is: from
    turn to turn, 艦艇追加 or 機雷 2 stays where the finger knows it (issue 43)."""
    offered = {c["id"]: c for c in choices}
    if not any(f"card:{k}" in offered for k in keys):
        return []
    return [offered.get(f"card:{k}", _gone(2)) for k in keys]


def _gone(cols: int) -> dict:
    return {"id": "", "label": plain(""), "red": False, "cols": cols, "gone": True}
