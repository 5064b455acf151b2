"""The flow of a 九九戦艦 game (docs/rules.md §kuku), free of Kivy.

Three ways to play, chosen in the setup stage with the rule, who starts and the
players' names (the learning report is kept under the names):
- "2p": the companion referees; each fleet is entered behind a cover.
- "cpu": against the computer, which decides from its own seat's view.
- "tracker": a fully physical game; after each attack both players report hits.

Stages of the shared screen: setup (the start panel), report (the learning report),
cover (hand the screen to the next placer), place (the placer holds the screen),
wait (the computer's step), play, list (a 九九ボム being said), answer (the tracker
asks for hits or the leader), result (what an attack did, until Continue), over
(with a move-by-move review).

The start panel, the cover and who holds the shared screen are the two-seat flow's
(companion/play/two_seats.py); while the placer holds it, the screen draws that seat's
display (the only one with a fleet) and sends its input as that seat.  What each
sender has typed and chosen (its `Pad`) is kept per sender: every handler is told who
sent its input.

Undo: while placing, one's own last ship (`take_back`); in a tracked game the
last action typed in; nothing else (a refereed attack is final).  The computer's step
(its whole fleet, or one attack with every pair of its bomb listing) is one turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.kuku import display
from companion.games.kuku.ai import KukuAI
from companion.games.kuku.board import CELLS, TIMES, is_cell, parse_pair
from companion.games.kuku.keys import KEYS, typed
from companion.games.kuku.report import COMPUTER
from companion.games.kuku.rules import FLEET, KINDS
from companion.games.kuku.setup import KIND, LEVELS, SetupStages
from companion.games.kuku.texts import computer_turn, shown_name
from companion.play.controller import TABLE, Offer, Text, Who
from companion.play.session import Session
from companion.play.two_seats import TwoSeatFlow
from companion.store import Store

EARLIER = "earlier"  # the tracker's answer "my leader sank earlier"
GAME_STAGES = ("cover", "play", "list", "wait", "over")  # where "new game" is offered


@dataclass
class Pad:
    """One sender's input in progress: the keypad entry, the answers ticked, the ship kind picked."""

    entry: str = ""
    chosen: list = field(default_factory=list)
    kind: str = "normal"


class KukuController(SetupStages, TwoSeatFlow):
    KIND = KIND
    SETUP = {"opponent": "2p", "rule": "basic", "first": 0, "level": "medium"}
    OPTIONS = ("rule", "first")
    ROLES = (COMPUTER,)
    COMPUTER = COMPUTER

    def __init__(self, store: Store, session: Session | None, rng: random.Random | None = None,
                 setup: dict | None = None):
        self.pads: dict[Who, Pad] = {}
        self._position = None
        self._stage_offers = {"cover": lambda who, pad: self.cover_offers(who), "place": self._offers_place,
                              "play": self._offers_play, "list": self._offers_play, "answer": self._offers_answer,
                              "result": self._offers_result}  # each stage's offers (setup, report: the table's)
        super().__init__(store, session, rng, setup)

    def _adopt(self, session: Session | None) -> None:
        self.pads.clear()
        self.reporting = False
        self.seen = self.review_index = len(session.state.history) if session else 0  # attacks shown
        super()._adopt(session)

    @property
    def names(self) -> list:
        """As the shared flow names them, a stored default name (「赤」) in the app's language."""
        return [shown_name(name) if isinstance(name, str) else name for name in super().names]

    def pad(self, who: Who) -> Pad:
        return self.pads.setdefault(who, Pad())

    # stages ------------------------------------------------------------------------

    def stage(self) -> str:
        if self.reporting:
            return "report"
        if self.choosing or self.session is None:
            return "setup"
        if self.private is not None:
            return "place"
        state = self.session.state
        seat = state.to_move()
        if state.phase == "place":  # (a seat on a phone places meanwhile: `stage_of`)
            return "wait" if self.table_placer() in self.computer_seats else "cover"
        if self.seen < len(state.history):
            return "result"
        if state.phase == "over":
            return "over"
        if seat in self.computer_seats:
            return "wait"
        return {"play": "play", "list": "list"}.get(state.phase, "answer")

    def moved(self) -> bool:
        """The epoch moves only with the position or the stage, so that a key pressed while
        the computer thinks does not drop its answer (listeners hear every change)."""
        position = (self.session and self.session.id, self.session and len(self.session.actions), self.stage())
        moved, self._position = position != self._position, position
        return moved

    # offers ------------------------------------------------------------------------

    def offers(self, who: Who) -> list[Offer]:
        stage, pad = self.stage_of(who), self.pad(who)
        of_stage = self._stage_offers.get(stage)
        found = of_stage(who, pad) if of_stage else []
        if who == TABLE:
            found += self._table_offers(stage)
        return found + (self.undo_offer(who) if self.session is not None else [])

    def _table_offers(self, stage: str) -> list[Offer]:
        if stage in ("setup", "report"):
            return self.setup_offers(stage)
        found = [Offer("new", Text("kuku_ui.new"))] if stage in GAME_STAGES else []
        if stage == "over":
            found += [Offer("review", choices=(-1, 1)), Offer("report", Text("kuku_ui.report"))]
        return found

    def kinds_left(self, seat: int) -> dict[str, int]:
        left = {kind: FLEET.count(kind) for kind in KINDS}
        for _, kind in self.session.state.fleets[seat]:
            left[kind] -= 1
        return left

    def kind(self, who: Who, seat: int) -> str | None:
        """The ship kind `who` places next: the one picked, else the first one left."""
        left = self.kinds_left(seat)
        wanted = self.pad(who).kind
        return wanted if left[wanted] else next((k for k in KINDS if left[k]), None)

    def _offers_place(self, who: Who, pad: Pad) -> list[Offer]:
        seat = self.placing(who)
        if seat is None:
            return []
        at_table = seat not in self.remote  # a phone's fleet, once in, waits for the other: nothing to hide
        left, back = self.kinds_left(seat), [Offer("new", Text("kuku_ui.to_setup"))] if at_table else []
        if self.kind(who, seat) is None:  # (back: the start panel, for a seat placing at the table)
            return [Offer("hide", Text("kuku_ui.fleet_done"), seat)] + back if at_table else []
        return [Offer("kind", seat=seat, choices=tuple(k for k in KINDS if left[k])),
                Offer("cell", seat=seat, choices=CELLS), Offer("move", seat=seat)] + back

    def _mover(self, who: Who) -> int | None:
        seat = self.session.state.to_move()
        return seat if self.mine(who, seat) else None

    def _offers_play(self, who: Who, pad: Pad) -> list[Offer]:
        """Typing an attack (play) or the pairs of a bomb listing (list); the main button
        when the entry makes one: a pair is an attack only on a board cell."""
        seat = self._mover(who)
        if seat is None:
            return []
        listing, entry = self.stage() == "list", pad.entry
        found = [Offer("key", seat=seat, choices=KEYS), Offer("cell", seat=seat, choices=CELLS),
                 Offer("move", seat=seat)] + ([Offer("done", Text("kuku.say_done"), seat)] if listing else [])
        if parse_pair(entry) if listing else entry and (TIMES not in entry or is_cell(entry)):
            found.append(Offer("primary", self.primary_label(entry), seat))
        return found

    def primary_label(self, entry: str) -> Text:
        if self.stage() == "list":
            return Text("kuku_ui.say_pair", {"pair": entry if TIMES in entry else "a×b"})
        if TIMES in entry:
            return Text("kuku_ui.attack_cell", {"cell": entry})
        return Text("kuku_ui.bomb_product", {"product": entry or "?"})

    def answer_options(self) -> list[str]:
        """What the awaited seat may answer: the attacked cells (hits), or where its leader was."""
        state = self.session.state
        if state.phase == "report":
            return list(state.pending["record"]["cells"])
        return [a["cell"] if a["cell"] is not None else EARLIER for a in state.legal_actions()]

    def confirm_label(self, chosen: list) -> Text:
        if self.session.state.phase == "leader":
            return Text("kuku_ui.report_leader")
        return Text("kuku_ui.report_hits", {"n": len(chosen)}) if chosen else Text("kuku_ui.report_none")

    def _offers_answer(self, who: Who, pad: Pad) -> list[Offer]:
        seat = self._mover(who)
        if seat is None:
            return []
        found = [Offer("toggle", seat=seat, choices=tuple(self.answer_options())), Offer("move", seat=seat)]
        if self.session.state.phase == "report" or pad.chosen:
            found.append(Offer("confirm", self.confirm_label(pad.chosen), seat))
        return found

    def continue_label(self) -> Text:
        state, names = self.session.state, self.names
        following = self.seen + 1 < len(state.history)
        if state.phase == "over" and not following:
            return Text("kuku_ui.see_result")
        nxt = state.history[self.seen + 1]["by"] if following else state.to_move()
        return Text("kuku_ui.next_turn", {"player": names[nxt]})

    def _offers_result(self, who: Who, pad: Pad) -> list[Offer]:
        if who != TABLE and who not in self.at_table | self.remote:
            return []
        return [Offer("continue", self.continue_label())]

    # undo ----------------------------------------------------------------------------

    def undo_points(self) -> list[int]:
        """Back one action, when Undo may take it back now (see the module's docstring)."""
        if self.session is None or not self.session.actions:
            return []
        allowed = self.opponent == "tracker" and self.stage() in ("play", "list", "answer")  # (placing: `take_back`)
        return [len(self.session.actions) - 1] if allowed else []

    # input ---------------------------------------------------------------------------

    def _play(self, action) -> None:
        """A person's action: played (then every pad's entry and answers are cleared), or raised."""
        self.play_turn([action])
        for pad in self.pads.values():
            pad.entry, pad.chosen = "", []

    def handlers(self) -> dict:
        return super().handlers() | self.setup_handlers() | {
            "move": self.on_move, "key": self.on_key, "cell": self.on_cell, "primary": self.on_primary,
            "done": self.on_done, "toggle": self.on_toggle, "confirm": self.on_confirm,
            "continue": self.on_continue, "kind": self.on_kind, "hide": self.on_hide}

    def on_move(self, who: Who, seat, action) -> None:
        self._play(self.placed_by(seat, action))

    def on_key(self, who: Who, seat, key: str) -> None:
        pad = self.pad(who)
        pad.entry = typed(pad.entry, key)

    def on_cell(self, who: Who, seat, cell: str) -> None:
        stage, pad = self.stage_of(who), self.pad(who)
        if stage == "place":
            self._play(self.placed_by(seat, {"type": "place", "kind": self.kind(who, seat), "cell": cell}))
        elif stage == "play" and pad.entry == cell:
            self.on_primary(who, seat, None)  # a second tap on the picked cell attacks it
        else:
            pad.entry = cell

    def on_primary(self, who: Who, seat, value) -> None:
        entry = self.pad(who).entry
        if self.stage() == "list":
            self._play({"type": "say", "pair": self._pair(entry)})
        elif TIMES in entry:
            self._play({"type": "attack", "cell": self._pair(entry)})
        else:
            self._play({"type": "bomb", "product": int(entry)})

    @staticmethod
    def _pair(entry: str) -> str:
        parsed = parse_pair(entry)
        return f"{parsed[0]}{TIMES}{parsed[1]}" if parsed else entry

    def on_done(self, who: Who, seat, value) -> None:
        self._play({"type": "done"})

    def on_toggle(self, who: Who, seat, answer: str) -> None:
        pad = self.pad(who)
        if answer in pad.chosen:
            pad.chosen.remove(answer)
        elif self.session.state.phase == "leader":
            pad.chosen = [answer]  # one leader
        else:
            pad.chosen.append(answer)

    def on_confirm(self, who: Who, seat, value) -> None:
        chosen = self.pad(who).chosen
        if self.session.state.phase == "report":
            self._play({"type": "report", "hits": [c for c in self.answer_options() if c in chosen]})
        else:
            self._play({"type": "leader", "cell": None if chosen[0] == EARLIER else chosen[0]})

    def on_continue(self, who: Who, seat, value) -> None:
        self.seen = self.review_index = len(self.session.state.history)

    def on_undo(self, who: Who, seat, value) -> None:
        super().on_undo(who, seat, value)
        self.seen = min(self.seen, len(self.session.state.history))

    def on_kind(self, who: Who, seat, kind: str) -> None:
        self.pad(who).kind = kind

    def review(self) -> None:
        return None  # Kuku reviews attack by attack, with the answers given (review_index), not move by move

    def on_review(self, who: Who, seat, step: int) -> None:
        self.review_index = max(0, min(len(self.session.state.history), self.review_index + step))

    # the computer --------------------------------------------------------------------

    def computer_to_move(self) -> int | None:
        return self.session.state.to_move() if self.stage() == "wait" else None

    def thinker(self, seat: int):
        state, level, seed = self.session.state, LEVELS[self.session.lineup.level], self.rng.random()
        return lambda: computer_turn(KukuAI(level, random.Random(seed)), state, seat)

    # display -------------------------------------------------------------------------

    def display(self, who: Who) -> dict:
        return display.model(self, who)
