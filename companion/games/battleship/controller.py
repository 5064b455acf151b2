"""The flow of a Battleship game (docs/rules.md §battleship), free of Kivy.

Three ways to play, chosen in the setup stage:
- "2p": the companion referees.  Each fleet is entered behind a cover; after each
  volley a result step shows the shooter's grid to peg before the turn passes.
- "cpu": against the computer (its fleet hidden; it thinks from its own seat's view).
  Nobody is to be hidden from, so there is no cover and no result step.
- "tracker": a fully physical game; the defender enters each answer and answers no
  fleet could give are refused.

Stages of the shared screen: setup (the start panel, also opened over a game in
progress), cover (hand the screen to the next placer), place (the placer holds the
screen: `holder()`; the screen then draws that seat's display, the only one with a
fleet, and sends its input as that seat), result, play.  The start panel, the cover
and who holds the screen are the two-seat flow's (companion/play/two_seats.py).

What a seat has in hand (the ship picked to place, its direction, the cell aimed at)
is its `Desk`, whether it plays at the table or from its own screen.  A refusal (the
rules' or the flow's) is raised to the sender as `Refused`, saying why.

Undo: while placing, one's own last ship (`take_back`); in a refereed battle,
only shots of a salvo not fired yet; in a tracked game any action (each was typed
in).  The computer's turn (its whole fleet, a shot, or a salvo with its fire) is
committed as one turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.battleship import display
from companion.games.battleship.ai import LEVELS, BattleshipAI
from companion.games.battleship.fleet import CELLS, label
from companion.games.battleship.rules import VARIANTS
from companion.games.battleship.texts import ROLES, computer_turn, fill_fleet, lineup
from companion.play.controller import TABLE, Offer, Refused, Text, Who, refusal
from companion.play.session import Session
from companion.play.two_seats import TwoSeatFlow

KIND = "battleship"
OPPONENTS = ("2p", "cpu", "tracker")
CHOICES = {"opponent": OPPONENTS, "variant": VARIANTS, "advanced": (False, True), "first": (0, 1),
           "level": tuple(LEVELS)}
CELL_CHOICES = tuple(range(CELLS))


@dataclass
class Desk:
    """A seat's hands: the ship it picked to place, the way it lies, the cell it aims at."""

    ship: str = ""
    direction: str = "h"
    aim: int | None = None


class BattleshipController(TwoSeatFlow):
    KIND = KIND
    SETUP = {"opponent": "2p", "variant": "standard", "advanced": False, "first": 0, "level": "normal"}
    OPTIONS = ("variant", "advanced", "first")
    ROLES = ROLES

    def __init__(self, *args, **kwargs):
        self._stage_offers = {"cover": self.cover_offers, "place": self._offers_place,
                              "result": self._offers_result, "play": self._offers_play}  # (setup: the table's)
        super().__init__(*args, **kwargs)

    def _adopt(self, session: Session | None) -> None:
        self.result: int | None = None  # the shooter whose volley the result step shows
        self.view_other = False  # the table shows the other seat's target grid
        self.desks = {0: Desk(), 1: Desk()}
        super()._adopt(session)

    @property
    def level(self) -> str:
        return self.session.lineup.level

    def roles(self) -> list[str]:
        """Each seat's role (its colour): you and the computer, or player 1 and 2."""
        return ["you", "cpu"] if self.opponent == "cpu" else ["p1", "p2"]

    def peek_seat(self) -> int | None:
        """Against the computer, the table's own seat while the sea shows the computer's shots
        at it: its fleet may be drawn under them (there is nobody at the table to hide it from).
        None otherwise."""
        if self.session is None or self.opponent != "cpu" or self.stage() != "play" or not self.view_other:
            return None
        seat = self.session.players.index("you")
        return seat if seat in self.at_table else None

    # stages ------------------------------------------------------------------------

    def stage(self) -> str:
        if self.choosing:
            return "setup"
        if self.private is not None:
            return "place"
        if self.result is not None:
            return "result"
        return "cover" if self.phase() == "place" and self.table_placer() in self.at_table else "play"

    def phase(self) -> str:
        """The rules' phase of the game in progress: place, shoot, answer or over."""
        return self.session.state.phase

    def to_place(self, seat: int) -> list[str]:
        """The ships `seat` has still to place (its own view says so)."""
        return self.session.state.view(seat).get("to_place", [])

    def ship(self, seat: int) -> str:
        """The ship `seat` places next: the one it picked, else the first one left ("" when done)."""
        left = self.to_place(seat)
        picked = self.desks[seat].ship
        return picked if picked in left else (left[0] if left else "")

    def shooter(self, who: Who) -> int | None:
        """The seat whose shots `who` may call now on the sea (None: nobody's)."""
        state = self.session.state
        if self.stage() != "play" or self.phase() != "shoot" or not self.mine(who, state.turn):
            return None
        return None if who == TABLE and self.view_other else state.turn

    def aim(self, who: Who) -> int | None:
        seat = self.shooter(who)
        return None if seat is None else self.desks[seat].aim

    def can_fire(self, who: Who) -> bool:
        seat = self.shooter(who)
        if seat is None:
            return False
        state = self.session.state
        if state.salvo:
            return len(state.pending) == state.shots_allowed() > 0
        return self.desks[seat].aim is not None

    # offers ------------------------------------------------------------------------

    def offers(self, who: Who) -> list[Offer]:
        stage = self.stage_of(who)
        found = [] if stage == "setup" else self._stage_offers[stage](who)
        if who == TABLE:
            found += self._table_offers(stage)
        return found + ([] if stage == "setup" else self.undo_offer(who))

    def _table_offers(self, stage: str) -> list[Offer]:
        if stage == "setup":
            found = [Offer(name, choices=values) for name, values in CHOICES.items()
                     if name != "level" or self.setup["opponent"] == "cpu"]
            found.append(Offer("start", Text("battleship_ui.start")))
            return found + ([Offer("back", Text("battleship_ui.back_to_game"))] if self.session else [])
        found = [Offer("new", Text("battleship_ui.new"))] if stage in ("cover", "play") else []
        if stage == "play" and self.phase() in ("shoot", "over"):  # once there are shots to look at
            found.append(Offer("toggle"))
        return found + self.review_offers()

    def _offers_place(self, who: Who) -> list[Offer]:
        seat = self.placing(who)
        if who != seat:
            return []
        if seat in self.remote:  # a phone's fleet, once in, waits for the other: nothing to hide
            return self._placing(seat) if self.to_place(seat) else []
        back = [Offer("new", Text("battleship_ui.to_setup"))]  # the start panel, the game kept behind it
        if not self.to_place(seat):
            return [Offer("done", Text("battleship_ui.fleet_done"), seat)] + back
        return self._placing(seat) + back

    def _placing(self, seat: int) -> list[Offer]:
        return [Offer("ship", seat=seat, choices=tuple(self.to_place(seat))), Offer("rotate", seat=seat),
                Offer("cell", seat=seat, choices=CELL_CHOICES), Offer("random", seat=seat)]

    def _offers_result(self, who: Who) -> list[Offer]:
        """The table, or either phone, goes on once the volley is pegged."""
        if who != TABLE and who not in self.remote:
            return []
        return [Offer("continue", Text("battleship_ui.next_turn",
                                       {"player": self.names[self.session.state.to_move()]}))]

    def _offers_play(self, who: Who) -> list[Offer]:
        state = self.session.state
        seat = state.to_move()
        if not self.mine(who, seat):
            return []
        found = [Offer("move", seat=seat)]  # a rules action as it is, e.g. from a phone
        if self.phase() == "answer":
            return found + [Offer("answer", seat=seat, choices=tuple(state.answer_options()))]
        if self.shooter(who) is not None:
            found.append(Offer("cell", seat=seat, choices=CELL_CHOICES))
            if self.can_fire(who):
                found.append(Offer("fire", seat=seat))
        return found

    # undo ----------------------------------------------------------------------------

    def undoer(self, who: Who) -> bool:
        """Whether `who` is offered Undo (not placing): the table, or the seat to move for its own shots."""
        return who == TABLE or self.mine(who, self.session.state.turn)

    def undo_points(self) -> list[int]:
        """Back one action, when Undo may take it back now (see the module's docstring; placing: `take_back`)."""
        session = self.session
        if session is None or not session.actions or self.computer_to_move() is not None or self.stage() != "play":
            return []
        state = session.state
        allowed = self.opponent == "tracker" or (self.phase() == "shoot" and bool(state.pending))
        return [len(session.actions) - 1] if allowed else []

    # input ---------------------------------------------------------------------------

    def _play(self, actions: list) -> None:
        """A person's move, or the rules' `Refused` saying why."""
        state = self.session.state
        shooter, fired = state.turn, len(state.shots[state.turn])
        self.play_turn(actions)
        for desk in self.desks.values():
            desk.aim = None
        self.view_other = False
        after = self.session.state
        if self.opponent == "2p" and not after.is_over() and len(after.shots[shooter]) > fired:
            self.result = shooter  # both peg the volley before the turn passes

    def handlers(self) -> dict:
        choose = {name: lambda who, seat, value, name=name: self.setup.update({name: value}) for name in CHOICES}
        return super().handlers() | choose | {
            "move": self.on_move, "cell": self.on_cell, "fire": self.on_fire, "answer": self.on_answer,
            "ship": self.on_ship, "rotate": self.on_rotate, "random": self.on_random, "done": self.on_hide,
            "continue": self.on_continue, "toggle": self.on_toggle, "start": self.on_start}

    def on_move(self, who: Who, seat, action) -> None:
        self._play([self.placed_by(seat, action)])

    def on_cell(self, who: Who, seat, cell: int) -> None:
        state, desk = self.session.state, self.desks[seat]
        if self.phase() == "place":
            self._play([self.placed_by(seat, {"type": "place", "ship": self.ship(seat), "cell": label(cell),
                                              "dir": desk.direction})])
            return
        shot = {"type": "shot", "cell": label(cell)}
        if state.salvo:
            if state.pending and state.pending[-1] == cell:
                self.on_undo(who, seat, None)  # a second tap on the last shot entered takes it back
            else:
                self._play([shot])
        elif cell == desk.aim:
            self._play([shot])  # a second tap fires
        else:
            state.apply(shot)  # check only (Refused if not): one shot a turn is aimed, then fired
            desk.aim = cell

    def on_fire(self, who: Who, seat, value) -> None:
        if self.session.state.salvo:
            self._play([{"type": "fire"}])
        else:
            self._play([{"type": "shot", "cell": label(self.desks[seat].aim)}])

    def on_answer(self, who: Who, seat, given: dict) -> None:
        try:
            self._play([{"type": "answer", **given}])
        except Refused as why:  # in the tracker's words: no fleet could answer so
            raise Refused("battleship_ui.answer_refused", why=refusal(why)) from None

    def on_ship(self, who: Who, seat, ship: str) -> None:
        self.desks[seat].ship = ship

    def on_rotate(self, who: Who, seat, value) -> None:
        desk = self.desks[seat]
        desk.direction = "v" if desk.direction == "h" else "h"

    def on_random(self, who: Who, seat, value) -> None:
        self._play([self.placed_by(seat, action) for action in fill_fleet(self.session.state.view(seat), self.rng)])

    def on_continue(self, who: Who, seat, value) -> None:
        self.result = None

    def on_toggle(self, who: Who, seat, value) -> None:
        self.view_other = not self.view_other
        for desk in self.desks.values():
            desk.aim = None

    # the start panel (the table's) ---------------------------------------------------

    def on_start(self, who: Who, seat, value) -> None:
        """A new game as the panel describes, with the names typed (else the roles)."""
        self.start_game(lineup(self.setup["opponent"], value))

    # the computer --------------------------------------------------------------------

    def computer_to_move(self) -> int | None:
        return super().computer_to_move() if self.session and self.stage() == "play" else None

    def thinker(self, seat: int):
        view, level, seed = self.session.state.view(seat), self.level, self.rng.random()

        def think() -> list:
            rng = random.Random(seed)
            return computer_turn(BattleshipAI(seat, level, rng), view, rng)
        return think

    # display -------------------------------------------------------------------------

    def display(self, who: Who) -> dict:
        return display.model(self, who)

