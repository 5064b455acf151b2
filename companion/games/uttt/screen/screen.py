"""The Ultimate Tic-Tac-Toe screen: draws `UtttController.display(TABLE)` and forwards
touches to it (companion/games/uttt/controller.py holds the flow of play).

The only thing kept here is the screen's own: the input lock held after a move (so a
double tap plays once; ui/input_lock.py), the board not interactive while it is held;
ControllerScreen sends input and runs the computer's thread.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.games.uttt.screen.board import UtttBoard  # noqa: F401  (used in kv)
from companion.games.uttt.controller import UtttController
from companion.play.controller import TABLE
from companion.ui import theme
from companion.ui.controller_screen import ControllerScreen
from companion.ui.input_lock import InputLock
from companion.ui.widgets import Ask

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PERSON_COLOURS = {"red": theme.RED, "you": theme.RED, "blue": theme.BLUE, "cpu": theme.BLUE}


class UtttScreen(ControllerScreen):
    kind = "uttt"
    mode = StringProperty("2p")
    status_text = StringProperty("")
    status_colour = ListProperty(theme.PANEL)
    score_text = StringProperty("")
    result_text = StringProperty("")
    reviewing = BooleanProperty(False)
    review_index = NumericProperty(0)
    can_undo = BooleanProperty(False)
    thinking = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.input_lock = InputLock(on_release=self.refresh)  # the board is dead while held: drawn live again
        self.asking: Ask | None = None  # the question before a new game, while it is open
        self.rng = random.Random()

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else a new two-player game."""
        self.take(UtttController.open(self.store, session, self.rng))

    # input: every touch goes to the controller (ControllerScreen.act), from the table ----

    def play(self, cell: int) -> None:
        if not self.input_lock.held and self.act("cell", cell):
            self.input_lock.hold()
            self.refresh()

    def new_game(self, kind: str, value=None) -> None:
        """A level, 2人 or 新しいゲーム: at once when no game is under way, else after asking
        (the game left stays to be resumed from Home)."""
        state = self.controller.session.state
        if not self.controller.session.actions or state.is_over():
            self.act(kind, value)
            return
        self.asking = Ask(lambda: self.act(kind, value), question=self.tr("uttt_ui.ask_new"),
                          yes=self.tr("uttt_ui.ask_new_yes"), no=self.tr("uttt_ui.ask_new_no"))
        self.asking.bind(on_dismiss=lambda *_: self.property("mode").dispatch(self))  # the level shown is the game's
        self.asking.open()

    # drawing ------------------------------------------------------------------------

    def refresh(self) -> None:
        if self.controller is None:
            return
        model = self.controller.display(TABLE)
        tr = self.tr
        board = self.ids.board
        board.colours = [PERSON_COLOURS[person] for person in model["players"]]
        board.hints = model["hints"]
        board.view = model["board"]
        board.interactive = model["interactive"] and not self.input_lock.held
        self.mode, self.thinking, self.can_undo = model["mode"], model["thinking"], model["can_undo"]
        self.score_text = model["score"].render(tr)
        status = model["status"].render(tr)
        # "free move" is said to a person whose turn it is: never on the computer's turn, even in
        # the moment before its search starts (three lines would overflow the status)
        free = model["free_move"] and not model["thinking"] and model["status_person"] != "cpu"
        self.status_text = status + "\n" + tr("uttt_ui.free_move") if free else status
        self.status_colour = PERSON_COLOURS.get(model["status_person"], theme.PANEL)
        self.reviewing = model["review"] is not None
        self.result_text = model["result"].render(tr) if model["result"] else ""
        self.review_index = model.get("review_index", 0)
