"""軍艦将棋: the guided first game, a new group led through its first battle on the seesaw.

The guide holds no flow of its own: which step it shows is read from the referee's
state each time (`Guide.step(controller)`), so a cancelled battle, an undo or a piece put
on early never leaves it behind; it only remembers how many battles were fought when it
began, so that it knows when the first one is over.  A step names what it is about
(`target`: a button of the actions row, "actions" for the whole row, "tray" for the
virtual pieces, "seesaw" for the pans) so the screen can outline it, and its words come
for three tables where they differ: the simulator's virtual pieces, real load cells, and a
wooden seesaw (no sensor: the players tap what it showed).  Kivy-free; the screen draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion import i18n
from companion.games.gunkan.seesaw import EMPTY
from companion.play.controller import Text

NUMBERED = ("attack", "attacker_piece", "declare", "counterweight", "defender_piece", "weighing", "remove")
"""The steps of one battle, numbered on the card ("3/7"); a mine hit counts as the weighing,
and "done" (the first battle over) has no number."""

DOCS = "gunkan_guide"


@dataclass(frozen=True)
class Step:
    name: str
    text: Text
    target: str | None  # what the screen outlines, or None
    number: int | None  # 1..len(NUMBERED), None for "done"

    @property
    def heading(self) -> Text:
        if self.number is None:
            return Text(f"{DOCS}.heading_done")
        return Text(f"{DOCS}.heading", {"n": self.number, "of": len(NUMBERED)})


@dataclass
class Guide:
    battles_at_start: int = 0  # battles already fought when the guide began

    @classmethod
    def begin(cls, controller) -> "Guide":
        session = controller.session
        return cls(len(session.state.battles) if session else 0)

    def step(self, controller) -> Step | None:
        """The step the table is at now; None where the guide has nothing to say (no game,
        identify judging, a game over)."""
        name, target = self._where(controller)
        if name is None:
            return None
        variant = "virtual" if controller.virtual else "pans" if controller.seesaw is not None else "wooden"
        number = NUMBERED.index(name) + 1 if name in NUMBERED else (NUMBERED.index("weighing") + 1 if name == "mine" else None)
        if target == "tray" and not controller.virtual:
            target = "seesaw" if controller.seesaw is not None else None
        words = f"{name}.{variant}" if f"{name}.{variant}" in i18n.catalog(DOCS) else name
        return Step(name, Text(f"{DOCS}.{words}"), target, number)

    def _where(self, c) -> tuple[str | None, str | None]:
        if c.session is None or c.state.judging != "seesaw":
            return None, None
        stage, phase = c.stage(), c.state.phase
        if stage == "over":
            return None, None
        left, right = (p.kind != EMPTY for p in c.pans) if c.seesaw is not None else (True, False)
        if stage == "idle":
            return ("done", None) if len(c.state.battles) > self.battles_at_start else ("attack", "actions")
        if stage == "verdict":
            return "remove", "tray"
        if phase == "declare":
            return ("declare", "actions") if left else ("attacker_piece", "tray")
        if phase == "counterweight":
            return "counterweight", "actions"
        if phase == "mine":
            return "mine", "actions"
        if c.seesaw is None:
            return "weighing", "actions"  # the wooden seesaw: tap which side went down
        return ("weighing", "seesaw") if right else ("defender_piece", "tray")
