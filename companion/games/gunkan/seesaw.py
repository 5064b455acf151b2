"""The Gunkan Shogi seesaw as the screens use it: one object over a WeightSource.

`Seesaw` owns a `Pipeline` and a `Judge` and is the source's only reader:
`poll()` pulls the samples that arrived, feeds the pipeline, the judge and a
short history per pan.  Screens then ask

* `pan(channel)`: EMPTY, SETTLING, LOADED or REFUSED, never grams (the referee
  screen shows only these);
* `battle()`: the judge's verdict (LEFT = the attacker's pan is heavier);
* `identities(verdict, counterweight_tap)` (a function): the classes behind a
  verdict, for judging "identify" (`Identities` or a `redo` reason);
* `settled(channel)`: a still weight in grams, for the calibration wizard only;
* `counterweight_sensed` (and the function for any table): whether the stack weighs apart;
* `rate_warning()`: (wanted, measured) samples/s when the configured rate is not
  the board's.

The rate in use is the measured one: the judge starts on the source's word (or
80/s) and is rebuilt once the pipeline has measured another.

A calibration (`apply_calibration`) is the pipeline's tare offsets and scales
plus, when the wizard measured them, the piece classes.  Without measured
classes the default Gunkan table (companion/games/gunkan/pieces.py) is used.  A
simulated seesaw with no stored calibration is calibrated by
`virtual_calibration`: the calibrator runs on a twin with the same seed on a
manual clock, so a laptop can play at once.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from companion.sensing.calibration import Calibrator
from companion.sensing.classes import AMBIGUOUS, build_groups
from companion.sensing.judge import (
    BALANCED, LEFT, REFUSED as JUDGE_REFUSED, REWEIGH, RIGHT, WAITING, Judge, PanState, Verdict,
)
from companion.sensing.judge_config import JudgeConfig
from companion.games.gunkan.pieces import COMBINE, COUNTERWEIGHT, SHIPS, SUBMARINE, PieceClass, default_table, pan_classes
from companion.sensing.pipeline import NotStableError, Pipeline, rate_differs
from companion.sensing.source import WeightSource

EMPTY, SETTLING, LOADED, REFUSED = "empty", "settling", "loaded", "refused"
MISFIT = "misfit"  # a LOADED pan's reason when what lies there weighs like no piece
STACKED = SUBMARINE + COMBINE + COUNTERWEIGHT  # "submarine+counterweight"
COMPARISON = {LEFT: "attacker_heavier", RIGHT: "defender_heavier", BALANCED: "balanced"}
_HISTORY_S = 1.0  # per pan, for `settled`
STILL_MIN_SAMPLES = 6  # `settled` never judges on fewer readings (4 left after trimming): 0.5 s at 10/s
CHANGE_G = 3.0  # a pan's weight moving this far from its mark: a piece was put on or taken off
REZERO_MAX_G = 4.0  # between battles an empty pan is zeroed over a drift this large (a load cell's: a few
# grams), never over half the lightest piece (then an empty pan and a drifted piece could read alike)


@dataclass(frozen=True)
class PanStatus:
    """What the referee screen may know about a pan: never a weight."""

    kind: str  # EMPTY, SETTLING, LOADED, REFUSED
    reason: str = ""  # REFUSED: the judge's; LOADED: MISFIT when it weighs like no piece


@dataclass(frozen=True)
class Identities:
    """The pieces a weighing recognised (judging "identify"), or why it cannot say.

    `redo` is None, "reweigh" (a pan fits no single class), "not_a_ship" (the
    attacker's pan holds no ship) or "counterweight_not_allowed"."""

    attacker: str | None = None
    defender: str | None = None
    counterweight: bool = False
    redo: str | None = None


def table_from(calibration: Mapping | None) -> dict[str, PieceClass]:
    """The piece classes of a stored calibration, or the default table."""
    if calibration and calibration.get("classes"):
        return {c["name"]: PieceClass.from_json(c) for c in calibration["classes"]}
    return default_table()


class Seesaw:
    """A Pipeline and a Judge over one WeightSource (channel 0 = attacker/left)."""

    def __init__(self, source: WeightSource, calibration: Mapping | None = None,
                 rate_hz: float | None = None, judge_config: JudgeConfig = JudgeConfig()):
        """`rate_hz`: the configured rate (None: whatever the board runs at)."""
        self.source = source
        self.wanted_rate_hz = rate_hz
        # Until measured, the fastest rate: on a slower board the judge's windows (in
        # samples) then only last longer, never shorter.
        self.rate_hz = float(source.status().rate_hz or 80.0)
        self.judge_config = judge_config
        self.pipeline = Pipeline(source.channels, self.rate_hz)
        self._history: list[deque] = [deque(), deque()]
        self.calibration: dict | None = None
        self._marks: list[float | None] = [None, None]
        self.changed = False  # a pan's load changed since `mark()`
        self.apply_calibration(calibration)

    # -- calibration -------------------------------------------------------------

    @property
    def calibrated(self) -> bool:
        return all(ch.calibrated for ch in self.pipeline.channels)

    def apply_calibration(self, calibration: Mapping | None) -> None:
        """Use a stored calibration (scales, offsets, classes); None keeps the scales, default classes."""
        if calibration is not None:
            self.pipeline.apply_calibration(calibration)
        self.calibration = dict(calibration) if calibration is not None else None
        self.set_table(table_from(calibration))

    def set_table(self, table: Mapping[str, PieceClass]) -> None:
        """Judge against these piece classes from now on."""
        self.table = dict(table)
        left, right = pan_classes(self.table)
        self.judge = Judge(left, right, self.judge_config, self.rate_hz)

    @property
    def counterweight_sensed(self) -> bool:
        """Whether a submarine carrying the counterweight weighs apart from the carrier
        (else the attacker's tap must tell them apart)."""
        return counterweight_sensed(self.table, self.judge_config.accept_fraction)

    def tare(self) -> None:
        """Zero both pans (raises NotStableError while one moves)."""
        self.pipeline.tare()

    def rezero(self) -> list[int]:
        """Between battles (the verdict's pieces lifted, before the next 勝負): zero each still pan
        over the drift of its zero (`rezero_limit_g`); returns the pans that read further off, for
        the players to clear (a pan still moving is tried again at the next poll)."""
        return self.pipeline.rezero(rezero_limit_g(self.table, self.judge_config))

    # -- signal ------------------------------------------------------------------

    def poll(self) -> int:
        """Read what the source has, feed pipeline, judge and history; returns how many readings."""
        readings = self.pipeline.feed(self.source.poll())
        for reading in readings:
            self.judge.feed(reading)
            if reading.channel < 2:
                history = self._history[reading.channel]
                history.append(reading)
                while history[0].t < reading.t - _HISTORY_S:
                    history.popleft()
                mark = self._marks[reading.channel]
                if mark is not None and abs(reading.grams - mark) > CHANGE_G:
                    self.changed = True
        self._follow_rate()
        return len(readings)

    def recent(self, channel: int, after: float) -> list:
        """The pan's readings later than `after` (of the last second), oldest first: for a
        screen that shows them live without reading the source itself (the sensor test)."""
        return [r for r in self._history[channel] if r.t > after]

    def _follow_rate(self) -> None:
        """Judge at the measured rate once it is known and not the one assumed."""
        measured = self.pipeline.measured_rate_hz
        if rate_differs(self.rate_hz, measured):
            self.rate_hz = measured
            self.set_table(self.table)

    def rate_warning(self) -> tuple[float, float] | None:
        """(configured, measured) samples/s when the board does not run at the configured rate."""
        measured = self.pipeline.measured_rate_hz
        if self.wanted_rate_hz is not None and rate_differs(self.wanted_rate_hz, measured):
            return float(self.wanted_rate_hz), measured
        return None

    def reset(self) -> None:
        """A new weighing: verdicts rest only on readings from now on."""
        self.judge.reset()

    def mark(self) -> None:
        """Remember the loads now; `changed` turns True once a piece is put on or taken
        off either pan (seen in every reading, however seldom the screen looks)."""
        latest = [self.pipeline.latest(c) for c in (0, 1)]
        self._marks = [None if r is None else r.grams for r in latest]
        self.changed = False

    def pan(self, channel: int) -> PanStatus:
        """EMPTY, SETTLING, LOADED or REFUSED (with the judge's reason)."""
        state = self.judge.identify(channel)
        if state.kind == JUDGE_REFUSED:
            return PanStatus(REFUSED, state.reason)
        if state.kind == WAITING:
            return PanStatus(EMPTY)
        if state.kind in ("class", REWEIGH):
            return PanStatus(LOADED, MISFIT if state.kind == REWEIGH else "")
        latest = self.pipeline.latest(channel)
        if latest is not None and latest.stable and abs(latest.grams) < self._empty_g():
            return PanStatus(EMPTY)
        return PanStatus(SETTLING, state.reason)

    def _empty_g(self) -> float:
        return self.judge_config.empty_fraction * min(c.low for c in self.table.values())

    def battle(self) -> Verdict:
        return self.judge.battle()

    def identify(self, channel: int) -> PanState:
        return self.judge.identify(channel)

    # -- still weights (calibration wizard) ------------------------------------------

    def settled(self, channel: int, hold_s: float = 0.3, band_g: float = 0.3) -> tuple[float, float] | None:
        """(grams, noise σ per sample) when the pan's readings of the last `hold_s` (and
        never fewer than STILL_MIN_SAMPLES) stay within `band_g`, the highest and lowest
        left out as spikes; else None.  Judged by time, so alike at 10 and 80 samples/s."""
        history = self._history[channel]
        if len(history) < STILL_MIN_SAMPLES or history[-1].t - history[0].t < hold_s:
            return None  # not yet watched for `hold_s`
        start = history[-1].t - hold_s
        recent = [r.grams for r in history if r.t >= start]
        if len(recent) < STILL_MIN_SAMPLES:
            recent = [r.grams for r in list(history)[-STILL_MIN_SAMPLES:]]
        calibrated = self.pipeline.channels[channel].calibrated
        band = band_g if calibrated else self.pipeline.config.motion_band_counts
        trimmed = sorted(recent)[1:-1]
        if trimmed[-1] - trimmed[0] > band:
            return None
        return float(np.median(trimmed)), float(np.std(trimmed))


def rezero_limit_g(table: Mapping[str, PieceClass], judge_config: JudgeConfig) -> float:
    """How far from zero an empty pan may read and be zeroed between battles: `REZERO_MAX_G`, and
    under the judge's empty threshold (half the lightest piece, low end)."""
    return min(REZERO_MAX_G, judge_config.empty_fraction * min(c.low for c in table.values()))


def counterweight_sensed(table: Mapping[str, PieceClass], accept_fraction: float) -> bool:
    """Whether, judged against `table`, a submarine carrying the counterweight weighs apart
    from every other class on the attacker's pan (the carrier)."""
    if SUBMARINE not in table or COUNTERWEIGHT not in table:
        return False
    left, _ = pan_classes(table)
    group = next(g for g in build_groups(left, accept_fraction) if any(c.name == STACKED for c in g.members))
    return AMBIGUOUS not in group.name


def identities(verdict: Verdict, counterweight_tap: bool | None = None) -> Identities:
    """The pieces behind a final verdict.  `counterweight_tap` is the attacker's word,
    needed only when the counterweight cannot be sensed (None: not given = off)."""
    if verdict.kind == REWEIGH or verdict.left is None or verdict.right is None:
        return Identities(redo="reweigh")
    left, right = verdict.left.split(AMBIGUOUS), verdict.right.split(AMBIGUOUS)
    if len(right) != 1:
        return Identities(redo="reweigh")
    if STACKED in left and (len(left) == 1 or counterweight_tap):
        return Identities(SUBMARINE, right[0], True)
    if counterweight_tap:
        return Identities(redo="counterweight_not_allowed")
    left = [name for name in left if name != STACKED]
    if len(left) != 1:
        return Identities(redo="reweigh")
    if COMBINE in left[0] or left[0] not in SHIPS:
        return Identities(redo="not_a_ship")
    return Identities(left[0], right[0], False)


def virtual_calibration(source, known_g: float = 100.0) -> dict:
    """A calibration for a SimulatedSeesaw without touching it: the same seed makes the
    same offsets and scales, so the calibrator runs on a twin with a manual clock."""
    from companion.sensing.realism import QUIET
    from companion.sensing.simulator import ManualClock, SimulatedSeesaw

    clock = ManualClock(0.0)
    twin = SimulatedSeesaw(source.seed, source.rate_hz, clock, QUIET, table=source.table)
    pipeline = Pipeline(twin.channels, twin.rate_hz)

    def run(seconds: float) -> None:
        for _ in range(round(seconds / 0.05)):
            clock.advance(0.05)
            pipeline.feed(twin.poll())

    calibrator = Calibrator(pipeline, known_g)
    run(0.5)
    while not calibrator.done:
        step = calibrator.step
        assert step is not None, "a calibration not done has a step"
        if step.kind == "mass":
            twin.place(step.pan, grams=known_g)
        run(0.5)
        while not calibrator.ready():  # at 10 samples/s a quiet twin takes a little longer
            run(0.1)
        calibrator.do()
        if step.kind == "mass":
            twin.remove(step.pan)
            run(0.5)
    return calibrator.result()
