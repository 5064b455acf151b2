"""The flow of an Ultimate Tic-Tac-Toe game (docs/rules.md §uttt), free of Kivy.

Colour stays with the person, × with whoever starts: a game's `players` names the
person in each seat ("red"/"blue", or "you"/"cpu"), and who starts alternates game by
game on each scoreboard ("uttt:2p", "uttt:cpu:hard", ...).  Undo takes back the last
move with two players; against the computer, your last move and its reply.  A finished
game is reviewed move by move.  A level tapped mid-game starts a new game and keeps the
begun one to resume from Home.
"""

from __future__ import annotations

import random

from companion.games.uttt.ai import choose_move
from companion.games.uttt.rules import UtttState, move
from companion.play.controller import TABLE, Controller, Offer, Text, Who
from companion.play.session import Session, tally, unfinished
from companion.play.state import State
from companion.store import Lineup, Store

MODES = ("2p", "easy", "medium", "hard")
PEOPLE = {"2p": ("red", "blue"), "cpu": ("you", "cpu")}


def new_session(store: Store, mode: str) -> Session:
    lineup = Lineup.of("2p" if mode == "2p" else "cpu", mode)
    board = lineup.scoreboard("uttt")
    people = PEOPLE[lineup.opponent]
    first_plays = len(store.results(board)) % 2 == 0  # who starts alternates
    return Session.start(store, "uttt", players=list(people if first_plays else people[::-1]),
                         scoreboard=board, lineup=lineup)


def uttt_state(state: State) -> UtttState:
    """A UTTT game's state, as its own type."""
    assert isinstance(state, UtttState), "a UTTT session's"
    return state


class UtttController(Controller):
    session: Session  # always a game: a new one when none is stored

    def __init__(self, store: Store, session: Session, rng: random.Random | None = None):
        super().__init__(session)
        self.store = store
        self.rng = rng or random.Random()

    @classmethod
    def open(cls, store: Store, session: Session | None = None, rng: random.Random | None = None):
        """`session`, else the newest unfinished game, else a new two-player game."""
        if session is None:
            sessions, _ = unfinished(store, {"uttt"})  # a game that cannot be read is skipped
            session = sessions[0] if sessions else new_session(store, "2p")
        return cls(store, session, rng)

    @property
    def state(self) -> UtttState:
        return uttt_state(self.session.state)

    @property
    def computer_seats(self) -> frozenset[int]:
        return frozenset(seat for seat, person in enumerate(self.session.players) if person == "cpu")

    @property
    def names(self) -> list[str | Text]:
        """Each seat's person ("red", "you", ...) in words."""
        return [Text(f"uttt_ui.{person}") for person in self.session.players]

    @property
    def mode(self) -> str:
        lineup = self.session.lineup
        if lineup.opponent != "cpu":
            return "2p"
        assert lineup.level is not None, "a game against the computer has its level"
        return lineup.level

    def stage(self) -> str:
        return "review" if self.session.state.is_over() else "play"

    # offers ------------------------------------------------------------------------

    def mover(self, who: Who) -> int | None:
        """The seat whose move `who` may make now (None: not theirs to make)."""
        seat = self.session.state.to_move()
        if seat is None or seat in self.computer_seats:
            return None
        return seat if who == seat or (who == TABLE and seat in self.at_table) else None

    def undo_points(self) -> list[int]:
        """Back to the start of the people's last turn (against the computer, its reply goes too)."""
        if self.stage() != "play":
            return []
        people = [start for seat, start in self.turns() if seat not in self.computer_seats]
        return people[-1:]

    def offers(self, who: Who) -> list[Offer]:
        found = []
        seat = self.mover(who)
        if seat is not None:
            found.append(Offer("cell", seat=seat, choices=tuple(self.state.legal_cells())))
        if self.undo_points() and (who == TABLE or who in self.at_table):
            found.append(Offer("undo", Text("app.undo")))
        if who == TABLE:
            found += [Offer("mode", Text(f"uttt_ui.{'two_players' if m == '2p' else m}"), choices=(m,))
                      for m in MODES]
            found.append(Offer("another", Text("uttt_ui.another_game")))
            found += self.review_offers()
        return found

    # input -------------------------------------------------------------------------

    def handlers(self) -> dict:
        return super().handlers() | {"cell": self.on_cell, "mode": self.on_mode, "another": self.on_another}

    def on_cell(self, who: Who, seat: int, cell: int) -> None:
        self.play_turn([move(cell)])

    def on_mode(self, who: Who, seat, mode: str) -> None:
        if mode != self.mode or self.session.actions:
            self._replace(mode)

    def on_another(self, who: Who, seat, value) -> None:
        self._replace(self.mode)

    def _replace(self, mode: str) -> None:
        """A new game takes the table.  One begun and unfinished stays to be resumed from
        Home (a stray tap on a level loses nothing); an empty one is dropped."""
        if not self.session.actions:
            self.session.abandon()
        self.session = new_session(self.store, mode)

    def thinker(self, seat: int):
        state, level, seed = self.state, self.mode, self.rng.random()
        return lambda: [choose_move(state, level, random.Random(seed))]

    # display -----------------------------------------------------------------------

    def display(self, who: Who) -> dict:
        state, players = self.state, self.session.players
        table = tally(self.store, self.session.record.scoreboard)
        a, b = PEOPLE[self.session.lineup.opponent]
        row = lambda person: table.get(person, {"win": 0, "draw": 0})  # noqa: E731
        model = {
            "stage": self.stage(), "mode": self.mode, "players": list(players),
            "offers": self.offered(who), "can_undo": any(o.kind == "undo" for o in self.offered(who)),
            "thinking": self.computer_to_move() is not None,
            "score": Text("uttt_ui.score", {"a": Text(f"uttt_ui.{a}"), "wa": row(a)["win"],
                                             "b": Text(f"uttt_ui.{b}"), "wb": row(b)["win"], "d": row(a)["draw"]}),
        }
        if state.is_over():
            return model | self._review()
        view = state.view(None)
        view["sends_to"] = {str(c): state.sends_to(c) for c in state.legal_cells()}
        person = players[view["to_move"]]
        if model["thinking"]:
            status = Text("uttt_ui.thinking")
        else:
            status = Text("uttt_ui.turn", {"who": Text(f"uttt_ui.{person}"),
                                           "mark": "×" if view["mark_to_move"] == "X" else "○"})
        return model | {"board": view, "hints": [], "interactive": self.mover(who) is not None,
                        "status": status, "free_move": view["free_move"], "status_person": person,
                        "result": None, "review": None}

    def _review(self) -> dict:
        outcome = self.state.outcome()
        review = self.review()
        assert outcome is not None and review is not None, "shown once the game is over"
        if outcome.winner is None:
            result, person = Text("uttt_ui.early_draw" if outcome.reason == "early_draw" else "uttt_ui.draw"), None
        else:
            person = self.session.players[outcome.winner]
            result = Text("uttt_ui.wins", {"who": Text(f"uttt_ui.{person}")})
        hints = uttt_state(review.before).legal_cells() if review.before else []
        return {"board": review.state.view(None), "hints": hints,
                "interactive": False, "status": result, "free_move": False, "status_person": person,
                "result": result, "review": self.review_text(), "review_index": review.at}
