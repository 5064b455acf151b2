"""Ultimate Tic-Tac-Toe, the complete touchscreen game (RULES.md §5).

Colour stays with the person, × with whoever starts.  A game's `players` list
names the person in each seat ("red"/"blue", or "you"/"cpu"); its scoreboard
("uttt:2p", "uttt:cpu:hard", ...) keeps the records apart.  Scores are counted
from finished games in the store, so a result counts exactly once.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.games.uttt.ai import choose_move
from companion.play.session import Session, tally
from companion.ui import theme
from companion.ui.computer import ComputerTurn
from companion.games.uttt.board import UtttBoard  # noqa: F401  (used in kv)
from companion.ui.widgets import GameScreen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

INPUT_LOCK_S = 0.25
PERSON_COLOURS = {"red": theme.RED, "you": theme.RED, "blue": theme.BLUE, "cpu": theme.BLUE}
MODES = ("2p", "easy", "medium", "hard")


def mode_of(board: str | None) -> str:
    return (board or "uttt:2p").rsplit(":", 1)[-1]


class UtttScreen(GameScreen):
    kind = "uttt"
    mode = StringProperty("2p")
    status_text = StringProperty("")
    status_colour = ListProperty(theme.PANEL)
    score_text = StringProperty("")
    result_text = StringProperty("")
    review_text = StringProperty("")
    reviewing = BooleanProperty(False)
    review_index = NumericProperty(0)
    can_undo = BooleanProperty(False)
    thinking = BooleanProperty(False)
    locked = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._history = []
        self.cpu = ComputerTurn("uttt-cpu")
        self._unlock_event = None
        self.rng = random.Random()

    # games -------------------------------------------------------------------

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else a new two-player game."""
        self.session = session = session or self.unfinished() or self._new_session("2p")
        self.mode = mode_of(session.record.scoreboard)
        self.refresh()
        self._maybe_cpu()

    def _new_session(self, mode: str) -> Session:
        board = self.scoreboard("2p" if mode == "2p" else "cpu", mode)
        game_number = len(self.store.results(board)) + 1
        people = ["red", "blue"] if mode == "2p" else ["you", "cpu"]
        players = people if game_number % 2 else people[::-1]
        return Session.start(self.store, "uttt", players=players, scoreboard=board)

    def _replace_session(self, mode: str) -> None:
        self.abandon_unfinished()
        self._cancel_cpu()
        self.session = self._new_session(mode)
        self.mode = mode
        self.refresh()
        self._maybe_cpu()

    def set_mode(self, mode: str) -> None:
        if mode != self.mode or self.session.actions:
            self._replace_session(mode)

    def another_game(self) -> None:
        self._replace_session(self.mode)

    # moves -------------------------------------------------------------------

    def person_to_move(self) -> str | None:
        seat = self.session.state.to_move()
        return None if seat is None else self.session.players[seat]

    def play(self, action: int) -> None:
        if self.locked or self.thinking or self.person_to_move() == "cpu":
            return
        self._commit(action)

    def _commit(self, action: int) -> None:
        self.session.play(action)
        self.locked = True
        self._unlock_event = Clock.schedule_once(self._unlock, INPUT_LOCK_S)
        self.refresh()
        self._maybe_cpu()

    def _unlock(self, *_):
        self.locked = False
        self.refresh()

    def undo(self) -> None:
        count = self._undo_count()
        if not count:
            return
        self._cancel_cpu()
        self.session.undo(count)
        self.refresh()

    def _undo_count(self) -> int:
        """How many actions Undo takes back now (0: nothing to undo)."""
        session = self.session
        if session is None or session.state.is_over() or not session.actions:
            return 0
        if self.mode == "2p":
            return 1
        you = session.players.index("you")
        mine = [i for i in range(len(session.actions)) if i % 2 == you]
        return len(session.actions) - mine[-1] if mine else 0

    # the computer ------------------------------------------------------------

    def _maybe_cpu(self) -> None:
        if self.person_to_move() != "cpu" or self.thinking:
            return
        self.thinking = True
        state, level, seed = self.session.state, self.mode, self.rng.random()
        self.refresh()
        self.cpu.start(lambda: choose_move(state, level, random.Random(seed)), self._cpu_done)

    def _cpu_done(self, move: int) -> None:
        self.thinking = False
        self._commit(move)

    def _cancel_cpu(self) -> None:
        self.cpu.cancel()
        self.thinking = False

    def close(self) -> None:
        self._cancel_cpu()
        if self._unlock_event is not None:
            self._unlock_event.cancel()

    # review ------------------------------------------------------------------

    def step_review(self, step: int) -> None:
        self.review_index = max(1, min(len(self._history) - 1, self.review_index + step))
        self.refresh()

    # drawing -------------------------------------------------------------------

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.session.state
        tr = lambda key, **v: self.app.tr(key, self.app.lang, **v)  # noqa: E731
        players = self.session.players
        board = self.ids.board
        board.colours = [PERSON_COLOURS[players[0]], PERSON_COLOURS[players[1]]]
        self.can_undo = bool(self._undo_count())
        self._draw_score(tr)
        if state.is_over():
            self._draw_result(state, tr)
            return
        self.reviewing, self.result_text, self._history = False, "", []
        view = state.view(None)
        view["sends_to"] = {str(a): state.sends_to(a) for a in state.legal_actions()}
        board.hints = []
        board.view = view
        person = players[view["to_move"]]
        board.interactive = not (self.locked or self.thinking or person == "cpu")
        mark = "×" if view["mark_to_move"] == "X" else "○"
        text = tr("uttt_ui.thinking") if self.thinking else tr(
            "uttt_ui.turn", who=tr(f"uttt_ui.{person}"), mark=mark)
        if view["free_move"]:
            text += "\n" + tr("uttt_ui.free_move")
        self.status_text = text
        self.status_colour = PERSON_COLOURS[person]

    def _draw_result(self, state, tr) -> None:
        outcome = state.outcome()
        if outcome.winner is None:
            key = "uttt_ui.early_draw" if outcome.reason == "early_draw" else "uttt_ui.draw"
            self.result_text = tr(key)
            self.status_colour = theme.PANEL
        else:
            winner = self.session.players[outcome.winner]
            self.result_text = tr("uttt_ui.wins", who=tr(f"uttt_ui.{winner}"))
            self.status_colour = PERSON_COLOURS[winner]
        self.status_text = self.result_text
        if not self._history:
            self._history = self.session.history()
            self.review_index = len(self._history) - 1
        self.reviewing = True
        shown = self._history[self.review_index]
        before = self._history[self.review_index - 1]
        board = self.ids.board
        board.interactive = False
        board.hints = before.legal_actions()
        board.view = shown.view(None)
        self.review_text = tr("uttt_ui.review", i=self.review_index, n=len(self._history) - 1)

    def _draw_score(self, tr) -> None:
        table = tally(self.store, self.session.record.scoreboard)
        a, b = ("red", "blue") if self.mode == "2p" else ("you", "cpu")
        row = lambda who: table.get(who, {"win": 0, "draw": 0})  # noqa: E731
        self.score_text = tr("uttt_ui.score", a=tr(f"uttt_ui.{a}"), wa=row(a)["win"],
                             b=tr(f"uttt_ui.{b}"), wb=row(b)["win"], d=row(a)["draw"])

