"""The flow of a 九九戦艦 game (RULES.md §1), free of Kivy.

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

Who holds the shared screen (`holder()`): TABLE, except in the place stage, when the
placer does; the screen then draws that seat's display (the only one with a fleet)
and sends its input as that seat.  What each sender has typed, chosen and been told
(its `Pad`) is kept per sender.

Undo: while placing, one's own last ship (`may_undo_placing`); in a tracked game the
last action typed in; nothing else (a refereed attack is final).  The computer's step
(its whole fleet, or one attack with every pair of its bomb listing) is one turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.games.kuku import display
from companion.games.kuku.ai import KukuAI
from companion.games.kuku.board import CELLS, TIMES, is_cell, parse_pair
from companion.games.kuku.keys import KEYS, typed
from companion.games.kuku.report import COMPUTER
from companion.games.kuku.rules import FLEET, KINDS
from companion.games.kuku.setup import KIND, LEVELS, SetupStages, choices_of
from companion.games.kuku.texts import computer_turn, shown_name
from companion.play.controller import TABLE, Controller, Offer, Refused, Text, Who, may_undo_placing, refusal
from companion.play.session import Session
from companion.play.state import IllegalAction
from companion.store import Store

EARLIER = "earlier"  # the tracker's answer "my leader sank earlier"
GAME_STAGES = ("cover", "play", "list", "wait", "over")  # where "new game" is offered


@dataclass
class Pad:
    """One sender's input in progress: the keypad entry, the answers ticked, the ship
    kind picked, and the last refusal it was told (a Text)."""

    entry: str = ""
    chosen: list = field(default_factory=list)
    kind: str = "normal"
    notice: Text | None = None


class KukuController(SetupStages, Controller):
    def __init__(self, store: Store, session: Session | None, rng: random.Random | None = None):
        super().__init__(session)
        self.store = store
        self.rng = rng or random.Random()
        self.pads: dict[Who, Pad] = {}
        self.private: int | None = None  # the placer holding the screen
        self.seen = 0  # attacks whose result step was passed
        self.review_index = 0
        self._sender: Who = TABLE
        self._position = None
        self._adopt(session)

    @classmethod
    def open(cls, store: Store, session: Session | None = None, rng: random.Random | None = None):
        """`session`, else the newest unfinished game, else the setup stage."""
        if session is None:
            session = Session.latest(store, KIND)
        return cls(store, session, rng)

    def _adopt(self, session: Session | None) -> None:
        self.session = session
        self.private = None
        self.pads.clear()
        self.choosing = session is None
        self.reporting = False
        if session is not None:
            self.setup = choices_of(session)
            self.seen = self.review_index = len(session.state.history)
        self._settle()

    # who plays ---------------------------------------------------------------------

    @property
    def opponent(self) -> str:
        return self.session.lineup.opponent if self.session else self.setup["opponent"]

    @property
    def computer_seats(self) -> frozenset[int]:
        if self.session is None or self.opponent != "cpu":
            return frozenset()
        return frozenset(s for s, name in enumerate(self.session.players) if name == COMPUTER)

    @property
    def at_table(self) -> frozenset[int]:
        return frozenset((0, 1)) - self.computer_seats - self.remote  # a phone's seat plays there

    def names(self) -> list:
        """Each seat's name: as typed, or the computer (a Text)."""
        return [Text("kuku_ui.cpu") if s in self.computer_seats else shown_name(name)
                for s, name in enumerate(self.session.players)]

    def mine(self, who: Who, seat: int | None) -> bool:
        """Whether `who` may act for `seat`: the seat itself, or the table for a seat at it."""
        return seat is not None and seat not in self.computer_seats and (
            who == seat or (who == TABLE and seat in self.at_table))

    def holder(self) -> Who:
        """Who has the shared screen now: the placer in the place stage (unless it places on
        its phone), else the table."""
        return self.private if self.stage() == "place" and self.private not in self.remote else TABLE

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
        if state.phase == "place":
            return "wait" if seat in self.computer_seats else "cover"
        if self.seen < len(state.history):
            return "result"
        if state.phase == "over":
            return "over"
        if seat in self.computer_seats:
            return "wait"
        return {"play": "play", "list": "list"}.get(state.phase, "answer")

    def _settle(self) -> None:
        """No cover against the computer, nor for a seat on its own phone: it places at once."""
        state = self.session.state if self.session else None
        if (state is not None and state.phase == "place" and self.private is None
                and (self.opponent == "cpu" or state.to_move() in self.remote)
                and state.to_move() not in self.computer_seats):
            self.private = state.to_move()

    def changed(self) -> None:
        """Listeners hear every change; the epoch moves only with the position or the stage,
        so that a key pressed while the computer thinks does not drop its answer."""
        self._settle()
        position = (self.session and self.session.id, self.session and len(self.session.actions), self.stage())
        if position != self._position:
            self._position = position
            self.epoch += 1
        for listener in list(self.listeners):
            listener()

    # offers ------------------------------------------------------------------------

    def offers(self, who: Who) -> list[Offer]:
        stage, pad = self.stage(), self.pad(who)
        of_stage = getattr(self, f"_offers_{stage}", None)  # (setup and report: the table's only)
        found = of_stage(who, pad) if of_stage else []
        if who == TABLE:
            found += self._table_offers(stage)
        if self.undo_count() and self.mine(who, self.private if stage == "place" else self.session.state.to_move()):
            found.append(Offer("undo", Text("app.undo")))
        if pad.notice is not None:
            found.append(Offer("dismiss"))
        return found

    def _table_offers(self, stage: str) -> list[Offer]:
        if stage in ("setup", "report"):
            return self.setup_offers(stage)
        found = [Offer("new", Text("kuku_ui.new"))] if stage in GAME_STAGES else []
        if stage == "over":
            found += [Offer("review", choices=(-1, 1)), Offer("report", Text("kuku_ui.report"))]
        return found

    def _offers_cover(self, who: Who, pad: Pad) -> list[Offer]:
        """The cover opens the shared screen to its placer: only the table's own button does
        (a seat held by a phone opens on that phone instead)."""
        seat = self.session.state.to_move()
        if who != (seat if seat in self.remote else TABLE) or not self.mine(who, seat):
            return []
        return [Offer("open", Text("kuku_ui.i_am", {"player": self.names()[seat]}), seat)]

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
        seat = self.private
        if not self.mine(who, seat):
            return []
        left, back = self.kinds_left(seat), [Offer("new", Text("kuku_ui.to_setup"))] if seat in self.at_table else []
        if self.kind(who, seat) is None:  # (back: the start panel, for a seat placing at the table)
            return [Offer("hide", Text("kuku_ui.fleet_done"), seat)] + back
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

    _offers_list = _offers_play

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
        state, names = self.session.state, self.names()
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

    def undo_count(self) -> int:
        """1 when Undo may take back the last action now (see the module's docstring), else 0."""
        if self.session is None or not self.session.actions:
            return 0
        stage, state = self.stage(), self.session.state
        if stage == "place":
            return int(may_undo_placing(state.view(None)["placed"], self.private, state.first))
        return int(self.opponent == "tracker" and stage in ("play", "list", "answer"))

    # input ---------------------------------------------------------------------------

    def act(self, who: Who, kind: str, value: Any = None) -> bool:
        """As `Controller.act`; a move the rules refuse is told to `who` (its pad's notice),
        not raised: False then, else True.  Any input `who` goes on with (a key, a cell)
        also puts its notice away: a refusal read costs no tap of its own."""
        self._sender, pad = who, self.pad(who)
        notice, pad.notice = pad.notice, None if kind != "dismiss" else pad.notice
        try:
            super().act(who, kind, value)
        except IllegalAction as error:
            pad.notice = refusal(error)
            self.changed()
            return False
        except Refused:
            pad.notice = notice  # nothing taken: the refusal stands
            raise
        return True

    def _play(self, action) -> None:
        """A person's action: played (then every pad's entry and answers are cleared), or raised."""
        self.play_turn([action])
        for pad in self.pads.values():
            pad.entry, pad.chosen, pad.notice = "", [], None

    def on_move(self, seat, action) -> None:
        self._play(action)

    def on_key(self, seat, key: str) -> None:
        pad = self.pad(self._sender)
        pad.entry = typed(pad.entry, key)

    def on_cell(self, seat, cell: str) -> None:
        stage, pad = self.stage(), self.pad(self._sender)
        if stage == "place":
            self._play({"type": "place", "kind": self.kind(self._sender, seat), "cell": cell})
        elif stage == "play" and pad.entry == cell:
            self.on_primary(seat, None)  # a second tap on the picked cell attacks it
        else:
            pad.entry = cell

    def on_primary(self, seat, value) -> None:
        entry = self.pad(self._sender).entry
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

    def on_done(self, seat, value) -> None:
        self._play({"type": "done"})

    def on_toggle(self, seat, answer: str) -> None:
        pad = self.pad(self._sender)
        if answer in pad.chosen:
            pad.chosen.remove(answer)
        elif self.session.state.phase == "leader":
            pad.chosen = [answer]  # one leader
        else:
            pad.chosen.append(answer)

    def on_confirm(self, seat, value) -> None:
        chosen = self.pad(self._sender).chosen
        if self.session.state.phase == "report":
            self._play({"type": "report", "hits": [c for c in self.answer_options() if c in chosen]})
        else:
            self._play({"type": "leader", "cell": None if chosen[0] == EARLIER else chosen[0]})

    def on_continue(self, seat, value) -> None:
        self.seen = self.review_index = len(self.session.state.history)

    def on_undo(self, seat, value) -> None:
        self.undo_to(len(self.session.actions) - 1)
        self.seen = min(self.seen, len(self.session.state.history))
        for pad in self.pads.values():
            pad.notice = None

    def on_open(self, seat, value) -> None:
        self.private = seat

    def on_kind(self, seat, kind: str) -> None:
        self.pad(self._sender).kind = kind

    def on_hide(self, seat, value) -> None:
        self.private = None

    def review(self) -> None:
        return None  # Kuku reviews attack by attack, with the answers given (review_index), not move by move

    def on_review(self, seat, step: int) -> None:
        self.review_index = max(0, min(len(self.session.state.history), self.review_index + step))

    def on_dismiss(self, seat, value) -> None:
        self.pad(self._sender).notice = None

    # the computer --------------------------------------------------------------------

    def computer_to_move(self) -> int | None:
        return self.session.state.to_move() if self.stage() == "wait" else None

    def thinker(self, seat: int):
        state, level, seed = self.session.state, LEVELS[self.session.lineup.level], self.rng.random()
        return lambda: computer_turn(KukuAI(level, random.Random(seed)), state, seat)

    # display -------------------------------------------------------------------------

    def display(self, who: Who) -> dict:
        return display.model(self, who)
