"""The flow of a 軍艦将棋 game (docs/rules.md §gunkan), free of Kivy: the referee of the seesaw.

One hand, glanceable: tap the attacking side → the attacker puts the piece on the
left pan → the defender declares and puts theirs on the right → the signal settles
→ the verdict, with a sound → "take your pieces off" until both pans are empty.

The seesaw reaches the controller as a plain input from the table, a `Weighing` (each
pan's state and, with both pans loaded, the judge's verdict), and the controller
decides.  Judging "seesaw" the judge's comparison is played as the wooden seesaw's
result (heavier wins, balance removes both; with the counterweight on, no balance
means it comes off); judging "identify" the recognised classes are played as one
turn, the declaration the pans make and the "identified" action, committed together
and undone together.  Without a sensor the players tap what their wooden seesaw
showed.  `seesaw` is the controller's handle on the glue (`reset()` before a new
weighing, `mark()` before a re-placing, `counterweight_sensed`), None without one.

Choices the brief left open:
- judging "identify", the counterweight tap is offered in every battle while the
  counterweight cannot be sensed (a submarine carrying it weighs like the carrier):
  asking only when the weight is ambiguous would tell the defender the attacker is a
  carrier or a submarine.  Re-weighs are then not logged (the rules log one only
  after a declaration, which the pans make here).
- after "re-weigh" or "take the counterweight off" no verdict comes until a piece
  was put on or taken off (`Weighing.changed`, seen in every reading).
- Undo (after a yes) takes back every action since the last battle began.
- before each 勝負 (the attack tap, the pans empty) each still pan is zeroed over the drift of
  its zero, up to a few grams (`Seesaw.rezero`); a pan that reads further off holds the battle
  back, and the screen asks to clear it and says why (`off_zero`).
- On a simulated seesaw the display offers a virtual pieces tray (`tray`: the pan it
  opens on); it names pieces, so a renderer shows it only to the hand placing one.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.gunkan import display
from companion.games.gunkan.display import seat_name
from companion.games.gunkan.seesaw import COMPARISON, EMPTY, MISFIT, REFUSED, PanStatus, identities
from companion.games.gunkan.table import declaration_of
from companion.play.controller import TABLE, Controller, Offer, Text, Who
from companion.play.session import Session
from companion.play.state import Refused
from companion.sensing.judge import Verdict
from companion.store import Store

SEATS = (0, 1)
VERDICT_SOUNDS = {"both_destroyed_by_mine": "explosion", "mine_cleared": "explosion", "port_captured": "fanfare"}
REDO_KEYS = {"counterweight_not_allowed": "gunkan_ui.counterweight_refused", "not_a_ship": "gunkan_ui.not_a_ship"}
# while a verdict is awaited, what the screen says the judge waits for (its verdict's reason)
WAIT_NOTES = {"swaying": "table_shaking", "confirming": "hands_off", "changed": "hands_off", "held": "hands_off",
              "rising": "hands_off"}
END_KINDS = {"resign": lambda s: {"type": "resign", "seat": s},
             "no_moves": lambda s: {"type": "no_moves", "seat": s},
             "all_gone": lambda s: {"type": "all_ships_gone", "seats": [s]}}


@dataclass(frozen=True)
class Weighing:
    """What the seesaw glue read at one moment: never a weight."""

    pans: tuple[PanStatus, PanStatus] = (PanStatus(EMPTY), PanStatus(EMPTY))
    verdict: Verdict | None = None  # the judge's, when both pans hold something
    changed: bool = False  # a piece was put on or taken off since the glue's `mark()`

    @classmethod
    def read(cls, seesaw) -> "Weighing":
        """From a `companion.games.gunkan.seesaw.Seesaw` that has just polled its source."""
        pans = (seesaw.pan(0), seesaw.pan(1))
        loaded = all(p.kind not in (EMPTY, REFUSED) for p in pans)
        return cls(pans, seesaw.battle() if loaded else None, seesaw.changed)


class GunkanController(Controller):
    """Both seats play at the table; `TABLE` also sends the seesaw's weighings."""

    def __init__(self, store: Store, session: Session | None, seesaw=None, virtual: bool = False):
        super().__init__(session)
        self.store, self.seesaw, self.virtual = store, seesaw, virtual
        self.pans: tuple[PanStatus, PanStatus] = Weighing().pans
        self.weighing = False  # both pans loaded while a verdict is awaited
        self.wait_note: str | None = None  # meanwhile, what the judge waits for (WAIT_NOTES): shown
        self.question: str | None = None  # "undo" or "end" while the table is asked
        self.cue: tuple[int, str] | None = None  # (count, sound) of the latest sound to play
        self.off_zero: tuple[int, ...] = ()  # pans that read too far from zero to be zeroed before a 勝負
        self._undone: tuple | None = None  # (game, actions) just after an undo
        self._new_battle_state()

    @classmethod
    def open(cls, store: Store, session: Session | None = None, seesaw=None, virtual: bool = False):
        """`session`, else the newest unfinished game, else the choice of a judging mode."""
        if session is None:
            session = Session.latest(store, "gunkan")
        return cls(store, session, seesaw, virtual)

    @property
    def at_table(self) -> frozenset[int]:
        return frozenset(SEATS)

    @property
    def names(self) -> list[Text]:
        return [seat_name(seat) for seat in SEATS]

    @property
    def state(self):
        return self.session.state

    @property
    def identify(self) -> bool:
        return self.session is not None and self.state.judging == "identify"

    def stage(self) -> str:
        """"start" (choose the judging), "idle", "battle", "verdict" (pans still loaded), "over"."""
        if self.session is None:
            return "start"
        phase = self.state.phase
        if phase in ("idle", "over"):
            loaded = self.seesaw is not None and any(p.kind != EMPTY for p in self.pans)
            shown = self.state.battles and not (self.called_off() or self.undone())  # a verdict of its own
            return "verdict" if phase == "idle" and shown and loaded else phase
        return "battle"

    def called_off(self) -> bool:
        """The last battle was called off (勝負中止): no verdict of its own, so none is shown."""
        actions = self.session.actions if self.session else []
        return bool(actions) and actions[-1].get("type") == "cancel"

    def undone(self) -> bool:
        """The last battle was undone (取り消し): the one before it is not news, and no verdict shows."""
        return self.session is not None and self._undone == (self.session.id, len(self.session.actions))

    # offers --------------------------------------------------------------------------

    def offers(self, who: Who) -> list[Offer]:
        if who != TABLE and who not in SEATS:
            return []
        found = [Offer("weighing")] if who == TABLE and self.seesaw is not None else []
        if self.question is not None and who == TABLE:  # the rest stays as it was, under the dialog
            found.append(Offer("answer", choices=tuple(self.answers())))
        seats = SEATS if who == TABLE else (who,)
        found += self._play_offers(seats, who == TABLE)
        if who == TABLE and self.undo_points() and self.stage() != "over":  # a result stands once shown
            found.append(Offer("ask", Text("gunkan_ui.undo_battle"), choices=("undo",)))
        if who == TABLE and self.stage() in ("idle", "verdict"):
            found.append(Offer("ask", Text("gunkan_ui.end_game"), choices=("end",)))
        return found + (self.review_offers() if who == TABLE else [])

    def _play_offers(self, seats: tuple[int, ...], table: bool) -> list[Offer]:
        """The buttons of the moment, in the order they are drawn."""
        stage = self.stage()
        if stage == "start":
            modes = ("seesaw", "identify") if self.seesaw is not None else ("seesaw",)  # identify needs pans
            return [Offer("mode", Text(f"gunkan_ui.mode_{m}"), choices=(m,)) for m in modes] if table else []
        if stage == "over":
            return [Offer("new_game", Text("gunkan_ui.new_game_button"))] if table else []
        if stage == "verdict":
            return []
        if stage == "idle":
            return [Offer("attack", Text("gunkan_ui.attacks", {"seat": seat_name(s)}), s, (s,)) for s in seats]
        phase, battle = self.state.phase, self.state.current
        attacker, defender = battle.attacker, battle.defender
        cancel = [Offer("cancel", Text("gunkan.action.cancel"))] if table else []
        if phase == "declare" and not self.identify:
            # from the legal actions: no mine once the defender has none left
            kinds = [a["kind"] for a in self.state.legal_actions() if a["type"] == "declare"]
            return [Offer("declare", Text(f"gunkan.declared.{k}"), defender, (k,))
                    for k in kinds if defender in seats] + cancel
        if phase == "counterweight":
            return [Offer("counterweight", Text(f"gunkan.action.counterweight_{v}"), attacker, (v,))
                    for v in ("on", "off") if attacker in seats] + cancel
        if phase == "mine":
            return [Offer("mine", Text(key), attacker, (v,)) for v, key in
                    (("yes", "gunkan.action.minesweeper_shown"), ("no", "gunkan.action.not_minesweeper"))
                    if attacker in seats]
        if self.seesaw is None and phase == "weigh":
            return [Offer("weighed", Text(f"gunkan_ui.{r}"), choices=(r,)) for r in COMPARISON.values()
                    if table] + cancel
        if self.identify and self.seesaw is not None and not self.seesaw.counterweight_sensed and attacker in seats:
            label = "gunkan_ui.counterweight_tap_on" if self.counterweight_tap else "gunkan_ui.counterweight_tap_off"
            return [Offer("counterweight", Text(label), attacker, ("tap",))] + cancel
        return cancel

    def answers(self) -> list[str]:
        """The answers to the open question that can be given now, "no" / "close" last."""
        if self.question == "undo":
            return ["yes", "no"] if self.undo_points() else ["no"]
        if self.stage() not in ("idle", "verdict"):  # a battle began meanwhile (from a seat's own screen)
            return ["close"]
        if self.question.startswith("end:"):  # "end:<kind>:<seat>": ending the game is asked twice
            return ["yes", "no"]
        kinds = [k for k in END_KINDS if k != "all_gone" or not self.identify]  # identify counts ships itself
        return [f"{kind}:{seat}" for kind in kinds for seat in SEATS] + ["close"]

    # input -----------------------------------------------------------------------------

    def handlers(self) -> dict:
        return super().handlers() | {
            "mode": self.on_mode, "new_game": self.on_new_game, "attack": self.on_attack, "declare": self.on_declare,
            "counterweight": self.on_counterweight, "mine": self.on_mine, "weighed": self.on_weighed,
            "cancel": self.on_cancel, "ask": self.on_ask, "answer": self.on_answer, "weighing": self.on_weighing}

    def on_mode(self, who: Who, seat, judging: str) -> None:
        self.session = Session.start(self.store, "gunkan", {"judging": judging},
                                     players=["red", "blue"], scoreboard="gunkan")
        self._new_battle_state()

    def on_new_game(self, who: Who, seat, value) -> None:
        self.session = None

    def on_attack(self, who: Who, seat: int, value) -> None:
        if self._zero_pans():
            return
        self._new_battle_state()
        self._play([{"type": "battle", "attacker": seat}])

    def _zero_pans(self) -> bool:
        """Before a 勝負 both pans are empty: zero them over their drift.  True (the battle held
        back, the players asked to clear the pans) when one reads too far from zero."""
        self.off_zero = tuple(self.seesaw.rezero()) if self.seesaw is not None else ()
        if self.off_zero:
            self._sound("reweigh")
        return bool(self.off_zero)

    def on_declare(self, who: Who, seat: int, kind: str) -> None:
        self._play([{"type": "declare", "kind": kind}])
        if kind == "mine":
            self._sound("explosion")

    def on_counterweight(self, who: Who, seat: int, value: str) -> None:
        if value == "tap":  # judging "identify": the attacker's word, not logged
            self.counterweight_tap = not self.counterweight_tap
            if self.await_change:  # a changed word is a change: what lies there is judged again
                self._judge_afresh()
            return
        self._play([{"type": "counterweight", "on": value == "on"}])
        self._reset_seesaw()

    def on_mine(self, who: Who, seat: int, value: str) -> None:
        self._play([{"type": "mine_hit", "minesweeper": value == "yes"}])

    def on_weighed(self, who: Who, seat, result: str) -> None:
        self._play([{"type": "weighed", "result": result}])
        if self.state.phase == "weigh":  # counterweight on, no balance: weigh the bare submarine
            self._redo(None)

    def on_cancel(self, who: Who, seat, value) -> None:
        self._play([{"type": "cancel"}])

    def on_ask(self, who: Who, seat, question: str) -> None:
        self.question = question

    def on_answer(self, who: Who, seat, answer: str) -> None:
        question, self.question = self.question, None
        if question == "undo" and answer == "yes" and self.undo_points():
            self.on_undo(who, None, None)
        elif question.startswith("end:") and answer == "yes":
            kind, seat_text = question.split(":")[1:]
            self._play([END_KINDS[kind](int(seat_text))])
        elif ":" in answer:  # how the game ends: confirmed before it is played
            self.question = f"end:{answer}"

    def undo_points(self) -> list[int]:
        """Undo takes back everything since the last battle began (else the last action)."""
        actions = self.session.actions if self.session else []
        starts = [i for i, a in enumerate(actions) if a.get("type") == "battle"]
        return [starts[-1]] if starts else [len(actions) - 1] if actions else []

    def on_undo(self, who: Who, seat, value) -> None:
        super().on_undo(who, seat, value)
        self._undone = (self.session.id, len(self.session.actions))  # said until the next action
        self._new_battle_state()

    # a finished game is reviewed battle by battle, as a group counts it (not action by action)

    def review_text(self) -> Text | None:
        review = self.review()
        return None if review is None else display.review_text(review)

    def on_review(self, who: Who, seat, step: int) -> bool:
        review = self.review()
        stops = [i for i in display.battle_stops(review) if (i - review.at) * step > 0]
        if stops:
            review.at = stops[0] if step > 0 else stops[-1]
        return bool(stops)

    # the referee ----------------------------------------------------------------------

    def on_weighing(self, who: Who, seat, weighing: Weighing) -> bool:
        """Decide on what the seesaw read; False when nothing shown changed (most readings)."""
        if not isinstance(weighing, Weighing):
            raise TypeError(f"a Weighing, not {weighing!r}")
        before = self._shown()
        self._referee(weighing)
        return self._shown() != before

    def _referee(self, weighing: Weighing) -> None:
        self.pans = weighing.pans
        phase = self.state.phase if self.session else None
        judging = phase == "weigh" or (self.identify and phase in ("declare", "identify"))
        if not judging:
            self.weighing, self.wait_note = False, None
            if self.off_zero:  # cleared since? try again, and take the notice down once it zeroes
                self.off_zero = tuple(self.seesaw.rezero())
            return
        if self.await_change:
            if weighing.changed:
                self._judge_afresh()
            elif self.notice == Text("gunkan_ui.reweigh"):  # the pan that weighs like no piece, once it is known
                self.notice = Text(self._reweigh_key())
            return
        self.weighing = all(p.kind not in (EMPTY, REFUSED) for p in weighing.pans)
        verdict = weighing.verdict
        self.wait_note = WAIT_NOTES.get(verdict.reason) if self.weighing and verdict is not None else None
        if self.weighing and verdict is not None and verdict.final:
            self.weighing = False
            self._verdict(verdict)

    def _verdict(self, verdict: Verdict) -> None:
        if not self.identify:
            if verdict.kind in COMPARISON:
                self.on_weighed(TABLE, None, COMPARISON[verdict.kind])
            else:
                self._play([{"type": "reweigh"}])
                self._redo(Text(self._reweigh_key()))
            return
        found = identities(verdict, None if self.seesaw.counterweight_sensed else self.counterweight_tap)
        if found.redo:
            self._redo(Text(REDO_KEYS.get(found.redo) or self._reweigh_key()))
            return
        actions = [{"type": "identified", "attacker": found.attacker, "defender": found.defender,
                    "counterweight": found.counterweight}]
        if self.state.phase == "declare":
            actions.insert(0, {"type": "declare", "kind": declaration_of(found.defender)})
        try:
            self._play(actions)  # one turn: both, or neither
        except Refused as refusal:  # a class no longer in play: the record, not the placing, is at odds
            self._redo(self._lost(found) if refusal.key == "gunkan_errors.not_in_play" else Text("gunkan_ui.reweigh"))

    def _lost(self, found) -> Text:
        """Which recognised piece the record says is all lost: its pan, whose, and the battle that
        took the last of its class (never the class: the table must not learn it)."""
        state = self.state
        for side, seat, piece in (("left", state.current.attacker, found.attacker),
                                  ("right", state.current.defender, found.defender)):
            if not state.in_play(seat, piece):
                return Text(f"gunkan_ui.record_lost_{side}",
                            {"seat": seat_name(seat), "n": state.last_lost(seat, piece)})
        return Text("gunkan_ui.reweigh")

    def _reweigh_key(self) -> str:
        """What to do when the judge could not decide: a pan whose load weighs like no piece is
        named (a coin, a finger, two pieces), else both are placed again."""
        misfits = [side for side, pan in zip(("left", "right"), self.pans) if pan.reason == MISFIT]
        return f"gunkan_ui.reweigh_{misfits[0]}" if len(misfits) == 1 else "gunkan_ui.reweigh"

    def _play(self, actions: list) -> None:
        fought = len(self.state.battles)
        self.play_turn(actions)
        if len(self.state.battles) > fought:
            battle = self.state.battles[-1]
            tapped_mine = battle.declared == "mine" and not self.identify  # it went off at the tap
            self._sound("verdict" if tapped_mine else VERDICT_SOUNDS.get(battle.verdict, "verdict"))
            self.notice, self.weighing = None, False

    def _redo(self, notice: Text | None) -> None:
        """Ask the players to re-place: no verdict until a pan has been touched."""
        self.notice, self.await_change = notice, True
        if self.seesaw is not None:
            self.seesaw.mark()
        self._sound("reweigh")

    def _judge_afresh(self) -> None:
        """The re-place asked for has happened: no notice, verdicts from the readings from now on."""
        self.await_change, self.notice = False, None
        self._reset_seesaw()

    def _new_battle_state(self) -> None:
        self.counterweight_tap = False  # judging "identify": the attacker's word
        self.await_change = False  # after a re-weigh: wait until a pan is touched
        self.notice: Text | None = None  # a re-place message over the prompt
        self._reset_seesaw()

    def _reset_seesaw(self) -> None:
        if self.seesaw is not None:
            self.seesaw.reset()

    def _sound(self, name: str) -> None:
        self.cue = ((self.cue[0] if self.cue else 0) + 1, name)

    def _shown(self) -> tuple:
        """What a weighing may change on a display."""
        return (self.stage(), self.pans, self.weighing, self.wait_note, self.notice, self.await_change, self.cue,
                self.off_zero,
                self.session and len(self.session.actions))

    # display ----------------------------------------------------------------------------

    def display(self, who: Who) -> dict:
        return display.model(self, who)
