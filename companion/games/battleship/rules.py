"""海戰棋 Battleship, the 1931 classic (docs/rules.md §battleship).

Options
- variant: "standard" (one shot a turn) or "salvo" (as many shots a turn as the
  shooter has ships afloat; shots are entered one at a time, then "fire").
- advanced: hits are answered without naming the ship type.  **Decision:** the
  seed exempts only the *hit* report ("無須告知對方被擊中的軍艦種類名稱"); the
  sinking is a separate declaration it keeps ("並向攻擊方進行宣告"), so a sunk
  ship is still announced, by type, on the shot that sinks it.  Salvo needs it
  anyway: a player's shots per turn are the ships they still have afloat.
- first: the seat that shoots first.
- mode: "referee": the companion knows both fleets (secret placement phase,
  each ship placed in turn; a "random fleet" is the UI choosing placements)
  and answers every shot itself.  "tracker": the fleets stay on the physical
  boards; after each shot the defender enters the answer, and answers that no
  fleet could have given (see `deduce`) are refused.

Actions (cells spelled "A1".."J10", ships by their English key)
- {"type": "place", "ship": "cruiser", "cell": "C3", "dir": "h"|"v"}  top/left end, for
  the first seat still placing, or with "seat": 1 for that one (seats placing on screens
  of their own place at the same time); {"type": "unplace", "seat": 1} takes back its
  last ship while fleets go in.  The shooting begins once both fleets are in.
- {"type": "shot", "cell": "B5"}
- {"type": "fire"}  salvo: resolve the shots entered this turn
- {"type": "answer", "result": "miss"|"hit"|"sunk", "ship": ...}  tracker only;
  no "ship" for a miss, nor for a hit in advanced mode.

A repeated shot at a cell already called is refused (docs/rules.md §battleship, our ruling).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from companion import i18n
from companion.errors import CompanionError
from companion.play.state import Game, Refused, Outcome, State, one_of
from companion.games.battleship import views
from companion.games.battleship.views import own_cell  # noqa: F401  (how views spell a fleet cell)
from companion.games.battleship.deduce import consistent
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, cells_of, index, label, placements, run

VARIANTS = ("standard", "salvo")
MODES = ("referee", "tracker")


class Ending(StrEnum):
    """How a game ends (its `Outcome.reason`)."""

    FLEET_SUNK = "fleet_sunk"  # every ship of the other fleet sunk
# a shot as stored: (cell, result, ship or None, volley number of its shooter)
Shot = tuple[int, str, "str | None", int]


@dataclass(frozen=True, eq=False)
class BattleshipState(State):
    """A position: the fleets placed (referee mode), the shots of each seat, the turn.

    `shots[s]` are the answered shots seat s fired at the other seat's sea, in
    order; `pending` the current shooter's shots not answered yet; `answering`
    is true in tracker mode once they wait for the defender's answers.
    """

    game = "battleship"
    options: dict
    fleets: tuple = ((), ())  # per seat: ((ship, start cell, dir), ...)
    shots: tuple = ((), ())
    pending: tuple = ()
    turn: int = 0
    answering: bool = False

    # -- facts -----------------------------------------------------------------
    @property
    def seats(self) -> int:
        return 2

    @property
    def referee(self) -> bool:
        return self.options["mode"] == "referee"

    @property
    def salvo(self) -> bool:
        return self.options["variant"] == "salvo"

    def placer(self) -> int | None:
        """The seat still placing ships (referee mode), first player first."""
        placers = self.placers()
        return placers[0] if placers else None

    def placers(self) -> tuple[int, ...]:
        """The seats still placing ships (referee mode), first player first."""
        if not self.referee:
            return ()
        first = self.options["first"]
        return tuple(seat for seat in (first, 1 - first) if len(self.fleets[seat]) < len(NAMES))

    def sunk(self, shooter: int) -> list[str]:
        """The ships `shooter` has sunk, in order."""
        return self._sunk[shooter]

    @cached_property
    def _sunk(self) -> tuple[list[str], ...]:  # per seat
        return tuple([ship for _, result, ship, _ in shots if result == "sunk"] for shots in self.shots)

    def afloat(self, seat: int) -> int:
        return len(NAMES) - len(self.sunk(1 - seat))

    def called(self, shooter: int) -> set[int]:
        """Cells `shooter` has called, answered or not."""
        return self._answered[shooter] | set(self.pending)

    @cached_property
    def _answered(self) -> tuple[set[int], ...]:  # per seat
        return tuple({shot[0] for shot in shots} for shots in self.shots)

    def shots_allowed(self) -> int:
        """How many shots the current shooter calls this turn."""
        if not self.salvo:
            return 1
        return min(self.afloat(self.turn), CELLS - len(self.shots[self.turn]))

    def outcome(self) -> Outcome | None:
        for seat in (0, 1):
            if len(self.sunk(seat)) == len(NAMES):
                return Outcome(seat, Ending.FLEET_SUNK, tuple(float(len(s)) for s in self.shots))
        return None

    def to_move(self) -> int | None:
        if self.is_over():
            return None
        placer = self.placer()
        if placer is not None:
            return placer
        return 1 - self.turn if self.answering else self.turn

    def fleet_cells(self, seat: int) -> dict[int, str]:
        """Cell -> ship of seat's placed ships (referee mode)."""
        return self._fleet_cells[seat]

    @cached_property
    def _fleet_cells(self) -> tuple[dict[int, str], ...]:  # per seat
        return tuple({c: ship for ship, start, d in fleet for c in cells_of(start, LENGTH[ship], d)}
                     for fleet in self.fleets)

    def record(self, shooter: int) -> tuple:
        """Shooter's answered shots as (cell, result, ship) for `deduce`."""
        return tuple(shot[:3] for shot in self.shots[shooter])

    # -- actions ---------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        if self.is_over():
            return []
        placer = self.placer()
        if placer is not None:
            return self._placements(placer)
        if self.answering:
            return self._answers()
        actions = []
        if len(self.pending) < self.shots_allowed():
            called = self.called(self.turn)
            actions = [{"type": "shot", "cell": label(c)} for c in range(CELLS) if c not in called]
        elif self.salvo:
            actions = [{"type": "fire"}]
        return actions

    def _placements(self, seat: int) -> list[dict]:
        taken = set(self.fleet_cells(seat))
        placed = {ship for ship, _, _ in self.fleets[seat]}
        return [{"type": "place", "ship": ship, "cell": label(start), "dir": d}
                for ship in NAMES if ship not in placed
                for start, d, _ in placements(LENGTH[ship])
                if taken.isdisjoint(cells_of(start, LENGTH[ship], d))]

    def answer_options(self) -> list[dict]:
        """The answers the defender's pad offers (tracker): miss, hit (by type unless advanced), sunk by type."""
        advanced = self.options["advanced"]
        afloat = [ship for ship in NAMES if ship not in self.sunk(self.turn)]
        hits = [{"result": "hit"}] if advanced else [{"result": "hit", "ship": s} for s in afloat]
        return [{"result": "miss"}, *hits, *({"result": "sunk", "ship": s} for s in afloat)]

    def _answers(self) -> list[dict]:
        record, cell = self.record(self.turn), self.pending[0]
        return [{"type": "answer", **a} for a in self.answer_options()
                if consistent(record + ((cell, a["result"], a.get("ship")),))]

    def apply(self, action: Any) -> "BattleshipState":
        if self.is_over():
            raise Refused("battleship_errors.game_over")
        kind = action.get("type") if isinstance(action, dict) else None
        kind = kind if isinstance(kind, str) else ""  # (no handler's)
        handler = {"place": self._place, "unplace": self._unplace, "shot": self._shot, "fire": self._fire,
                   "answer": self._answer}.get(kind)
        if handler is None:
            raise Refused("battleship_errors.unknown_action", action=action)
        return handler(action)

    def _expect_keys(self, action: dict, keys: set) -> None:
        if set(action) != keys | {"type"}:
            raise Refused("battleship_errors.fields", type=action["type"], fields=sorted(keys))

    def _cell(self, text: Any) -> int:
        try:
            cell = index(text)
        except CompanionError as error:
            raise Refused("battleship_errors.not_a_cell", cell=text) from error
        if label(cell) != text:
            raise Refused("battleship_errors.write_cell_as", cell=label(cell))
        return cell

    def _place(self, action: dict) -> "BattleshipState":
        seat = self._placing_seat(action, {"ship", "cell", "dir"})
        if not one_of(seat, self.placers()):
            raise Refused("battleship_errors.fleet_in", seat=seat)
        ship, direction = action["ship"], action["dir"]
        if not isinstance(ship, str) or ship not in LENGTH:
            raise Refused("battleship_errors.no_such_ship", ship=ship, ships=list(NAMES))
        if any(ship == placed for placed, _, _ in self.fleets[seat]):
            raise Refused("battleship_errors.placed", ship=ship)
        if direction not in ("h", "v"):
            raise Refused("battleship_errors.direction")
        start = self._cell(action["cell"])
        cells = run(start, LENGTH[ship], direction)
        if cells is None:
            raise Refused("battleship_errors.outside", ship=ship)
        if not set(self.fleet_cells(seat)).isdisjoint(cells):
            raise Refused("battleship_errors.overlap", ship=ship)
        return self._fleet(seat, self.fleets[seat] + ((ship, start, direction),))

    def _unplace(self, action: dict) -> "BattleshipState":
        seat = self._placing_seat(action, {"seat"})
        if not one_of(seat, (0, 1)) or not self.fleets[seat]:
            raise Refused("battleship_errors.none_to_unplace", seat=seat)
        return self._fleet(seat, self.fleets[seat][:-1])

    def _placing_seat(self, action: dict, keys: set):
        """The seat a placing action is for: the one it names, else the placer's."""
        if self.placer() is None:
            raise Refused("battleship_errors.not_placing")
        if set(action) - {"seat"} != keys - {"seat"} | {"type"} or keys - set(action):
            raise Refused("battleship_errors.fields", type=action["type"], fields=sorted(keys))
        return action.get("seat", self.placer())

    def _fleet(self, seat: int, fleet: tuple) -> "BattleshipState":
        return self.evolve(fleets=tuple(fleet if s == seat else self.fleets[s] for s in (0, 1)))

    def _shot(self, action: dict) -> "BattleshipState":
        if self.placer() is not None:
            raise Refused("battleship_errors.place_first")
        if self.answering:
            raise Refused("battleship_errors.waiting_answer")
        self._expect_keys(action, {"cell"})
        cell = self._cell(action["cell"])
        if cell in self.called(self.turn):
            raise Refused("battleship_errors.called", cell=label(cell))
        if len(self.pending) >= self.shots_allowed():
            raise Refused("battleship_errors.no_shots_left")
        state = self.evolve(pending=self.pending + (cell,))
        return state if self.salvo else state._resolve()

    def _fire(self, action: dict) -> "BattleshipState":
        self._expect_keys(action, set())
        if not self.salvo or self.answering or self.placer() is not None:
            raise Refused("battleship_errors.no_salvo")
        if len(self.pending) != self.shots_allowed():
            raise Refused("battleship_errors.call_all", shots=self.shots_allowed())
        return self._resolve()

    def _resolve(self) -> "BattleshipState":
        """Answer the pending shots: by the fleet (referee) or by the defender (tracker)."""
        if not self.referee:
            return self.evolve(answering=True)
        fleet, volley = self.fleet_cells(1 - self.turn), self._volley()
        hit = {shot[0] for shot in self.shots[self.turn] if shot[1] != "miss"}
        new: list[tuple[int, str, str | None, int]] = []  # (cell, result, ship, volley)
        for cell in self.pending:
            ship = fleet.get(cell)
            if ship is None:
                new.append((cell, "miss", None, volley))
                continue
            hit.add(cell)
            whole = all(c in hit for c, s in fleet.items() if s == ship)
            new.append((cell, "sunk" if whole else "hit", ship, volley))
        return self._after_volley(self.shots[self.turn] + tuple(new))

    def _answer(self, action: dict) -> "BattleshipState":
        if not self.answering:
            raise Refused("battleship_errors.no_question")
        given = {k: v for k, v in action.items() if k != "type"}
        if given not in self.answer_options():
            raise Refused("battleship_errors.bad_answer", answer=given, options=self.answer_options())
        cell = self.pending[0]
        shot = (cell, given["result"], given.get("ship"))
        if not consistent(self.record(self.turn) + (shot,)):
            raise Refused(f"battleship_errors.contradicts_{given['result']}", cell=label(cell),
                                ship=given.get("ship", ""))
        shots = self.shots[self.turn] + (shot + (self._volley(),),)
        if len(self.pending) > 1:
            state = self.evolve(shots=self._set_shots(shots), pending=self.pending[1:])
            return state if not state.is_over() else state.evolve(pending=(), answering=False)
        return self._after_volley(shots)

    def _volley(self) -> int:
        """The number of the current shooter's turn (0 for its first), for announcements."""
        other = self.shots[1 - self.turn]
        done = other[-1][3] + 1 if other else 0  # the opponent's finished turns
        return done if self.turn == self.options["first"] else done - 1

    def _set_shots(self, shots: tuple) -> tuple:
        both = list(self.shots)
        both[self.turn] = shots
        return tuple(both)

    def _after_volley(self, shots: tuple) -> "BattleshipState":
        state = self.evolve(shots=self._set_shots(shots), pending=(), answering=False)
        return state if state.is_over() else state.evolve(turn=1 - self.turn)

    # -- JSON and views --------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "options": dict(self.options),
            "fleets": [[{"ship": s, "cell": label(c), "dir": d} for s, c, d in f] for f in self.fleets],
            "shots": [[{"cell": label(c), "result": r, "ship": s, "volley": v} for c, r, s, v in shots]
                      for shots in self.shots],
            "pending": [label(c) for c in self.pending],
            "turn": self.turn,
            "answering": self.answering,
        }

    @property
    def phase(self) -> str:
        """"place", "shoot", "answer" or "over"."""
        if self.is_over():
            return "over"
        if self.placer() is not None:
            return "place"
        return "answer" if self.answering else "shoot"

    def view(self, seat: int | None) -> dict:
        return views.view(self, seat)

    def secrets(self, seat: int) -> list[str]:
        return views.secrets(self, seat)


def _new_state(options: dict) -> BattleshipState:
    if options["variant"] not in VARIANTS:
        raise Refused("battleship_errors.bad_option", key="variant", allowed=list(VARIANTS))
    if options["mode"] not in MODES:
        raise Refused("battleship_errors.bad_option", key="mode", allowed=list(MODES))
    if not one_of(options["first"], (0, 1)):
        raise Refused("battleship_errors.bad_option", key="first", allowed=[0, 1])
    if not isinstance(options["advanced"], bool):
        raise Refused("battleship_errors.bad_option", key="advanced", allowed=[True, False])
    return BattleshipState(options=dict(options), turn=options["first"])


def _state_from_json(data: dict) -> BattleshipState:
    try:
        options = GAME.options(data["options"])
        state = _new_state(options)
        fleets = tuple(tuple((p["ship"], index(p["cell"]), p["dir"]) for p in f) for f in data["fleets"])
        shots = tuple(tuple((index(s["cell"]), s["result"], s["ship"], s["volley"]) for s in side)
                      for side in data["shots"])
        return state.evolve(fleets=fleets, shots=shots, pending=tuple(index(c) for c in data["pending"]),
                           turn=data["turn"], answering=data["answering"])
    except (KeyError, TypeError, CompanionError) as error:
        raise Refused("battleship_errors.bad_saved_state", error=str(error)) from None


GAME = Game(
    name="battleship",
    title=i18n.both("battleship.title"),
    default_options={"variant": "standard", "advanced": False, "first": 0, "mode": "referee"},
    new_state_fn=_new_state,
    state_from_json_fn=_state_from_json,
    sample_options=(
        {},
        {"variant": "salvo", "advanced": True, "first": 1},
        {"mode": "tracker", "variant": "salvo", "advanced": True},
    ),
    place=4, glyph="戦", colour=(0.15, 0.40, 0.55, 1),  # its home tile
    describe_fn=lambda options: [i18n.Words(f"battleship.mode.{options['variant']}")]
                                + ([i18n.Words("battleship.mode.advanced")] if options["advanced"] else []),
    endings=Ending,
)
