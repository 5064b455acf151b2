"""Nim: take 1 to 3 from the heap; whoever takes the last wins.  Actions: {"type": "take", "n": 1..3}."""

from dataclasses import dataclass
from enum import StrEnum

from companion import i18n
from companion.play.state import Game, Outcome, Refused, State


class Ending(StrEnum):
    TOOK_THE_LAST = "took_the_last"


@dataclass(frozen=True)
class Nim(State):
    heap: int
    mover: int = 0
    game, seats = "nim", 2

    @property
    def phase(self):
        return "over" if self.heap == 0 else "take"

    def to_move(self):
        return None if self.heap == 0 else self.mover

    def legal_actions(self):
        return [{"type": "take", "n": n} for n in (1, 2, 3) if n <= self.heap]

    def apply(self, action):
        if action not in self.legal_actions() or type(action["n"]) is not int:
            raise Refused("nim_errors.take", heap=self.heap)
        return self.evolve(heap=self.heap - action["n"], mover=1 - self.mover)

    def outcome(self):
        return Outcome(1 - self.mover, Ending.TOOK_THE_LAST) if self.heap == 0 else None

    def to_json(self):
        return {"heap": self.heap, "mover": self.mover}

    def view(self, seat):
        return self.to_json()


GAME = Game("nim", i18n.both("nim.title"), {"heap": 7}, lambda o: Nim(o["heap"]), lambda d: Nim(d["heap"], d["mover"]),
            describe_fn=lambda o: [i18n.Words("nim.mode", heap=o["heap"])], endings=Ending)
