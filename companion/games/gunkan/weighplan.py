"""Which piece the calibration wizard asks for next, and when it has enough (no Kivy).

First every piece type once from each fleet and the shared counterweight twice (a
class needs two weighings for its spread); then, one at a time, another piece of
a class that is not yet surely apart from a neighbour (the criterion is
`companion.sensing.calibration.build_classes`), the least weighed first, until
every pair is apart or those classes have been weighed `most` times each (then
the report warns about the pairs left).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.gunkan.pieces import COUNTERWEIGHT
from companion.sensing.calibration import ACCEPT_FRACTION, ClassReport, build_classes

PIECE_TYPES = ("carrier", "battleship", "cruiser", "destroyer", "minesweeper", "submarine",
               "landing_ship", "mine", "port")
MOST_PER_CLASS = 6  # each fleet's pieces of a type three times
LOADED_G = 3.0  # a still weight above this on the left pan is the piece asked for
HOLD_S, BAND_G = 0.3, 0.3  # still: the last HOLD_S within BAND_G (Seesaw.settled)


@dataclass(frozen=True)
class Ask:
    piece: str
    fleet: str  # "red", "blue" or "any" (the counterweight)
    k: int  # the how-manieth weighing of this piece type


def first_round() -> list[Ask]:
    return ([Ask(piece, fleet, 1 + (fleet == "blue")) for piece in PIECE_TYPES for fleet in ("red", "blue")]
            + [Ask(COUNTERWEIGHT, "any", k) for k in (1, 2)])


class PieceWeighings:
    """The weighings so far; `ask` is the next one wanted, None once enough."""

    def __init__(self, accept_fraction: float = ACCEPT_FRACTION, most: int = MOST_PER_CLASS):
        self.accept_fraction, self.most = accept_fraction, most
        self.first = first_round()
        self.values: dict[str, list[float]] = {}
        self.noises: list[float] = []
        self.report: ClassReport | None = None
        self.ask: Ask | None = self.first[0]
        self.lifting = False  # a weighing was taken: wait for the empty pan
        self.zero_g = 0.0  # the empty pan's still weight last seen: each weighing is taken from it

    @property
    def count(self) -> int:
        return len(self.noises)

    @property
    def done(self) -> bool:
        return self.ask is None

    def tick(self, seesaw) -> bool:
        """Watch the left pan (after `seesaw.poll()`): a still piece is weighed against
        the still empty pan before it (so the scale's slow drift drops out), then the
        wizard waits for the pan to be empty and still again.  True when something changed."""
        settled = seesaw.settled(0, HOLD_S, BAND_G)
        if settled is None:
            return False
        grams, noise = settled
        if grams < LOADED_G:
            self.zero_g = grams
            was, self.lifting = self.lifting, False
            return was
        if self.lifting or self.done:
            return False
        self.record(grams - self.zero_g, noise)
        self.lifting = True
        return True

    def record(self, grams: float, noise_g: float) -> None:
        """A still weight of the piece asked for; then the next ask, or None."""
        assert self.ask is not None, "recorded while a piece is asked for"
        self.values.setdefault(self.ask.piece, []).append(grams)
        self.noises.append(noise_g)
        if self.count < len(self.first):
            self.ask = self.first[self.count]
            return
        self.report = self.build()
        wanted = [name for name in self.report.unsure if len(self.values[name]) < self.most]
        if not wanted:
            self.ask = None
            return
        piece = min(wanted, key=lambda name: (len(self.values[name]), PIECE_TYPES.index(name)))
        n = len(self.values[piece])
        self.ask = Ask(piece, ("red", "blue")[n % 2], n + 1)

    def build(self) -> ClassReport:
        noise = sorted(self.noises)[len(self.noises) // 2]
        return build_classes(self.values, noise_sigma_g=noise, accept_fraction=self.accept_fraction,
                             alone=(COUNTERWEIGHT,))


def scripted(seed: int, rate_hz: float, table=None, realism=None, tick_s: float = 0.05,
             limit_s: float = 600.0) -> tuple[PieceWeighings, float]:
    """The piece weighings on a simulated seesaw whose hand does at once what is asked
    (the wizard's virtual hand, at the wizard's tick): the plan and the simulated
    seconds it took.  For tests and bench/calibration.py."""
    from companion.games.gunkan.pieces import default_table
    from companion.games.gunkan.seesaw import Seesaw, virtual_calibration
    from companion.sensing.realism import Realism
    from companion.sensing.simulator import ManualClock, SimulatedSeesaw

    clock = ManualClock(0.0)
    sim = SimulatedSeesaw(seed, rate_hz, clock, realism or Realism(), table=table or default_table())
    seesaw = Seesaw(sim, virtual_calibration(sim))
    plan = PieceWeighings(seesaw.judge_config.accept_fraction)
    placed = False
    while not (plan.done and not plan.lifting):
        if clock.t > limit_s:
            raise RuntimeError(f"the weighings took over {limit_s:g} simulated seconds")
        if plan.lifting and placed:
            sim.clear()
            placed = False
        elif not plan.lifting and not placed and plan.ask is not None:  # (not done)
            sim.place(0, plan.ask.piece)
            placed = True
        clock.advance(tick_s)
        seesaw.poll()
        plan.tick(seesaw)
    return plan, clock.t
