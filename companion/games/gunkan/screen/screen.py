"""軍艦将棋「戦略大海戦」: the referee screen of the weighing seesaw (docs/rules.md §gunkan).

It draws `GunkanController.display(TABLE)` and forwards touches and the seesaw's
readings to it (companion/games/gunkan/controller.py is the referee and holds the
flow of play).  What stays here is the screen's own: the clock that polls the
seesaw, the input lock held after a press (the buttons change under the finger),
the dialogs, the sounds, the virtual pieces tray and the guided first battle (guide.py
says which step the table is at; the screen shows its card in the log's place and
outlines what the step is about).

The screen knows each pan's state (empty, settling, loaded), never a weight:
`companion.games.gunkan.seesaw.Seesaw` is the only reader of the weight source.
The tray (widgets.VirtualTray) names pieces, so it is a popup outside this screen
that closes once a piece is placed: no piece name is on the shared screen during a
battle.  A simulator without a stored calibration gets its virtual factory
calibration (seesaw.virtual_calibration); real sensors need the wizard (or
`companion calibrate`, whose scales come with the default piece classes).
"""

from __future__ import annotations

from pathlib import Path

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty

from companion.games.gunkan.controller import GunkanController, Weighing
from companion.games.gunkan.display import render
from companion.games.gunkan.guide import Guide
from companion.games.gunkan.screen.widgets import ChoiceDialog, SeesawView, VirtualTray  # noqa: F401
from companion.play.controller import TABLE
from companion.ui import theme
from companion.ui.controller_screen import ControllerScreen
from companion.ui.sounds import Sounds
from companion.ui.widgets import whole_lines

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TICK_S = 0.05
TONES = {"panel": theme.PANEL, "gold": theme.GOLD, "warn": theme.WARN, "accent": theme.ACCENT,
         "seat0": theme.RED, "seat1": theme.BLUE, "text": theme.TEXT}


class GunkanScreen(ControllerScreen):
    kind = "gunkan"
    stage = StringProperty("start")  # start, idle, battle, verdict, over
    prompt_text = StringProperty("")
    prompt_colour = ListProperty(theme.PANEL)
    big_text = StringProperty("")
    detail_text = StringProperty("")
    report = BooleanProperty(False)  # the detail is the end's report: read line by line, from the left
    log_text = StringProperty("")
    judging_text = StringProperty("")
    pan_texts = ListProperty(["", ""])
    pan_colours = ListProperty([theme.TEXT, theme.TEXT])
    weighing = BooleanProperty(False)
    virtual = BooleanProperty(False)
    has_sensor = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_end = BooleanProperty(False)
    guide_heading = StringProperty("")  # the guided first battle's card: its step ("" before it begins)
    guide_text = StringProperty("")  # its words ("": no card)
    guiding = BooleanProperty(False)  # the guide leads now (else the card invites to begin it)
    guide_widget = ObjectProperty(None, allownone=True)  # what the step is about, outlined in gold
    guide_outline = ListProperty([])  # the outline's rectangle, or []

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seesaw = None
        self.action_buttons: dict = {}
        self.dialog = None  # the tray or a question, while open
        self._question = None  # the name of the question its dialog asks
        self._tick_event = None
        self._sounds = None
        self._heard = None  # the controller's last cue played
        self._buttons_key = None
        self._tray = self._tray_lang = None  # made once: it is slow to build
        self.guide: Guide | None = None

    # life ------------------------------------------------------------------------

    def show(self, session) -> None:
        """Open `session`, else the newest unfinished game, else the mode choice."""
        app = self.app
        if self._sounds is None:
            self._sounds = Sounds(app.cfg.data_path / "sounds")
        self.seesaw = app.sensor.seesaw  # device.SeesawDevice, held by the shell for its sensor badge
        self.virtual = app.sensor.virtual
        self._open(GunkanController.open(self.store, session, self.seesaw, self.virtual))
        self._start_ticking()

    def _open(self, controller: GunkanController) -> None:
        self.has_sensor = self.seesaw is not None
        self._heard = controller.cue
        self.take(controller)

    def new_game(self) -> None:
        """Back to the choice of a judging mode, with the seesaw as it is now."""
        self.guide = None
        self._open(GunkanController(self.store, None, self.seesaw, self.virtual))

    def start_guided(self) -> None:
        """A seesaw-judged game, led through its first battle step by step."""
        self.guide = Guide()
        if not self.act("mode", "seesaw"):
            self.guide = None
        self.refresh()

    def end_guide(self) -> None:
        self.guide = None
        self.refresh()

    def on_enter(self, *_):
        if self.controller is not None:  # back from the wizard: the counterweight may now be sensed
            self.refresh()
        self._start_ticking()

    def on_leave(self, *_):
        self._stop_ticking()

    def _start_ticking(self) -> None:
        if self._tick_event is None:
            self._tick_event = Clock.schedule_interval(self._tick, TICK_S)

    def _stop_ticking(self) -> None:
        if self._tick_event is not None:
            self._tick_event.cancel()
            self._tick_event = None

    def close(self) -> None:
        super().close()
        self._stop_ticking()
        self.ids.seesaw.stop()

    def open_calibration(self) -> None:
        from companion.games.gunkan.screen.wizard import CalibrationScreen

        manager = self.app.manager
        if not manager.has_screen(CalibrationScreen.screen_name):
            manager.add_widget(CalibrationScreen(referee=self))
        manager.current = CalibrationScreen.screen_name

    def _tick(self, *_):
        if self.seesaw is not None and self.controller is not None:
            self.seesaw.poll()
            self.controller.act(TABLE, "weighing", Weighing.read(self.seesaw))

    # input: every press goes to the controller, from the table --------------------------

    def act(self, kind: str, value=None) -> bool:
        taken = super().act(kind, value)
        if not taken:  # the game moved on (e.g. an undo) since the button was drawn
            self.refresh()
        return taken

    def open_tray(self) -> None:
        tray = self.controller.display(TABLE)["tray"] if self.controller else None
        if tray is None:
            return
        if self._tray is None or self._tray_lang != self.app.lang:
            self._tray, self._tray_lang = VirtualTray(self.app.sensor.source, self.tr), self.app.lang
        self._tray.show_pan(self._tray.opening_pan(tray["attacker_next"]))
        self.dialog = self._tray
        self.dialog.open()

    # drawing ------------------------------------------------------------------------------

    whole_lines = staticmethod(whole_lines)

    def words(self, text) -> str:
        """A Text or a line in this screen's language."""
        return render(text if isinstance(text, list) else [text], self.tr) if text else ""

    def refresh(self) -> None:
        if self.controller is None:
            return
        model = self.controller.display(TABLE)
        self.stage = model["stage"]
        self.judging_text = self.tr("gunkan_ui.judging", mode=self.tr(f"gunkan.mode.{model['judging']}")) \
            if model["judging"] else ""
        self.can_undo, self.can_end = model["can_undo"], model["can_end"]
        self.prompt_text, self.prompt_colour = self.words(model["prompt"]), TONES[model["tone"]]
        self.big_text = self.words(model["big"])
        self.detail_text = "\n".join(self.words(line) for line in model["detail"])
        self.report = model["report"]
        self.log_text = "\n".join(self.words(line) for line in model["log"])
        self.weighing = model["weighing"]
        seesaw = self.ids.seesaw
        seesaw.left, seesaw.right = model["pans"]
        seesaw.rocking = model["weighing"]
        self.pan_texts = [self.tr(f"gunkan_ui.pan.{kind}") for kind in model["pans"]]
        self.pan_colours = [TONES[tone] for tone in model["pan_tones"]]
        self._draw_buttons(model["buttons"])
        self._draw_question(model["question"])
        self._play_cue(model["cue"])
        self._draw_guide()

    def _draw_guide(self) -> None:
        """The card: at the start an invitation to the guided first battle, then its steps."""
        step = self.guide.step(self.controller) if self.guide is not None else None
        if step is None:
            self.guide = None  # ended, the game over, or judged otherwise: nothing more to lead
        self.guiding = step is not None
        self.guide_heading = self.words(step.heading) if step else ""
        self.guide_text = self.words(step.text) if step else \
            self.tr("gunkan_guide.invite") if self.stage == "start" else ""
        self._outline(self._widget(step.target) if step and step.target else None)

    def _outline(self, widget) -> None:
        """Outline `widget` (None: nothing), and keep the outline on it as the layout moves it."""
        if widget is not self.guide_widget:
            if self.guide_widget is not None:
                self.guide_widget.unbind(pos=self._place_outline, size=self._place_outline)
            if widget is not None:
                widget.bind(pos=self._place_outline, size=self._place_outline)
            self.guide_widget = widget
        self._place_outline()

    def _place_outline(self, *_) -> None:
        w = self.guide_widget
        self.guide_outline = [w.x - 3, w.y - 3, w.width + 6, w.height + 6] if w is not None else []

    def _widget(self, name: str):
        """A button of the actions row by its name, or a widget of this screen by its id."""
        return self.action_buttons.get(name) or self.ids.get(name)

    def guide_button(self) -> None:
        self.end_guide() if self.guiding else self.start_guided()

    def _draw_buttons(self, buttons: list[dict]) -> None:
        """Replace the action buttons, unless they are the ones drawn."""
        specs = [(b["name"], self.words(b["label"]), b["tone"]) for b in buttons]
        if specs == self._buttons_key:
            return
        self._buttons_key = specs
        row = self.ids.actions
        row.clear_widgets()
        self.action_buttons = {}
        for button, (name, text, tone) in zip(buttons, specs):
            widget = Factory.BigButton(text=text, font_size="20sp")
            widget.background_color = TONES[tone]
            widget.bind(on_release=lambda _, b=button: self.press(b["kind"], b["value"]))
            row.add_widget(widget)
            self.action_buttons[name] = widget

    def _draw_question(self, question: dict | None) -> None:
        name = question and question["name"]
        if name == self._question:
            return
        if self._question is not None:  # answered elsewhere
            self.dialog.dismiss()
        if question is not None:
            answers = [(a["name"], self.words(a["label"]), lambda a=a["name"]: self.act("answer", a))
                       for a in question["answers"]]
            self._question = name
            self.dialog = ChoiceDialog(self.words(question["title"]), answers)
            self.dialog.bind(on_dismiss=lambda *_: self._dismissed(name))
            self.dialog.open()

    def _dismissed(self, name: str) -> None:
        """The dialog closes before its answer is given (or with none: a tap beside it)."""
        self._question = None
        Clock.schedule_once(lambda dt: self._unanswered(name))

    def _unanswered(self, name: str) -> None:
        if self.controller.question == name:  # closed without an answer: so is the question
            self.act("answer", self.controller.answers()[-1])  # "no" / "close"

    def _play_cue(self, cue: dict | None) -> None:
        heard, self._heard = self._heard, cue and (cue["n"], cue["sound"])
        if cue is not None and self._heard != heard and self._sounds is not None:
            sound = self.app.cfg.sound
            self._sounds.play(cue["sound"], sound.enabled, sound.volume)
