"""Whether a hand is on a pan's piece, from the tremor test's answers over time (judge.py)."""

from __future__ import annotations

import math

from companion.sensing.fits import Tremor
from companion.sensing.judge_config import JudgeConfig


class HandWatch:
    """One pan's record of a hand's tremor (`fits.tremor`): when it showed, at what load, and
    since when it has not.  `feed` once per reading moves it; `held` and `clear_for` are reads."""

    def __init__(self, config: JudgeConfig):
        self.config = config
        self.reset()

    def reset(self) -> None:
        self._held_until = -math.inf  # a tremor showed: a hand is taken to be there until then
        self._hand: tuple[float, float, float] | None = None  # a hand seen without a break: load, since, last
        self._clear_since: float | None = None  # no tremor has shown since then
        self._lasting_at = -math.inf  # a hand seen without a break for longer than the test's window, then
        self._steady_at = -math.inf  # a hand seen without a break for `tremor_steady_s`, then
        self._rang_at = -math.inf  # the test read a ring soon after a lasting hand, or a faint tremor soon
        # after a steady one, then

    def feed(self, tremor: Tremor, load: float, now: float) -> None:
        """The tremor test's answer at a reading and the load then.
        Sightings are one hand while they follow within `tremor_clear_s` at the same load (a
        table's knocks, one after another, are not one hand)."""
        cfg = self.config
        if tremor is Tremor.SHOWN:
            self._held_until = now + cfg.tremor_hold_s
            hand = self._hand
            if hand and now - hand[2] <= cfg.tremor_clear_s and self._near(hand[0], load):
                self._hand = (hand[0], hand[1], now)
            else:
                self._hand = (load, now, now)
            seen_for = self._hand[2] - self._hand[1]
            if seen_for >= cfg.tremor_steady_s:
                self._steady_at = now
            if seen_for >= cfg.tremor_window_s:  # a knock's ring passes through sooner
                self._lasting_at = now
        if ((tremor is Tremor.RINGING and now - self._lasting_at < cfg.tremor_stay_s)
                or (tremor is Tremor.FAINT and now - self._steady_at < cfg.tremor_stay_s)):
            self._rang_at = now  # a knock's dying ring may cancel that hand's tremor in the window, a
            # faint hand's fades in and out of the noise
        elif tremor is Tremor.RINGING:
            tremor = Tremor.NONE  # a knock's or the pan's own ringing, no hand hidden in it
        if tremor is Tremor.NONE and now - self._rang_at >= cfg.tremor_window_s:  # the ring has left the window
            self._clear_since = now if self._clear_since is None else self._clear_since
        else:
            self._clear_since = None

    def held(self, load: float, now: float) -> bool:
        """A hand on the piece: its tremor showed within `tremor_hold_s`, or it showed without a
        break for `tremor_sure_s` (longer than any ringing lasts) and the load stays where it was
        then (a lifting hand moves it), up to `tremor_stay_s` after: a faint tremor fades in and
        out of the noise for longer than the hold."""
        hand, cfg = self._hand, self.config
        return now < self._held_until or (
            hand is not None and hand[2] - hand[1] >= cfg.tremor_sure_s
            and now - hand[2] < cfg.tremor_stay_s and self._near(hand[0], load))

    def clear_for(self, now: float) -> float:
        """How long the test has shown no tremor, not even a faint one (0 while it cannot tell)."""
        return 0.0 if self._clear_since is None else now - self._clear_since

    def _near(self, seen: float, load: float) -> bool:
        return abs(load - seen) <= self.config.tremor_lift_share * seen
