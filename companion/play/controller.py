"""The flow of play, free of Kivy (docs/design.md, principle 5).

A controller owns one game in progress (a `Session`) and everything about it that is
not a rule: the stage, what each seat may do now (its *offers*), what Undo takes back,
and the computer's turns.  Renderers (the table's Kivy screen, a phone page) read its
display models and send input back as plain calls tagged with who sent it:

    controller.act(seat, "cell", 40)    # refused unless an offer of `seat` allows it
    controller.display(seat)            # JSON: what that seat's renderer draws
    controller.display(TABLE)           # the shared screen's model: no seat's secrets

`TABLE` is the shared screen; it acts for the seats that play at it (`at_table`).
`remote` names the seats held by phones: a game with secrets keeps the table out of them.
Every text in a display model is a `Text` (a message key and its values) so that each
renderer translates in its own language.

A finished game is reviewed move by move (`review()`, companion/play/review.py): a
subclass adds `review_offers()` to the table's offers and draws `shown()`, the state
the review stands at, instead of the session's.

Computer turns are handed to the host, which owns threads: `computer_turn()` gives a
`ComputerTurn` whose `think()` is pure and may run anywhere; `computer_done(turn,
actions)` commits its actions as one turn, unless the game moved on meanwhile.

A subclass implements `stage()`, `offers()`, `display()` and `handlers()`: the table
from each kind of offer it makes to its handler, `handler(who, seat, value)` (who sent
it, the seat its offer acts for, the value), built once.  A handler returning False
changed nothing, so the listeners are not called (a sensor's input at many a second);
a refusal is raised as `Refused` and changes nothing.  `play_turn` commits actions
through `Session.play_all` (one transaction, undone as one).  Undo is one contract:
`undo_points()` says where it may go back to, the "undo" kind goes to the nearest.
Offers are computed once per change and input: the table's screen and every phone
read the same ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from companion.i18n import translate
from companion.play.review import STEPS, Review
from companion.play.session import Session
from companion.play.state import Action, Refused, State

TABLE = "table"  # the shared screen as the sender of an input or the reader of a display
Who = int | str  # a seat number, or TABLE


@dataclass(frozen=True)
class Text:
    """Words for a person, as a message key and values (a value may itself be a Text)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": {k: v.to_json() if isinstance(v, Text) else v
                                            for k, v in self.params.items()}}

    def render(self, tr: Callable[..., str]) -> str:
        """In words, through `tr(key, **values)` (a catalog lookup in one language)."""
        return tr(self.key, **{k: v.render(tr) if isinstance(v, Text) else v for k, v in self.params.items()})

    def say(self, lang: str) -> str:
        """In words of `lang`, from the locale catalogs."""
        return self.render(lambda key, /, **values: translate(key, lang, **values))


@dataclass(frozen=True)
class Offer:
    """Something a seat may do now.

    `kind` names the input (`act(who, kind, value)` dispatches to `on_<kind>`), `seat`
    is the rules seat it acts for (None: not a seat's move, e.g. a new game), `label`
    the words on its button, `choices` the values it accepts (empty: any value).
    """

    kind: str
    label: Text | None = None
    seat: int | None = None
    choices: tuple[Any, ...] = ()

    def accepts(self, value: Any) -> bool:
        return not self.choices or value in self.choices

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label.to_json() if self.label else None,
                "seat": self.seat, "choices": list(self.choices)}


def to_json(value: Any) -> Any:
    """A display model as plain JSON (for a phone): Texts and Offers spelled out."""
    if isinstance(value, (Text, Offer)):
        return value.to_json()
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def refusal(error: Refused) -> Text:
    """A refusal (`Refused`) as words for a person: its key and values."""
    return Text(error.key, error.params)


@dataclass(frozen=True)
class ComputerTurn:
    """A computer's turn to think: `think()` returns the actions of its whole turn."""

    seat: int
    think: Callable[[], list[Action]]
    epoch: int  # the position it was asked at; an answer to an older one is dropped


Handler = Callable[[Who, "int | None", Any], "bool | None"]  # (who, seat, value); False: nothing changed


class Controller:
    """The flow of one game; see the module's docstring.  Subclasses fill in the game."""

    def __init__(self, session: Session | None):
        self.session = session  # None while no game is on (a start panel)
        self.epoch = 0  # bumps on every change, so stale computer answers are known
        self.listeners: list[Callable[[], None]] = []  # called after every change
        self.remote: frozenset[int] = frozenset()  # seats held by phones (`hold_remote`)
        self._reviewed: Review | None = None
        self._handlers: dict[str, Handler] | None = None
        self._offers: dict[Who, Any] = {}  # this change's offers, per reader (and "at": the position they are of)
        self._handling = False  # a handler runs: offers are not kept

    # what a subclass says ------------------------------------------------------------

    @property
    def playing(self) -> Session:
        """The game in progress, where there must be one (its offers, displays and turns)."""
        if self.session is None:
            raise RuntimeError(f"{type(self).__name__}: no game in progress")
        return self.session

    @property
    def computer_seats(self) -> frozenset[int]:
        """The seats the computer plays."""
        return frozenset()

    @property
    def at_table(self) -> frozenset[int]:
        """The seats that play at the shared screen (TABLE acts for them)."""
        return frozenset(range(self.playing.state.seats)) - self.computer_seats

    @property
    def names(self) -> list[str | Text]:
        """Each seat's name for people: a string as typed, or a `Text`."""
        return list(self.playing.players)

    def holder(self) -> Who:
        """Who has the shared screen now (TABLE, or a seat while it enters a secret there)."""
        return TABLE

    def stage(self) -> str:
        raise NotImplementedError

    def offers(self, who: Who) -> list[Offer]:
        """What `who` may do now.  TABLE's offers include those of the seats at the table."""
        raise NotImplementedError

    def offered(self, who: Who) -> list[Offer]:
        """`offers(who)`, computed once until the next change or input (or a move that
        reached the session by another way); afresh while a handler runs (it moves things)."""
        if self._handling:
            return self.offers(who)
        session = self.session
        position = None if session is None else (session.id, len(session.actions))
        if self._offers.get("at") != position:
            self._offers = {"at": position}
        if who not in self._offers:
            self._offers[who] = self.offers(who)
        offers: list[Offer] = self._offers[who]
        return offers

    def handlers(self) -> dict[str, Handler]:
        """Each kind of offer and its handler (a subclass adds its own to these)."""
        return {"review": self.on_review, "undo": self.on_undo}

    def display(self, who: Who) -> dict[str, Any]:
        """The display model for `who` (JSON values and `Text`s)."""
        raise NotImplementedError

    # input ---------------------------------------------------------------------------

    def act(self, who: Who, kind: str, value: Any = None) -> None:
        """Input `kind` (with `value`) from `who`; `Refused` unless one of its offers allows it."""
        offer = next((o for o in self.offered(who) if o.kind == kind and o.accepts(value)), None)
        if offer is None and self._offered_to_another(who, kind, value):
            raise Refused("play.not_yours", kind=kind)
        if offer is None:
            raise Refused("play.not_now", kind=kind)
        if self._handlers is None:
            self._handlers = self.handlers()
        self._handling = True
        try:
            taken = self._handlers[kind](who, offer.seat, value) is not False
        finally:
            self._handling = False
            self._offers.clear()  # a handler may have moved something (a sensor's, unsaid)
        if taken:
            self.changed()

    def _offered_to_another(self, who: Who, kind: str, value: Any) -> bool:
        """Whether a seat's input is, at the table, another seat's to do now (whose turn is public)."""
        return who != TABLE and any(o.kind == kind and o.seat not in (None, who) and o.accepts(value)
                                    for o in self.offered(TABLE))

    def hold_remote(self, seats: frozenset[int]) -> None:
        """Phones hold `seats` now (companion/seats says so): the game hears it as a change."""
        if seats != self.remote:
            self.remote = seats
            self.changed()

    def moved(self) -> bool:
        """Whether this change moves the epoch (a stale computer answer is dropped): always here."""
        return True

    def changed(self) -> None:
        self._offers.clear()
        if self.moved():
            self.epoch += 1
        for listener in list(self.listeners):
            listener()

    # the review of a finished game -------------------------------------------------

    def review(self) -> Review | None:
        """The review of the game, once it is over (None while it is played)."""
        session = self.session
        if session is None or not session.state.is_over():
            self._reviewed = None
        elif self._reviewed is None or not self._reviewed.fits(session):
            self._reviewed = Review(session)
        return self._reviewed

    def review_offers(self) -> list[Offer]:
        """◀ ▶ through a finished game (the table's)."""
        return [Offer("review", choices=STEPS)] if self.review() else []

    def review_text(self) -> Text | None:
        """Where the review stands ("move 12 / 38"), None when there is none."""
        review = self.review()
        return None if review is None else Text("play.review", {"i": review.at, "n": review.n})

    def shown(self) -> State:
        """The state to draw: where the review stands, else the game's own."""
        review = self.review()
        return review.state if review else self.playing.state

    def on_review(self, who: Who, seat: int | None, step: int) -> bool:
        review = self.review()
        assert review is not None, "the review offer is made only while there is a review"
        return review.step(step)

    # turns and undo ------------------------------------------------------------------

    def play_turn(self, actions: list[Action]) -> None:
        """Commit one turn (one or several actions) atomically."""
        self.playing.play_all(actions)

    def turns(self) -> list[tuple[int | None, int]]:
        """(seat, first action's index) of every turn so far: runs of one mover's actions."""
        found: list[tuple[int | None, int]] = []
        for index, state in enumerate(self.playing.history()[:-1]):
            seat = state.to_move()
            if not found or found[-1][0] != seat:
                found.append((seat, index))
        return found

    def undo_points(self) -> list[int]:
        """How many actions may stay after an Undo now, the nearest first ([]: no Undo now)."""
        return []

    def on_undo(self, who: Who, seat: int | None, value: Any) -> None:
        """Undo: back to the nearest of `undo_points()` (a game adds what else goes with it)."""
        points = self.undo_points()
        if not points:
            raise Refused("play.not_now", kind="undo")
        self.undo_to(points[0])

    def undo_to(self, count: int) -> None:
        """Take back everything after the first `count` actions."""
        session = self.playing
        session.undo(len(session.actions) - count)

    # the computer --------------------------------------------------------------------

    def computer_to_move(self) -> int | None:
        seats = self.computer_seats
        if not seats:
            return None  # a game of people only (perhaps not begun yet)
        seat = self.playing.state.to_move()
        return seat if seat in seats else None

    def computer_turn(self) -> ComputerTurn | None:
        """The computer's turn to think about now, or None."""
        seat = self.computer_to_move()
        return None if seat is None else ComputerTurn(seat, self.thinker(seat), self.epoch)

    def thinker(self, seat: int) -> Callable[[], list[Action]]:
        """A pure function of the current position giving `seat`'s turn."""
        raise NotImplementedError

    def computer_done(self, turn: ComputerTurn, actions: list[Action]) -> bool:
        """Commit a computer's answer; False (nothing done) when the game moved on."""
        if turn.epoch != self.epoch or self.computer_to_move() != turn.seat:
            return False
        self.play_turn(actions)
        self.changed()
        return True
