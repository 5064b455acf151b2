"""Calibration, step by step: tare both pans, then a known mass on each.  And piece classes
built from repeated weighings, with how far apart neighbouring classes lie.

`Calibrator` is driven by `companion calibrate` and the UI wizard: show
`step.prompt`, wait until `ready()`, call `do()`; when `done`, save `result()`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from companion.i18n import Words
from companion.sensing.classes import PieceClass
from companion.sensing.pipeline import CalibrationError, Pipeline

DEFAULT_KNOWN_G = 100.0


@dataclass(frozen=True)
class Step:
    kind: str  # "tare" or "mass"
    channel: int | None
    prompt: Words  # for people: `prompt.text(lang)`

    @property
    def pan(self) -> int:
        """The pan a mass step weighs."""
        assert self.channel is not None, "a mass step names its pan"
        return self.channel


class Calibrator:
    """Tare both pans, then calibrate each pan with a known mass, one step at a time."""

    def __init__(self, pipeline: Pipeline, known_g: float = DEFAULT_KNOWN_G):
        if known_g <= 0:
            raise CalibrationError(Words("sensing.mass_positive", known_g=known_g))
        self.pipeline = pipeline
        self.known_g = float(known_g)
        pans = range(len(pipeline.channels))
        self.steps = [Step("tare", None, Words("sensing.step_tare"))]
        self.steps += [Step("mass", c, Words("sensing.step_mass", known_g=known_g, channel=c)) for c in pans]
        self.index = 0

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    @property
    def step(self) -> Step | None:
        return None if self.done else self.steps[self.index]

    def ready(self) -> bool:
        """Whether the pans the current step reads are still (the UI enables its button)."""
        step = self.step
        if step is None:
            return False
        chosen = self.pipeline.channels if step.channel is None else [self.pipeline.channels[step.channel]]
        return all(ch.stable for ch in chosen)

    def do(self) -> None:
        """Perform the current step; on NotStableError or CalibrationError it stays current."""
        step = self.step
        if step is None:
            return
        if step.kind == "tare":
            self.pipeline.tare()
        else:
            self.pipeline.channels[step.pan].calibrate(self.known_g)  # may be negative: a reversed cell
        self.index += 1

    def result(self) -> dict[str, Any]:
        """Offsets and counts/gram per channel, plus the mass used: a plain, saveable dict."""
        if not self.done:
            raise CalibrationError(Words("sensing.not_finished"))
        return {**self.pipeline.calibration(), "known_g": self.known_g}


SPREAD_SIGMAS = 3.0  # a class's spread: every weighing, and this many σ of its pieces
SURE_SIGMAS = 3.0  # a class's mean is known to ± this many σ/√n
APART_SIGMAS = 3.5  # a pair is apart when each class's mean lies this many σ from the other's band
ACCEPT_FRACTION = 0.4  # the judge's: an acceptance band reaches this share into the free gap


@dataclass(frozen=True)
class Neighbours:
    """How far apart two neighbouring classes lie, and whether they are surely apart."""

    lighter: str
    heavier: str
    distance_g: float  # between means
    free_gap_g: float  # between the lighter class's spread and the heavier one's
    margin_sigma: float  # the nearer class's mean (made less sure) to the other's acceptance band, in its σ
    apart: bool  # margin_sigma >= APART_SIGMAS: no more weighings needed for this pair


@dataclass(frozen=True)
class ClassReport:
    classes: list[PieceClass]
    neighbours: list[Neighbours]
    warnings: list[str]
    unsure: list[str]  # classes in a pair not yet apart: what more weighings would settle

    @property
    def apart(self) -> bool:
        return not self.unsure

    def to_json(self) -> dict[str, Any]:
        return {"classes": [c.to_json() for c in self.classes],
                "neighbours": [vars(n) for n in self.neighbours], "warnings": list(self.warnings)}


def build_classes(weighings: Mapping[str, Sequence[float]], noise_sigma_g: float = 0.0,
                  accept_fraction: float = ACCEPT_FRACTION, alone: Sequence[str] = ()) -> ClassReport:
    """Piece classes from repeated weighings of each piece type (several pieces, several times),
    and whether neighbouring classes are surely apart.

    Every class judged on its own has the pooled σ of those classes, never under the
    scale's noise `noise_sigma_g` (one class's σ from a few weighings swings widely; a
    bad piece still shows, in the spread).  A class's spread covers every weighing
    and SPREAD_SIGMAS σ.  Names in `alone` (a single trimmed piece that is
    never judged by itself, such as a counterweight) keep their own σ and have no
    neighbours.

    The criterion (the wizard stops once every pair passes): the judge accepts a
    class up to `accept_fraction` of the free gap g past its spread.  A class's mean
    is known to ± k·σ/√n (k = SURE_SIGMAS) and its spread moves with it; a pair is
    apart when, for each of the two, its mean so moved towards the neighbour still
    lies APART_SIGMAS σ from the neighbour's acceptance band:
    (spread + (1 − accept_fraction)·g − k·σ/√n) / σ >= APART_SIGMAS (`margin_sigma`).
    More weighings shrink σ/√n; an overlap (g <= 0) never passes.
    """
    stats = {}
    for name, values in weighings.items():
        values = [float(v) for v in values]
        if len(values) < 2:
            raise CalibrationError(Words("sensing.weigh_twice", name=name, count=len(values)))
        stats[name] = (values, statistics.fmean(values), statistics.stdev(values))
    judged = [name for name in stats if name not in alone]
    df = sum(len(stats[n][0]) - 1 for n in judged)
    pooled = math.sqrt(sum((len(stats[n][0]) - 1) * stats[n][2] ** 2 for n in judged) / df) if df else 0.0
    classes, sigma, sure = [], {}, {}
    for name, (values, mean, sd) in stats.items():
        sigma[name] = max(sd if name in alone else pooled, noise_sigma_g)
        sure[name] = SURE_SIGMAS * sigma[name] / math.sqrt(len(values))
        spread = max(max(abs(v - mean) for v in values), SPREAD_SIGMAS * sigma[name])
        classes.append(PieceClass(name, mean, spread))
    classes.sort(key=lambda c: c.mass_g)
    neighbours: list[Neighbours] = []
    warnings: list[str] = []
    unsure: list[str] = []
    ranked = [c for c in classes if c.name not in alone]
    for a, b in zip(ranked, ranked[1:]):
        gap = b.low - a.high

        def reach(c: PieceClass) -> float:
            return (c.spread_g + (1.0 - accept_fraction) * gap - sure[c.name]) / sigma[c.name]
        margin = min(reach(a), reach(b)) if gap > 0 else -math.inf
        pair = Neighbours(a.name, b.name, b.mass_g - a.mass_g, gap, margin, margin >= APART_SIGMAS)
        neighbours.append(pair)
        if not pair.apart:
            unsure += [n for n in (a.name, b.name) if n not in unsure]
        if gap <= 0:
            warnings.append(Words("sensing.same_weight", a=a.name, b=b.name))
        elif not pair.apart:
            warnings.append(Words("sensing.too_close", a=a.name, b=b.name, margin=margin))
    return ClassReport(classes, neighbours, warnings, unsure)
