"""An evening of Naval War by widget handles: for 5, 7 and 8 players, a whole round and the next
round's start (issue 29); 2, 3, 4, 6 and 9 players play by what is drawn instead
(test_navalwar_drawn_evening.py).

A seeded random player reads the screen as a person does: it taps one of the things offered
now (a choice button, a ship or fleet outlined as a target, the roll button, Back, sometimes
Undo, the discard pile, the score chart), scrolling a choice panel to it as a finger would.
After every touch the layout check (tests/gui/layout_check.py, in `gui.tap`) and the
mid-word check (tests/gui/word_breaks.py) look at what is drawn.

The seed is EVENING_SEED (default 29, so CI repeats itself; set it to cover new paths); every
failure names it with the player count, and the run repeats with
`EVENING_SEED=<seed> pytest tests/evening/test_navalwar_evening.py -k "[<players>]"`.
The deck is the players' own short copy (six cards left to draw after the deal), as a group
trying the game would set it: a round of a few dozen entries.
"""

from __future__ import annotations

import os
import random

import pytest

import word_breaks
from companion.games.navalwar.screen.chart import TotalsChart
from companion.games.navalwar.controller import PLAYERS
from companion.games.navalwar.screen.popups import ScoresView
from kivy.uix.scrollview import ScrollView
from test_navalwar_drawn_evening import DRAWN
from test_navalwar_screen import deck_for, tap_choice

SEED = int(os.environ.get("EVENING_SEED", "29"))
NAMES = ["Aki", "さくら", "Takahashi", "Ben", "みなと", "Chie", "Dai", "はるか", "Emi"]
TAP_LIMIT = 900  # a round that has not ended after this many touches is stuck
DRAWS = 6  # cards left to draw after the deal: the round's length


class Player:
    """The random player at the table: touches what the screen offers, and says where it was."""

    def __init__(self, gui, players: int):
        self.gui, self.players = gui, players
        self.seed = SEED * 100 + players
        self.rng = random.Random(self.seed)
        self.touches: list[str] = []

    @property
    def nw(self):
        return self.gui.screen

    def where(self) -> str:
        return (f"EVENING_SEED={SEED}, {self.players} players (seed {self.seed}), after "
                f"{len(self.touches)} touches; the last: {self.touches[-5:]}")

    def touch(self, widget, what: str = "") -> None:
        self.touches.append(what or str(getattr(widget, "text", type(widget).__name__))[:30])
        if any(isinstance(w, ScrollView) for w in parents(widget)):
            tap_choice(self.gui, widget)  # scrolled to first, as a finger would
        else:
            self.gui.tap(widget)
        faults = word_breaks.problems(self.gui.app)
        assert not faults, f"{self.where()}:\n  " + "\n  ".join(faults)

    # the start form ------------------------------------------------------------

    def set_up(self) -> None:
        nw = self.nw
        self.touch(nw.ids[f"count_{self.players}"])
        for field, name in zip(nw._name_fields(), self.rng.sample(NAMES, self.players)):
            if self.rng.random() < 0.6:  # else the default name, P3
                self.touch(field, "name field")
                field.insert_text(name)
        self.touch(nw.ids[self.rng.choice(["target_75", "target_100"])])
        self.touch(nw.ids[self.rng.choice(["dice_table", "dice_companion"])])
        nw.deck = deck_for(self.players, DRAWS)
        self.gui.pump(0.05)
        starts = [nw.ids.start, *nw.ids.firsts.children]
        self.touch(self.rng.choice(starts))
        assert not nw.setting_up, self.where()

    # a turn's choices -----------------------------------------------------------

    def offered(self) -> list:
        """What a finger may touch now to move the game on, and the rarer touches beside."""
        nw = self.nw
        choices = [t for t in nw.ids.choices.children + nw.ids.primary.children if not t.disabled]
        targets = [w for fleets in (nw.ids.fleets, nw.ids.many) for w in fleets.walk(restrict=True)
                   if (getattr(w, "step", "") or getattr(w, "marked", False))]  # a card: its ships
        moving = choices + targets + ([nw.ids.extra] if nw.extra_text else [])
        rare = ([nw.ids.back] if nw.can_back else []) + ([nw.ids.undo] if nw.can_undo else [])
        rare += [nw.ids.discards, nw.ids.chart_button]
        return moving if self.rng.random() < 0.9 or not moving else rare

    def step(self) -> None:
        """One touch: the popup's button when one is open, else one of the offers."""
        nw = self.nw
        popup = nw._popup
        if popup is not None:
            button = popup.ids.get("scores_button") or popup.ids.close
            self.touch(button, f"popup: {button.text}")
            self.gui.pump(0.2)  # it fades out
            return
        widget = self.rng.choice(self.offered())
        self.touch(widget)
        if widget in (nw.ids.discards, nw.ids.chart_button):
            assert nw._popup is not None, self.where()

    def play_until(self, done) -> None:
        for _ in range(TAP_LIMIT):
            if done():
                return
            self.step()
        raise AssertionError(f"{self.where()}: the round never ended")


def parents(widget):
    while widget.parent is not None and widget.parent is not widget:  # the Window is its own parent
        widget = widget.parent
        yield widget


def round_of(nw) -> int:
    return nw.session.state.view(None)["round"]


def summary_open(nw) -> bool:
    return isinstance(nw._popup, ScoresView) and nw._popup_stage == "summary"


@pytest.mark.timeout(900)  # 9 players: about 100 touches, each checked (slow on a loaded machine)
@pytest.mark.parametrize("players", [n for n in PLAYERS if n not in DRAWN])
def test_a_round_and_the_next_rounds_start(gui, players):
    gui.tap(gui.tile("navalwar"))
    player = Player(gui, players)
    gui.screen.controller.rng = random.Random(player.seed)  # the companion's dice and picks
    print(f"Naval War evening: {player.where()}")  # shown with a failure
    try:
        player.set_up()
        nw = player.nw
        assert len(nw.session.players) == players

        player.play_until(lambda: summary_open(nw))  # round 1, to its end
        popup = nw._popup
        chart = next(w for w in popup.walk() if isinstance(w, TotalsChart))
        view = nw.session.state.view(None)
        assert chart.players == players and chart.history == view["history"] and len(view["history"]) == 1
        assert "第1ラウンド終了" in popup.title
        gui.screenshot(f"navalwar-evening-{players}-round-over")
        player.step()  # 次のラウンド
        assert nw._popup is None and round_of(nw) == 2

        # round 2 starts: the deal, and the player with the highest total plays first
        totals, now = view["totals"], nw.session.state.view(None)
        assert now["waiting"]["kind"] == "deal" and totals[now["seat"]] == max(totals), player.where()
        assert nw.session.players[now["waiting"]["seat"]] in nw.prompt_text
        dealt = len(nw.session.actions)
        player.play_until(lambda: len(nw.session.actions) >= dealt + 2 and nw._popup is None)
        player.touch(nw.ids.chart_button)
        assert [w for w in nw._popup.walk() if isinstance(w, TotalsChart)][0].players == players
        player.step()
        gui.screenshot(f"navalwar-evening-{players}-round-2")
    except AssertionError as fault:
        raise AssertionError(f"{player.where()}\n{fault}") from fault
