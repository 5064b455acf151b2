"""Naval War's round end through the real screen, for every player count (issue 29, finding 1).

With 4 players the round's end crashed in the score chart (IndexError: the chart drew the
new `history` while its `players` was still the default 3), the chart button then failed
(AssertionError), and after a restart it failed again in round 2.  Each count here plays
its round to one entry before the end by the rules, enters the last one by touch, and then
opens the chart before and after a restart.
"""

from __future__ import annotations

import random

import pytest

from companion.games.navalwar.screen.chart import TotalsChart
from companion.play.controller import TABLE
from test_navalwar_screen import deck_for, tap_choice, tiles


def ends_the_round(state, action) -> bool:
    after = state
    for a in action if isinstance(action, tuple) else [action]:
        after = after.apply(a)
    return after.view(None)["round"] > state.view(None)["round"]


def play_to_the_round_end(session, rng) -> None:
    """Random legal entries until one of the legal ones would end the round."""
    for _ in range(2000):
        state = session.state
        acts = state.legal_actions()
        if any(ends_the_round(state, a) for a in acts):
            return
        plays = [a for a in acts if a["type"] == "play"]
        session.play(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(acts))
    raise AssertionError("the round never ended")


def tap_the_round_end(gui, screen) -> None:
    """Tap down the choice panels to an entry that ends the round."""
    state = screen.session.state
    while state is screen.session.state:
        tree = screen.controller.tree()
        prefix = screen.controller.shown_prefix(TABLE)
        ending = {p[len(prefix)][0] for p, a in tree._under(prefix) if ends_the_round(state, a)}
        step = next(c.id for c in tree.choices(prefix) if c.id in ending)
        tap_choice(gui, tiles(screen)[step])


def chart_of(screen) -> TotalsChart:
    return next(w for w in screen._popup.walk() if isinstance(w, TotalsChart))


@pytest.mark.parametrize("players", [4, 9])  # every count: tests/evening/test_navalwar_drawn_evening.py
def test_the_round_ends_and_the_chart_opens_again_after_a_restart(gui, players):
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    nw.deck = deck_for(players)
    gui.tap(nw.ids[f"count_{players}"])
    gui.tap(nw.ids.start)
    play_to_the_round_end(nw.session, random.Random(players))
    nw.refresh()
    gui.pump(0.1)
    tap_the_round_end(gui, nw)  # the round's last entry, by touch
    assert nw._popup is not None and "第1ラウンド終了" in nw._popup.title
    chart = chart_of(nw)
    assert chart.players == players and len(chart.history) == 1
    assert len(chart.drawn_texts()) >= 2  # drawn: the round number and the target
    gui.tap(nw._popup.ids.scores_button)  # next round
    assert nw._popup is None and nw.session.state.view(None)["round"] == 2
    gui.tap(nw.ids.chart_button)
    assert chart_of(nw).players == players
    gui.tap(nw._popup.ids.scores_button)

    gui.restart()
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    assert nw.session.state.view(None)["round"] == 2
    gui.tap(nw.ids.chart_button)
    chart = chart_of(nw)
    assert chart.players == players and len(chart.history) == 1
    gui.tap(nw._popup.ids.scores_button)
    assert nw._popup is None
