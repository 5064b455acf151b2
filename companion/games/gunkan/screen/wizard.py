"""The seesaw calibration wizard, reached from the Gunkan referee screen.

Steps: the known mass the builder has (typed on a keypad, or coins stacked: reference.py,
with the scale error it leaves) → zero both pans → that mass on each pan (the scales; a pan
loaded instead of the asked one is named) → every piece
type of both fleets on the left pan, then more of the classes not yet surely
apart, until every pair is (weighplan.py; each weighing captured on its own
once the pan is still, each pan's state shown while it waits) → the classes,
drawn with their acceptance bands and the margin between neighbours in σ, and
clear warnings → save (named by date and time) and use.  Stored calibrations can be
chosen again; the one in use is the setting `sensor.calibration` (as
`companion calibrate` sets it), the newest when that is empty.
Only this screen weighs in grams and names pieces: "check" tells what lies
on the left pan.  With a simulated seesaw a "virtual" button does the asked
placing or lifting, like a hand, and says what it did.  Starting over or leaving with
weighings not saved asks first.
"""

from __future__ import annotations

import time
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty

from companion.errors import CompanionError
from companion.sensing.calibration import Calibrator
from companion.sensing.pipeline import CalibrationError
from companion.sensing.judge import AMBIGUOUS, build_groups
from companion.games.gunkan.pieces import PieceClass, pan_classes
from companion.games.gunkan.reference import Reference
from companion.games.gunkan.screen.wizard_mass import KnownMassStep
from companion.games.gunkan.seesaw import STACKED
from companion.games.gunkan.weighplan import HOLD_S, BAND_G, LOADED_G, PieceWeighings
from companion.games.gunkan.screen.plot import ClassPlot  # noqa: F401  (kv)
from companion.games.gunkan.screen.widgets import ChoiceDialog, VirtualTray, piece_name
from companion.ui.widgets import GameScreen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TICK_S = 0.05
LOAD_COUNTS = 1500  # before a pan's scale is known: a change of the tare reading this big is a load


class CalibrationScreen(KnownMassStep, GameScreen):
    screen_name = "gunkan_calibration"
    step = StringProperty("mass")  # mass, scale, pieces, report
    prompt_text = StringProperty("")
    button_text = StringProperty("")
    status_text = StringProperty("")
    pans_text = StringProperty("")
    verify_text = StringProperty("")
    in_use_text = StringProperty("")
    progress = NumericProperty(0)
    ready = BooleanProperty(False)
    virtual = BooleanProperty(False)
    report = ObjectProperty(None, allownone=True)

    def __init__(self, referee, **kwargs):
        super().__init__(name=self.screen_name, **kwargs)
        self.referee = referee
        self._tick_event = None
        self.plan = PieceWeighings()
        self.reference = Reference()
        self.calibrator: Calibrator | None = None
        self.saved = False
        self._previous = None
        self.tray = self.dialog = None

    @property
    def seesaw(self):
        return self.referee.seesaw

    # life --------------------------------------------------------------------------------

    def on_enter(self, *_):
        self.virtual = bool(self.app.source and self.app.source.virtual)
        self._label_coins()  # in the language chosen now
        self.start_over()
        self.list_stored()
        if self._tick_event is None:
            self._tick_event = Clock.schedule_interval(self._tick, TICK_S)

    def on_leave(self, *_):
        self.close()

    def close(self) -> None:
        if self._tick_event is not None:
            self._tick_event.cancel()
            self._tick_event = None

    @property
    def unsaved(self) -> bool:
        """Work that leaving or starting over would lose: a pan's scale, a weighing."""
        return not self.saved and self.calibrator is not None and (self.calibrator.index > 1 or self.plan.count > 0)

    def ask_back(self) -> None:
        self._ask("gunkan_ui.wizard_ask_back", "gunkan_ui.wizard_back", self.back)

    def ask_start_over(self) -> None:
        self._ask("gunkan_ui.wizard_ask_restart", "gunkan_ui.wizard_restart", self.start_over)

    def _ask(self, question: str, yes: str, action) -> None:
        if not self.unsaved:
            action()
            return
        weighed = self.plan.count + max(0, self.calibrator.index - 1)  # each pan scaled, each piece
        self.dialog = ChoiceDialog(self.tr(question, n=weighed),
                                   [("yes", self.tr(yes), action), ("no", self.tr("gunkan_ui.wizard_keep"), None)])
        self.dialog.open()

    def back(self) -> None:
        if self.step != "report" and self._previous is not None:  # left half-way: keep the old scales
            self.seesaw.apply_calibration(self._previous)
        self.app.manager.current = self.referee.name

    def start_over(self) -> None:
        previous = self.seesaw.calibration
        self._previous = previous or self.seesaw.pipeline.calibration()
        if not self.reference.usable:
            self.reference = Reference.from_saved(previous)
        self.calibrator, self.saved = None, False
        self.plan = PieceWeighings(self.seesaw.judge_config.accept_fraction)
        self.report, self.verify_text, self.status_text = None, "", ""
        self.step, self.progress = "mass", 0
        self._show_reference()
        self._prompt()

    # the steps -------------------------------------------------------------------------------

    @property
    def lifting(self) -> bool:
        return self.plan.lifting

    def _tick(self, *_):
        self.seesaw.poll()
        if self.step == "mass":
            pass
        elif self.step == "scale":
            self.ready = self._scale_ready()
        elif self.step == "pieces" and self.plan.tick(self.seesaw):
            if self.plan.done and not self.plan.lifting:
                self._build()
            self._prompt()
        elif self.step == "report" and self.verify_text:
            self.verify()
        self.pans_text = self._pans() if self.step in ("scale", "pieces") else ""

    def _pans(self) -> str:
        """Each pan while the wizard waits: settling, or still and whether a load lies on it
        (once zeroed); grams only while weighing pieces (the scales are set by then)."""
        pieces = self.step == "pieces"
        return "　".join(self.tr(f"gunkan_ui.wizard_pan_{side}", state=self._pan(c, pieces))
                        for c, side in ((0, "left"), (1, "right")))

    def _pan(self, channel: int, pieces: bool) -> str:
        settled = self.seesaw.settled(channel, HOLD_S, BAND_G)
        if settled is None:
            return self.tr("gunkan_ui.pan.settling")
        if not pieces:
            if self.calibrator is None or self.calibrator.index == 0:
                return self.tr("gunkan_ui.wizard_still")
            loaded = self.loaded(channel)
            return self.tr("gunkan_ui.wizard_still_loaded" if loaded else "gunkan_ui.wizard_still_empty")
        if settled[0] < LOADED_G:
            return self.tr("gunkan_ui.pan.empty")
        return self.tr("gunkan_ui.wizard_still_g", g=f"{settled[0] - self.plan.zero_g:.2f}")

    def loaded(self, channel: int) -> bool | None:
        """Whether a still pan carries a load against its zero (None: not still)."""
        settled = self.seesaw.settled(channel)
        if settled is None:
            return None
        calibrated = self.seesaw.pipeline.channels[channel].calibrated
        return abs(settled[0]) > (LOADED_G if calibrated else LOAD_COUNTS)

    def _scale_ready(self) -> bool:
        """The step's pans are still: judged in grams once scaled (the pipeline's
        own motion check alone can pass at the top of a hand's press)."""
        step = self.calibrator.step
        if step is None or not self.calibrator.ready():
            return False
        channels = (0, 1) if step.channel is None else (step.channel,)
        return all(self.seesaw.settled(c) is not None for c in channels)

    def misplaced(self) -> str:
        """Why the asked pan cannot be recorded though both are still ("": it can)."""
        step = self.calibrator.step
        if step is None or step.kind != "mass":
            return ""
        other = 1 - step.channel
        here = self.tr("gunkan_ui.wizard_left" if step.channel == 0 else "gunkan_ui.wizard_right")
        there = self.tr("gunkan_ui.wizard_left" if other == 0 else "gunkan_ui.wizard_right")
        if self.loaded(step.channel):
            return ""
        if self.loaded(other):
            return self.tr("gunkan_ui.wizard_wrong_pan", there=there, here=here)
        return self.tr("gunkan_ui.wizard_nothing_on", here=here)

    def do_scale_step(self) -> None:
        if not self._scale_ready():
            self.status_text = self.tr("gunkan_ui.wizard_not_stable")
            return
        self.status_text = self.misplaced()
        if self.status_text:
            return
        try:
            self.calibrator.do()
        except CalibrationError:  # a change too small to scale by: the mass is not on this pan
            self.status_text = self.tr("gunkan_ui.wizard_nothing_on", here=self.tr(
                "gunkan_ui.wizard_left" if self.calibrator.step.channel == 0 else "gunkan_ui.wizard_right"))
            return
        except CompanionError:
            self.status_text = self.tr("gunkan_ui.wizard_not_stable")
            return
        self.status_text = ""
        if self.calibrator.done:
            self.step = "pieces"
        self._prompt()

    def _build(self) -> None:
        self.report = self.plan.report
        self.step = "report"
        self.status_text = ""

    def counterweight_sensed(self) -> bool:
        table = {c.name: c for c in self.report.classes}
        left, _ = pan_classes(table)
        group = next(g for g in build_groups(left, self.seesaw.judge_config.accept_fraction)
                     if any(c.name == STACKED for c in g.members))
        return AMBIGUOUS not in group.name

    def save(self) -> None:
        name = time.strftime("%Y-%m-%d %H:%M")
        data = {**self.seesaw.pipeline.calibration(), "known_g": self.reference.grams,
                "reference": self.reference.describe(), "scale_error": round(self.reference.error(self.readings), 5),
                "classes": [c.to_json() for c in self.report.classes], "report": self.report.to_json()}
        self.app.store.save_calibration(name, data)
        self.seesaw.apply_calibration(data)
        self.app.change_setting(sensor={"calibration": name})
        self._previous, self.saved = data, True
        self.status_text = self.tr("gunkan_ui.wizard_saved", name=name) + "\n" + self._warnings()
        self.list_stored()

    def use(self, name: str) -> None:
        data = self.app.store.calibration(name)
        try:
            self.seesaw.apply_calibration(data)
        except CompanionError as exc:
            self.status_text = str(exc)
            return
        self.app.change_setting(sensor={"calibration": name})
        self._previous = data
        self.list_stored()

    def verify(self) -> None:
        """Say what lies on the left pan (this screen only)."""
        state = self.seesaw.identify(0)
        if state.kind == "class":
            names = " / ".join(self.piece_label(n) for n in state.group.name.split(AMBIGUOUS))
            self.verify_text = self.tr("gunkan_ui.wizard_is", piece=names)
        elif state.kind == "reweigh":
            self.verify_text = self.tr("gunkan_ui.wizard_unknown")
        else:
            self.verify_text = self.tr(f"gunkan_ui.pan.{'empty' if state.kind == 'waiting' else 'settling'}")

    def piece_label(self, name: str) -> str:
        return "＋".join(piece_name(self.tr, part) for part in name.split("+"))

    # virtual hands -------------------------------------------------------------------------------

    def virtual_hand(self) -> None:
        """Do what the wizard asks, on the simulated seesaw."""
        sim = self.app.source
        if self.step == "mass":
            return
        if self.step == "scale" and self.calibrator.step is not None:
            step = self.calibrator.step
            for pan in (0, 1):
                while sim.loads(pan):
                    sim.remove(pan)
            if step.kind == "mass":
                sim.place(step.channel, grams=self.reference.grams)
                pan = self.tr("gunkan_ui.wizard_left" if step.channel == 0 else "gunkan_ui.wizard_right")
                self.status_text = self.tr("gunkan_ui.wizard_hand_put", g=f"{self.reference.grams:g}", pan=pan)
            else:
                self.status_text = self.tr("gunkan_ui.wizard_hand_emptied")
        elif self.step == "pieces":
            if self.lifting or sim.loads(0):
                sim.clear()
            else:
                sim.place(0, self.plan.ask.piece)
        else:  # the check: any piece, chosen like a hand picks one
            self.tray = VirtualTray(sim, self.tr, "L")
            self.tray.open()

    # drawing ---------------------------------------------------------------------------------------

    def _prompt(self) -> None:
        if self.step == "mass":
            self.prompt_text = self.tr("gunkan_ui.wizard_ref_prompt")
            self.button_text = self.tr("gunkan_ui.wizard_ref_use")
        elif self.step == "scale":
            step = self.calibrator.step
            self.button_text = self.tr("gunkan_ui.wizard_tare_button" if step.kind == "tare" else "gunkan_ui.wizard_record")
            if step.kind == "tare":
                self.prompt_text = self.tr("gunkan_ui.wizard_tare")
            else:
                pan = self.tr("gunkan_ui.wizard_left" if step.channel == 0 else "gunkan_ui.wizard_right")
                self.prompt_text = self.tr("gunkan_ui.wizard_mass", g=f"{self.reference.grams:g}", pan=pan)
        elif self.step == "pieces":
            ask, plan = self.plan.ask, self.plan
            if self.lifting or ask is None:
                self.prompt_text = self.tr("gunkan_ui.wizard_lift")
            else:
                self.prompt_text = self.tr("gunkan_ui.wizard_piece", fleet=self.tr(f"gunkan_ui.wizard_fleet_{ask.fleet}"),
                                           piece=piece_name(self.tr, ask.piece), k=ask.k)
            first = len(plan.first)
            if plan.count < first:
                self.progress = plan.count / first
                self.status_text = self.tr("gunkan_ui.wizard_progress", done=plan.count, total=first)
            else:
                self.progress = 1
                self.status_text = self.tr("gunkan_ui.wizard_more", done=plan.count)
        else:
            self.prompt_text = ""
            self.button_text = self.tr("gunkan_ui.wizard_save")
            self.status_text = self._warnings()

    def _warnings(self) -> str:
        lines = []
        for pair in self.report.neighbours:  # the counterweight has none: it only rides on the submarine
            a, b = self.piece_label(pair.lighter), self.piece_label(pair.heavier)
            if pair.free_gap_g <= 0:
                lines.append(self.tr("gunkan_ui.wizard_same", a=a, b=b))
            elif not pair.apart:
                lines.append(self.tr("gunkan_ui.wizard_too_close", a=a, b=b, sigma=f"{pair.margin_sigma:.1f}"))
        lines = lines + [self.tr("gunkan_ui.wizard_advice")] if lines else [self.tr("gunkan_ui.wizard_all_clear")]
        lines.append(self.tr("gunkan_ui.wizard_cw_sensed" if self.counterweight_sensed() else "gunkan_ui.wizard_cw_tap"))
        return "\n".join(lines)

    def in_use(self) -> str | None:
        names = self.app.store.calibration_names()
        chosen = self.app.cfg.sensor.calibration
        return chosen if chosen in names else (names[-1] if names else None)

    def list_stored(self) -> None:
        self.in_use_text = self.tr("gunkan_ui.wizard_in_use", name=self.in_use() or self.tr("gunkan_ui.wizard_none"))

    def choose_stored(self) -> None:
        """The stored calibrations, newest first, the one in use ticked: tap one to use it."""
        names, current = list(reversed(self.app.store.calibration_names()))[:8], self.in_use()
        answers = [(name, ("✓ " if name == current else "") + name, lambda n=name: self.use(n)) for name in names]
        self.dialog = ChoiceDialog(self.tr("gunkan_ui.wizard_stored"), answers + [("close", self.tr("gunkan_ui.close"), None)])
        self.dialog.open()

    def plot_classes(self) -> list[PieceClass]:
        """The classes drawn: the measured ones and the submarine carrying the counterweight."""
        left, _ = pan_classes({c.name: c for c in self.report.classes})
        return sorted(left, key=lambda c: (c.name == STACKED, c.mass_g))  # the stack on top, apart

    def on_report(self, *_):
        plot = self.ids.plot
        if self.report is None:
            plot.classes, plot.weighings, plot.groups, plot.margins = [], {}, [], []
            return
        classes = self.plot_classes()
        plot.labels = {c.name: self.tr("gunkan_ui.wizard_stacked") if c.name == STACKED else self.piece_label(c.name)
                       for c in classes}  # the stack in short: the label column is narrow
        plot.weighings = dict(self.plan.values)
        plot.groups = build_groups(classes, self.seesaw.judge_config.accept_fraction)
        plot.margins = [(n.lighter, n.heavier, n.margin_sigma, n.apart) for n in self.report.neighbours]
        plot.classes = classes

