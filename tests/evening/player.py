"""A person at the table, choosing at random (seeded), who plays by what is drawn.

The player reads the window as a person does (tests/gui/drawn.py: every visible text and
where it is) and touches the centre of the text chosen, by text and place, through Kivy's
input path; no widget is ever pressed by its handle.  After every touch it checks, on the
frame seen 0.4 s later (`SETTLED_S`: what waits for a still table, such as Naval War's list
following the player to move, has moved by then):

- `layout`: the table-ready layout (tests/gui/layout_check.py) and no word broken mid-word
  (tests/gui/word_breaks.py);
- `blank`: every visible button has a label (a text or an image);
- `moved` (on the frame 0.3 s after the touch, `STILL_S`; not judged when the clock's last
  tick before it ended past 0.3 s, as on a loaded machine: what waits for a still table may
  then have moved, rightly): nothing slid under the finger: a text near the touch now that
  stood close by before, in the same words and size,
  stands where it stood (a text the touch replaced is gone, so a new stage is fine; an item
  sliding under the finger is not; a second 撃沈 beside one still in its place slid nowhere);
- the game's own checks (`musts`, tests/evening/musts.py), when no dialog covers the table:
  `to_move`, the player to move is in view, and `items`, everything the state holds for a
  list seen is drawn.

A check a case is known to fail (a finding of issue 43 not yet fixed, see `known` in
conftest.py) is recorded and the evening goes on; played to its end, the test then ends in
`KnownFinding` (its strict xfail).  Any other fault fails at once, with a screenshot (with EVENING_RECORD=1
every fault is recorded instead, and the test ends listing them all).
"""

from __future__ import annotations

import os
import random
import time
from contextlib import contextmanager

import drawn
import layout_check
import pytest
from companion import i18n
import word_breaks
from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch

RECORD = bool(os.environ.get("EVENING_RECORD"))  # every check's faults recorded, none stops the play
STILL_S = 0.3  # s: what is near a finger must stay put this long after the touch
SETTLED_S = 0.4  # s: the frame checked after a touch (what waits for a still table has moved)
NEAR_PX = 48  # px: near the finger (one touch target)
AROUND_PX = 160  # px: where a text that slid to the finger may have come from
SAME_PX = 3  # px: rounding in Kivy's layout


class KnownFinding(AssertionError):
    """The checks found only what an open finding of issue 43 says (the case's strict xfail)."""


class NewFinding(AssertionError):
    """A check found what no open finding says."""


def known(finding: str, *checks: str):
    """The marks of a case that meets an open finding of issue 43 (by `checks` alone): a strict
    xfail that expects only KnownFinding."""
    return [pytest.mark.xfail(strict=True, raises=KnownFinding, reason=f"#43 finding {finding}"),
            pytest.mark.known_checks(*checks)]


def known_checks(node) -> set[str]:
    return {check for mark in node.iter_markers("known_checks") for check in mark.args}


class Player:
    def __init__(self, gui, rng: random.Random, known=(), seed=None):
        self.gui, self.rng, self.seed = gui, rng, seed
        gui.layout_checked = False  # the player checks the layout itself, on every frame it sees
        self.known = set(known)  # the checks this case is known to fail
        self.musts = None  # frame -> {check: [fault]}: the game's own checks (musts.py)
        self.draws = False  # draw frames while waiting
        self.excused = None  # who is to move when a finger scrolled them away (excused until the turn passes)
        self.touches: list[str] = []
        self.found: dict[str, list[str]] = {}  # known check -> faults seen
        self.frames = 0
        self.ticked = 0.0  # when the clock's last tick ended (time.monotonic)
        self.late: list[str] = []  # touches whose `moved` frame came too late to judge

    # reading --------------------------------------------------------------------------

    def frame(self) -> drawn.Frame:
        Clock.tick_draw()  # the layout as the next frame draws it
        return drawn.read()

    def shows(self, text: str) -> bool:
        return self.frame().shows(text)

    # touches ------------------------------------------------------------------------

    def press(self, text: str, exact: bool = True, near=None) -> None:
        """Touch the button drawn with `text` (among several, the one nearest `near`)."""
        self.wait_for_the_lock()
        frame = self.frame()
        self.touch(frame.one(text, exact, True, near), frame)

    def tr(self, key: str, **values) -> str:
        """The words of a catalog key in the app's language, as the screen draws them."""
        return self.gui.app.tr(key, self.gui.app.lang, **values)

    def press_key(self, key: str, **values) -> None:
        """Touch the button drawn with the words of `key`."""
        self.press(self.tr(key, **values))

    def open_game(self, kind: str) -> None:
        """Touch the home screen's tile drawn with the game's title (in either language: the
        home screen says its words anew when it is entered, and a test may set the language)."""
        frame = self.frame()
        for lang in ("ja", "en"):
            if found := frame.find(i18n.translate(f"{kind}.tile", lang), exact=False):
                return self.touch(found[0])
        raise AssertionError(f"no tile of {kind} is drawn; the screen shows {frame.texts()}")

    def row(self, title: str) -> list[drawn.Drawn]:
        """The buttons drawn in the row whose title is drawn as `title` (a start panel's option)."""
        frame = self.frame()
        y = frame.one(title, pressable=False).centre[1]
        return [d for d in frame.pressables() if d.rect[1] <= y <= d.rect[3]]

    def press_in_row(self, title: str, text: str) -> None:
        """Touch the button drawn with `text` in the row whose title is drawn as `title`."""
        found = [d for d in self.row(title) if d.text == text]
        assert found, f"no {text!r} drawn in the row {title!r}; it shows {[str(d) for d in self.row(title)]}"
        self.touch(found[0])

    def press_any(self, *texts: str) -> None:
        """Touch the first of `texts` drawn as a button (a label that differs by mode or language)."""
        frame = self.frame()
        for text in texts:
            if frame.find(text):
                return self.touch(frame.one(text))
        raise AssertionError(f"none of {texts} is drawn as a button; the screen shows {frame.texts()}")

    def touch(self, item: drawn.Drawn, frame: drawn.Frame | None = None) -> None:
        """Touch the middle of `item` (read on `frame`, if given: the frame seen now)."""
        self.touch_at(*item.centre, what=item.text or item.icon or "a blank button", before=frame)

    def touch_cell(self, cell, board: int = 0) -> None:
        """Touch the middle of `cell` on the `board`-th board drawn (read from its grid)."""
        grid = self.frame().boards[board]
        x, y, size = grid.cell_rect(cell)
        self.touch_at(*grid.to_window(x + size / 2, y + size / 2), what=f"cell {cell}")

    def touch_at(self, x: float, y: float, what: str = "", hold: float = 0.03, before=None) -> None:
        if getattr(self.gui.screen, "locked", False) or before is None:
            self.wait_for_the_lock()
            before = self.frame()
        self.touches.append(what or f"({x:.0f},{y:.0f})")
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.wait(hold)
        lifted = time.monotonic()  # (before the app hears the lift and does what the touch asks)
        touch.touch_up()
        self.wait(max(0.0, lifted + STILL_S - 0.02 - time.monotonic()))
        if self.ticked - lifted < STILL_S:
            self.report("moved", moved(before, self.frame(), (x, y)))
        else:  # a slow tick ran past STILL_S: what waits for a still table may have moved, rightly
            self.late.append(self.touches[-1])
        self.wait(SETTLED_S - STILL_S + 0.02)  # what waits for the table to be still has moved
        self.look()

    def drag(self, rect, dy: float) -> None:
        """A finger drawn up (dy > 0) or down a list seen at `rect`, from its middle."""
        x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        dy = max(-(rect[3] - rect[1] - 10), min(rect[3] - rect[1] - 10, dy))  # the finger stays on the list
        self.touches.append(f"drag {dy:+.0f}")
        touch = UnitTestTouch(x, y - dy / 2)
        touch.touch_down()
        for i in range(1, 9):
            self.wait(0.01)
            touch.touch_move(x, y - dy / 2 + dy * i / 8)
        touch.touch_up()
        self.wait(SETTLED_S)
        self.look(scrolled=True)

    def settle(self, screen) -> None:
        """The computer's move (if any) played and shown, then the screen checked."""
        self.gui.settle(screen)
        self.look()

    def wait(self, seconds: float) -> None:
        """A person's pause: the clock runs (timers, the computer's answer), no frame is drawn
        (unless `draws`: a test that watches every frame drawn)."""
        if self.draws:
            self.gui.pump(seconds)
        else:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                Clock.tick()
        self.ticked = time.monotonic()

    def wait_for_the_lock(self, timeout: float = 10) -> None:
        """A person's next tap comes once the screen has changed under the finger."""
        end = time.monotonic() + timeout
        while getattr(self.gui.screen, "locked", False):
            assert time.monotonic() < end, "the input lock did not lift"
            Clock.tick()
        Clock.tick()  # the lock lifts by the clock; the board is lit again by its event

    # checks ---------------------------------------------------------------------------

    def look(self, scrolled: bool = False) -> drawn.Frame:
        """Every check but `moved` on the frame seen now."""
        frame = self.frame()
        app = self.gui.app
        self.report("layout", layout_check.problems(app) + word_breaks.problems(app))
        self.frames += 1
        self.report("blank", [f"a button drawn without a label: {b}" for b in frame.blank])
        if self.musts is not None and not frame.modal:
            for check, found in self.musts(frame).items():
                who = [fault.split(" is to move")[0] for fault in found]
                if check == "to_move" and (scrolled or found and who == self.excused):
                    self.excused = who  # a finger scrolled the player to move away: until the turn passes
                    continue
                self.excused = None if check == "to_move" else self.excused
                self.report(check, found)
        return frame

    def report(self, check: str, faults: list[str]) -> None:
        if not faults:
            return
        where = f"on {self.gui.screen.name} ({self.gui.app.lang}), after {len(self.touches)} touches (the last: {self.touches[-4:]})"
        first = check not in self.found
        shot = self.gui.screenshot(f"{check}-{len(self.touches)}") if first else None
        text = f"[{check}] {where}: " + "; ".join(faults) + (f" (screenshot {shot})" if shot else "")
        if check not in self.known and not RECORD:
            raise NewFinding(f"{text}\n(EVENING_SEED={self.seed})")
        self.found.setdefault(check, []).append(text)

    @contextmanager
    def evening(self):
        """Around a test's play: when it has played to its end, a known check that failed on
        the way ends it in KnownFinding (anything else fails as itself)."""
        yield self
        if self.late:
            print(f"`moved` not judged on {len(self.late)} of {len(self.touches)} touches (a tick past 0.3 s)")
        if self.found:
            print(f"the known findings met ({len(self.touches)} touches):\n{self.summary()}")
            raise KnownFinding(self.summary())

    def summary(self) -> str:
        if RECORD:  # every fault, to read them all at once
            return "\n".join(f"{check}: {fault}" for check, faults in self.found.items() for fault in faults)
        return "\n".join(f"{check}: {len(faults)} times; the first: {faults[0]}"
                         for check, faults in self.found.items())

    # choices ------------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items):
        items = list(items)
        return items[self.rng.randrange(len(items))]


def moved(before: drawn.Frame, after: drawn.Frame, at) -> list[str]:
    """The texts now near the touch at `at` that stood elsewhere close by before it, the same
    words at the same size: slid under the finger (a text the touch replaced is not there)."""
    x, y = at
    was = before.near(x, y, AROUND_PX)
    faults = []
    for new in after.near(x, y, NEAR_PX):
        same = [d for d in was if _alike(d, new)]
        if same and not any(_placed(d, new) for d in same):
            left = [d for d in same if not any(_alike(d, a) and _placed(d, a) for a in after.items)]
            if left:  # (a second 撃沈 beside one still in its place slid nowhere)
                faults.append(f"{min(left, key=lambda d: d.distance(*new.centre))} moved to {new} "
                              f"under the finger at ({x:.0f},{y:.0f})")
    return faults


def _alike(a: drawn.Drawn, b: drawn.Drawn) -> bool:
    """The same words (or icon) at the same size."""
    return (a.text == b.text and a.icon == b.icon
            and abs(a.size[0] - b.size[0]) <= SAME_PX and abs(a.size[1] - b.size[1]) <= SAME_PX)


def _placed(a: drawn.Drawn, b: drawn.Drawn) -> bool:
    return max(abs(p - q) for p, q in zip(a.rect, b.rect)) <= SAME_PX
