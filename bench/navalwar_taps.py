"""Taps to enter a Naval War go-round: the scripted 4-player first round of
bench/_navalwar_round.py (start with the first player, the 20-ship deal, the first turn, one
normal turn each), played through the real screen at 800x480 by touch events.

A finger enters each entry of the script: it finds the entry among what the screen
offers (a choice button, a ship on the fleet panel), taps through its steps, and when a
button is out of view it swipes the list once (counted as a touch too).  Prints
`taps`, `swipes` and `touches` (their sum), and the touches per part of the round.
With `--dice companion` the form's "the companion rolls" is tapped first (counted) and
the script's dice are left out: the companion rolls each with the entry that calls for
it, its rng seeded (ROLLS_SEED) so a run is repeatable; the script runs whatever it
rolls (tests/games/navalwar/test_dice.py), the targets it names later never being
ones a roll may sink.
Usage: python bench/navalwar_taps.py [--json] [--lang ja|en] [--dice table|companion] [--shots DIR]
(--shots: a screenshot before every entry, DIR/navalwar-<lang>-<n>.png)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's companion, then bench/
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
for name in ("KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG", "KIVY_NO_ARGS"):
    os.environ[name] = "1"

from tests.virtual_display import ensure_display, pump, save_screenshot  # noqa: E402

ensure_display()

from _navalwar_round import DEAL, FIRST_TURN, SCRIPT  # noqa: E402
from companion import config  # noqa: E402
from companion.play.controller import TABLE  # noqa: E402
from companion.ui.app import CompanionApp  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402

ROLLS_SEED = 17  # the companion's dice with --dice companion


def _is_roll(action) -> bool:
    return action["type"] == "die"


class Finger:
    def __init__(self, screen, rolled: bool = False):
        self.screen = screen
        self.rolled = rolled  # the companion rolls: its dice are not the finger's to enter
        self.taps = self.swipes = 0

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
        while screen.locked:
            assert time.monotonic() < end, "the input lock never lifted"
            pump(0.02)
        found = [w for w in screen.walk(restrict=True)
                 if getattr(w, "step", None) == step and w.get_root_window() and _shown(w)]
        assert found, f"nothing on screen offers {step!r}"
        widget = min(found, key=lambda w: not _in_view(w))  # one in view first
        if not _in_view(widget):
            scroll = _scroll_of(widget)
            scroll.scroll_to(widget, padding=4, animate=False)
            pump(0.03)
            self.swipes += 1
        self.tap(widget)

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
        for step in [s[0] for s in path][len(controller.shown_prefix(TABLE)):]:
            self.tap_step(step)
        entered = controller.session.actions[before:]
        if self.rolled:
            entered = [a for a in entered if not _is_roll(a)]
        assert entered == actions, f"tapped {[s[0] for s in path]} for {actions}, entered {entered}"
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


def measure(lang: str, dice: str = "table", shots: Path | None = None) -> dict:
    data = tempfile.mkdtemp(prefix="nw-taps-")
    cfg = config.parse(f"data_dir: {data}\nlanguage: {lang}\n", "bench.yaml")
    app = CompanionApp(cfg)
    app._run_prepare()
    Window.size = (800, 480)
    pump(0.2)
    home = app.manager.get_screen("home")
    finger = Finger(None, rolled=dice == "companion")
    finger.tap(next(t for t in home.ids.tiles.children if t.kind == "navalwar"))
    screen = finger.screen = app.manager.current_screen
    if finger.rolled:
        finger.tap(screen.ids.dice_companion)
        screen.controller.rng = random.Random(ROLLS_SEED)
    # four players, the default names; the start form's "P2 first" enters the first entry
    finger.tap(list(reversed(screen.ids.firsts.children))[SCRIPT[0]["seat"]])
    assert screen.session.actions == SCRIPT[:1]
    entered = (lambda part: [a for a in part if not _is_roll(a)]) if finger.rolled else list
    script = entered(SCRIPT)
    parts, done = {}, 1
    bounds = {"first player": 1, "deal": 1 + len(DEAL), "first turn": 1 + len(DEAL) + len(entered(FIRST_TURN)),
              "normal turns": len(script)}
    start = finger.taps + finger.swipes
    for part, end in bounds.items():
        while done < end:
            if shots:
                pump(0.1)
                save_screenshot(shots / f"navalwar-{lang}-{done:02d}.png")
            done += finger.enter(script[done:end])
        parts[part] = finger.taps + finger.swipes - start
        start += parts[part]
    log = screen.session.actions
    rolls = [a["value"] for a in log if _is_roll(a)]
    assert len(log) == len(SCRIPT) and entered(log) == script, "the round as scripted, the companion's dice beside"
    app.dispatch("on_stop")
    return {"taps": finger.taps, "swipes": finger.swipes, "touches": finger.taps + finger.swipes,
            "entries": len(script), "parts": parts, "lang": lang, "dice": dice,
            **({"rolls": rolls} if finger.rolled else {})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lang", default="ja", choices=("ja", "en"))
    parser.add_argument("--dice", default="table", choices=("table", "companion"),
                        help="who rolls the dice (companion: the script's dice are left out)")
    parser.add_argument("--shots", type=Path)
    args = parser.parse_args()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    try:
        figures = measure(args.lang, args.dice, args.shots)
    except Exception:  # Kivy has taken stderr
        import traceback
        print(traceback.format_exc())
        raise SystemExit(1)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['touches']} touches ({figures['taps']} taps, {figures['swipes']} swipes) "
              f"for {figures['entries']} entries; by part: {figures['parts']}")


if __name__ == "__main__":
    main()
