"""海戰棋 Battleship, the touchscreen game (RULES.md §4).

Three ways to play, chosen on the start panel:
- "2p": the companion referees.  Each fleet is entered in secret, behind a
  "hand the screen to …" cover; then players call shots on their target grid
  and the companion announces each volley (a result step shows the shooter's
  grid to peg before the turn passes).
- "cpu": against the computer (its fleet hidden; it thinks on a thread from
  its own seat's view).
- "tracker": a fully physical game; the defender enters each answer and the
  companion refuses answers no fleet could give.

The screen moves through stages: setup, cover, place (the only stage that
shows a fleet: its owner's), result, play.  Outside "place" it draws public
views only.  The sea takes the full 480 px height (48 px cells); the side
panel holds Home and every control.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.button import Button

from companion.games.battleship.ai import BattleshipAI
from companion.play.state import IllegalAction
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, index, label
from companion.play.session import Session, tally
from companion.ui import theme
from companion.ui.computer import ComputerTurn, PlaysComputerTurns
from companion.games.battleship.answers import BsAnswerPad  # noqa: F401  (used in kv)
from companion.games.battleship.grid import BattleshipGrid  # noqa: F401  (used in kv)
from companion.games.battleship.texts import (announcement, computer_turn, fill_fleet,
                                                 fleet_cells, reason, ship_run)
from companion.ui.widgets import GameScreen, may_undo_placing

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

KIND = "battleship"
PERSON_COLOURS = {"p1": (0.72, 0.33, 0.12, 1), "you": (0.72, 0.33, 0.12, 1),
                  "p2": (0.16, 0.42, 0.68, 1), "cpu": (0.16, 0.42, 0.68, 1)}


class BsShipButton(Button):
    ship = StringProperty("")
    chosen = BooleanProperty(False)


class BattleshipScreen(PlaysComputerTurns, GameScreen):
    kind = KIND
    stage = StringProperty("setup")
    # the start panel's choices
    opponent = StringProperty("2p")
    variant = StringProperty("standard")
    advanced = BooleanProperty(False)
    first = NumericProperty(0)
    level = StringProperty("normal")
    choosing = BooleanProperty(False)  # the start panel opened over a game in progress
    # what the panels say
    status_text = StringProperty("")
    status_colour = ListProperty(theme.PANEL)
    caption_text = StringProperty("")
    news_text = StringProperty("")
    info_text = StringProperty("")
    notice_text = StringProperty("")
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
    can_done = BooleanProperty(False)
    answering = BooleanProperty(False)
    thinking = BooleanProperty(False)
    direction = StringProperty("h")
    selected = StringProperty("")
    view_other = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rng = random.Random()
        self.private_seat: int | None = None  # whose fleet the place stage shows
        self.result_seat: int | None = None  # whose volley the result stage shows
        self._ai: BattleshipAI | None = None
        self.cpu = ComputerTurn("battleship-cpu")
        for ship in NAMES:
            button = BsShipButton(ship=ship)
            button.bind(on_release=lambda b: self.select_ship(b.ship))
            self.ids.ships.add_widget(button)
        self.ids.grid.bind(hover=lambda *_: self._draw_ghost())

    @property
    def grid(self) -> BattleshipGrid:
        return self.ids.grid

    def names(self) -> list[str]:
        return [self.tr(f"battleship_ui.{who}") for who in self.session.players]

    def _human(self, seat: int | None) -> bool:
        return seat is not None and self.session.players[seat] != "cpu"

    # games -------------------------------------------------------------------

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else the start panel."""
        self._adopt(session or self.unfinished())

    def _adopt(self, session: Session | None) -> None:
        self._cancel_cpu()
        self.session = session
        self.private_seat = self.result_seat = None
        self.notice_text = ""
        self.grid.aim = -1
        self.choosing = session is None
        if session is not None:
            options, players = session.record.options, session.players
            self.opponent = ("cpu" if "cpu" in players
                             else "tracker" if options["mode"] == "tracker" else "2p")
            self.variant, self.advanced, self.first = (options["variant"], options["advanced"],
                                                       options["first"])
            if self.opponent == "cpu":
                self.level = session.record.scoreboard.rsplit(":", 1)[-1]
                self._ai = BattleshipAI(players.index("cpu"), self.level,
                                        random.Random(self.rng.random()))
        self.refresh()
        self._maybe_cpu()

    def start(self) -> None:
        """Start the game the start panel describes (abandoning an unfinished one)."""
        self.abandon_unfinished()
        options = {"variant": self.variant, "advanced": bool(self.advanced),
                   "first": int(self.first),
                   "mode": "tracker" if self.opponent == "tracker" else "referee"}
        players = ["you", "cpu"] if self.opponent == "cpu" else ["p1", "p2"]
        self._adopt(Session.start(self.store, KIND, options, players=players,
                                  scoreboard=self.scoreboard(self.opponent, self.level)))

    def new_game(self) -> None:
        """The start panel, keeping the current game until Start is pressed."""
        self.choosing = True
        self.refresh()

    def back_to_game(self) -> None:
        self.choosing = False
        self.refresh()

    def choose(self, **choice) -> None:
        """A start panel option was pressed."""
        for name, value in choice.items():
            setattr(self, name, value)
        self.refresh()

    # actions -------------------------------------------------------------------

    def play(self, action) -> bool:
        """Play a person's action; a refusal is shown, not raised."""
        before = self.session.state.view(None)
        try:
            self.session.play(action)
        except IllegalAction as error:
            self.notice_text = reason(error, self.app.lang)
            return False
        self.notice_text = ""
        self.grid.aim = -1
        self.view_other = False
        after = self.session.state.view(None)
        shooter = before["turn"]
        fired = after["boards"][shooter]["count"] > before["boards"][shooter]["count"]
        if fired and self.opponent == "2p" and after["phase"] != "over":
            self.result_seat = shooter
        self.refresh()
        self._maybe_cpu()
        return True

    def cell_tapped(self, cell: int) -> None:
        if self.stage == "place":
            self._place_at(cell)
        elif self.stage == "play" and self._shooting():
            self._shoot_at(cell)

    def _place_at(self, cell: int) -> None:
        if self.selected:
            self.play({"type": "place", "ship": self.selected, "cell": label(cell),
                        "dir": self.direction})

    def _shoot_at(self, cell: int) -> None:
        view = self.session.state.view(None)
        shot = {"type": "shot", "cell": label(cell)}
        if view["options"]["variant"] == "salvo":
            pending = view["pending"]
            if pending and pending[-1] == label(cell):
                self.undo()  # a second tap on the last shot entered takes it back
            else:
                self.play(shot)
        elif cell == self.grid.aim:
            self.play(shot)
        else:
            try:
                self.session.state.apply(shot)  # check only: standard aims, then fires
            except IllegalAction as error:
                self.notice_text = reason(error, self.app.lang)
                return
            self.notice_text = ""
            self.grid.aim = cell
            self.refresh()

    def bottom_action(self) -> None:
        """The panel's big button: fire the aimed shot or the salvo, or a new game."""
        state = self.session.state
        if state.is_over():
            self.new_game()
        elif state.options["variant"] == "salvo":
            self.play({"type": "fire"})
        elif self.grid.aim >= 0:
            self.play({"type": "shot", "cell": label(self.grid.aim)})

    def answer(self, given: dict) -> None:
        """The defender's answer; one no fleet could give is refused with the reason."""
        if not self.play({"type": "answer", **given}):
            self.notice_text = self.tr("battleship_ui.answer_refused") + "\n" + self.notice_text

    def undo(self) -> None:
        if self._undo_count():
            self.session.undo(1)
            self.notice_text = ""
            self.refresh()

    def _undo_count(self) -> int:
        """1 when Undo may take back the last action now, else 0.

        Placing: only the fleet on screen.  Refereed battles: only shots of a
        salvo not fired yet.  Tracker: anything (every answer was typed in).
        """
        session = self.session
        if session is None or self.thinking or not session.actions:
            return 0
        view = session.state.view(None)
        if self.stage == "place":
            return int(may_undo_placing(view["placed"], self.private_seat, view["options"]["first"]))
        if self.stage != "play":
            return 0
        if self.opponent == "tracker":
            return 1
        return int(view["phase"] == "shoot" and bool(view["pending"]))

    def _shooting(self) -> bool:
        """Whether a person is to call shots now, on the grid on screen."""
        view = self.session.state.view(None)
        return (view["phase"] == "shoot" and self._human(view["turn"]) and not self.thinking
                and not self.view_other)

    # placing -------------------------------------------------------------------

    def open_private(self) -> None:
        """The cover's button: the placer has the screen; show their sea."""
        self.private_seat = self.session.state.to_move()
        self.refresh()

    def select_ship(self, ship: str) -> None:
        self.selected = ship
        self.refresh()

    def rotate(self) -> None:
        self.direction = "v" if self.direction == "h" else "h"
        self.refresh()

    def random_fleet(self) -> None:
        for action in fill_fleet(self.session.state.view(self.private_seat), self.rng):
            self.session.play(action)
        self.notice_text = ""
        self.refresh()

    def fleet_done(self) -> None:
        """Hide the fleet: the next placer's cover, or the battle."""
        self.private_seat = None
        self.selected = ""
        self.refresh()
        self._maybe_cpu()

    def _draw_ghost(self) -> None:
        hover = self.grid.hover
        if self.stage != "place" or hover < 0 or not self.selected:
            self.grid.ghost = []
            return
        self.grid.ghost = ship_run(self.selected, hover, self.direction)
        try:
            self.session.state.apply({"type": "place", "ship": self.selected,
                                      "cell": label(hover), "dir": self.direction})
            self.grid.ghost_ok = True
        except IllegalAction:
            self.grid.ghost_ok = False

    # the computer ------------------------------------------------------------

    def _maybe_cpu(self) -> None:
        session = self.session
        if session is None or self.stage != "play" or self.thinking:
            return
        seat = session.state.to_move()
        if seat is None or self._human(seat):
            return
        self.thinking = True
        view, ai, rng = session.state.view(seat), self._ai, random.Random(self.rng.random())
        self.cpu.start(lambda: computer_turn(ai, view, rng), self._cpu_done)
        self.refresh()

    # drawing -------------------------------------------------------------------

    def continue_play(self) -> None:
        """The result step's button: the next shooter's turn."""
        self.result_seat = None
        self.refresh()

    def toggle_board(self) -> None:
        self.view_other = not self.view_other
        self.grid.aim = -1
        self.refresh()

    def refresh(self) -> None:
        self.stage = self._stage()
        grid = self.grid
        grid.marks, grid.rings, grid.ships, grid.ghost = ["."] * CELLS, [], [], []
        getattr(self, f"_draw_{self.stage}")()
        self.can_undo = bool(self._undo_count())

    def _stage(self) -> str:
        if self.choosing or self.session is None:
            return "setup"
        if self.private_seat is not None:
            return "place"
        if self.result_seat is not None:
            return "result"
        state = self.session.state
        if state.phase() == "place" and self._human(state.to_move()):
            if self.opponent == "cpu":  # nobody to hide from: straight to the sea
                self.private_seat = state.to_move()
                return "place"
            return "cover"
        return "play"

    def _draw_setup(self) -> None:
        board = self.scoreboard(self.opponent, self.level)
        table = tally(self.store, board)
        people = ["you", "cpu"] if self.opponent == "cpu" else ["p1", "p2"]
        self.score_text = "  ".join(
            self.tr("battleship_ui.wins", player=self.tr(f"battleship_ui.{who}"),
                    n=table.get(who, {}).get("win", 0)) for who in people)

    def _draw_cover(self) -> None:
        name = self.names()[self.session.state.to_move()]
        self.cover_text = self.tr("battleship_ui.hand_to", player=name)
        self.cover_button_text = self.tr("battleship_ui.i_am", player=name)

    def _draw_place(self) -> None:
        seat = self.private_seat
        view = self.session.state.view(seat)
        to_place = view["to_place"] if view["placed"][seat] < len(NAMES) else []
        if self.selected not in to_place:
            self.selected = to_place[0] if to_place else ""
        self.grid.aim = -1
        self.grid.ships = fleet_cells(view)
        self.grid.interactive = bool(to_place)
        self.can_done = not to_place
        self.place_title = self.tr("battleship_ui.place_title", player=self.names()[seat])
        self.status_colour = PERSON_COLOURS[self.session.players[seat]]
        for button in self.ids.ships.children:
            button.chosen = button.ship == self.selected
            button.disabled = button.ship not in to_place
            button.text = f"{self.tr('battleship.' + button.ship)} {LENGTH[button.ship]}"
        self._draw_ghost()

    def _draw_result(self) -> None:
        view, names = self.session.state.view(None), self.names()
        self._show_board(view, self.result_seat)
        self.grid.interactive = False
        self.result_title = self.tr("battleship_ui.result_title", player=names[self.result_seat])
        self.status_colour = PERSON_COLOURS[self.session.players[self.result_seat]]
        self.news_text = announcement(view, names, self.tr)
        self.continue_text = self.tr("battleship_ui.next_turn", player=names[view["to_move"]])

    def _show_board(self, view: dict, seat: int) -> None:
        board = view["boards"][seat]
        self.grid.marks = list("".join(board["grid"]))
        self.grid.rings = [index(shot["cell"]) for shot in board["last"]]

    def _draw_play(self) -> None:
        view, names, players = self.session.state.view(None), self.names(), self.session.players
        phase, shooter = view["phase"], view["turn"]
        home = players.index("you") if self.opponent == "cpu" else shooter
        shown = 1 - home if self.view_other else home
        self._show_board(view, shown)
        self.grid.interactive = self._shooting()
        if phase == "answer":
            self.grid.aim = index(view["pending"][0])
        elif not self.grid.interactive:
            self.grid.aim = -1
        self.caption_text = self.tr("battleship_ui.board_of", player=names[shown])
        self.answering = phase == "answer"
        self.news_text = announcement(view, names, self.tr, 2 if self.opponent == "cpu" else 1)
        afloat = [view["boards"][1 - s]["afloat"] for s in (0, 1)]
        self.info_text = self.tr("battleship_ui.afloat", a=names[0], na=afloat[0],
                                 b=names[1], nb=afloat[1])
        self.status_text = self._status(view, names)
        mover = view["winner"] if phase == "over" else view["to_move"]
        self.status_colour = PERSON_COLOURS[players[mover]]
        self._draw_bottom(view)
        self.ids.answers.show(view)

    def _status(self, view: dict, names: list[str]) -> str:
        phase, shooter = view["phase"], view["turn"]
        if phase == "over":
            return self.tr("battleship.winner", player=names[view["winner"]])
        if self.thinking or not self._human(view["to_move"]):
            key = "cpu_placing" if phase == "place" else "cpu_thinking"
            return self.tr(f"battleship_ui.{key}")
        if phase == "answer":
            return self.tr("battleship.phase_answer", player=names[1 - shooter],
                           cell=view["pending"][0])
        text = self.tr("battleship_ui.to_fire", player=names[shooter])
        if view["options"]["variant"] == "salvo":
            text += "\n" + self.tr("battleship.shots_left",
                                   n=view["shots_allowed"] - len(view["pending"]))
        return text

    def _draw_bottom(self, view: dict) -> None:
        if view["phase"] == "over":
            self.bottom_text, self.can_bottom = self.tr("battleship_ui.new_game"), True
            return
        shooting = self._shooting()
        if view["options"]["variant"] == "salvo":
            entered, allowed = len(view["pending"]), view["shots_allowed"]
            self.bottom_text = f"{self.tr('battleship.fire')} {entered}/{allowed}"
            self.can_bottom = shooting and allowed > 0 and entered == allowed
        elif shooting and self.grid.aim >= 0:
            self.bottom_text = self.tr("battleship_ui.fire_at", cell=label(self.grid.aim))
            self.can_bottom = True
        else:
            self.bottom_text, self.can_bottom = self.tr("battleship_ui.pick_cell"), False
