"""A game screen that renders a controller (companion/play/controller.py): it sends
each touch as `act(kind, value)` from whoever holds the screen, runs the computer's
turns on a thread, and lets the controller go when another takes over or the app stops.
kv rules call `root.act("undo")` directly; a screen keeps only the methods that do more.
A finished game's review is stepped by a `ReviewBar` (widgets.kv) with `screen: root`.

Every refusal (`Refused`, from the rules or the controller) is shown one way: its words
in `notice_text`, which a screen's `Notice` (widgets.kv) draws in the side panel's place
until a tap on it or the next input that is taken; "not now" (a dimmed button, the
computer's step) says nothing.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.properties import StringProperty

from companion.play.controller import Controller, Refused, Text, refusal
from companion.ui.computer import ThinkingThread
from companion.ui.widgets import GameScreen

NOT_NOW = "play.not_now"  # a dimmed button, the computer's step: nothing to say
COMPUTER_NEWS_S = 0.35  # after the computer's move is drawn, taps wait this long: a quick run of
#                         taps meant for the screen before never skips what the computer did


class ControllerScreen(GameScreen):
    review_text = StringProperty("")  # where the review of a finished game stands ("" for none)
    notice_text = StringProperty("")  # why the last input was refused ("" for none)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.controller: Controller | None = None
        self.cpu = ThinkingThread(f"{self.kind}-cpu")
        self._asked = None  # (controller, epoch) the computer was last asked at
        self.computer_shown_at = float("-inf")  # when the computer's last move was drawn (monotonic)

    def take(self, controller: Controller) -> None:
        """Draw and drive `controller` from now on; the one before is let go."""
        if self.controller is not None and self._changed in self.controller.listeners:
            self.controller.listeners.remove(self._changed)
        self.cpu.cancel()
        self._asked = None
        self.controller = controller
        self.show_refusal(None)
        controller.listeners.append(self._changed)
        self._changed()

    def _changed(self) -> None:
        controller = self.controller
        self.session = controller.session
        review = controller.review_text()
        self.review_text = review.render(self.tr) if review else ""
        self.refresh()  # after: a screen with its own review may say where it stands
        turn = controller.computer_turn()
        if turn is None:
            self.cpu.cancel()
            self._asked = None
        elif self._asked != (controller, turn.epoch):
            self._asked = (controller, turn.epoch)
            self.cpu.start(turn.think, lambda actions: self._computer_moved(controller, turn, actions))

    def _computer_moved(self, controller: Controller, turn, actions) -> None:
        self.computer_shown_at = time.monotonic()
        controller.computer_done(turn, actions)

    @property
    def input_held(self) -> bool:
        """The computer's move was drawn moments ago: a tap now was meant for the screen before."""
        return time.monotonic() - self.computer_shown_at < COMPUTER_NEWS_S

    def act(self, kind: str, value: Any = None) -> bool:
        """Input `kind` from whoever holds the screen; False when it was refused (or held)."""
        if self.input_held:
            return False
        try:
            taken = self.controller.act(self.controller.holder(), kind, value) is not False
        except Refused as error:
            if error.key != NOT_NOW:
                self.show_refusal(refusal(error))
            return False
        if taken:
            self.show_refusal(None)
        return taken

    def show_refusal(self, reason: Text | None) -> None:
        """Say why an input was refused, or None: put the last refusal away.  A break
        after each Japanese sentence, where a reader breaks."""
        self.notice_text = reason.render(self.tr).replace("。", "。\n").strip() if reason else ""

    def close(self) -> None:
        self.cpu.cancel()
