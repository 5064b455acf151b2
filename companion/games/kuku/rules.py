"""九九戦艦 (Kuku Battleship) as a pure state machine (docs/rules.md §kuku).

Two modes share every rule:

* ``referee``: the companion knows both fleets.  Each seat first places its
  ships in secret (one ship per action), then it resolves attacks itself.
* ``tracker``: the fleets stay on the physical boards.  After each attack
  both players report, for the attacked cells, where a ship of theirs sank
  (and, only when the basic rule needs it, which one was the leader); the
  companion keeps the shared markers, judges bomb listings and decides the end.

Actions (plain JSON dicts):

* ``{"type": "place", "kind": "normal"|"leader", "cell": "3×8"}``  (referee set-up) for
  the seat to move (`turn`), or with ``"seat": 1`` for that seat: seats placing on screens
  of their own place at the same time; ``{"type": "unplace", "seat": 1}`` takes back its
  last ship while fleets go in.  The attacks begin once both fleets are in.
* ``{"type": "attack", "cell": "3×8"}``  normal attack
* ``{"type": "bomb", "product": 24}`` then ``{"type": "say", "pair": "3×8"}``...
  then ``{"type": "done"}``  九九ボム, one pair at a time
* ``{"type": "report", "hits": ["3×8", ...]}``  (tracker) where my ships sank
* ``{"type": "leader", "cell": "3×8" | None}``  (tracker, basic rule, both fleets
  gone) which of my ships sunk by this attack was the leader; None = sunk earlier

A ship is spelled ``"0:leader@4×6"`` / ``"1:normal@3×8"`` (its seat, kind and cell)
in the views (views.py); those spellings are the seat's secrets until the game is over,
and no seat's can be mistaken for another's (both may have a ship on one cell).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from companion import i18n
from companion.play.state import Game, Refused, Outcome, State, one_of
from companion.games.kuku.board import (
    CELL_INDEX,
    CELL_VALUE,
    CELLS,
    LISTING_CAP,
    cells_of,
    is_cell,
    judge_listing,
    sayable_pairs,
    value,
)
from companion.games.kuku import views
from companion.games.kuku.views import ship_of, ship_token  # noqa: F401  (how views spell a ship)
from companion.games.kuku.end import Ending, end_of_attack

FLEET = ("normal", "normal", "leader")
KINDS = ("normal", "leader")
RULES_ = ("basic", "extra")
MODES = ("referee", "tracker")


@dataclass(frozen=True, eq=False)
class KukuState(State):
    """One position of 九九戦艦.  Immutable; the dict fields are never mutated."""

    game = "kuku"

    mode: str
    rule: str
    first: int
    phase: str  # place | play | list | report | leader | over
    turn: int  # the attacker (during "place": the seat placing)
    fleets: tuple  # per seat: ((cell, kind), ...) in placing order; referee only
    markers: tuple  # ((cell, "red"|"blue"), ...) in attack order
    hits: tuple  # per seat: cells where a ship of that seat sank
    pending: Any  # JSON dict of the step in progress (bomb listing, reports), or None
    history: tuple  # one JSON record per attack
    result: Outcome | None

    # ----------------------------------------------------------------- contract
    @property
    def seats(self) -> int:
        return 2

    def to_move(self) -> int | None:
        if self.phase == "over":
            return None
        if self.phase in ("report", "leader"):
            return self._awaited_seat()
        return self.turn

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self) -> list:
        return {
            "place": self._legal_place,
            "play": self._legal_play,
            "list": self._legal_list,
            "report": self._legal_report,
            "leader": self._legal_leader,
            "over": list,
        }[self.phase]()

    def apply(self, action) -> "KukuState":
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise Refused("kuku_errors.not_an_action", action=action)
        handler = {
            "place": self._apply_place,
            "play": self._apply_play,
            "list": self._apply_list,
            "report": self._apply_report,
            "leader": self._apply_leader,
        }.get(self.phase)
        if handler is None:
            raise Refused("kuku_errors.game_over")
        return handler(action)

    # ------------------------------------------------------------- derived facts
    def attacked(self) -> dict[str, str]:
        """Cell → marker colour of every attacked cell."""
        return dict(self.markers)

    def remaining(self) -> tuple[int, int]:
        """Ships afloat per seat."""
        return (len(FLEET) - len(self.hits[0]), len(FLEET) - len(self.hits[1]))

    def unattacked(self) -> list[str]:
        attacked = self.attacked()
        return [cell for cell in CELLS if cell not in attacked]

    def _awaited_seat(self) -> int:
        key = "reports" if self.phase == "report" else "leaders"
        return next(seat for seat in self.pending["order"] if self.pending[key][seat] is None)

    # ---------------------------------------------------------------- placement
    def placers(self) -> tuple[int, ...]:
        """The seats still placing ships, the first placer first (none once the game is on)."""
        if self.phase != "place":
            return ()
        return tuple(s for s in (self.first, 1 - self.first) if len(self.fleets[s]) < len(FLEET))

    def _kinds_left(self, seat: int) -> list[str]:
        left = list(FLEET)
        for _, kind in self.fleets[seat]:
            left.remove(kind)
        return sorted(set(left), key=KINDS.index)

    def _legal_place(self) -> list:
        taken = {cell for cell, _ in self.fleets[self.turn]}
        return [{"type": "place", "kind": kind, "cell": cell}
                for kind in self._kinds_left(self.turn) for cell in CELLS if cell not in taken]

    def _apply_place(self, action) -> "KukuState":
        if action["type"] == "unplace" and set(action) == {"type", "seat"}:
            seat = action["seat"]
            if not one_of(seat, (0, 1)) or not self.fleets[seat]:
                raise Refused("kuku_errors.none_to_unplace", seat=seat)
            return self._placed(seat, self.fleets[seat][:-1])
        kind, cell, seat = action.get("kind"), action.get("cell"), action.get("seat", self.turn)
        if action["type"] != "place" or set(action) - {"seat"} != {"type", "kind", "cell"}:
            raise Refused("kuku_errors.place_first")
        if not one_of(seat, self.placers()):
            raise Refused("kuku_errors.fleet_in", seat=seat)
        if kind not in self._kinds_left(seat):
            raise Refused("kuku_errors.no_ship_left", kind=kind)
        if not is_cell(cell):
            raise Refused("kuku_errors.not_a_cell", cell=cell)
        if any(cell == own for own, _ in self.fleets[seat]):
            raise Refused("kuku_errors.own_ship_there", cell=cell)
        return self._placed(seat, self.fleets[seat] + ((cell, kind),))

    def _placed(self, seat: int, fleet: tuple) -> "KukuState":
        """`seat`'s fleet now `fleet`: the next placer's turn, or the first attacker's once both are in."""
        fleets = tuple(fleet if s == seat else self.fleets[s] for s in (0, 1))
        state = self.evolve(fleets=fleets)
        placers = state.placers()
        return state.evolve(turn=placers[0]) if placers else state.evolve(turn=self.first, phase="play")

    # ---------------------------------------------------------------- the turn
    def _bombable(self) -> list[int]:
        attacked = self.attacked()
        return sorted({CELL_VALUE[cell] for cell in CELLS if cell not in attacked})

    def _legal_play(self) -> list:
        return [{"type": "attack", "cell": cell} for cell in self.unattacked()] + [
            {"type": "bomb", "product": n} for n in self._bombable()
        ]

    def _apply_play(self, action) -> "KukuState":
        if action["type"] == "attack" and set(action) == {"type", "cell"}:
            cell = action["cell"]
            if not is_cell(cell):
                raise Refused("kuku_errors.not_a_cell", cell=cell)
            if cell in self.attacked():
                raise Refused("kuku_errors.cell_attacked", cell=cell)
            record = {"by": self.turn, "action": "attack", "target": cell, "product": value(cell), "already": []}
            return self._strike([cell], record)
        if action["type"] == "bomb" and set(action) == {"type", "product"}:
            n = action["product"]
            if type(n) is not int or not cells_of(n):
                raise Refused("kuku_errors.not_a_product", product=n)
            if n not in self._bombable():
                raise Refused("kuku_errors.product_done", product=n)
            return self.evolve(phase="list", pending={"product": n, "listing": []})
        raise Refused("kuku_errors.choose_attack")

    def _legal_list(self) -> list:
        listing = self.pending["listing"]
        says = []
        if len(listing) < LISTING_CAP:
            says = [
                {"type": "say", "pair": pair}
                for pair in sayable_pairs(self.pending["product"])
                if pair not in listing
            ]
        return says + [{"type": "done"}]

    def _apply_list(self, action) -> "KukuState":
        n, listing = self.pending["product"], self.pending["listing"]
        if action == {"type": "done"}:
            return self._finish_bomb(n, listing)
        if action["type"] != "say" or set(action) != {"type", "pair"}:
            raise Refused("kuku_errors.say_a_pair")
        pair = action["pair"]
        if pair not in sayable_pairs(n):
            raise Refused("kuku_errors.not_a_pair", pair=pair)
        if pair in listing:
            raise Refused("kuku_errors.pair_said", pair=pair)
        if len(listing) >= LISTING_CAP:
            raise Refused("kuku_errors.listing_full", cap=LISTING_CAP)
        return self.evolve(pending={"product": n, "listing": listing + [pair]})

    def _finish_bomb(self, n: int, listing: list[str]) -> "KukuState":
        verdict = judge_listing(n, listing)
        record = {"by": self.turn, "action": "bomb", "product": n, "listing": listing, **verdict}
        if verdict["judgement"] != "exact":
            record.update(cells=[], already=[], markers={}, hits=[[], []], remaining=list(self.remaining()))
            return self._conclude(record, None)
        attacked = self.attacked()
        record["already"] = [cell for cell in verdict["correct"] if cell in attacked]
        return self._strike([cell for cell in verdict["correct"] if cell not in attacked], record)

    # ---------------------------------------------------------------- resolving
    def _strike(self, cells: list[str], record: dict) -> "KukuState":
        """Attack `cells` (all unattacked): resolve now (referee) or ask for reports (tracker)."""
        record = {**record, "cells": cells}
        if self.mode == "referee":
            fleet_cells = [{cell for cell, _ in fleet} for fleet in self.fleets]
            sunk = [[cell for cell in cells if cell in fleet_cells[seat]] for seat in (0, 1)]
            return self._resolve(record, sunk)
        attacker = self.turn
        pending = {"record": record, "order": [1 - attacker, attacker], "reports": [None, None]}
        return self.evolve(phase="report", pending=pending)

    def _resolve(self, record: dict, sunk: list[list[str]]) -> "KukuState":
        """Sink the ships `sunk` (per seat) on the attacked cells, mark them, then conclude."""
        cells = record["cells"]
        markers = {cell: "red" if any(cell in s for s in sunk) else "blue" for cell in cells}
        hits = tuple(self.hits[seat] + tuple(sunk[seat]) for seat in (0, 1))
        state = self.evolve(hits=hits, markers=self.markers + tuple(markers.items()), pending=None)
        record = {**record, "markers": markers, "hits": sunk, "remaining": list(state.remaining())}
        if self.mode == "referee":
            leaders = [any(kind == "leader" and cell in sunk[seat] for cell, kind in self.fleets[seat])
                       for seat in (0, 1)]
            return state._conclude(record, (leaders[0], leaders[1]))
        if self.rule == "basic" and state.remaining() == (0, 0):
            pending = {"record": record, "sunk": sunk, "order": [1 - self.turn, self.turn], "leaders": [None, None]}
            return state.evolve(phase="leader", pending=pending)
        return state._conclude(record, None)

    def _conclude(self, record: dict, leaders: tuple[bool, bool] | None) -> "KukuState":
        """Log the attack, then end the game or pass the turn (docs/rules.md §kuku, "The end")."""
        outcome = end_of_attack(self.rule, self.turn, self.remaining(), leaders)
        state = self.evolve(history=self.history + (record,), pending=None)
        if outcome is None:
            return state.evolve(phase="play", turn=1 - self.turn)
        return state.evolve(phase="over", result=outcome)

    # ------------------------------------------------------------ tracker reports
    def _report_options(self, seat: int) -> list[list[str]]:
        cells = self.pending["record"]["cells"]
        most = min(len(cells), self.remaining()[seat])
        return [list(hit) for size in range(most + 1) for hit in combinations(cells, size)]

    def _legal_report(self) -> list:
        return [{"type": "report", "hits": hit} for hit in self._report_options(self._awaited_seat())]

    def _apply_report(self, action) -> "KukuState":
        seat = self._awaited_seat()
        hit = action.get("hits")
        if action["type"] != "report" or set(action) != {"type", "hits"} or not isinstance(hit, list):
            raise Refused("kuku_errors.report_hits")
        cells = self.pending["record"]["cells"]
        if any(cell not in cells for cell in hit):
            raise Refused("kuku_errors.not_attacked_now", cells=cells)
        if len(set(hit)) != len(hit):
            raise Refused("kuku_errors.reported_twice")
        if len(hit) > self.remaining()[seat]:
            raise Refused("kuku_errors.too_many_hits", seat=seat, left=self.remaining()[seat])
        reports = list(self.pending["reports"])
        reports[seat] = sorted(hit, key=CELL_INDEX.__getitem__)
        if None in reports:
            return self.evolve(pending={**self.pending, "reports": reports})
        return self._resolve(self.pending["record"], reports)

    def _leader_options(self, seat: int) -> list:
        sunk_now = self.pending["sunk"][seat]
        earlier = len(self.hits[seat]) > len(sunk_now)
        return list(sunk_now) + ([None] if earlier else [])

    def _legal_leader(self) -> list:
        return [{"type": "leader", "cell": cell} for cell in self._leader_options(self._awaited_seat())]

    def _apply_leader(self, action) -> "KukuState":
        seat = self._awaited_seat()
        if action["type"] != "leader" or set(action) != {"type", "cell"}:
            raise Refused("kuku_errors.report_leader")
        if action["cell"] not in self._leader_options(seat):
            raise Refused("kuku_errors.leader_contradicts", options=self._leader_options(seat))
        leaders = list(self.pending["leaders"])
        leaders[seat] = {"cell": action["cell"]}
        if None in leaders:
            return self.evolve(pending={**self.pending, "leaders": leaders})
        record = {**self.pending["record"], "leaders": [entry["cell"] for entry in leaders]}
        return self._conclude(record, (leaders[0]["cell"] is not None, leaders[1]["cell"] is not None))

    # -------------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict:
        return views.view(self, seat)

    def secrets(self, seat: int) -> list[str]:
        return views.secrets(self, seat)

    # --------------------------------------------------------------------- JSON
    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "rule": self.rule,
            "first": self.first,
            "phase": self.phase,
            "turn": self.turn,
            "fleets": [[list(ship) for ship in fleet] for fleet in self.fleets],
            "markers": [list(marker) for marker in self.markers],
            "hits": [list(hit) for hit in self.hits],
            "pending": self.pending,
            "history": list(self.history),
            "outcome": self.result.to_json() if self.result else None,
        }


def state_from_json(data) -> KukuState:
    return KukuState(
        mode=data["mode"],
        rule=data["rule"],
        first=data["first"],
        phase=data["phase"],
        turn=data["turn"],
        fleets=tuple(tuple(tuple(ship) for ship in fleet) for fleet in data["fleets"]),
        markers=tuple(tuple(marker) for marker in data["markers"]),
        hits=tuple(tuple(hit) for hit in data["hits"]),
        pending=data["pending"],
        history=tuple(data["history"]),
        result=Outcome.from_json(data["outcome"]) if data["outcome"] else None,
    )


def new_state(options: dict) -> KukuState:
    """A new game: `rule` basic|extra, `first` seat 0|1, `mode` referee|tracker."""
    for key, allowed in (("rule", RULES_), ("mode", MODES), ("first", (0, 1))):
        if not one_of(options[key], allowed):
            raise Refused("kuku_errors.bad_option", key=key, allowed=allowed)
    referee = options["mode"] == "referee"
    return KukuState(
        mode=options["mode"],
        rule=options["rule"],
        first=options["first"],
        phase="place" if referee else "play",
        turn=options["first"],
        fleets=((), ()),
        markers=(),
        hits=((), ()),
        pending=None,
        history=(),
        result=None,
    )


GAME = Game(
    name="kuku",
    title=i18n.both("kuku.title"),
    default_options={"rule": "basic", "first": 0, "mode": "referee"},
    new_state_fn=new_state,
    state_from_json_fn=state_from_json,
    sample_options=({}, {"rule": "extra", "first": 1}, {"mode": "tracker"},
                    {"mode": "tracker", "rule": "extra", "first": 1}),
    place=2, glyph="九九", colour=(0.20, 0.45, 0.30, 1),  # its home tile
    describe_fn=lambda options: [i18n.Words(f"kuku.mode.{options['rule']}")],
    endings=Ending,
)
