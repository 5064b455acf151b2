"""The seesaw calibration wizard, reached from the Gunkan referee screen: the screen over
`calibration.CalibrationFlow` (the steps, what each pan shows, why a step cannot be taken,
what is saved; no Kivy), with wizard_mass.py drawing its first step.

It draws the flow's step in words (the plot of the classes with their acceptance bands and
the margin between neighbours in σ, and clear warnings, at the report), asks before starting
over or leaving with weighings not saved, saves (named by date and time) and uses a
calibration, and lists the stored ones; the one in use is the setting `sensor.calibration`
(as `companion calibrate` sets it), the newest when that is empty.  With a simulated seesaw
a "virtual" button does the asked placing or lifting, like a hand, and says what it did.
"""

from __future__ import annotations

import time
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty

from companion import i18n
from companion.errors import CompanionError
from companion.games.gunkan.calibration import MASS, PIECES, REPORT, SCALE, CalibrationFlow, side
from companion.games.gunkan.screen.plot import ClassPlot  # noqa: F401  (kv)
from companion.games.gunkan.seesaw import STACKED
from companion.games.gunkan.screen.widgets import ChoiceDialog, VirtualTray, piece_name
from companion.games.gunkan.screen.wizard_mass import KnownMassStep
from companion.sensing.judge import build_groups
from companion.ui.widgets import GameScreen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TICK_S = 0.05


class CalibrationScreen(KnownMassStep, GameScreen):
    screen_name = "gunkan_calibration"
    step = StringProperty(MASS)  # the flow's, for kv
    prompt_text = StringProperty("")
    button_text = StringProperty("")
    status_text = StringProperty("")
    pans_text = StringProperty("")
    verify_text = StringProperty("")
    in_use_text = StringProperty("")
    stored_refusal = StringProperty("")  # why the stored calibration tapped was not taken, under its button
    progress = NumericProperty(0)
    ready = BooleanProperty(False)
    virtual = BooleanProperty(False)
    report = ObjectProperty(None, allownone=True)

    def __init__(self, referee, **kwargs):
        super().__init__(name=self.screen_name, **kwargs)
        self.referee = referee
        self._tick_event = None
        self.flow: CalibrationFlow | None = None
        self.tray = self.dialog = None

    @property
    def seesaw(self):
        return self.referee.seesaw

    def words(self, text) -> str:
        return text.render(self.tr) if text is not None else ""

    # life --------------------------------------------------------------------------------

    def on_enter(self, *_):
        self.virtual = self.app.sensor.virtual
        if self.flow is None or self.flow.seesaw is not self.seesaw:
            self.flow = CalibrationFlow(self.seesaw)
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

    def ask_back(self) -> None:
        self._ask("gunkan_ui.wizard_ask_back", "gunkan_ui.wizard_back", self.back)

    def ask_start_over(self) -> None:
        self._ask("gunkan_ui.wizard_ask_restart", "gunkan_ui.wizard_restart", self.start_over)

    def _ask(self, question: str, yes: str, action) -> None:
        if not self.flow.unsaved:
            action()
            return
        self.dialog = ChoiceDialog(self.tr(question, n=self.flow.weighed),
                                   [("yes", self.tr(yes), action), ("no", self.tr("gunkan_ui.wizard_keep"), None)])
        self.dialog.open()

    def back(self) -> None:
        self.flow.leave()
        self.app.manager.current = self.referee.name

    def start_over(self) -> None:
        self.flow.start_over()
        self.verify_text = self.status_text = ""
        self._show_reference()
        self._show()

    # the steps -------------------------------------------------------------------------------

    @property
    def lifting(self) -> bool:
        return self.flow.plan.lifting

    def _tick(self, *_):
        if self.flow.tick():
            self._show()
        if self.step == SCALE:
            self.ready = self.flow.scale_ready()
        elif self.step == REPORT and self.verify_text:
            self.verify()
        self.pans_text = "　".join(self.tr(f"gunkan_ui.wizard_pan_{where}", state=self.words(self.flow.pan_state(c)))
                                  for c, where in ((0, "left"), (1, "right"))) if self.step in (SCALE, PIECES) else ""

    def choose_reference(self) -> None:
        if self.flow.choose_reference():
            self.status_text = ""
            self._show()

    def do_scale_step(self) -> None:
        self.status_text = self.words(self.flow.record_scale())
        self._show()

    def save(self) -> None:
        name = time.strftime("%Y-%m-%d %H:%M")
        data = self.flow.calibration()
        self.app.store.save_calibration(name, data)
        self.flow.use(data, saved=True)
        self.app.change_setting(sensor={"calibration": name})
        self.status_text = self.tr("gunkan_ui.wizard_saved", name=name) + "\n" + self._warnings()
        self.list_stored()

    def use(self, name: str) -> None:
        try:
            self.flow.use(self.app.store.calibration(name))
        except CompanionError as exc:
            self.stored_refusal = i18n.said(exc, self.app.lang)  # in the table's language, as every error
            return
        self.stored_refusal = ""
        self.app.change_setting(sensor={"calibration": name})
        self.list_stored()

    def verify(self) -> None:
        """Say what lies on the left pan (this screen only)."""
        check = self.flow.check()
        if check.kind == "is":
            self.verify_text = self.tr("gunkan_ui.wizard_is", piece=" / ".join(map(self.piece_label, check.names)))
        elif check.kind == "unknown":
            self.verify_text = self.tr("gunkan_ui.wizard_unknown")
        else:
            self.verify_text = self.tr(f"gunkan_ui.pan.{check.kind}")

    def piece_label(self, name: str) -> str:
        return "＋".join(piece_name(self.tr, part) for part in name.split("+"))

    # virtual hands -------------------------------------------------------------------------------

    def virtual_hand(self) -> None:
        """Do what the wizard asks, on the simulated seesaw."""
        sim, flow = self.app.sensor.source, self.flow
        step = flow.calibrator.step if self.step == SCALE else None
        if step is not None:
            for pan in (0, 1):
                while sim.loads(pan):
                    sim.remove(pan)
            if step.kind == "mass":
                sim.place(step.channel, grams=flow.reference.grams)
                self.status_text = self.tr("gunkan_ui.wizard_hand_put", g=f"{flow.reference.grams:g}",
                                           pan=self.words(side(step.channel)))
            else:
                self.status_text = self.tr("gunkan_ui.wizard_hand_emptied")
        elif self.step == PIECES:
            if self.lifting or sim.loads(0):
                sim.clear()
            else:
                sim.place(0, flow.plan.ask.piece)
        elif self.step == REPORT:  # the check: any piece, chosen like a hand picks one
            self.tray = VirtualTray(sim, self.tr, "L")
            self.tray.open()

    # drawing ---------------------------------------------------------------------------------------

    def _show(self) -> None:
        """The flow's step, prompt and progress (and at the report, the classes and warnings)."""
        flow = self.flow
        self.report = flow.report
        self.step = flow.step
        if self.step == MASS:
            self.progress = 0
            self.prompt_text = self.tr("gunkan_ui.wizard_ref_prompt")
            self.button_text = self.tr("gunkan_ui.wizard_ref_use")
        elif self.step == SCALE:
            step = flow.calibrator.step
            tare = step.kind == "tare"
            self.button_text = self.tr("gunkan_ui.wizard_tare_button" if tare else "gunkan_ui.wizard_record")
            self.prompt_text = self.tr("gunkan_ui.wizard_tare") if tare else self.tr(
                "gunkan_ui.wizard_mass", g=f"{flow.reference.grams:g}", pan=self.words(side(step.channel)))
        elif self.step == PIECES:
            self.prompt_text = self.words(flow.ask())
            self.progress, done = flow.progress()
            self.status_text = self.words(done)
        else:
            self.prompt_text = ""
            self.button_text = self.tr("gunkan_ui.wizard_save")
            self.status_text = self._warnings()

    def _warnings(self) -> str:
        lines = []
        for kind, pair in self.flow.close_pairs():
            a, b = self.piece_label(pair.lighter), self.piece_label(pair.heavier)
            lines.append(self.tr(f"gunkan_ui.wizard_{kind}", a=a, b=b, sigma=f"{pair.margin_sigma:.1f}"))
        lines = lines + [self.tr("gunkan_ui.wizard_advice")] if lines else [self.tr("gunkan_ui.wizard_all_clear")]
        lines.append(self.tr("gunkan_ui.wizard_cw_sensed" if self.flow.counterweight_sensed() else "gunkan_ui.wizard_cw_tap"))
        return "\n".join(lines)

    def in_use(self) -> str | None:
        names = self.app.store.calibration_names()
        chosen = self.app.cfg.sensor.calibration
        return chosen if chosen in names else (names[-1] if names else None)

    def list_stored(self) -> None:
        self.in_use_text = self.tr("gunkan_ui.wizard_in_use", name=self.in_use() or self.tr("gunkan_ui.wizard_none"))

    def choose_stored(self) -> None:
        """The stored calibrations, newest first, the one in use ticked: tap one to use it."""
        self.stored_refusal = ""
        names, current = list(reversed(self.app.store.calibration_names()))[:8], self.in_use()
        answers = [(name, ("✓ " if name == current else "") + name, lambda n=name: self.use(n)) for name in names]
        self.dialog = ChoiceDialog(self.tr("gunkan_ui.wizard_stored"), answers + [("close", self.tr("gunkan_ui.close"), None)])
        self.dialog.open()

    def on_report(self, *_):
        plot = self.ids.plot
        if self.report is None:
            plot.classes, plot.weighings, plot.groups, plot.margins = [], {}, [], []
            return
        classes = self.flow.plotted()
        plot.labels = {c.name: self.tr("gunkan_ui.wizard_stacked") if c.name == STACKED else self.piece_label(c.name)
                       for c in classes}  # the stack in short: the label column is narrow
        plot.weighings = dict(self.flow.plan.values)
        plot.groups = build_groups(classes, self.seesaw.judge_config.accept_fraction)
        plot.margins = [(n.lighter, n.heavier, n.margin_sigma, n.apart) for n in self.report.neighbours]
        plot.classes = classes
