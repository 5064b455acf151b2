"""The contract every game's rules follow (docs/design.md, principle 1).

A game is a pure state machine.  A state lists its legal actions, applies one
(validated: an illegal action raises `Refused` saying why and leaves the
state untouched; `action in state` asks without applying it), reports whether
it is over and its outcome, round-trips through JSON, and gives a view per seat
and a public view.  States are
immutable values: `apply` returns a new state.

Every action is a small JSON object `{"type": kind, ...named fields}` (no tuples inside),
its kinds listed in the game's rules module, so that the action log in SQLite is the
truth and replaying it rebuilds the state exactly.
Randomness never happens inside the rules: a die roll or a shuffle is a
*chance* decision, made at a state whose `to_move()` is `CHANCE`; its legal
actions are the possible outcomes, chosen by a seeded RNG or entered by the
players from a real die.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import Field, asdict, dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Self

from companion.errors import CompanionError
from companion.i18n import translate

Action = Any  # a JSON object {"type": kind, ...}; Any, as `apply` is handed anything to refuse

CHANCE = -1  # `to_move()` of a state waiting for a die, a draw or a shuffle


class Refused(CompanionError, ValueError):
    """Input refused, saying why for a person: an action or option the rules refuse, an
    input no offer of its sender allows now, a phone's frame the room will not take.

    The one refusal of the companion: rules, controllers and the phones' room raise it,
    every screen and phone shows it the same way.  `key` names the message in the
    locale catalogs ("kuku_errors.cell_attacked") and `params` fill it in (a value may
    be a `Text`); `text(lang)` is the message in a language, `str()` in English.
    """

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key, self.params = key, params
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        return translate(self.key, lang, **{k: v.say(lang) if hasattr(v, "say") else v
                                             for k, v in self.params.items()})




def one_of(value: Any, allowed: Iterable[Any]) -> bool:
    """`value in allowed`, but of the same type: 0.0 and True are not the seat 0 or 1."""
    return any(type(value) is type(choice) and value == choice for choice in allowed)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `winner` is a seat number, or None for a draw / no single winner.
    `reason` is one of the game's `Ending`s (a `StrEnum`: its value, "port_captured",
    "three_boards", ..., is what the log holds and the screens translate; read back from
    JSON it is that string, equal to the member).  `scores` holds per-seat points where a
    game has them.
    """

    winner: int | None
    reason: str
    scores: tuple[float, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["scores"] = list(self.scores)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Outcome":
        return cls(data["winner"], data["reason"], tuple(data.get("scores", ())))


class State(ABC):
    """One position of a game.  Subclasses are immutable."""

    game: ClassVar[str]  # the registry name of the game this state belongs to
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # every state is a frozen dataclass

    @property
    @abstractmethod
    def seats(self) -> int:
        """How many seats (players) this game has."""

    if TYPE_CHECKING:  # a field of some states, a property of others: read-only either way
        @property
        def phase(self) -> str:
            """The step of play: a short machine key ("place", "play", "declare", ...), "over"
            exactly when the game is over."""

    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to act, `CHANCE` for a random event, None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action `apply` accepts now (empty when the game is over)."""

    @abstractmethod
    def apply(self, action: Action) -> "State":
        """The state after `action`; raises `Refused` (self unchanged) if refused."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else None."""

    def is_over(self) -> bool:
        return self.outcome() is not None

    def __contains__(self, action: object) -> bool:
        """`action in state`: whether `apply` takes it now."""
        try:
            self.apply(action)
        except Refused:
            return False
        return True

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild this state (see `Game.state_from_json`)."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: the shared screen).  JSON only, no secrets of others."""

    def secrets(self, seat: int) -> list[str]:
        """Strings that `seat` knows and the public view must never contain.

        The conformance suite checks every public view against these; a game
        with hidden information returns, for example, its still-hidden ship
        cells in the very spelling its views use.
        """
        return []

    def evolve(self, **changes: Any) -> Self:
        """A copy with `changes`: the one way a new state is written (`apply` returns one).

        States are frozen dataclasses; this is `dataclasses.replace` without re-running
        `__init__` (the fields are the rules' own, already checked), and it leaves
        cached derived facts behind.
        """
        new = object.__new__(type(self))
        for f in fields(self):
            object.__setattr__(new, f.name, changes.pop(f.name) if f.name in changes else getattr(self, f.name))
        if changes:
            raise TypeError(f"{type(self).__name__} has no field(s) {sorted(changes)}")
        return new

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {json.dumps(self.to_json(), ensure_ascii=False)[:120]}>"


@dataclass(frozen=True)
class Game:
    """A registered game: its name, titles, options and how to make states, and how the
    shell shows it (each may be left out: a plain tile after the others, no mode words).

    `new_state(options)` validates options (raising `Refused` on a bad
    one) after filling in `default_options`.
    """

    name: str
    title: Mapping[str, str]  # {"ja": ..., "en": ...}
    default_options: Mapping[str, Any]
    new_state_fn: Callable[[dict[str, Any]], State]  # given the options filled in and checked
    state_from_json_fn: Callable[[Any], State]  # given what `to_json` wrote, or anything to refuse
    # option sets the conformance suite plays (each merged over the defaults)
    sample_options: tuple[Mapping[str, Any], ...] = ({},)
    place: float = float("inf")  # its place among the home screen's tiles (1 first)
    glyph: str = ""  # the large character drawn on its tile ("": its name's initial)
    colour: tuple[float, ...] = ()  # its tile's colour, RGBA (none: the panels')
    describe_fn: Callable[[Mapping[str, Any]], Iterable[Any]] | None = None  # how a game was set up: [i18n.Words]
    endings: type[StrEnum] | None = None  # every reason its outcomes give (Outcome.reason)

    def mode(self, options: Mapping[str, Any]) -> list[Any]:
        """Words for how a game was set up ("salvo", "3 players"), for History and Resume; [] for none."""
        return list(self.describe_fn(options)) if self.describe_fn else []

    def options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        unknown = set(options or {}) - set(self.default_options)
        if unknown:
            raise Refused("play.unknown_option", game=self.name, unknown=sorted(unknown),
                                allowed=sorted(self.default_options))
        return {**self.default_options, **(options or {})}

    def new_state(self, options: Mapping[str, Any] | None = None) -> State:
        return self.new_state_fn(self.options(options))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """The state `to_json` wrote; anything else is refused as `Refused`."""
        try:
            return self.state_from_json_fn(data)
        except Refused:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise Refused("play.bad_state", game=self.name, error=repr(error)) from None

    def replay(self, options: Mapping[str, Any] | None, actions: Iterable[Action]) -> State:
        """The state after playing `actions` from the start: how a log becomes a game."""
        state = self.new_state(options)
        for action in actions:
            state = state.apply(action)
        return state
