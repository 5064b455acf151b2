"""Naval War: the fleets keep still under a finger (issue 29: nothing moves under a finger).

Three things would move them during a round.  Following the player to move: with two
players the strips' list can be taller than the view (ships joined, long names wrapping a
fleet's rows), and scrolling it to each new player moved it under the finger of whoever was
about to tap a target.  Now it follows only when that fleet is not wholly in view, and then
brings it to the top of the view.  With three or more, the ships shown under the cards
(cards.py) become the new player's.  And a ship joining a fleet: its row can wrap, and every
fleet under it moves down.  All wait until no finger is on the screen and the last one
lifted `STILL_S` ago.
"""

from __future__ import annotations

import time

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.layout import Layout

STILL_S = 0.3  # after the last finger lifts, a change that moves the list waits this long
PADDING = 4  # px left above a fleet brought to the top of the view


class Stillness:
    """Whether the screen is still (no finger down, none lifted in the last `STILL_S`), and
    what waits for it to be: by name, the latest of each kept."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self.lifted_at = float("-inf")
        self._waiting: dict = {}
        self._event = None
        Window.bind(on_touch_up=self._lifted)

    def _lifted(self, *_) -> None:
        self.lifted_at = self._clock()

    def still(self) -> bool:
        return not EventLoop.touches and self._clock() - self.lifted_at >= STILL_S

    def when_still(self, name: str, action) -> None:
        """`action()` now if the screen is still, else as soon as it is (replacing an
        `action` of the same name waiting before)."""
        if self.still() and not self._waiting:
            action()
            return
        self._waiting[name] = action
        if self._event is None:
            self._event = Clock.schedule_interval(self._check, 0.05)

    def waiting(self, name: str) -> bool:
        return name in self._waiting

    def _check(self, *_) -> None:
        if not self.still():
            return
        waiting, self._waiting = self._waiting, {}
        self.cancel()
        for action in waiting.values():
            action()

    def cancel(self) -> None:
        self._waiting = {}
        if self._event is not None:
            self._event.cancel()
            self._event = None


def laid_out(content) -> None:
    """Lay `content` out now, innermost first (a fleet's chips, its strip, the list), so
    that where a fleet is can be asked before the next frames would do it."""
    for widget in reversed(list(content.walk(restrict=True))):
        if isinstance(widget, Layout):
            widget.do_layout()


def _content_span(scroll, widget) -> tuple[float, float]:
    """`widget`'s bottom and top, measured from the bottom of the scrolled content."""
    content = scroll.children[0]
    return widget.y - content.y, widget.top - content.y


def in_view(scroll, widget) -> bool:
    """Whether all of `widget` (inside the scrolled content) is in the view now."""
    content = scroll.children[0]
    if content.height <= scroll.height:
        return True
    bottom, top = _content_span(scroll, widget)
    shown = scroll.scroll_y * (content.height - scroll.height)
    return shown - 1 <= bottom and top <= shown + scroll.height + 1


def to_top(scroll, widget) -> None:
    """Scroll so that `widget`'s top is at the top of the view (as far as the list goes)."""
    content = scroll.children[0]
    room = content.height - scroll.height
    if room <= 0:
        return
    _, top = _content_span(scroll, widget)
    scroll.scroll_y = min(1.0, max(0.0, (top + PADDING - scroll.height) / room))


class Follow:
    """The strips' list (few players) brings the fleet of a new player to move into view, once
    no finger is near and none touched since (once, so people may scroll; only when it is not
    in view already)."""

    def __init__(self, stillness: Stillness, scroll):
        self._still, self._scroll = stillness, scroll
        self._seat = None

    def __call__(self, seat: int | None) -> None:
        if seat is None or seat == self._seat:
            return
        self._seat = seat
        strip, asked = list(reversed(self._scroll.children[0].children))[seat], self._still.lifted_at
        self._still.when_still("follow", lambda: self._still.lifted_at == asked and Clock.schedule_once(
            lambda dt: self._to(strip)))  # not if someone touched the table since: they are at it

    def _to(self, strip) -> None:
        if strip.parent is not None:
            laid_out(self._scroll.children[0])  # where the fleet is after the entry just drawn
            if not in_view(self._scroll, strip):
                to_top(self._scroll, strip)


class JoinedShips:
    """Each fleet's ships drawn this round (by id): a ship that joins a fleet mid-round is
    held back from its strip until the screen is still, then `redraw` draws it; unless it may
    be named now (a target: the prompt asks for a tap on it)."""

    def __init__(self, stillness: Stillness, redraw):
        self._still, self._redraw = stillness, redraw
        self._drawn: dict[int, set] = {}
        self._round = None

    def shown(self, fleet: dict, round_key, playing: bool, targets=()) -> dict:
        """`fleet` as its strip draws it now; `playing`: a turn is on (not the deal);
        `targets`: the ships that may be named now."""
        if round_key != self._round:
            self._drawn, self._round = {}, round_key
        drawn, ids = self._drawn.get(fleet["seat"]), {ship["id"] for ship in fleet["ships"]}
        if (playing and drawn is not None and not ids <= drawn and not (ids - drawn) & set(targets)
                and not self._still.still()):
            self._still.when_still("ships", self._redraw)
            return fleet | {"ships": [ship for ship in fleet["ships"] if ship["id"] in drawn]}
        self._drawn[fleet["seat"]] = (drawn or set()) | ids
        return fleet
