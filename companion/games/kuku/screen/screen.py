"""九九戦艦 Kuku Battleship, the touchscreen game (docs/rules.md §kuku).

The screen draws `KukuController.display(holder)` and forwards every touch, key and
choice to it as `act(holder, …)` (companion/games/kuku/controller.py holds the flow of
play: the stages, the undo policy, the computer's turns).  `holder` is the table,
except while a player places their fleet behind the cover: then the screen is theirs.
Kept here is only what a screen owns: its panels and the answer buttons
(ControllerScreen sends the input and runs the computer's thread).  The board takes
the full 480 px height; the side panel holds Home and every control.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.togglebutton import ToggleButton

from companion.games.kuku.board import TIMES, parse_pair
from companion.games.kuku.controller import KukuController
from companion.games.kuku.display import own_seat
from companion.games.kuku.setup import KIND
from companion.games.kuku.screen.grid import KukuGrid  # noqa: F401  (used in kv)
from companion.games.kuku.screen.keypad import KukuKeypad  # noqa: F401  (used in kv)
from companion.games.kuku.rules import KINDS
from companion.games.kuku.texts import fleet_kinds, fleet_owners
from companion.play.controller import Text
from companion.ui import theme
from companion.ui.controller_screen import ControllerScreen
from companion.ui.widgets import NO_BREAK, whole_lines

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SEAT_COLOURS = ((0.66, 0.20, 0.18, 1), (0.16, 0.36, 0.68, 1))


class KukuScreen(ControllerScreen):
    kind = KIND
    stage = StringProperty("setup")
    # the start panel's choices
    opponent = StringProperty("2p")
    rule = StringProperty("basic")
    first = NumericProperty(0)
    level = StringProperty("medium")
    can_back = BooleanProperty(False)
    # what the panels say
    status_text = StringProperty("")
    status_colour = ListProperty(theme.PANEL)
    said_text = StringProperty("")
    news_title = StringProperty("")
    news_text = StringProperty("")
    cover_text = StringProperty("")
    cover_button_text = StringProperty("")
    primary_text = StringProperty("")
    secondary_text = StringProperty("")
    confirm_text = StringProperty("")
    continue_text = StringProperty("")
    review_text = StringProperty("")
    legend_text = StringProperty("")  # after the game: which drawn fleet is whose
    review_title = StringProperty("")
    score_text = StringProperty("")
    report_text = StringProperty("")
    # what may be pressed
    tracked = BooleanProperty(False)  # a tracked game: its turn panel has Undo
    can_undo = BooleanProperty(False)
    can_primary = BooleanProperty(False)
    can_confirm = BooleanProperty(False)
    thinking = BooleanProperty(False)
    on_phone = BooleanProperty(False)  # the seat to move plays on its phone: no input here
    can_peek = BooleanProperty(False)  # against the computer: my own fleet may be shown
    peeking = BooleanProperty(False)  # … and is, under the markers
    warn_text = StringProperty("")  # an attack on my own ship, held until pressed again

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rng = random.Random()
        self._warned = ""  # the own ship's cell the warning was given for
        self.keypad.bind(on_key=lambda _, key: self.act("key", key))

    @property
    def grid(self) -> KukuGrid:
        return self.ids.grid

    @property
    def keypad(self) -> KukuKeypad:
        return self.ids.keypad

    @property
    def private_seat(self) -> int | None:
        """Whose fleet the place stage shows."""
        return self.controller.private if self.controller else None

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else the start panel."""
        self.take(KukuController.open(self.store, session, self.rng))

    # input: every touch goes to the controller (ControllerScreen.act), from whoever
    # holds the screen -----------------------------------------------------------------

    def start(self) -> None:
        fields = (self.ids.name_0, self.ids.name_1)
        self.act("start", [field.text.strip() or field.hint_text for field in fields])

    def toggle_fleet(self) -> None:
        """自分の船: my own fleet on the board, or hidden again."""
        self.peeking = not self.peeking
        self.refresh()

    def act(self, kind: str, value=None) -> bool:
        """An attack on my own ship against the computer (it would sink: 自爆) is held once,
        with a warning; the same attack again is made."""
        target = self._own_ship_attacked(kind, value)
        if target and target != self._warned:
            self._warned = target
            self.warn_text = self.tr(f"kuku_ui.own_{self._own_fleet()[target]}_warning", cell=target)
            return False
        return super().act(kind, value)

    def _own_fleet(self) -> dict[str, str]:
        """My fleet, cell → kind, when the screen may show it (`own_seat`), else {}."""
        seat = None if self.controller is None else own_seat(self.controller)
        return {} if seat is None else fleet_kinds(self.controller.display(seat)["board"]["fleet"])

    def _own_ship_attacked(self, kind: str, value) -> str | None:
        """The cell of my own ship this input would attack (a second tap on the picked cell,
        or the attack button with a cell typed), else None."""
        entry = self.keypad.entry
        if self.stage != "play" or TIMES not in entry or not (kind == "primary" or kind == "cell" and value == entry):
            return None
        pair = parse_pair(entry)
        cell = f"{pair[0]}{TIMES}{pair[1]}" if pair else ""
        return cell if cell in self._own_fleet() else None

    # drawing ------------------------------------------------------------------------

    def words(self, value) -> str:
        """A display model's text (a Text, lines of Texts, or nothing) in the app's language."""
        if value is None:
            return ""
        if isinstance(value, list):
            return "\n".join(self.words(line) for line in value)
        return value.render(self.tr) if isinstance(value, Text) else str(value)

    def refresh(self) -> None:
        if self.controller is None:
            return
        model = self.controller.display(self.controller.holder())
        offered = {offer.kind: offer for offer in model["offers"]}
        setup = model["setup"]
        self.opponent, self.rule, self.first, self.level = (setup[k] for k in ("opponent", "rule", "first", "level"))
        self.can_back, self.tracked = "back" in offered, model["opponent"] == "tracker"
        self.can_undo, self.thinking, self.on_phone = model["can_undo"], model["thinking"], model["on_phone"]
        board, grid = model["board"], self.grid
        grid.markers, grid.ships = board["markers"], fleet_kinds(board["fleet"])
        own = self._own_fleet()
        self.can_peek = bool(own) and model["stage"] not in ("place", "cover", "setup", "report")
        if self.peeking and self.can_peek:
            grid.ships = own  # my ships under the markers: nobody here to hide them from
        owners = fleet_owners(board["fleet"])  # both fleets after the game: each seat drawn its own way
        grid.owners = owners if len({seat for ships in owners.values() for seat, _ in ships}) > 1 else {}
        grid.rings, grid.hints, grid.aim = board["rings"], board["hints"], board["aim"]
        grid.show_values, grid.interactive = board["values"], board["interactive"]
        self.keypad.entry = model.get("entry", "")
        if self._warned != self.keypad.entry:  # the warned attack was made, or another cell picked
            self._warned, self.warn_text = "", ""
        seat = model.get("status_seat")
        self.status_colour = theme.PANEL if seat is None else SEAT_COLOURS[seat]
        self.status_text, self.said_text = self.words(model.get("status")), self.words(model.get("said"))
        self.primary_text = self.words(model.get("primary"))
        self.can_primary = "primary" in offered
        self.secondary_text = self.words(offered["done"].label) if "done" in offered else ""
        self.stage = model["stage"]
        getattr(self, f"_draw_{self.stage}", lambda model, offered: None)(model, offered)

    def _draw_setup(self, model, offered) -> None:
        self.peeking = False  # a new game starts with the fleet hidden
        # a name and its count on one line: the line breaks only between players
        self.score_text = "  ".join(self.words(item).replace(" ", NO_BREAK) for item in model["score"])
        for field, name in zip((self.ids.name_0, self.ids.name_1), model["default_names"]):
            field.hint_text = self.words(name)

    def _draw_report(self, model, offered) -> None:
        report = model["report"]
        chips = self.ids.report_names
        chips.clear_widgets()
        for name in report["names"]:
            chosen = name == report["name"]
            chip = ToggleButton(text=name, group="kuku_report", font_size="20sp", background_normal="",
                                state="down" if chosen else "normal", allow_no_selection=False)
            chip.background_color = (0.20, 0.55, 0.95, 1) if chosen else theme.PANEL
            chip.bind(on_release=lambda b: self.act("report_name", b.text))
            chips.add_widget(chip)
        self.report_text = self.words(report["lines"])

    def _draw_cover(self, model, offered) -> None:
        self.cover_text, self.cover_button_text = self.words(model["cover"]), self.words(model["cover_button"])
        self.ids.cover_panel.ids.button.disabled = "open" not in offered  # a seat on a phone opens it there

    def _draw_place(self, model, offered) -> None:
        for kind in KINDS:
            button = self.ids[f"kind_{kind}"]
            left = model["kinds"][kind]
            button.text = self.tr("kuku_ui.kind_left", kind=self.tr(f"kuku.{kind}"), n=left)
            button.disabled = not left
            button.state = "down" if kind == model["kind"] else "normal"
        self.can_confirm = "hide" in offered

    def _draw_answer(self, model, offered) -> None:
        pad = self.ids.answers
        values = [answer["value"] for answer in model["answers"]]
        key = (values, model["status_seat"], model["one_answer"])
        if getattr(pad, "key", None) != key:
            pad.clear_widgets()
            pad.key = key
            for answer in model["answers"]:
                button = AnswerToggle(cell=answer["value"], text=self.words(answer["label"]),
                                      group="kuku_leader" if model["one_answer"] else None)
                button.bind(on_release=lambda b: self.act("toggle", b.cell))
                pad.add_widget(button)
        chosen = {answer["value"] for answer in model["answers"] if answer["chosen"]}
        for button in pad.children:
            button.state = "down" if button.cell in chosen else "normal"
        self.confirm_text = self.words(model["confirm"])
        self.can_confirm = "confirm" in offered

    def _draw_result(self, model, offered) -> None:
        self.news_title, self.news_text = self.words(model["news_title"]), self.words(model["news"])
        self.continue_text = self.words(offered["continue"].label) if "continue" in offered else ""

    def _draw_over(self, model, offered) -> None:
        self.review_title, self.review_text = self.words(model["review_title"]), self.words(model["review"])
        self.legend_text = self.words(model["legend"])

    whole_lines = staticmethod(whole_lines)


class AnswerToggle(ToggleButton):
    """One answer of the tracker's pad: a cell where my ship sank (or my leader was)."""

    cell = StringProperty("")
