"""The calibration wizard's flow, without Kivy (wizard.py is the screen over it).

Steps: MASS, the known mass the builder has (typed or coins: reference.py) → SCALE, zero
both pans, then that mass on each (`companion.sensing.calibration.Calibrator`; a mass on
the other pan than the one asked is named; a pan loaded at ゼロ点, as the calibration before
tells, holds it back once; a record that finds the zero was taken loaded goes back to ゼロ点)
→ PIECES, every piece type of both fleets on the left pan, then more of the classes not yet
surely apart (weighplan.py), each weighing taken once the pan is still → REPORT, the classes
with their warnings, saved (`calibration()`), and a check of what lies on the left pan.  Only
the wizard weighs in grams and names pieces.

Words for people come as `Text` (a message key and values) for the screen to translate;
what names pieces (a stack, a group) comes as names, which the screen words.  Starting over
or leaving with work not saved is the screen's question (`unsaved`, `weighed`); leaving
half-way puts back the calibration in use before (`leave`).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError
from companion.games.gunkan.pieces import PieceClass, pan_classes
from companion.games.gunkan.reference import Reference
from companion.games.gunkan.seesaw import STACKED, Seesaw, counterweight_sensed, rezero_limit_g
from companion.games.gunkan.weighplan import BAND_G, HOLD_S, LOADED_G, PieceWeighings
from companion.play.controller import Text
from companion.sensing.calibration import Calibrator
from companion.sensing.judge import AMBIGUOUS, REWEIGH, WAITING
from companion.sensing.pipeline import CalibrationError, NotStableError

MASS, SCALE, PIECES, REPORT = "mass", "scale", "pieces", "report"
LOAD_COUNTS = 1500  # before a pan's scale is known: a change of the tare reading this big is a load


def side(channel: int) -> Text:
    return Text("gunkan_ui.wizard_left" if channel == 0 else "gunkan_ui.wizard_right")


@dataclass(frozen=True)
class Check:
    """What lies on the left pan (the report's check): `kind` "is" (`names`: the pieces a
    scale cannot tell apart, each a name or a stack "a+b"), "unknown", "empty" or "settling"."""

    kind: str
    names: tuple[str, ...] = ()


class CalibrationFlow:
    """One run of the wizard over the seesaw, from `start_over()` on."""

    def __init__(self, seesaw: Seesaw):
        self.seesaw = seesaw
        self.reference = Reference()
        self.start_over()

    # life ----------------------------------------------------------------------------------

    def start_over(self) -> None:
        """Back to MASS; the known mass offered is the one last used."""
        previous = self.seesaw.calibration
        self.previous = previous or self.seesaw.pipeline.calibration()  # what `leave` puts back
        if not self.reference.usable:
            self.reference = Reference.from_saved(previous)
        self.step = MASS
        self.calibrator: Calibrator | None = None
        self.zero_warned = False  # ゼロ点 was refused once for a pan loaded by the calibration before
        self.plan = PieceWeighings(self.seesaw.judge_config.accept_fraction)
        self.saved = False

    @property
    def weighed(self) -> int:
        """Weighings so far: each pan scaled, each piece."""
        return self.plan.count + (0 if self.calibrator is None else max(0, self.calibrator.index - 1))

    @property
    def unsaved(self) -> bool:
        """Work that leaving or starting over would lose: a pan's scale, a weighing."""
        return not self.saved and self.weighed > 0

    def leave(self) -> None:
        """Left before the report: the seesaw keeps the calibration it had."""
        if self.step != REPORT and self.previous is not None:
            self.seesaw.apply_calibration(self.previous)

    def tick(self) -> bool:
        """Read the seesaw; True when the pieces' weighings moved on (a weighing taken, the pan
        emptied, the report built)."""
        self.seesaw.poll()
        if self.step != PIECES or not self.plan.tick(self.seesaw):
            return False
        if self.plan.done and not self.plan.lifting:
            self.step = REPORT
        return True

    # MASS ------------------------------------------------------------------------------------

    @property
    def readings(self) -> int:
        """The readings a tare or a pan's calibration averages (the pipeline's motion window)."""
        cfg = self.seesaw.pipeline.config
        return max(cfg.motion_min_samples, round(cfg.motion_window_s * self.seesaw.rate_hz))

    def choose_reference(self) -> bool:
        """Calibrate with the reference chosen (False: it is not usable)."""
        if not self.reference.usable:
            return False
        self.calibrator = Calibrator(self.seesaw.pipeline, self.reference.grams)
        self.step = SCALE
        return True

    # SCALE ------------------------------------------------------------------------------------

    def loaded(self, channel: int) -> bool | None:
        """Whether a still pan carries a load against its zero (None: not still)."""
        settled = self.seesaw.settled(channel)
        if settled is None:
            return None
        calibrated = self.seesaw.pipeline.channels[channel].calibrated
        return abs(settled[0]) > (LOADED_G if calibrated else LOAD_COUNTS)

    def scale_ready(self) -> bool:
        """Both pans are still (a mass step reads the other pan too: a mass put there, or a load
        lifted since ゼロ点): judged in grams once scaled (the pipeline's own motion check alone can
        pass at the top of a hand's press)."""
        if self.calibrator is None or not self.calibrator.ready():
            return False
        return all(self.seesaw.settled(c) is not None for c in (0, 1))

    def before_zero_g(self, channel: int) -> float | None:
        """What a still pan weighs by the calibration in use before this run (None: moving, or that
        calibration has no scale for it): a load at ゼロ点 is known only against an earlier zero."""
        before = (self.previous or {}).get("channels") or []
        if channel >= len(before) or not before[channel].get("counts_per_gram"):
            return None
        try:
            counts = self.seesaw.pipeline.channels[channel].still_counts()
        except NotStableError:
            return None
        return (counts - before[channel]["offset"]) / before[channel]["counts_per_gram"]

    @property
    def drift_g(self) -> float:
        """How far a zero may drift between calibrations, and an empty pan still read empty."""
        return rezero_limit_g(self.seesaw.table, self.seesaw.judge_config)

    def loaded_at_zero(self) -> list[int]:
        """The pans that, by the calibration before, weigh more than a zero drifts."""
        return [c for c in (0, 1) if (self.before_zero_g(c) or 0.0) > self.drift_g]

    def lighter_than_zero(self) -> list[int]:
        """The scaled pans that read lighter than at ゼロ点, still: something lay on them then."""
        return [c for c in (0, 1) if self.seesaw.pipeline.channels[c].calibrated
                and (self.seesaw.settled(c) or (0.0,))[0] < -self.drift_g]

    def misplaced(self) -> Text | None:
        """Why the asked pan cannot be recorded though both are still (None: it can); back to ゼロ点
        when the zero was taken with a load on a pan (whatever is put on it then reads too little)."""
        step = self.calibrator.step
        if step is None or step.kind != "mass":
            return None
        lighter = self.lighter_than_zero()
        if lighter:
            return self._zero_again("gunkan_ui.wizard_zero_lighter", lighter[0])
        if self.loaded(step.channel):
            return None
        if self.loaded(1 - step.channel):
            return Text("gunkan_ui.wizard_wrong_pan", {"there": side(1 - step.channel), "here": side(step.channel)})
        before = self.before_zero_g(step.channel)
        if before is not None and before <= self.drift_g:  # empty by the earlier zero too: not put on yet
            return Text("gunkan_ui.wizard_nothing_on", {"here": side(step.channel)})
        return self._zero_again("gunkan_ui.wizard_zero_nothing", step.channel)  # on at ゼロ点, or cannot tell

    def _zero_again(self, key: str, channel: int) -> Text:
        """Back to ゼロ点 (each pan's scale is taken again after it), saying why."""
        self.calibrator = Calibrator(self.seesaw.pipeline, self.reference.grams)
        self.zero_warned = False
        return Text(key, {"here": side(channel)})

    def record_scale(self) -> Text | None:
        """Zero the pans or scale the asked one; what went wrong, or None when it was taken.  A pan
        loaded by the calibration before holds ゼロ点 back once (a second tap takes it: the zero moved)."""
        if not self.scale_ready():
            return Text("gunkan_ui.wizard_not_stable")
        loaded = self.loaded_at_zero() if self.calibrator.step.kind == "tare" and not self.zero_warned else []
        if loaded:
            self.zero_warned = True
            g = max(self.before_zero_g(c) for c in loaded)
            pans = "both" if len(loaded) == 2 else ("left", "right")[loaded[0]]
            return Text("gunkan_ui.wizard_zero_loaded",
                        {"pan": Text(f"gunkan_ui.off_zero_pan.{pans}"), "g": f"{g:.0f}"})
        wrong = self.misplaced()
        if wrong is not None:
            return wrong
        try:
            self.calibrator.do()
        except CalibrationError:  # a change too small to scale by: the mass is not on this pan
            return Text("gunkan_ui.wizard_nothing_on", {"here": side(self.calibrator.step.channel)})
        except CompanionError:
            return Text("gunkan_ui.wizard_not_stable")
        if self.calibrator.done:
            self.step = PIECES
        return None

    # PIECES ---------------------------------------------------------------------------------------

    def pan_state(self, channel: int) -> Text:
        """A pan while the wizard waits: settling, or still and whether a load lies on it (once
        zeroed); grams only while weighing pieces (the scales are set by then)."""
        settled = self.seesaw.settled(channel, HOLD_S, BAND_G)
        if settled is None:
            return Text("gunkan_ui.pan.settling")
        if self.step != PIECES:
            if self.calibrator is None or self.calibrator.index == 0:  # before ゼロ点: by the calibration before
                before = self.before_zero_g(channel)
                return Text("gunkan_ui.wizard_still" if before is None else "gunkan_ui.wizard_still_loaded"
                            if before > self.drift_g else "gunkan_ui.wizard_still_empty")
            return Text("gunkan_ui.wizard_still_loaded" if self.loaded(channel) else "gunkan_ui.wizard_still_empty")
        if settled[0] < LOADED_G:
            return Text("gunkan_ui.pan.empty")
        return Text("gunkan_ui.wizard_still_g", {"g": f"{settled[0] - self.plan.zero_g:.2f}"})

    def ask(self) -> Text:
        """What to put on the left pan next, or to lift what lies there."""
        ask = self.plan.ask
        if self.plan.lifting or ask is None:
            return Text("gunkan_ui.wizard_lift")
        return Text("gunkan_ui.wizard_piece", {"fleet": Text(f"gunkan_ui.wizard_fleet_{ask.fleet}"),
                                               "piece": Text(f"gunkan.piece.{ask.piece}"), "k": ask.k})

    def progress(self) -> tuple[float, Text]:
        """The share of the first round done, and the count in words (then the extra weighings)."""
        count, first = self.plan.count, len(self.plan.first)
        if count < first:
            return count / first, Text("gunkan_ui.wizard_progress", {"done": count, "total": first})
        return 1.0, Text("gunkan_ui.wizard_more", {"done": count})

    # REPORT ---------------------------------------------------------------------------------------

    @property
    def report(self):
        """The classes the weighings built (`ClassReport`), once in REPORT."""
        return self.plan.report if self.step == REPORT else None

    def table(self) -> dict[str, PieceClass]:
        return {c.name: c for c in self.report.classes}

    def counterweight_sensed(self) -> bool:
        """Whether the measured submarine carrying the counterweight weighs apart from the carrier."""
        return counterweight_sensed(self.table(), self.seesaw.judge_config.accept_fraction)

    def close_pairs(self) -> list[tuple[str, object]]:
        """Neighbouring classes a scale cannot surely tell apart: ("same", pair) when their
        spreads meet, ("too_close", pair) under the margin (the counterweight has no neighbour:
        it only rides on the submarine)."""
        return [("same" if pair.free_gap_g <= 0 else "too_close", pair)
                for pair in self.report.neighbours if pair.free_gap_g <= 0 or not pair.apart]

    def plotted(self) -> list[PieceClass]:
        """The classes drawn: the measured ones and the submarine carrying the counterweight."""
        left, _ = pan_classes(self.table())
        return sorted(left, key=lambda c: (c.name == STACKED, c.mass_g))  # the stack on top, apart

    def calibration(self) -> dict:
        """What is saved: the scales, the known mass and its error, the classes and the report."""
        return {**self.seesaw.pipeline.calibration(), "known_g": self.reference.grams,
                "reference": self.reference.describe(),
                "scale_error": round(self.reference.error(self.readings), 5),
                "classes": [c.to_json() for c in self.report.classes], "report": self.report.to_json()}

    def use(self, data: dict, saved: bool = False) -> None:
        """Judge with a calibration from now on (raises CompanionError when it does not fit)."""
        self.seesaw.apply_calibration(data)
        self.previous = data
        self.saved = self.saved or saved

    def check(self) -> Check:
        """What lies on the left pan now."""
        state = self.seesaw.identify(0)
        if state.kind == "class":
            return Check("is", tuple(state.group.name.split(AMBIGUOUS)))
        if state.kind == REWEIGH:
            return Check("unknown")
        return Check("empty" if state.kind == WAITING else "settling")
