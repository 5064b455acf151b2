"""Touches to enter a whole Naval War round with the full 108-card deck, at 4 and 9 players:
the round a table plays from a shuffled deck (bench/_navalwar_deck.py, seeded) played through
the real screen at 800x480 by touch events, from the start form to the round's last entry.

A finger enters each entry of the round: it finds the entry among what the screen
offers (a choice button, a ship on the fleet panel), taps through its steps, and when a
button is out of view it swipes the list once (counted as a touch too).  Prints, per player
count, `taps`, `swipes` and `touches` (their sum), the entries, and the touches per part of
the round (the start form and first player, the deal, the first turn, the normal turns).
With `--dice companion` the form's "the companion rolls" is tapped first (counted) and the
round's dice are left out: the companion rolls each with the entry that calls for it, its
rng seeded (ROLLS_SEED) as the round was, so it rolls what the round says.
Usage: python bench/navalwar_taps.py [--json] [--players 4 9] [--seed N] [--lang ja|en]
       [--dice table|companion] [--shots DIR]   (--shots: a screenshot before every entry)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's companion, then bench/
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
for name in ("KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG", "KIVY_NO_ARGS"):
    os.environ[name] = "1"

from tests.virtual_display import ensure_display, pump, save_screenshot  # noqa: E402

ensure_display()

from _navalwar_deck import FIRST, round_script  # noqa: E402
from companion import config  # noqa: E402
from companion.play.controller import TABLE  # noqa: E402
from companion.ui.app import CompanionApp  # noqa: E402
from kivy.app import App  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

ROLLS_SEED = 17  # the companion's dice with --dice companion
SEED = 43  # the deck's shuffle, the targets, the table's dice


def _is_roll(action) -> bool:
    return action["type"] == "die"


class Finger:
    def __init__(self, screen, rolled: bool = False):
        self.screen = screen
        self.rolled = rolled  # the companion rolls: its dice are not the finger's to enter
        self.taps = self.swipes = 0
        self.opened = 0  # taps on a fleet's card to show its ships (four players or more)
        self.swiped: Counter = Counter()  # the kinds of step each swipe brought into view

    def tap(self, widget) -> None:
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        pump(0.02)
        touch.touch_up()
        pump(0.03)
        self.taps += 1

    def tap_step(self, step: str) -> None:
        """Tap the widget that offers `step`, swiping its list once when it is out of view."""
        screen = self.screen
        end = time.monotonic() + 5
        while screen.locked or screen._still.waiting("ships") or screen._still.waiting("follow"):  # what is drawn, settled
            assert time.monotonic() < end, "the input lock never lifted"
            pump(0.02)
        pump(0.03)  # the frame drawn: where things are as a person sees them
        found = self._offering(step)
        if not found and self._open_fleet_of(step):  # four players or more: the ship's fleet card first
            found = self._offering(step)
        assert found, (f"nothing on screen offers {step!r}; at {screen.controller.shown_prefix(TABLE)}: "
                       f"{[w.step for w in screen.ids.choices.children + screen.ids.primary.children]}")
        widget = min(found, key=lambda w: not _in_view(w))  # one in view first
        if not _in_view(widget):
            scroll = _scroll_of(widget)
            scroll.scroll_to(widget, padding=4, animate=False)
            pump(0.03)
            self.swipes += 1
            self.swiped[step.split(":")[0]] += 1  # ship, fleet: the fleet list; card, discard: the choices
        self.tap(widget)

    def _offering(self, step: str) -> list:
        return [w for w in self.screen.walk(restrict=True)
                if getattr(w, "step", None) == step and w.get_root_window() and _shown(w)]

    def _open_fleet_of(self, step: str) -> bool:
        """Tap the card of the fleet holding ship `step` (a tap counted with the others)."""
        screen = self.screen
        seat = next((f["seat"] for f in screen.session.state.view(None)["fleets"]
                     for ship in f["ships"] if step == f"ship:{ship['id']}"), None)
        if not screen.many or seat is None:
            return False
        self.tap(next(c for c in screen.ids.many.ids.cards.children if c.seat == seat))
        self.opened += 1
        pump(0.05)
        return True

    def enter(self, script: list) -> int:
        """Enter the next entries of `script` as one entry the screen offers (the longest
        it offers); returns how many entries of the script that took."""
        controller = self.screen.controller
        tree = controller.tree()
        best = None
        for path, action in tree.entries:
            actions = list(action) if isinstance(action, tuple) else [action]
            if actions == script[:len(actions)] and (best is None or len(actions) > len(best[1])):
                best = (path, actions)
        assert best is not None, f"the screen offers no way to enter {script[0]!r}"
        path, actions = best
        before = len(controller.session.actions)
        for i, step in enumerate(s[0] for s in path):
            if len(controller.shown_prefix(TABLE)) > i:
                continue  # a step with one choice, taken for you
            self.tap_step(step)
            end = time.monotonic() + 2  # a list's ScrollView hands a tap on 0.2 s after it is lifted
            while (len(controller.session.actions) == before and len(controller.shown_prefix(TABLE)) <= i
                   and time.monotonic() < end):
                pump(0.02)
        entered = controller.session.actions[before:]
        if self.rolled:
            entered = [a for a in entered if not _is_roll(a)]
        if entered != actions:
            shot = save_screenshot(Path(self.screen.store.path).parent / "navalwar-taps-failed.png")
            raise AssertionError(f"tapped {[s[0] for s in path]} for {actions}, entered {entered} (the screen: {shot})")
        return len(actions)


def _shown(widget) -> bool:
    w = widget
    while w is not None and w is not Window:
        if getattr(w, "opacity", 1) <= 0 or getattr(w, "disabled", False):
            return False
        w = w.parent
    return widget.width > 0 and widget.height > 0


def _scroll_of(widget):
    w = widget.parent
    while w is not None and not isinstance(w, ScrollView):
        w = w.parent if w.parent is not w else None  # the Window is its own parent
    return w


def _in_view(widget) -> bool:
    scroll = _scroll_of(widget)
    if scroll is None:
        return True
    _, y0 = widget.to_window(widget.x, widget.y)
    _, y1 = widget.to_window(widget.x, widget.top)
    _, bottom = scroll.to_window(scroll.x, scroll.y)
    return bottom - 1 <= y0 and y1 <= bottom + scroll.height + 1


def measure(players: int, lang: str, dice: str = "table", seed: int = SEED, shots: Path | None = None) -> dict:
    rolled = dice == "companion"
    script, bounds = round_script(players, seed, random.Random(ROLLS_SEED) if rolled else None)
    data = tempfile.mkdtemp(prefix="nw-taps-")
    cfg = config.parse(f"data_dir: {data}\nlanguage: {lang}\n", "bench.yaml")
    app = CompanionApp(cfg)
    app._run_prepare()
    Window.size = (800, 480)
    pump(0.2)
    home = app.manager.get_screen("home")
    finger = Finger(None, rolled=rolled)
    finger.tap(next(t for t in home.ids.tiles.children if t.kind == "navalwar"))
    screen = finger.screen = app.manager.current_screen
    finger.tap(screen.ids[f"count_{players}"])
    if rolled:
        finger.tap(screen.ids.dice_companion)
        screen.controller.rng = random.Random(ROLLS_SEED)
    pump(0.05)
    firsts = list(reversed(screen.ids.firsts.children))
    if firsts:  # the start form's "P2 first" enters the first entry
        finger.tap(firsts[FIRST])
    else:  # nine: Start, then who plays first on the next panel
        finger.tap(screen.ids.start)
        finger.enter(script[:1])
    assert screen.session.actions == script[:1]
    entered = (lambda part: [a for a in part if not _is_roll(a)]) if rolled else list
    ends = list(bounds.values())[1:] + [len(script)]
    parts, done, start = {}, 1, 0
    for (part, _), end in zip(bounds.items(), ends):
        end = len(entered(script[:end]))
        while done < end:
            if shots:
                pump(0.1)
                save_screenshot(shots / f"navalwar-{players}-{lang}-{done:03d}.png")
            done += finger.enter(entered(script)[done:end])
        parts[part] = finger.taps + finger.swipes - start
        start += parts[part]
    log = screen.session.actions
    assert entered(log) == entered(script) and (rolled or log == script), "the round as played, the dice beside"
    app.dispatch("on_stop")
    for child in Window.children[:]:  # the next player count starts a fresh app (as tests/gui do)
        Window.remove_widget(child)
    App._running_app = None
    return {"players": players, "taps": finger.taps, "swipes": finger.swipes, "touches": finger.taps + finger.swipes,
            "entries": len(entered(script)), "parts": parts, "swiped": dict(finger.swiped), "cards": finger.opened, "lang": lang, "dice": dice, "seed": seed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 9])
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--lang", default="ja", choices=("ja", "en"))
    parser.add_argument("--dice", default="table", choices=("table", "companion"),
                        help="who rolls the dice (companion: the round's dice are left out)")
    parser.add_argument("--shots", type=Path)
    args = parser.parse_args()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    results = []
    for players in args.players:
        try:
            figures = measure(players, args.lang, args.dice, args.seed, args.shots)
        except Exception:  # Kivy has taken stderr
            import traceback
            print(traceback.format_exc())
            raise SystemExit(1)
        results.append(figures)
        if not args.json:
            print(f"{players} players: {figures['touches']} touches ({figures['taps']} taps, {figures['swipes']} swipes) "
                  f"for {figures['entries']} entries; fleet cards tapped {figures['cards']}; by part: {figures['parts']}; swiped to: {figures['swiped']}", flush=True)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
