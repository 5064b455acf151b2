"""海戰棋 Battleship, the touchscreen game (docs/rules.md §battleship): draws the display models of
`BattleshipController` (companion/games/battleship/controller.py holds the flow of
play: stages, offers, undo, the computer's turns) and forwards touches to it.

The screen draws `display(TABLE)`, except in the place stage, when the placer holds
the screen: then it draws that seat's display (the only one with a fleet) and sends
input as that seat (ControllerScreen sends it and runs the computer's thread).  Kept
here are the screen's own things: the ghost of a ship under the finger, the notice of
a refusal.  The sea takes the full 480 px height (45 px cells below the column
numbers); the side panel holds Home and every control.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.button import Button

from companion.i18n import NO_BREAK
from companion.games.battleship.screen.answers import BsAnswerPad  # noqa: F401  (used in kv)
from companion.games.battleship.controller import KIND, BattleshipController
from companion.games.battleship.fleet import LENGTH, NAMES, index
from companion.games.battleship.screen.grid import BattleshipGrid  # noqa: F401  (used in kv)
from companion.games.battleship.texts import ROLES, fleet_cells, lineup, ship_run
from companion.play.controller import TABLE
from companion.ui import theme
from companion.ui.controller_screen import ControllerScreen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

# refusals of a tap on the sea said in the panel's line above the fire button, not over the
# panel: the button stays in reach and the next tap is taken (a salvo's tap past its shots)
TIPS = {"battleship_errors.no_shots_left": "battleship_ui.salvo_full"}
PERSON_COLOURS = {"p1": (0.72, 0.33, 0.12, 1), "you": (0.72, 0.33, 0.12, 1),
                  "p2": (0.16, 0.42, 0.68, 1), "cpu": (0.16, 0.42, 0.68, 1)}


class BsShipButton(Button):
    ship = StringProperty("")
    chosen = BooleanProperty(False)


class BattleshipScreen(ControllerScreen):
    kind = KIND
    stage = StringProperty("setup")
    # the start panel's choices
    opponent = StringProperty("2p")
    variant = StringProperty("standard")
    advanced = BooleanProperty(False)
    first = NumericProperty(0)
    level = StringProperty("normal")
    can_back = BooleanProperty(False)  # the start panel opened over a game in progress
    # what the panels say
    status_text = StringProperty("")
    status_colour = ListProperty(theme.PANEL)
    caption_text = StringProperty("")
    news_text = StringProperty("")
    info_text = StringProperty("")
    tip_text = StringProperty("")  # a refusal said in the info line (TIPS), until the next input taken
    cover_text = StringProperty("")
    cover_button_text = StringProperty("")
    place_title = StringProperty("")
    result_title = StringProperty("")
    continue_text = StringProperty("")
    bottom_text = StringProperty("")
    score_text = StringProperty("")
    # what may be pressed
    can_undo = BooleanProperty(False)
    can_bottom = BooleanProperty(False)
    can_toggle = BooleanProperty(False)  # the sea may switch to the other seat's shots
    can_done = BooleanProperty(False)
    answering = BooleanProperty(False)
    thinking = BooleanProperty(False)
    direction = StringProperty("h")
    selected = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rng = random.Random()
        self.private_seat: int | None = None  # whose fleet the place stage shows
        self._fits: set[int] = set()  # where the ship being placed may go
        self._bottom_kind: str | None = None
        for ship in NAMES:
            button = BsShipButton(ship=ship)
            button.bind(on_release=lambda b: self.act("ship", b.ship))
            self.ids.ships.add_widget(button)
        self.ids.grid.bind(hover=lambda *_: self._draw_ghost())
        self._wins: dict[str, int] = {}  # the scoreboard's wins by player (role or name)
        for field in (self.ids.name_0, self.ids.name_1):
            field.bind(text=self._name_players)
        self.bind(opponent=self._name_players)
        self.app.bind(lang=self._name_players)
        self._name_players()  # the panel opens with the defaults: no change event labels it

    def _name_players(self, *_) -> None:
        """The players Start would start, by name (you or the computer, else each as typed,
        or their role): who starts, and the score line of their wins (each on one line)."""
        players = lineup(self.opponent, [self.ids.name_0.text, self.ids.name_1.text])
        names = [self.tr(f"battleship_ui.{p}") if p in ROLES else p for p in players]
        for seat, name in enumerate(names):
            self.ids[f"first_{seat}"].text = name
        self.score_text = "  ".join(self.tr("battleship_ui.wins", player=name, n=self._wins.get(player, 0))
                                    .replace(" ", NO_BREAK) for player, name in zip(players, names))

    @property
    def grid(self) -> BattleshipGrid:
        return self.ids.grid

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else the start panel (as last chosen)."""
        setup = self.controller.setup if self.controller else None
        controller = BattleshipController.open(self.store, session, self.rng, setup)
        self.take(controller)

    # input: every touch goes to the controller (ControllerScreen.act), from whoever
    # holds the screen -----------------------------------------------------------------

    def bottom_action(self) -> None:
        """The panel's big button: fire the aimed shot or the salvo, or a new game."""
        if self._bottom_kind:
            self.act(self._bottom_kind)

    def show_refusal(self, reason) -> None:
        """A refusal in TIPS is said in the info line; any other over the panel (ControllerScreen)."""
        tip = TIPS.get(reason.key) if reason else None
        self.tip_text = self.tr(tip) if tip else ""
        super().show_refusal(None if tip else reason)

    # drawing -------------------------------------------------------------------------

    def refresh(self) -> None:
        if self.controller is None:
            return
        holder = self.controller.holder()  # the placer, while placing: only its display has a fleet
        model = self.controller.display(holder)
        self.stage, self.thinking, self.can_undo = model["stage"], model["thinking"], model["can_undo"]
        self.private_seat = None if holder == TABLE else holder
        sea, grid = model["sea"], self.grid
        grid.marks, grid.rings, grid.ships, grid.ghost = list(sea["marks"]), sea["rings"], [], []
        grid.aim = -1 if sea["aim"] is None else sea["aim"]
        grid.interactive = sea["interactive"]
        if "band" in model:
            self.status_colour = PERSON_COLOURS[model["band"]]
        getattr(self, f"_draw_{self.stage}")(model)

    def _words(self, text) -> str:
        """A Text, or lines of them, in the app's language (a typed name is itself)."""
        if isinstance(text, str):
            return text
        if isinstance(text, list):
            return "\n".join(self._words(line) for line in text)
        return text.render(self.tr) if text else ""

    def _news(self, lines: list[dict]) -> str:
        """One line a volley: who fired, then each shot (never split across lines)."""
        return "\n".join(self.tr("battleship_ui.volley", player=self._words(line["by"]), shots="  ".join(
            self._words(shot).replace(" ", NO_BREAK) for shot in line["shots"])) for line in lines)

    def _draw_setup(self, model: dict) -> None:
        for name, value in model["setup"].items():
            setattr(self, name, value)
        self.can_back = any(offer.kind == "back" for offer in model["offers"])
        self._wins = model["wins"]
        self._name_players()

    def _draw_cover(self, model: dict) -> None:
        self.cover_text = self._words(model["cover"])
        self.cover_button_text = self._words(model["cover_button"])

    def _draw_place(self, model: dict) -> None:
        place = model["place"]
        self.selected, self.direction, self.can_done = place["ship"], place["direction"], place["done"]
        self._fits = {index(cell.split(":", 1)[1]) for cell in place["fits"]}
        self.grid.ships = fleet_cells(model)
        self.place_title = self._words(model["title"])
        for button in self.ids.ships.children:
            button.chosen = button.ship == self.selected
            button.disabled = button.ship not in place["to_place"]
            button.text = f"{self.tr('battleship.' + button.ship)} {LENGTH[button.ship]}"
        self._draw_ghost()

    def _draw_ghost(self) -> None:
        hover = self.grid.hover
        if self.stage != "place" or hover < 0 or not self.selected:
            self.grid.ghost = []
            return
        self.grid.ghost = ship_run(self.selected, hover, self.direction)
        self.grid.ghost_ok = hover in self._fits

    def _draw_result(self, model: dict) -> None:
        self.result_title = self._words(model["title"])
        self.news_text = self._news(model["news"])
        continuing = next(offer for offer in model["offers"] if offer.kind == "continue")
        self.continue_text = self._words(continuing.label)

    def _draw_play(self, model: dict) -> None:
        peek = self.controller.peek_seat()  # my own fleet under the computer's shots
        self.grid.ships = [] if peek is None else fleet_cells(self.controller.display(peek))
        self.caption_text = self._words(model["sea"]["caption"])
        self.answering = model["answering"]
        self.news_text = self._news(model["news"])
        self.info_text = self._words(model["afloat"])
        self.status_text = self._words(model["status"])
        bottom = model["bottom"]
        self.bottom_text, self._bottom_kind = self._words(bottom["label"]), bottom["kind"]
        self.can_bottom = bottom["kind"] is not None
        self.can_toggle = any(offer.kind == "toggle" for offer in model["offers"])
        self.ids.answers.show(model["answers"])
