"""The flow around a game of two seats at one table, shared by every such game (Kuku,
Battleship): a start panel, a fleet entered behind a cover, the computer's seat.

Three ways to play, chosen on the start panel with who starts, the game's options and
the computer's level: "2p" (the companion referees), "cpu" (against the computer, whose
seat is the one named `COMPUTER` among the players) and "tracker" (a fully physical
game, the companion keeps count).  The panel's choices are `setup`; `choosing` says it
is open (over a game in progress too, which stays until Start).

A fleet is entered behind a cover: the cover stage offers "open" to the table (or to
the placer's phone), and from then on the placer holds the shared screen (`holder()`;
`private` names it) until it hides its fleet again.  Against the computer there is
nobody to hide from: the screen opens to its placer at once (`opens_at_once`).

A game subclasses `TwoSeatFlow`, says its `KIND`, `SETUP` (the panel's defaults:
"opponent", "level" and the options named in `OPTIONS`), `ROLES` (player names that
are words of its `{KIND}_ui` catalog rather than typed names) and what its own stages
offer; `start_game(players)` starts what the panel describes.
"""

from __future__ import annotations

import random
from typing import ClassVar

from companion.play.controller import TABLE, Controller, Offer, Text, Who
from companion.play.session import Session
from companion.store import Lineup, Store


def may_undo_placing(placed: list[int], seat: int, first: int) -> bool:
    """While fleets are placed in turn, Undo takes back only `seat`'s own last
    ship: always for the second placer, for the first until the second begins."""
    second = 1 - first
    return placed[seat] > 0 and (seat == second or placed[second] == 0)


class TwoSeatFlow(Controller):
    KIND: ClassVar[str]
    SETUP: ClassVar[dict]  # the start panel's first choices
    OPTIONS: ClassVar[tuple[str, ...]]  # the choices that are the rules' options ("mode" is the opponent's)
    ROLES: ClassVar[tuple[str, ...]] = ("cpu",)  # players named by the catalog, not typed
    COMPUTER: ClassVar[str] = "cpu"  # the computer's seat among the players

    def __init__(self, store: Store, session: Session | None, rng: random.Random | None = None,
                 setup: dict | None = None):
        super().__init__(session)
        self.store = store
        self.rng = rng or random.Random()
        self.setup = dict(setup or self.SETUP)
        self._adopt(session)

    @classmethod
    def open(cls, store: Store, session: Session | None = None, rng: random.Random | None = None,
             setup: dict | None = None):
        """`session`, else the newest unfinished game, else the start panel (with `setup`'s choices)."""
        if session is None:
            session = Session.latest(store, cls.KIND)
        return cls(store, session, rng, setup)

    def _adopt(self, session: Session | None) -> None:
        """Play `session` from now on (None: only the start panel).  A game resets its own
        state of play first, then calls this."""
        self.session = session
        self.choosing = session is None
        self.private: int | None = None  # the placer holding the screen
        if session is not None:
            self.setup = self.setup | self.choices_of(session)
        self._settle()

    def choices_of(self, session: Session) -> dict:
        """The start panel's choices `session` was started with."""
        options, lineup = session.record.options, session.lineup
        chosen = {"opponent": lineup.opponent} | {name: options[name] for name in self.OPTIONS}
        return chosen | ({"level": lineup.level} if lineup.level else {})

    # who plays -------------------------------------------------------------------------

    @property
    def opponent(self) -> str:
        return self.session.lineup.opponent if self.session else self.setup["opponent"]

    @property
    def computer_seats(self) -> frozenset[int]:
        if self.session is None or self.opponent != "cpu":
            return frozenset()
        return frozenset(seat for seat, person in enumerate(self.session.players) if person == self.COMPUTER)

    @property
    def at_table(self) -> frozenset[int]:
        """The seats played at the table: not the computer's, nor a phone's."""
        return frozenset() if self.session is None else frozenset((0, 1)) - self.computer_seats - self.remote

    @property
    def names(self) -> list:
        """Each seat's name: as typed on the start panel, else its role in words (a Text)."""
        return [Text(f"{self.KIND}_ui.{person}") if person in self.ROLES else person
                for person in self.session.players]

    def mine(self, who: Who, seat: int | None) -> bool:
        """Whether `who` may act for `seat`: the seat itself, or the table for a seat at it."""
        return seat is not None and seat not in self.computer_seats and (
            who == seat or (who == TABLE and seat in self.at_table))

    def holder(self) -> Who:
        """Who has the shared screen now: the placer in the place stage (unless it places
        on its phone), else the table."""
        return self.private if self.stage() == "place" and self.private not in self.remote else TABLE

    # the cover -------------------------------------------------------------------------

    def _settle(self) -> None:
        """Open the screen at once to a placer nobody is to be hidden from (`opens_at_once`)."""
        state = self.session.state if self.session else None
        if (state is not None and not self.choosing and self.private is None and state.phase == "place"
                and self.opens_at_once(state.to_move())):
            self.private = state.to_move()

    def opens_at_once(self, seat: int) -> bool:
        """Whether `seat` places without a cover: against the computer, at the table."""
        return self.opponent == "cpu" and seat in self.at_table

    def changed(self) -> None:
        self._settle()
        super().changed()

    def cover_offers(self, who: Who) -> list[Offer]:
        """The cover opens the shared screen to its placer: only the table's own button does
        (a seat held by a phone opens on that phone instead)."""
        seat = self.session.state.to_move()
        if who != (seat if seat in self.remote else TABLE) or not self.mine(who, seat):
            return []
        return [Offer("open", Text(f"{self.KIND}_ui.i_am", {"player": self.names[seat]}), seat)]

    def on_open(self, who: Who, seat, value) -> None:
        self.private = seat

    def on_hide(self, who: Who, seat, value) -> None:
        """The placer's fleet is in: the cover's turn again (or the game's)."""
        self.private = None

    # the start panel -------------------------------------------------------------------

    def setup_lineup(self) -> Lineup:
        return Lineup.of(self.setup["opponent"], self.setup["level"])

    def setup_scoreboard(self) -> str:
        return self.setup_lineup().scoreboard(self.KIND)

    def start_game(self, players: list[str]) -> None:
        """A new game as the panel describes, for `players`; an unfinished one it replaces
        ends counted for nobody."""
        setup = self.setup
        if self.session is not None and not self.session.state.is_over():
            self.session.abandon()
        options = {name: setup[name] for name in self.OPTIONS}
        options["mode"] = "tracker" if setup["opponent"] == "tracker" else "referee"
        self._adopt(Session.start(self.store, self.KIND, options, players=players,
                                  scoreboard=self.setup_scoreboard(), lineup=self.setup_lineup()))

    def on_new(self, who: Who, seat, value) -> None:
        """The start panel, over the game (which stays until Start)."""
        self.choosing = True

    def on_back(self, who: Who, seat, value) -> None:
        self.choosing = False

    def handlers(self) -> dict:
        return super().handlers() | {"open": self.on_open, "new": self.on_new, "back": self.on_back}
