"""A game screen that renders a controller (companion/play/controller.py): it sends
each touch as `act(kind, value)` from whoever holds the screen, runs the computer's
turns on a thread, and lets the controller go when another takes over or the app stops.
kv rules call `root.act("undo")` directly; a screen keeps only the methods that do more.
A finished game's review is stepped by a `ReviewBar` (widgets.kv) with `screen: root`.

Every refusal (`Refused`, from the rules or the controller) is shown one way: its words
in `notice_text`, which a screen's `Notice` (widgets.kv) draws in the side panel's place
until a tap on it or the next input that is taken; "not now" (a dimmed button, the
computer's step) says nothing.

Two input locks (ui/input_lock.py): `news_lock`, held just after the computer's move is
drawn, while `act` takes nothing; `input_lock`, held after an entry a bounced finger must
not make twice (its buttons or board change under the finger): a kv rule sends such a
button as `root.press(kind)`, which the lock checks (a button elsewhere, Undo, is still taken).
"""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from companion.play.controller import Controller, Refused, Text, refusal
from companion.ui.computer import ThinkingThread
from companion.ui.input_lock import COMPUTER_NEWS_S, InputLock
from companion.ui.widgets import GameScreen

NOT_NOW = "play.not_now"  # a dimmed button, the computer's step: nothing to say


class ControllerScreen(GameScreen):
    review_text = StringProperty("")  # where the review of a finished game stands ("" for none)
    notice_text = StringProperty("")  # why the last input was refused ("" for none)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.controller: Controller | None = None
        self.cpu = ThinkingThread(f"{self.kind}-cpu")
        self._asked = None  # (controller, epoch) the computer was last asked at
        self.input_lock = InputLock()
        self.news_lock = InputLock()

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
        self.news_lock.hold(COMPUTER_NEWS_S)  # a tap now was meant for the screen before
        controller.computer_done(turn, actions)

    @property
    def locked(self) -> bool:
        """Either lock is held: a person waits before the next tap."""
        return self.input_lock.held or self.news_lock.held

    def act(self, kind: str, value: Any = None) -> bool:
        """Input `kind` from whoever holds the screen; False when it was refused (or held)."""
        if self.news_lock.held:
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

    def press(self, kind: str, value: Any = None) -> None:
        """A button the screen changes under the finger: taken only while the input lock
        is free, and after it, taken or not, the lock is held."""
        if not self.input_lock.held:
            self.act(kind, value)
            self.input_lock.hold()

    def show_refusal(self, reason: Text | None) -> None:
        """Say why an input was refused, or None: put the last refusal away.  A break
        after each Japanese sentence, where a reader breaks."""
        self.notice_text = reason.render(self.tr).replace("。", "。\n").strip() if reason else ""

    def close(self) -> None:
        self.cpu.cancel()
        self.input_lock.release()
        self.news_lock.release()
