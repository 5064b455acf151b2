"""軍艦将棋「戦略大海戦」: the referee state of the weighing seesaw (docs/rules.md §gunkan).

The companion never sees the board: a game is a sequence of battles.  Between
battles either side may start one (`to_move` only suggests the side on turn):

    {"type": "battle", "attacker": seat}
    {"type": "declare", "kind": "ship" | "mine" | "port"}          the defender
    judging "seesaw" (any sensor; it knows what the wooden seesaw shows):
      ship: {"type": "counterweight", "on": bool}                  the attacker's tap
            {"type": "weighed", "result": "attacker_heavier" | "defender_heavier" | "balanced"}
            (counterweight on and no balance: take it off, weigh again)
      mine: {"type": "mine_hit", "minesweeper": bool}              did the attacker show a 5?
      port: captured at once
    judging "identify" (calibrated pans recognise each piece's class):
      {"type": "identified", "attacker": ship, "defender": piece, "counterweight": bool}
    {"type": "reweigh"}   the judge could not decide (counted, nothing else changes)
    {"type": "cancel"}    abandon the battle in progress

Between battles a side may also end the game: {"type": "resign", "seat": s},
{"type": "no_moves", "seat": s} (a side that cannot move has lost) and, judging
"seesaw", {"type": "all_ships_gone", "seats": [s] | [0, 1]}.  Annihilation is
also detected by counting: every verdict says which side removes a ship.
Judging "identify" keeps a hidden tally of lost classes; it refuses identities
that are no longer in play and a counterweight on anything but a submarine.

Choices where the brief left room: the counterweight is asked for only after
the defender declared a ship (at the table nobody loads it for a mine or the
port, and asking earlier would expose it); judging "identify" weighs the mine
or port too, as a check of the declaration; a submarine attacking the carrier
wins there with or without the counterweight, since the companion knows both.
Judging "identify", `legal_actions()` depends on the hidden tally: never show
its "identified" actions on the shared screen (screens render views only).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from companion import i18n
from companion.games.gunkan import views as gunkan_views
from companion.play.state import Game, Refused, Outcome, State
from companion.games.gunkan.table import (
    COMPARISONS, DECLARATIONS, FLEET, PIECES, REMOVALS, SHIPS, SHIPS_PER_SIDE,
    declaration_of, judge_identified, judge_mine, judge_seesaw,
)

SEATS = 2  # 0 = red (赤艦隊), 1 = blue (青艦隊)
JUDGINGS = ("seesaw", "identify")
BATTLE_PHASES = ("declare", "counterweight", "weigh", "mine", "identify")


class Ending(StrEnum):
    """How a game ends (its `Outcome.reason`)."""

    PORT_CAPTURED = "port_captured"  # an attack on the port took it
    ANNIHILATION = "annihilation"  # one side's ships are all gone
    MUTUAL_ANNIHILATION = "mutual_annihilation"  # both sides' at once: a draw
    RESIGNED = "resigned"
    NO_MOVES = "no_moves"  # a side that cannot move has lost


@dataclass(frozen=True)
class Battle:
    """One battle.  `attacker_piece`/`defender_piece` exist only judging "identify"."""

    attacker: int
    declared: str | None = None  # "ship" | "mine" | "port"
    counterweight: bool | None = None  # seesaw: the tap; identify: as sensed
    counterweight_off: bool = False  # seesaw: taken off after the pans did not balance
    reweighs: int = 0
    attacker_piece: str | None = None
    defender_piece: str | None = None
    verdict: str | None = None

    @property
    def defender(self) -> int:
        return 1 - self.attacker

    def piece_of(self, seat: int) -> str | None:
        return self.attacker_piece if seat == self.attacker else self.defender_piece

    def removals(self) -> tuple[str | None, str | None]:
        """What (attacker's, defender's) a finished battle took off the board (`REMOVALS`)."""
        assert self.verdict is not None, "a finished battle has its verdict"
        return REMOVALS[self.verdict]


@dataclass(frozen=True, eq=False)
class GunkanState(State):
    """Battles fought so far, the one in progress, and how the game ended."""

    game = "gunkan"

    judging: str
    turn: int  # the side presumed to attack next
    battles: tuple[Battle, ...] = ()
    current: Battle | None = None
    result: Outcome | None = None
    first: int = 0

    # -- the contract ---------------------------------------------------------

    @property
    def seats(self) -> int:
        return SEATS

    @property
    def phase(self) -> str:
        """"idle", one of `BATTLE_PHASES`, or "over"."""
        battle = self.current
        if self.result is not None:
            return "over"
        if battle is None:
            return "idle"
        if battle.declared is None:
            return "declare"
        if self.judging == "identify":
            return "identify"
        if battle.declared == "mine":
            return "mine"
        return "counterweight" if battle.counterweight is None else "weigh"

    def to_move(self) -> int | None:
        phase = self.phase
        if phase == "over":
            return None
        if phase == "idle":
            return self.turn
        return self.battle.defender if phase == "declare" else self.battle.attacker

    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def battle(self) -> Battle:
        """The battle in progress (asked in a battle's phases)."""
        assert self.current is not None, "a battle's phase"
        return self.current

    def legal_actions(self) -> list:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "idle":
            return self._idle_actions()
        if phase == "declare":
            mines_left = self.removed[self.battle.defender]["mines"] < FLEET["mine"]
            steps: list[dict[str, Any]] = [{"type": "declare", "kind": kind} for kind in DECLARATIONS if kind != "mine" or mines_left]
        elif phase == "counterweight":
            steps = [{"type": "counterweight", "on": on} for on in (True, False)]
        elif phase == "mine":
            steps = [{"type": "mine_hit", "minesweeper": shown} for shown in (True, False)]
        elif phase == "weigh":
            steps = [{"type": "weighed", "result": r} for r in COMPARISONS] + [{"type": "reweigh"}]
        else:  # identify
            steps = self._identified_actions() + [{"type": "reweigh"}]
        return steps + [{"type": "cancel"}]

    def apply(self, action) -> "GunkanState":
        kind = action.get("type") if isinstance(action, dict) else None
        kind = kind if isinstance(kind, str) else ""  # (no handler's)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise Refused("gunkan_errors.unknown_action", action=action, types=sorted(_HANDLERS))
        if set(action) != {"type", *_FIELDS.get(kind, ())}:
            raise Refused("gunkan_errors.fields", type=kind, fields=sorted(_FIELDS.get(kind, ())))
        if self.result is not None:
            raise Refused("gunkan_errors.game_over")
        return handler(self, action)

    def to_json(self) -> dict:
        return {
            "judging": self.judging, "first": self.first, "turn": self.turn,
            "battles": [asdict(b) for b in self.battles],
            "current": None if self.current is None else asdict(self.current),
            "result": None if self.result is None else self.result.to_json(),
        }

    def view(self, seat: int | None) -> dict:
        return gunkan_views.public_view(self) if seat is None else gunkan_views.seat_view(self, seat)

    def secrets(self, seat: int) -> list[str]:
        return gunkan_views.secrets(self, seat)

    # -- tallies --------------------------------------------------------------

    @cached_property
    def removed(self) -> list[dict]:
        """Per seat, how many ships and mines it has taken off the board (public)."""
        counts = [{"ships": 0, "mines": 0}, {"ships": 0, "mines": 0}]
        for battle in self.battles:
            for seat, what in zip((battle.attacker, battle.defender), battle.removals()):
                if what is not None:
                    counts[seat]["mines" if what == "mine" else "ships"] += 1
        return counts

    @cached_property
    def lost(self) -> list[Counter]:
        """Per seat, the classes it has lost (judging "identify" only; secret until the end)."""
        tally: list[Counter[str]] = [Counter(), Counter()]
        for _, seat, piece in self._losses():
            tally[seat][piece] += 1
        return tally

    def _losses(self):
        """(battle counted from 1, seat, class) of every piece lost (judging "identify")."""
        for n, battle in enumerate(self.battles, 1):
            for seat, what in zip((battle.attacker, battle.defender), battle.removals()):
                if what is not None and battle.piece_of(seat) is not None:
                    yield n, seat, battle.piece_of(seat)

    def in_play(self, seat: int, piece: str) -> bool:
        return self.lost[seat][piece] < FLEET[piece]

    def last_lost(self, seat: int, piece: str) -> int | None:
        """The battle in which `seat` lost the last of `piece` (None: some are left)."""
        found = [n for n, s, p in self._losses() if (s, p) == (seat, piece)]
        return found[FLEET[piece] - 1] if len(found) >= FLEET[piece] else None

    # -- steps ----------------------------------------------------------------

    def _idle_actions(self) -> list:
        actions = [{"type": t, key: s} for t, key in (("battle", "attacker"), ("resign", "seat"),
                                                       ("no_moves", "seat")) for s in range(SEATS)]
        if self.judging == "seesaw":
            actions += [{"type": "all_ships_gone", "seats": seats} for seats in ([0], [1], [0, 1])]
        return actions

    def _identified_actions(self) -> list:
        battle = self.battle
        return [
            {"type": "identified", "attacker": a, "defender": d, "counterweight": cw}
            for a in SHIPS if self.in_play(battle.attacker, a)
            for d in PIECES if declaration_of(d) == battle.declared and self.in_play(battle.defender, d)
            for cw in ((False, True) if a == "submarine" else (False,))
        ]

    def _expect(self, action: dict, phases: tuple[str, ...]) -> Battle | None:
        if self.phase not in phases:
            raise Refused("gunkan_errors.not_now", type=action["type"], phase=self.phase)
        return self.current

    def _finish(self, battle: Battle) -> "GunkanState":
        done = self.evolve(battles=self.battles + (battle,), current=None, turn=battle.defender)
        if battle.verdict == "port_captured":
            return done.evolve(result=Outcome(battle.attacker, Ending.PORT_CAPTURED))
        gone = [s for s in range(SEATS) if done.removed[s]["ships"] >= SHIPS_PER_SIDE]
        return done.evolve(result=_annihilation(gone)) if gone else done

    def _battle(self, action):
        self._expect(action, ("idle",))
        return self.evolve(current=Battle(_seat(action.get("attacker"), "attacker")))

    def _declare(self, action):
        battle = self._expect(action, ("declare",))
        if action not in self.legal_actions():
            raise Refused("gunkan_errors.bad_declaration", kind=action.get("kind"))
        battle = replace(battle, declared=action["kind"])
        if battle.declared == "port" and self.judging == "seesaw":
            return self._finish(replace(battle, verdict="port_captured"))
        return self.evolve(current=battle)

    def _counterweight(self, action):
        battle = self._expect(action, ("counterweight",))
        return self.evolve(current=replace(battle, counterweight=_flag(action, "on")))

    def _weighed(self, action):
        battle = self._expect(action, ("weigh",))
        if action.get("result") not in COMPARISONS:
            raise Refused("gunkan_errors.bad_comparison", allowed=list(COMPARISONS), result=action.get("result"))
        ruling = judge_seesaw(action["result"], battle.counterweight and not battle.counterweight_off)
        if ruling.verdict is None:  # remove_counterweight
            return self.evolve(current=replace(battle, counterweight_off=True))
        return self._finish(replace(battle, verdict=ruling.verdict))

    def _mine_hit(self, action):
        battle = self._expect(action, ("mine",))
        return self._finish(replace(battle, verdict=judge_mine(_flag(action, "minesweeper")).verdict))

    def _identified(self, action):
        battle = self._expect(action, ("identify",))
        attacker, defender = action.get("attacker"), action.get("defender")
        counterweight = _flag(action, "counterweight")
        if attacker not in SHIPS or defender not in PIECES or declaration_of(defender) != battle.declared:
            raise Refused("gunkan_errors.not_as_declared", declared=battle.declared)
        ruling = judge_identified(attacker, defender, counterweight)
        if ruling.verdict is None:  # counterweight_not_allowed
            raise Refused("gunkan_errors.counterweight_only_on_submarine")
        if not (self.in_play(battle.attacker, attacker) and self.in_play(battle.defender, defender)):
            raise Refused("gunkan_errors.not_in_play")
        return self._finish(replace(battle, attacker_piece=attacker, defender_piece=defender,
                                    counterweight=counterweight, verdict=ruling.verdict))

    def _reweigh(self, action):
        battle = self._expect(action, ("weigh", "identify"))
        return self.evolve(current=replace(battle, reweighs=battle.reweighs + 1))

    def _cancel(self, action):
        self._expect(action, BATTLE_PHASES)
        return self.evolve(current=None)

    def _resign(self, action):
        self._expect(action, ("idle",))
        return self.evolve(result=Outcome(1 - _seat(action.get("seat"), "seat"), Ending.RESIGNED))

    def _no_moves(self, action):
        self._expect(action, ("idle",))
        return self.evolve(result=Outcome(1 - _seat(action.get("seat"), "seat"), Ending.NO_MOVES))

    def _all_ships_gone(self, action):
        self._expect(action, ("idle",))
        if self.judging != "seesaw" or action.get("seats") not in ([0], [1], [0, 1]):
            raise Refused("gunkan_errors.bad_annihilation")
        return self.evolve(result=_annihilation(action["seats"]))


_HANDLERS = {
    "battle": GunkanState._battle, "declare": GunkanState._declare,
    "counterweight": GunkanState._counterweight, "weighed": GunkanState._weighed,
    "mine_hit": GunkanState._mine_hit, "identified": GunkanState._identified,
    "reweigh": GunkanState._reweigh, "cancel": GunkanState._cancel,
    "resign": GunkanState._resign, "no_moves": GunkanState._no_moves,
    "all_ships_gone": GunkanState._all_ships_gone,
}
_FIELDS = {"battle": ("attacker",), "declare": ("kind",), "counterweight": ("on",), "weighed": ("result",),
           "mine_hit": ("minesweeper",), "identified": ("attacker", "defender", "counterweight"),
           "resign": ("seat",), "no_moves": ("seat",), "all_ships_gone": ("seats",)}  # besides "type"


def _annihilation(gone: list[int]) -> Outcome:
    """Whose fleet is gone → the outcome; both at once is a draw."""
    if len(gone) == SEATS:
        return Outcome(None, Ending.MUTUAL_ANNIHILATION)
    return Outcome(1 - gone[0], Ending.ANNIHILATION)


def _seat(value, key: str) -> int:
    if type(value) is not int or not 0 <= value < SEATS:
        raise Refused("gunkan_errors.bad_seat", key=key, value=value)
    return value


def _flag(action: dict, key: str) -> bool:
    if type(action.get(key)) is not bool:
        raise Refused("gunkan_errors.bad_flag", key=key, value=action.get(key))
    return action[key]


def new_state(options: dict) -> GunkanState:
    if options["judging"] not in JUDGINGS:
        raise Refused("gunkan_errors.bad_judging", allowed=list(JUDGINGS), value=options["judging"])
    first = _seat(options["first"], "first")
    return GunkanState(judging=options["judging"], turn=first, first=first)


def state_from_json(data: dict) -> GunkanState:
    result = data["result"]
    return GunkanState(
        judging=data["judging"], first=data["first"], turn=data["turn"],
        battles=tuple(Battle(**b) for b in data["battles"]),
        current=None if data["current"] is None else Battle(**data["current"]),
        result=None if result is None else Outcome.from_json(result),
    )


GAME = Game(
    name="gunkan",
    title=i18n.both("gunkan.title"),
    default_options={"judging": "seesaw", "first": 0},
    new_state_fn=new_state,
    state_from_json_fn=state_from_json,
    sample_options=({"judging": "seesaw"}, {"judging": "identify"}, {"judging": "identify", "first": 1}),
    place=1, glyph="軍", colour=(0.55, 0.20, 0.20, 1),  # its home tile
    describe_fn=lambda options: [i18n.Words(f"gunkan.mode.{options['judging']}")],
    endings=Ending,
)
