"""九九戦艦 Kuku Battleship, the touchscreen game (RULES.md §1).

Three ways to play, chosen on the start panel (with the rule, who starts and
the players' names, which the learning report is kept under):
- "2p": the companion referees.  Each fleet is entered behind a "hand the
  screen to …" cover; then each attack (a tapped or typed cell, or a 九九ボム:
  product, then the pairs one by one, judged only when the player is done).
- "cpu": against the computer, which decides from its own seat's view on a
  thread and announces its attacks in big text.
- "tracker": a fully physical game; after each attack both players say where
  a ship of theirs sank (and, when the basic rule needs it, the leader).

After every attack a result step says which marker both players put where,
who announced "hit", and the ships left.  Stages: setup, report, cover,
place (the only one that shows a fleet: its owner's), play, list, answer,
result, over (with a move-by-move review).  The board takes the full 480 px
height; the side panel holds Home and every control.
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.togglebutton import ToggleButton

from companion.games.kuku.ai import KukuAI
from companion.games.kuku.report import COMPUTER, store_report, weakest_first
from companion.play.state import IllegalAction
from companion.games.kuku.board import is_cell, parse_pair
from companion.play.session import Session, tally
from companion.ui import theme
from companion.ui.computer import ComputerTurn, PlaysComputerTurns
from companion.games.battleship.texts import reason
from companion.games.kuku.grid import KukuGrid  # noqa: F401  (used in kv)
from companion.games.kuku.keypad import TIMES, KukuKeypad  # noqa: F401  (used in kv)
from companion.games.kuku.texts import (announcement, computer_turn, fleet_kinds, headline,
                                           markers_after, pairs_text, remaining_text)
from companion.ui.widgets import GameScreen, may_undo_placing

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

KIND = "kuku"
SEAT_COLOURS = ((0.66, 0.20, 0.18, 1), (0.16, 0.36, 0.68, 1))
LEVELS = {"easy": 1, "medium": 2, "hard": 3}


class KukuScreen(PlaysComputerTurns, GameScreen):
    kind = KIND
    stage = StringProperty("setup")
    # the start panel's choices
    opponent = StringProperty("2p")
    rule = StringProperty("basic")
    first = NumericProperty(0)
    level = StringProperty("medium")
    choosing = BooleanProperty(False)
    reporting = BooleanProperty(False)
    # what the panels say
    status_text = StringProperty("")
    status_colour = ListProperty(theme.PANEL)
    said_text = StringProperty("")
    news_title = StringProperty("")
    news_text = StringProperty("")
    notice_text = StringProperty("")
    cover_text = StringProperty("")
    cover_button_text = StringProperty("")
    primary_text = StringProperty("")
    secondary_text = StringProperty("")
    confirm_text = StringProperty("")
    continue_text = StringProperty("")
    review_text = StringProperty("")
    review_title = StringProperty("")
    score_text = StringProperty("")
    report_text = StringProperty("")
    # what may be pressed
    can_undo = BooleanProperty(False)
    can_primary = BooleanProperty(False)
    can_confirm = BooleanProperty(False)
    thinking = BooleanProperty(False)
    selected = StringProperty("normal")
    review_index = NumericProperty(0)
    report_name = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rng = random.Random()
        self.private_seat: int | None = None  # whose fleet the place stage shows
        self.seen = 0  # attacks whose result step was passed
        self._ai: KukuAI | None = None
        self.cpu = ComputerTurn("kuku-cpu")
        self.ids.keypad.bind(entry=lambda *_: self._entry_changed())

    @property
    def grid(self) -> KukuGrid:
        return self.ids.grid

    @property
    def keypad(self) -> KukuKeypad:
        return self.ids.keypad

    def names(self) -> list[str]:
        return [self.tr("kuku_ui.cpu") if self._is_cpu(s) else name
                for s, name in enumerate(self.session.players)]

    def _is_cpu(self, seat: int | None) -> bool:
        return seat is not None and self.opponent == "cpu" and self.session.players[seat] == COMPUTER

    # games -------------------------------------------------------------------

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else the start panel."""
        self._adopt(session or self.unfinished())

    def _adopt(self, session: Session | None) -> None:
        self._cancel_cpu()
        self.session = session
        self.private_seat = None
        self.notice_text = ""
        self.keypad.entry = ""
        self.choosing = session is None
        self.reporting = False
        if session is not None:
            options = session.record.options
            self.opponent = ("cpu" if (session.record.scoreboard or "").startswith(f"{KIND}:cpu")
                             else "tracker" if options["mode"] == "tracker" else "2p")
            self.rule, self.first = options["rule"], options["first"]
            self.seen = len(session.state.history)
            if self.opponent == "cpu":
                self.level = session.record.scoreboard.rsplit(":", 1)[-1]
                self._ai = KukuAI(LEVELS[self.level], random.Random(self.rng.random()))
            self.review_index = len(session.state.history)
        self.refresh()
        self._maybe_cpu()

    def start(self) -> None:
        """Start the game the start panel describes (abandoning an unfinished one)."""
        self.abandon_unfinished()
        options = {"rule": self.rule, "first": int(self.first),
                   "mode": "tracker" if self.opponent == "tracker" else "referee"}
        self._adopt(Session.start(self.store, KIND, options, players=self._typed_names(),
                                  scoreboard=self.scoreboard(self.opponent, self.level)))

    def _typed_names(self) -> list[str]:
        fields = (self.ids.name_0, self.ids.name_1)
        names = [field.text.strip() or field.hint_text for field in fields]
        return [names[0], COMPUTER] if self.opponent == "cpu" else names

    def new_game(self) -> None:
        """The start panel, keeping the current game until Start is pressed."""
        self._cancel_cpu()
        self.choosing, self.reporting = True, False
        self.refresh()

    def back_to_game(self) -> None:
        self.choosing = self.reporting = False
        self.refresh()
        self._maybe_cpu()

    def choose(self, **choice) -> None:
        """A start panel option was pressed."""
        for name, value in choice.items():
            setattr(self, name, value)
        self.refresh()

    def show_report(self, name: str = "") -> None:
        self.reporting = True
        self.report_name = name
        self.refresh()

    # actions -------------------------------------------------------------------

    def play(self, action) -> bool:
        """Play a person's action; a refusal is shown, not raised."""
        try:
            self.session.play(action)
        except IllegalAction as error:
            self.notice_text = reason(error, self.app.lang)
            return False
        self.notice_text = ""
        self.keypad.entry = ""
        self.refresh()
        self._maybe_cpu()
        return True

    def cell_tapped(self, cell: str) -> None:
        if self.stage == "place":
            self.play({"type": "place", "kind": self.selected, "cell": cell})
        elif self.stage == "play" and self.keypad.entry == cell:
            self.primary()  # a second tap on the picked cell attacks it
        elif self.stage in ("play", "list"):
            self.keypad.entry = cell

    def _entry_changed(self) -> None:
        self.grid.aim = self.keypad.entry if is_cell(self.keypad.entry) and self.stage == "play" else ""
        self._draw_buttons()

    def primary(self) -> None:
        """The turn panel's main button: attack / bomb (play), add the pair (list)."""
        entry = self.keypad.entry
        if self.stage == "play":
            if TIMES in entry:
                self.play({"type": "attack", "cell": self._pair(entry)})
            elif entry:
                self.play({"type": "bomb", "product": int(entry)})
        elif self.stage == "list" and TIMES in entry:
            self.play({"type": "say", "pair": self._pair(entry)})

    @staticmethod
    def _pair(entry: str) -> str:
        parsed = parse_pair(entry)
        return f"{parsed[0]}{TIMES}{parsed[1]}" if parsed else entry

    def listing_done(self) -> None:
        self.play({"type": "done"})

    def toggle_answer(self, button) -> None:
        self._draw_buttons()

    def confirm_answer(self) -> None:
        """The tracker's report (cells where my ships sank) or leader answer."""
        chosen = [b.cell for b in self.ids.answers.children if b.state == "down"]
        if self.session.state.phase == "report":
            self.play({"type": "report", "hits": chosen})
        else:
            cell = chosen[0] if chosen else None
            self.play({"type": "leader", "cell": None if cell == "earlier" else cell})

    def continue_play(self) -> None:
        """The result step's button: on to the next turn."""
        self.seen = len(self.session.state.history)
        self.review_index = self.seen
        self.refresh()
        self._maybe_cpu()

    def undo(self) -> None:
        if self._undo_count():
            self.session.undo(1)
            self.seen = min(self.seen, len(self.session.state.history))
            self.notice_text = ""
            self.refresh()

    def _undo_count(self) -> int:
        """1 when Undo may take back the last action now: one's own ship while
        placing; anything in a tracked game (all was typed in)."""
        session = self.session
        if session is None or self.thinking or not session.actions:
            return 0
        if self.stage == "place":
            placed = session.state.view(None)["placed"]
            return int(may_undo_placing(placed, self.private_seat, session.state.first))
        return int(self.opponent == "tracker" and self.stage in ("play", "list", "answer"))

    # placing -------------------------------------------------------------------

    def open_private(self) -> None:
        """The cover's button: the placer has the screen; show their board."""
        self.private_seat = self.session.state.to_move()
        self.refresh()

    def select_kind(self, kind: str) -> None:
        self.selected = kind
        self.refresh()

    def fleet_done(self) -> None:
        """Hide the fleet: the next placer's cover, or the battle."""
        self.private_seat = None
        self.refresh()
        self._maybe_cpu()

    # the computer ------------------------------------------------------------

    def _maybe_cpu(self) -> None:
        session = self.session
        if session is None or self.stage not in ("play", "wait") or self.thinking:
            return
        seat = session.state.to_move()
        if not self._is_cpu(seat):
            return
        self.thinking = True
        state, ai = session.state, self._ai
        self.cpu.start(lambda: computer_turn(ai, state, seat), self._cpu_done)
        self.refresh()

    # review ------------------------------------------------------------------

    def step_review(self, step: int) -> None:
        count = len(self.session.state.history)
        self.review_index = max(0, min(count, self.review_index + step))
        self.refresh()

    # drawing -------------------------------------------------------------------

    def refresh(self) -> None:
        self.stage = self._stage()
        self.grid.ships, self.grid.rings, self.grid.hints = {}, [], []
        self.grid.show_values = True
        getattr(self, f"_draw_{self.stage}")()
        self.can_undo = bool(self._undo_count())
        self._draw_buttons()

    def _stage(self) -> str:
        if self.reporting:
            return "report"
        if self.choosing or self.session is None:
            return "setup"
        if self.private_seat is not None:
            return "place"
        state = self.session.state
        seat = state.to_move()
        if state.phase == "place":
            if self._is_cpu(seat):
                return "wait"
            if self.opponent == "cpu":  # nobody to hide from: straight to the board
                self.private_seat = seat
                return "place"
            return "cover"
        if self.seen < len(state.history):
            return "result"
        if state.phase == "over":
            return "over"
        if self._is_cpu(seat):
            return "wait"
        return {"play": "play", "list": "list"}.get(state.phase, "answer")

    def _public(self) -> dict:
        view = self.session.state.view(None)
        self.grid.markers = view["markers"]
        return view

    def _draw_setup(self) -> None:
        self.grid.markers = {}
        table = tally(self.store, self.scoreboard(self.opponent, self.level))
        self.score_text = "  ".join(f"{name} {row['win']}{self.tr('kuku_ui.wins_suffix')}"
                                    for name, row in list(table.items())[:3])
        defaults = (["red", "blue"] if self.opponent != "cpu" else ["you", "cpu"])
        for field, who in zip((self.ids.name_0, self.ids.name_1), defaults):
            field.hint_text = self.tr(f"kuku_ui.{who}")

    def _draw_report(self) -> None:
        table = store_report(self.store)
        names = sorted(table)
        if self.report_name not in table:
            self.report_name = names[0] if names else ""
        chips = self.ids.report_names
        chips.clear_widgets()
        for name in names[:5]:
            chip = ToggleButton(text=name, group="kuku_report", font_size="20sp", background_normal="",
                                state="down" if name == self.report_name else "normal",
                                allow_no_selection=False)
            chip.background_color = (0.20, 0.55, 0.95, 1) if name == self.report_name else theme.PANEL
            chip.bind(on_release=lambda b: self.show_report(b.text))
            chips.add_widget(chip)
        if not names:
            self.report_text = self.tr("kuku_ui.report_empty")
            return
        lines = []
        for product, stats in weakest_first(table[self.report_name]):
            line = self.tr("kuku_ui.report_row", product=product, wrong=stats.wrong, tries=stats.tries)
            missed = [pair for pair, _ in stats.missed.most_common(3)]
            if missed:
                line += "  " + self.tr("kuku_ui.report_missed", pairs=pairs_text(missed))
            lines.append(("[color=ff8a80]" if stats.wrong else "[color=9be7a6]") + line + "[/color]")
        self.report_text = "\n".join(lines)

    def _draw_cover(self) -> None:
        self.grid.markers = {}
        name = self.names()[self.session.state.to_move()]
        self.cover_text = self.tr("kuku_ui.hand_to", player=name)
        self.cover_button_text = self.tr("kuku_ui.i_am", player=name)

    def _draw_place(self) -> None:
        seat = self.private_seat
        view = self.session.state.view(seat)
        fleet = fleet_kinds(view["fleet"])
        left = {"normal": 2, "leader": 1}
        for kind in fleet.values():
            left[kind] -= 1
        if not left.get(self.selected):
            self.selected = next((k for k in ("normal", "leader") if left[k]), "")
        self.grid.markers, self.grid.ships = {}, fleet
        self.grid.interactive = bool(self.selected)
        self.status_text = self.tr("kuku_ui.place_title", player=self.names()[seat])
        self.status_colour = SEAT_COLOURS[seat]
        for kind in ("normal", "leader"):
            button = self.ids[f"kind_{kind}"]
            button.text = self.tr("kuku_ui.kind_left", kind=self.tr(f"kuku.{kind}"), n=left[kind])
            button.disabled = not left[kind]
            button.state = "down" if kind == self.selected else "normal"
        self.can_confirm = not self.selected

    def _draw_wait(self) -> None:
        view = self._public()
        self.grid.interactive = False
        self.status_text = self.tr("kuku_ui.cpu_placing" if view["phase"] == "place" else "kuku_ui.cpu_thinking")
        self.status_colour = SEAT_COLOURS[view["to_move"]]
        self.said_text = remaining_text(view["remaining"], self.names(), self.tr)

    def _draw_play(self) -> None:
        view, names = self._public(), self.names()
        seat = view["to_move"]
        self.grid.interactive = True
        self.status_text = self.tr("kuku_ui.to_attack", player=names[seat])
        self.status_colour = SEAT_COLOURS[seat]
        self.said_text = remaining_text(view["remaining"], names, self.tr)
        self._entry_changed()

    def _draw_list(self) -> None:
        view, names = self._public(), self.names()
        bomb, seat = view["bomb"], view["to_move"]
        self.grid.interactive = True
        self.grid.show_values = False  # the answer is not on the board while it is being said
        self.grid.aim = ""
        self.status_text = self.tr("kuku_ui.listing", player=names[seat], product=bomb["product"])
        self.status_colour = SEAT_COLOURS[seat]
        self.said_text = self.tr("kuku_ui.said", pairs=pairs_text(bomb["listing"]))

    def _draw_answer(self) -> None:
        view, names = self._public(), self.names()
        waiting = view["awaiting"]
        seat = waiting["seat"]
        self.grid.interactive = False
        self.grid.rings = list(waiting["cells"])
        leader = view["phase"] == "leader"
        self.status_text = self.tr("kuku_ui.ask_leader" if leader else "kuku_ui.ask_hits", player=names[seat])
        self.status_colour = SEAT_COLOURS[seat]
        self.said_text = headline(self.session.state.pending["record"], names, self.tr)
        options = self._answer_options(leader, seat)
        pad = self.ids.answers
        if [b.cell for b in reversed(pad.children)] != options or getattr(pad, "seat", None) != (seat, leader):
            pad.clear_widgets()
            pad.seat = (seat, leader)
            for cell in options:
                text = (self.tr("kuku.leader_sunk_earlier") if cell == "earlier"
                        else self.tr("kuku_ui.leader_was" if leader else "kuku_ui.ship_was", cell=cell))
                button = AnswerToggle(cell=cell, text=text, group="kuku_leader" if leader else None)
                button.bind(on_release=self.toggle_answer)
                pad.add_widget(button)

    def _answer_options(self, leader: bool, seat: int) -> list[str]:
        if not leader:
            return list(self.session.state.pending["record"]["cells"])
        options = self.session.state.legal_actions()
        return [a["cell"] if a["cell"] is not None else "earlier" for a in options]

    def _draw_result(self) -> None:
        view, names = self._public(), self.names()
        record = view["history"][self.seen]
        self.grid.markers = markers_after(view["history"], self.seen + 1)
        self.grid.interactive = False
        self.grid.rings = list(record["cells"])
        if record["action"] == "bomb" and record["judgement"] != "exact":
            self.grid.hints = list(record["correct"])
        self.news_title = headline(record, names, self.tr)
        self.status_colour = SEAT_COLOURS[record["by"]]
        self.news_text = announcement(record, names, self.tr)
        following = self.seen + 1 < len(view["history"])
        if view["phase"] == "over" and not following:
            self.continue_text = self.tr("kuku_ui.see_result")
        else:
            nxt = view["history"][self.seen + 1]["by"] if following else view["to_move"]
            self.continue_text = self.tr("kuku_ui.next_turn", player=names[nxt])

    def _draw_over(self) -> None:
        view, names = self._public(), self.names()
        outcome, history = view["outcome"], view["history"]
        if outcome["winner"] is None:
            self.status_text = self.tr("kuku_ui.draw")
            self.status_colour = theme.PANEL
        else:
            self.status_text = self.tr("kuku_ui.winner", player=names[outcome["winner"]])
            self.status_colour = SEAT_COLOURS[outcome["winner"]]
        self.status_text += "\n" + self.tr(f"kuku.reason_{outcome['reason']}")
        shown = self.review_index
        self.grid.interactive = False
        self.grid.markers = markers_after(history, shown)
        if "fleets" in view:
            self.grid.ships = {cell: kind for tokens in view["fleets"] for cell, kind in fleet_kinds(tokens).items()}
        self.review_title = self.tr("kuku_ui.review", i=shown, n=len(history))
        if shown:
            record = history[shown - 1]
            self.grid.rings = list(record["cells"])
            if record["action"] == "bomb" and record["judgement"] != "exact":
                self.grid.hints = list(record["correct"])
            self.review_text = headline(record, names, self.tr) + "\n" + announcement(record, names, self.tr)
        else:
            self.review_text = self.tr("kuku_ui.review_start")

    def _draw_buttons(self) -> None:
        """The turn panel's buttons and the answer pad's confirm button, from the entry."""
        entry = self.keypad.entry
        if self.stage == "play":
            pair = TIMES in entry
            if pair:
                self.primary_text = self.tr("kuku_ui.attack_cell", cell=entry)
            else:
                self.primary_text = self.tr("kuku_ui.bomb_product", product=entry or "?")
            self.can_primary = bool(entry) and (not pair or parse_pair(entry) is not None)
        elif self.stage == "list":
            self.primary_text = self.tr("kuku_ui.say_pair", pair=entry if TIMES in entry else "a×b")
            self.can_primary = parse_pair(entry) is not None
            self.secondary_text = self.tr("kuku.say_done")
        elif self.stage == "answer":
            chosen = [b for b in self.ids.answers.children if b.state == "down"]
            if self.session.state.phase == "report":
                self.confirm_text = (self.tr("kuku_ui.report_hits", n=len(chosen)) if chosen
                                     else self.tr("kuku_ui.report_none"))
                self.can_confirm = True
            else:
                self.confirm_text = self.tr("kuku_ui.report_leader")
                self.can_confirm = bool(chosen)


class AnswerToggle(ToggleButton):
    """One answer of the tracker's pad: a cell where my ship sank (or my leader was)."""

    cell = StringProperty("")

