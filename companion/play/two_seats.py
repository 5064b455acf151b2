"""The flow around a game of two seats at one table, shared by every such game (Kuku,
Battleship): a start panel, a fleet entered behind a cover, the computer's seat.

Three ways to play, chosen on the start panel with who starts, the game's options and
the computer's level: "2p" (the companion referees), "cpu" (against the computer, whose
seat is the one named `COMPUTER` among the players) and "tracker" (a fully physical
game, the companion keeps count).  The panel's choices are `setup`; `choosing` says it
is open (over a game in progress too, which stays until Start).

A fleet is entered behind a cover: the cover stage offers "open" to the table, and
from then on the placer holds the shared screen (`holder()`; `private` names it) until
it hides its fleet again.  Against the computer there is nobody to hide from: the
screen opens to its placer at once (`opens_at_once`).  A seat held by a phone places
on its phone, at the same time as the other seat (on its own phone, or at the table in
the rules' order, `table_placer()`): its own stage is "place" while fleets go in
(`stage_of`), and the attacks begin once both fleets are in (the rules' `placers()`
say who still places; a placement for a seat other than the one to move names it).
Undo while placing takes back the placer's own last ship (`take_back`).

A game subclasses `TwoSeatFlow`, says its `KIND`, `SETUP` (the panel's defaults:
"opponent", "level" and the options named in `OPTIONS`), `ROLES` (player names that
are words of its `{KIND}_ui` catalog rather than typed names) and what its own stages
offer; `start_game(players)` starts what the panel describes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence, Sized
from typing import Any, ClassVar, Protocol, Self, cast

from companion.play.controller import TABLE, Controller, Handler, Offer, Text, Who
from companion.play.state import Action, Refused
from companion.play.session import Session
from companion.store import Lineup, Store


class Placing(Protocol):
    """What the flow reads of its game's state (Kuku's, Battleship's) beyond `State`'s."""

    phase: str
    fleets: Sequence[Sized]  # per seat: the ships placed so far

    def placers(self) -> tuple[int, ...]: ...

    def to_move(self) -> int | None: ...


class TwoSeatFlow(Controller):
    KIND: ClassVar[str]
    SETUP: ClassVar[dict[str, Any]]  # the start panel's first choices
    OPTIONS: ClassVar[tuple[str, ...]]  # the choices that are the rules' options ("mode" is the opponent's)
    ROLES: ClassVar[tuple[str, ...]] = ("cpu",)  # players named by the catalog, not typed
    COMPUTER: ClassVar[str] = "cpu"  # the computer's seat among the players

    def __init__(self, store: Store, session: Session | None, rng: random.Random | None = None,
                 setup: dict[str, Any] | None = None):
        super().__init__(session)
        self.store = store
        self.rng = rng or random.Random()
        self.setup = dict(setup or self.SETUP)
        self._adopt(session)

    @classmethod
    def open(cls, store: Store, session: Session | None = None, rng: random.Random | None = None,
             setup: dict[str, Any] | None = None) -> Self:
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

    def choices_of(self, session: Session) -> dict[str, Any]:
        """The start panel's choices `session` was started with."""
        options, lineup = session.record.options, session.lineup
        chosen = {"opponent": lineup.opponent} | {name: options[name] for name in self.OPTIONS}
        return chosen | ({"level": lineup.level} if lineup.level else {})

    # who plays -------------------------------------------------------------------------

    @property
    def opponent(self) -> str:
        return self.session.lineup.opponent if self.session else str(self.setup["opponent"])

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
    def names(self) -> list[str | Text]:
        """Each seat's name: as typed on the start panel, else its role in words (a Text)."""
        return [Text(f"{self.KIND}_ui.{person}") if person in self.ROLES else person
                for person in self.playing.players]

    def mine(self, who: Who, seat: int | None) -> bool:
        """Whether `who` may act for `seat`: the seat itself, or the table for a seat at it."""
        return seat is not None and seat not in self.computer_seats and (
            who == seat or (who == TABLE and seat in self.at_table))

    def placers(self) -> tuple[int, ...]:
        """The seats still entering their fleets, in the rules' order."""
        return self.placing_state().placers() if self.session is not None else ()

    def placing_state(self) -> Placing:
        """The game's state, as the flow reads it."""
        return cast(Placing, self.playing.state)  # a two-seat game's (KIND's rules: Kuku's, Battleship's)

    def table_placer(self) -> int | None:
        """The seat whose fleet goes in at the table next (behind the cover, or the computer's
        in its turn): the rules' order, passing over the seats on phones, which place meanwhile."""
        seat = next((s for s in self.placers() if s not in self.remote), None)
        return None if seat in self.computer_seats and seat != self.playing.state.to_move() else seat

    def placing(self, who: Who) -> int | None:
        """The seat whose fleet `who` enters now: the placer holding the table's screen (for
        the table and that seat), or a phone's own seat while fleets go in."""
        if self.session is None or self.stage() in ("setup", "report"):
            return None
        if who in (TABLE, self.private):
            return self.private
        return who if who in self.remote and self.session.state.phase == "place" else None

    def stage_of(self, who: Who) -> str:
        """The stage `who` sees: the shared screen's, but "place" for a phone placing its fleet."""
        return "place" if who != TABLE and self.placing(who) is not None else self.stage()

    def placed_by(self, seat: int, action: Action) -> Action:
        """A placing action (or any other, as it is) for `seat`: naming the seat unless the
        rules place for it anyway (it is the seat to move); one naming another seat is refused."""
        if not isinstance(action, dict) or action.get("type") not in ("place", "unplace"):
            return action
        if action.get("seat", seat) != seat:
            raise Refused("play.not_yours", kind=action["type"])
        action = {key: value for key, value in action.items() if key != "seat"}
        named = action["type"] == "unplace" or seat != self.playing.state.to_move()
        return action | {"seat": seat} if named else action

    def holder(self) -> Who:
        """Who has the shared screen now: the placer in the place stage (unless it places
        on its phone), else the table."""
        private = self.private  # set exactly in the place stage
        return private if private is not None and self.stage() == "place" and private not in self.remote else TABLE

    # the cover -------------------------------------------------------------------------

    def _settle(self) -> None:
        """Open the screen at once to a placer nobody is to be hidden from (`opens_at_once`);
        a seat a phone takes over while placing at the table goes on placing on the phone."""
        if self.private in self.remote:
            self.private = None
        seat = self.table_placer() if self.session is not None and not self.choosing else None
        if self.private is None and seat is not None and self.opens_at_once(seat):
            self.private = seat

    def opens_at_once(self, seat: int) -> bool:
        """Whether `seat` places without a cover: against the computer, at the table."""
        return self.opponent == "cpu" and seat in self.at_table

    def changed(self) -> None:
        self._settle()
        super().changed()

    def cover_offers(self, who: Who) -> list[Offer]:
        """The cover opens the shared screen to its placer: the table's own button (a seat
        held by a phone places there)."""
        seat = self.table_placer()
        if who != TABLE or seat is None or not self.mine(who, seat):
            return []
        return [Offer("open", Text(f"{self.KIND}_ui.i_am", {"player": self.names[seat]}), seat)]

    def on_open(self, who: Who, seat: int | None, value: Any) -> None:
        self.private = seat

    # undo -----------------------------------------------------------------------------

    def undoer(self, who: Who) -> bool:
        """Whether `who` may undo what `undo_points` allows (not placing): the seat to move's."""
        return self.mine(who, self.playing.state.to_move())

    def undo_offer(self, who: Who) -> list[Offer]:
        """Undo, when `who` may: its own last ship while it places, else as `undo_points` and `undoer` say."""
        seat = self.placing(who)
        allowed = self.may_take_back(seat) if seat is not None else bool(self.undo_points()) and self.undoer(who)
        return [Offer("undo", Text("app.undo"))] if allowed else []

    def may_take_back(self, seat: int) -> bool:
        """Whether `seat`'s last ship may come off: while fleets go in, or (the table's last
        placer, before it hides its fleet) while it is the log's last action."""
        state = self.placing_state()
        return bool(state.fleets[seat]) and (state.phase == "place" or self._placed_last(seat))

    def _placed_last(self, seat: int) -> bool:
        session = self.playing
        actions = session.actions
        if not actions or actions[-1].get("type") != "place":
            return False
        if "seat" in actions[-1]:
            return bool(actions[-1]["seat"] == seat)
        return session.game.replay(session.record.options, actions[:-1]).to_move() == seat

    def take_back(self, seat: int) -> None:
        """`seat`'s last ship off the board: the log's last action when it is that ship, else an
        "unplace" action (the other seat placed since: each fleet goes in on its own)."""
        if self._placed_last(seat):
            self.playing.undo(1)
        else:
            self.play_turn([{"type": "unplace", "seat": seat}])

    def on_undo(self, who: Who, seat: int | None, value: Any) -> None:
        """(Offered only as `undo_offer` says.)"""
        placer = self.placing(who)
        if placer is None:
            super().on_undo(who, seat, value)
        else:
            self.take_back(placer)

    def on_hide(self, who: Who, seat: int | None, value: Any) -> None:
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

    def on_new(self, who: Who, seat: int | None, value: Any) -> None:
        """The start panel, over the game (which stays until Start)."""
        self.choosing = True

    def on_back(self, who: Who, seat: int | None, value: Any) -> None:
        self.choosing = False

    def handlers(self) -> dict[str, Handler]:
        return super().handlers() | {"open": self.on_open, "new": self.on_new, "back": self.on_back}
