"""An evening of Naval War by what is drawn: a whole round and the next round's start, played
through the real app by touch alone (issues 29 and 43), for every player count (2-9).

A seeded random player reads the screen as a person does (tests/gui/drawn.py) and plays as a
group does: it touches one of the things offered now, a choice drawn as a button (draw a card,
play what the panel offers) or a target outlined in gold (a fleet's card, then the ship shown
under the cards; with three players, the ship on its fleet's strip); rarely Back, Undo, the
discard pile or the score chart; in a dialog, its main button.  What it touched with nothing
changing (a card whose ships are shown already) it leaves be until the game moves on.  After
every touch the player's checks run (tests/evening/player.py), with Naval War's own
(tests/evening/musts.py): the player to move named, every fleet's card drawn, and every ship
of the fleet shown drawn.

Every count plays the players' own short copy (six cards left to draw after the deal: 45-75
touches); with EVENING_FULL_DECK=1, 3, 4, 6 and 9 players play the full 108-card deck too, as
a group plays it (a long round: left out of `make test`).  The seed is EVENING_SEED (default 29,
so CI repeats itself and the known findings' xfails stay strict); a failure names it, and
`EVENING_SEED=<seed> pytest tests/evening/test_navalwar_drawn_evening.py -k "[<players>]"`
plays it again.
"""

from __future__ import annotations

import os
import random

import pytest

import musts
from companion import i18n
from companion.games.navalwar.screen.chart import TotalsChart
from player import Player, known, known_checks
from test_navalwar_screen import deck_for

SEED = int(os.environ.get("EVENING_SEED", "29"))
NAMES = ["Aki", "さくら", "Takahashi", "Ben", "みなと", "Chie", "Dai", "はるか", "Emi"]
TAP_LIMIT = 1500  # a round that has not ended after this many touches is stuck
FULL_DECK = (3, 4, 6, 9)
DRAWS = 6  # the short deck: cards left to draw after the deal


def words(*keys: str) -> set[str]:
    return {i18n.translate(key, lang) for key in keys for lang in ("ja", "en")}


AWAY = words("app.home", "navalwar_ui.walkthrough_open", "navalwar_ui.count_open",
             "navalwar_ui.use_packaged", "seats.phones")  # not a move: a person playing leaves them be
RARE = words("navalwar_ui.back", "app.undo", "navalwar_ui.chart")
DISCARDS = tuple(w.split("{")[0] for w in words("navalwar_ui.discard_button"))
GOLD = ((0.98, 0.78, 0.2, 1.0, 2.0), (0.98, 0.78, 0.2, 1.0, 3.0))  # a target's outline: a ship's 2 px,
# a fleet's 3 px


class NavalWarPlayer(Player):
    """The random player at a Naval War table."""

    idle = 0  # steps in a row with nothing drawn that moves the game on
    dialog = 0  # touches in a row on a dialog
    moving = 0.95  # how often a touch moves the game on (else Back, Undo, the discards, the chart)

    def offered(self, frame):
        """What moves the game on (choices drawn as buttons, targets outlined in gold) and the
        rarer touches beside."""
        def rare(d) -> bool:
            return d.text in RARE or d.text.startswith(DISCARDS)

        faces = [d for d in frame.pressables() if d.face and d.text not in AWAY and not rare(d)]
        targets = [d for d in frame.pressables() if not d.face and d.outline in GOLD]
        return faces + targets, [d for d in frame.pressables() if d.face and rare(d)]

    futile = frozenset()  # what was touched with nothing changed since the game moved on (a set from the first step)
    moves = -1  # the game's actions when `futile` was last cleared

    def step(self) -> None:
        self.wait_for_the_lock()
        frame = self.frame()
        actions = len(self.gui.screen.session.actions)
        if actions != self.moves:  # the game moved on: anything may do something again
            self.moves, self.futile = actions, set()
        if frame.modal:  # a dialog: its main button (at its lower right), else any of its buttons
            self.dialog += 1
            assert self.dialog < 10, f"a dialog does not close; it shows {frame.texts()}"
            buttons = frame.pressables()
            main = max(buttons, key=lambda d: (d.rect[2], -d.rect[1]))
            self.touch(main if self.dialog == 1 else self.pick(buttons), frame)
            self.wait(0.2)  # it fades out
            return
        self.dialog = 0
        moving, rare = self.offered(frame)
        moving = [d for d in moving if seen(d) not in self.futile]  # a person does not tap it again
        self.idle = 0 if moving else self.idle + 1
        assert self.idle < 30, f"nothing to move the game on is drawn; the screen shows " + \
            "; ".join(f"{d} {'pressable' if d.pressable else ''} {d.outline or ''}" for d in frame.items)
        if frame.scrolls and not moving and self.idle < 8:  # a target may lie a scroll away: look through the list
            rect = frame.scrolls[0]
            self.drag(rect, 200 if rect in frame.below else -1000)  # down it; at its foot, back up (a fling)
            return
        if frame.scrolls and self.chance(0.02):
            self.drag(self.pick(frame.scrolls), self.pick([-120, 120]))
            return
        chosen = self.pick(moving if moving and self.chance(self.moving) or not rare else rare)
        self.touch(chosen, frame)
        if looks(self.frame()) == looks(frame) and len(self.gui.screen.session.actions) == actions:
            self.futile.add(seen(chosen))  # nothing happened (a fleet shown already)

    def play_until(self, done, what: str) -> None:
        for n in range(TAP_LIMIT):
            if done():
                return
            if n % 50 == 0 and os.environ.get("EVENING_PROGRESS"):
                print(f"{what}: {len(self.touches)} touches, the last {self.touches[-3:]}", flush=True)
            self.step()
        raise AssertionError(f"{what} did not come after {TAP_LIMIT} touches")


def seen(d) -> tuple:
    return d.text, d.icon, tuple(round(v) for v in d.rect)


def looks(frame) -> list:
    """What a person sees of a frame: every text, where, and how it is outlined."""
    return [(seen(d), d.pressable, d.outline) for d in frame.items] + [frame.modal]


def set_up(player: NavalWarPlayer, nw, players: int, full: bool) -> None:
    player.press_any(str(players), f"{players}*")  # (2*: the two-player house rule)
    frame = player.frame()
    names = player.rng.sample(NAMES, players)
    for seat, name in enumerate(names):
        field = frame.find(f"P{seat + 1}")  # its hint, where the name is typed
        if field and player.chance(0.6):  # else the default name, P3
            player.touch(field[0])
            focused(nw).insert_text(name)  # typed on the keyboard
    player.press(player.pick(["75", "100"]))  # the target score
    player.press_any(*words(player.pick(["navalwar_ui.dice_table", "navalwar_ui.dice_companion"])))
    if not full:
        nw.deck = deck_for(players, DRAWS)  # the players' own short copy, loaded from its file
        player.wait(0.05)
    player.press_any(*words("navalwar_ui.start"))
    assert not nw.setting_up


def focused(screen):
    """The field the keyboard types into."""
    return next(w for w in screen.walk(restrict=True) if getattr(w, "focus", False))


def summary_open(nw) -> bool:
    return nw._popup is not None and nw._popup_stage == "summary"


DRAWN = (2, 3, 4, 5, 6, 7, 8, 9)  # every count, played by what is drawn in `make test`
BACK_SHIFTS = ("new (seed 29), six players, full deck: after 戻る the 入力済み line moves 8 px down "
               "within 0.3 s")


def marks(players: int, full: bool = False):
    return known(BACK_SHIFTS, "moved") if full and players == 6 else []


@pytest.mark.timeout(600)
@pytest.mark.parametrize("players", [pytest.param(n, marks=marks(n)) for n in DRAWN])
def test_a_round_and_the_next_rounds_start(gui, request, players):
    an_evening(gui, request, players, full=False)


@pytest.mark.timeout(3600)
@pytest.mark.skipif(not os.environ.get("EVENING_FULL_DECK"), reason=(
    "the full deck's rounds are long (3, 4, 6, 9 players: 135, 413, 392, 360 touches; 66 s, 3.5 min, "
    "3 min, 3 min on a shared 2-core machine); EVENING_FULL_DECK=1 plays them"))
@pytest.mark.parametrize("players", [pytest.param(n, marks=marks(n, full=True)) for n in FULL_DECK])
def test_a_full_deck_round_and_the_next_rounds_start(gui, request, players):
    an_evening(gui, request, players, full=True)


def an_evening(gui, request, players: int, full: bool) -> None:
    seed = SEED * 100 + players
    player = NavalWarPlayer(gui, random.Random(seed), known_checks(request.node), f"{SEED} ({players} players)")
    player.open_game("navalwar")
    nw = gui.screen
    nw.controller.rng = random.Random(seed)  # the companion's dice and picks
    player.musts = musts.navalwar(nw)
    player.moving = 0.98 if full else 0.95  # a long round: fewer steps back
    with player.evening():
        set_up(player, nw, players, full)
        assert len(nw.session.players) == players
        player.play_until(lambda: summary_open(nw), "round 1's end")
        view = nw.session.state.view(None)
        chart = next(w for w in nw._popup.walk() if isinstance(w, TotalsChart))
        assert len(view["history"]) == 1 and chart.players == players and chart.history == view["history"]
        gui.screenshot(f"navalwar-evening-{players}-round-over")
        player.step()  # 次のラウンド
        assert nw._popup is None and nw.session.state.view(None)["round"] == 2
        totals, now = view["totals"], nw.session.state.view(None)
        assert now["waiting"]["kind"] == "deal" and totals[now["seat"]] == max(totals)
        dealt = len(nw.session.actions)
        player.play_until(lambda: len(nw.session.actions) >= dealt + 2 and nw._popup is None,
                          "round 2's first deals")
        gui.screenshot(f"navalwar-evening-{players}-round-2")
    print(f"{players} players: {len(player.touches)} touches, {player.frames} frames checked")
