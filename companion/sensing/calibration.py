"""Calibration, step by step: tare both pans, then a known mass on each.  And piece classes
built from repeated weighings, with how far apart neighbouring classes lie.

`Calibrator` is driven by `companion calibrate` and the UI wizard: show
`step.prompt`, wait until `ready()`, call `do()`; when `done`, save `result()`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Mapping, Sequence

from companion.sensing.classes import PieceClass
from companion.sensing.pipeline import CalibrationError, Pipeline

DEFAULT_KNOWN_G = 100.0


@dataclass(frozen=True)
class Step:
    kind: str  # "tare" or "mass"
    channel: int | None
    prompt: str  # Japanese / English, for people


class Calibrator:
    """Tare both pans, then calibrate each pan with a known mass, one step at a time."""

    def __init__(self, pipeline: Pipeline, known_g: float = DEFAULT_KNOWN_G):
        if known_g <= 0:
            raise CalibrationError(
                f"校正用の重さは正の値にしてください（{known_g} g）。 / "
                f"The calibration mass must be positive (got {known_g} g).")
        self.pipeline = pipeline
        self.known_g = float(known_g)
        pans = range(len(pipeline.channels))
        self.steps = [Step("tare", None, "両方の皿を空にして、静止させてください。 / "
                                         "Empty both pans and let them settle.")]
        self.steps += [Step("mass", c, f"{known_g:g} g の分銅を皿 {c} だけに載せてください。 / "
                                       f"Put the {known_g:g} g mass on pan {c} only.") for c in pans]
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
            self.pipeline.channels[step.channel].calibrate(self.known_g)  # may be negative: a reversed cell
        self.index += 1

    def result(self) -> dict:
        """Offsets and counts/gram per channel, plus the mass used: a plain, saveable dict."""
        if not self.done:
            raise CalibrationError(
                "校正がまだ終わっていません。 / The calibration is not finished yet.")
        return {**self.pipeline.calibration(), "known_g": self.known_g}


@dataclass(frozen=True)
class Neighbours:
    """How far apart two neighbouring classes lie."""

    lighter: str
    heavier: str
    distance_g: float  # between means
    free_gap_g: float  # between the heaviest lighter piece and the lightest heavier one
    margin_sigma: float  # free gap in units of weighing noise


@dataclass(frozen=True)
class ClassReport:
    classes: list[PieceClass]
    neighbours: list[Neighbours]
    warnings: list[str]

    def to_json(self) -> dict:
        return {"classes": [c.to_json() for c in self.classes],
                "neighbours": [vars(n) for n in self.neighbours], "warnings": list(self.warnings)}


def build_classes(weighings: Mapping[str, Sequence[float]], noise_sigma_g: float = 0.0,
                  spread_sigmas: float = 3.0, min_margin_sigma: float = 6.0) -> ClassReport:
    """Piece classes from repeated weighings of each piece type (several pieces, several times).

    A class's spread covers every weighing and `spread_sigmas` standard deviations.
    `noise_sigma_g` is the scale's own noise per weighing, the unit of the margins;
    a pair closer than `min_margin_sigma` (or overlapping) gets a warning.
    """
    classes, sigmas = [], {}
    for name, values in weighings.items():
        values = [float(v) for v in values]
        if len(values) < 2:
            raise CalibrationError(
                f"「{name}」の計量が足りません（2 回以上必要）。 / "
                f"Weigh {name!r} at least twice (got {len(values)}).")
        mean = statistics.fmean(values)
        sigma = statistics.stdev(values)
        spread = max(max(abs(v - mean) for v in values), spread_sigmas * sigma)
        classes.append(PieceClass(name, mean, spread))
        sigmas[name] = sigma
    classes.sort(key=lambda c: c.mass_g)
    neighbours, warnings = [], []
    for a, b in zip(classes, classes[1:]):
        unit = max(noise_sigma_g, sigmas[a.name], sigmas[b.name], 1e-9)
        gap = b.low - a.high
        pair = Neighbours(a.name, b.name, b.mass_g - a.mass_g, gap, gap / unit if gap > 0 else -math.inf)
        neighbours.append(pair)
        if gap <= 0:
            warnings.append(f"「{a.name}」と「{b.name}」は重さで区別できません（判定は「{a.name}|{b.name}」）。 / "
                            f"{a.name} and {b.name} weigh the same: the judge will report {a.name}|{b.name}.")
        elif pair.margin_sigma < min_margin_sigma:
            warnings.append(f"「{a.name}」と「{b.name}」が近すぎます（差 {gap:.2f} g = {pair.margin_sigma:.1f}σ）。 / "
                            f"{a.name} and {b.name} are too close: {gap:.2f} g apart = {pair.margin_sigma:.1f} sigma.")
    return ClassReport(classes, neighbours, warnings)
