"""The weighing judge: which pan is heavier, and what lies on each.  Game-agnostic.

The judge sees readings only.  It measures each pan's noise per reading on
the idle, empty pan (short blocks of signal near zero; the median of their
scatter, so a lift's tail or a knock counts little) and looks at trailing
windows, counted in seconds so that 10 and 80 samples/s both work: the
shortest spans half a period of the slowest ringing (0.1 s: a shorter one can
lie on a crest and look level) and holds at least `min_samples` readings, and
longer ones are tried while the shorter is too uncertain or seems to drift.
Lines and swings are fitted to the samples as read (`Reading.sample_g`), not
to the pipeline's median of 3, which correlates neighbouring readings (a line
would look surer than it is) and clips a swing's tips; their spikes are left
out of a line fit, and the median (with a centred median of 5 over it, since two
corrupt reads in a row pass a median of 3) says where a load landed.  Each window is
asked two questions:

* still?  The hand's press is over (the signal has come down from the peak
  that followed the load's landing), and the window either is a line (its
  residuals no larger than the measured noise allows) that drifts slowly (its
  slope, on the safe side of its standard error, within `slope_max_g_s`), or
  swings both ways (ringing, which decays about the final weight) once no hand
  can still be letting go (`release_max_s`: a knock on the table during a slow
  release rings about a moving level) or while the other pan lies still (a
  knock shakes both pans at once: a swing on one pan alone is its own).  A
  rise of `touch_rise_g` from a load at rest is a finger pushing it, judged
  like the press that put a load down (its flat top is a line, not a weight).
* where?  For a slow drift: the level now and where the trend takes it within
  `horizon_s`, widened by `confidence_z` standard errors; for ringing: the
  window's swing.  That range must lie inside one class's band.

A class's band is its spread (mass ± spread) widened on each side by
`accept_fraction` of the free gap to its neighbour, so a weight between two
bands fits no class.  Classes whose spreads overlap cannot be told apart and
form one group named "a|b" (a submarine with the counterweight weighs a
carrier).  A pan that showed one class and then another without being
emptied (a finger straightening the piece, a piece stacked on it) must keep
the new class for `confirm_s`.  Two pans balance when their groups overlap;
otherwise the heavier group wins.  The verdict comes on the first reading
where both pans pass, and "reweigh" only after a still weight has fitted no
class for `reweigh_after_s`.  Overload, underload and missing calibration are
refused.

Why each rule stays (what it was measured against, the figures, what was tried
and taken out): docs/judge.md.  A window's fits, a pan's trail of readings and
the tremor test are in fits.py, the settings in judge_config.py, the classes'
groups in classes.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

from companion.sensing.classes import AMBIGUOUS, ClassGroup, PieceClass, build_groups  # noqa: F401  (AMBIGUOUS: callers take it from here)
from companion.sensing.hand_watch import HandWatch
from companion.sensing.fits import Estimate, NoiseMeter, Trail, Tremor, estimate, landing, quiet, rising, tremor
from companion.sensing.judge_config import JudgeConfig
from companion.sensing.sway_watch import SwayWatch
from companion.sensing.pipeline import OVERLOAD, UNCALIBRATED, UNDERLOAD, Reading

LEFT, RIGHT, BALANCED, REWEIGH = "left", "right", "balanced", "reweigh"
WAITING, UNSTABLE, REFUSED = "waiting", "unstable", "refused"
FINAL = frozenset({LEFT, RIGHT, BALANCED, REWEIGH})
MISFIT = ""  # what a pan showed when its still weight fitted no class
EMPTIED_READINGS = 3  # readings in a row under half the lightest class: the pan was emptied


@dataclass(frozen=True)
class PanState:
    """What the judge sees on one pan."""

    kind: str  # "class", WAITING (empty), UNSTABLE, REFUSED, REWEIGH
    group: ClassGroup | None = None
    reason: str = ""


@dataclass(frozen=True)
class Verdict:
    """The judge's answer.  `final` verdicts: LEFT, RIGHT, BALANCED, REWEIGH;
    the others (WAITING, UNSTABLE, REFUSED) mean "not yet", with a reason."""

    kind: str
    t: float | None = None  # time of the reading that settled it
    left: str | None = None  # class group names, when identified
    right: str | None = None
    reason: str = ""

    @property
    def final(self) -> bool:
        return self.kind in FINAL


class Judge:
    """Streams of pipeline readings in; verdicts out.

    `left_classes` / `right_classes`: what may lie on each pan (the right pan
    defaults to the left's list).  Feed every reading, idle ones too (the
    noise per reading is measured on idle, empty pans).  The judge is a fold:
    `feed()` moves every timer and every piece of state (each pan is judged at
    each of its readings); `battle()`, `identify()` and `identified()` only read
    what the readings left, so asking after every reading, once per 50 ms screen
    tick or seldom gives the same verdicts, settled at the same readings.
    `battle()` keeps the first final verdict until `reset()` or a pan is emptied
    (its `t` the reading that settled it).  Call `reset()` when the pans are
    cleared for the next weighing.  Windows are counted in seconds of readings'
    timestamps, so any sample rate works; `rate_hz` only sizes the blocks of
    idle signal the noise is measured on.
    """

    def __init__(self, left_classes: Iterable[PieceClass], right_classes: Iterable[PieceClass] | None = None,
                 config: JudgeConfig = JudgeConfig(), rate_hz: float = 80.0):
        self.config = config
        left_classes = list(left_classes)
        right_classes = left_classes if right_classes is None else list(right_classes)
        self.groups = [build_groups(left_classes, config.accept_fraction),
                       build_groups(right_classes, config.accept_fraction)]
        self._widest = [max(g.accept_high - g.accept_low for g in groups) for groups in self.groups]
        self._empty_g = [config.empty_fraction * groups[0].low for groups in self.groups]  # a pan under this is empty
        self._fits = [self._fits_groups(groups, empty) for groups, empty in zip(self.groups, self._empty_g)]
        keep_s = max(max(config.windows_s), config.history_s) + config.blind_settle_s
        self._windows = [Trail(keep_s, config.min_samples + 1) for _ in range(2)]
        self._states: list[PanState] = [PanState(UNSTABLE, reason="no_data")] * 2  # at each pan's latest reading
        self._first: list[tuple[float, PanState] | None] = [None, None]  # a pan's first class or reweigh
        self._verdict: Verdict | None = None  # the first final verdict since reset or emptying
        self._unfit_since: list[float | None] = [None, None]
        self._hands = [HandWatch(config) for _ in range(2)]  # a hand's tremor on each pan
        self._seen: list[str | None] = [None, None]  # the class a pan showed last (MISFIT: none fitted)
        self._changing: list[tuple[str, float, float] | None] = [None, None]  # another class, since, hold
        self._empty_run = [0, 0]  # readings in a row under the empty threshold
        self._noise = [NoiseMeter(config, rate_hz) for _ in range(2)]
        self._sway = SwayWatch(config)  # both pans swaying together

    def _fits_groups(self, groups: list[ClassGroup], empty: float) -> Callable[[Estimate], bool]:
        return lambda est: est.high < empty or any(g.fits(est.low, est.high) for g in groups)

    def noise_g(self, channel: int) -> float:
        """The noise per reading measured on the idle, empty pan (the prior until measured)."""
        return self._noise[channel].noise_g

    def reset(self) -> None:
        """Forget the past: the next verdict rests on readings fed from now on (the noise
        measured on idle pans, a property of the hardware, is kept)."""
        for w in self._windows:
            w.clear()
        self._states = [PanState(UNSTABLE, reason="no_data")] * 2
        self._first = [None, None]
        self._verdict = None
        for hand in self._hands:
            hand.reset()
        self._unfit_since = [None, None]
        self._seen = [None, None]
        self._changing = [None, None]
        self._sway.reset()

    def feed(self, reading: Reading) -> None:
        """Take one reading: the pan it belongs to is judged at it, and the battle with it."""
        if 0 <= reading.channel < 2:
            ch = reading.channel
            self._windows[ch].add(reading)
            self._watch_emptied(reading)
            self._noise[ch].add(reading)
            self._states[ch] = state = self._judge_pan(ch)
            if state.kind in ("class", REWEIGH) and self._first[ch] is None:
                self._first[ch] = (reading.t, state)
            if self._verdict is None:
                self._sway.feed(reading.t, self._windows, self._empty_g, (self.noise_g(0), self.noise_g(1)))
                verdict = self._combine(reading.t)
                if verdict.final:
                    self._verdict = verdict

    def feed_all(self, readings: Iterable[Reading]) -> None:
        for r in readings:
            self.feed(r)

    def _watch_emptied(self, reading: Reading) -> None:
        """A pan read empty `EMPTIED_READINGS` times in a row was emptied, whether or not
        anyone asked about it meanwhile: what it showed before no longer counts."""
        ch = reading.channel
        if reading.grams < self._empty_g[ch]:
            self._empty_run[ch] += 1
            if self._empty_run[ch] >= EMPTIED_READINGS:
                self._forget(ch)
        else:
            self._empty_run[ch] = 0

    def _forget(self, channel: int) -> None:
        """The pan was emptied: the class it showed, a change under way, a misfit and the
        weighing's verdict end."""
        self._seen[channel] = self._changing[channel] = self._unfit_since[channel] = None
        self._first[channel] = self._verdict = None

    def band(self, channel: int, group_name: str) -> tuple[float, float]:
        """The acceptance band (grams) of a group on a pan: for benchmarks' oracles."""
        group = next(g for g in self.groups[channel] if g.name == group_name)
        return group.accept_low, group.accept_high

    def group_of(self, channel: int, class_name: str) -> ClassGroup:
        """The group a class belongs to on a pan."""
        return next(g for g in self.groups[channel] if any(c.name == class_name for c in g.members))

    # -- per pan ---------------------------------------------------------------

    def _refusal(self, channel: int) -> str | None:
        window = self._windows[channel]
        if not window:
            return "no_data"
        flags = window[-1].flags
        for flag in (OVERLOAD, UNDERLOAD, UNCALIBRATED):
            if flag in flags:
                return flag
        return None

    def _estimate(self, channel: int, fits: Callable[[Estimate], bool]) -> Estimate | None:
        """The shortest window's estimate that is still and `fits`, or None until the
        shortest window is full.  A short window may look like it is drifting (part of a
        ringing swing, or noise on its slope) or be too uncertain to fit a band: the longer
        windows, when one of them is still as a whole, settle it.  Without a fitting one,
        the first still estimate (a still misfit) or else the shortest window's."""
        window = self._windows[channel]
        sizes = window.sizes(self.config.windows_s, self.config.min_samples)
        if not sizes:
            return None
        tried = []
        for n in sizes:
            est = self._estimate_over(window, n)
            tried.append(est)
            if (est.still and fits(est)) or est.reason in ("moving", "pressed", "spiky", "unsettled"):
                break
        return tried[-1] if tried[-1].still and fits(tried[-1]) else next((e for e in tried if e.still), tried[0])

    def _estimate_over(self, window: Trail, n: int) -> Estimate:
        recent = window.g[-n:]
        channel = window[-1].channel
        if max(recent) - min(recent) > self._widest[channel]:  # cheap: clearly moving
            return Estimate(recent[-1], -math.inf, math.inf, False, "moving")
        if self._blind_since(window, n):
            return Estimate(recent[-1], -math.inf, math.inf, False, "unsettled")
        return estimate(window.t, window.g, self.config, n, self.noise_g(channel), window.samples,
                        lambda since: self._quiet(1 - channel, since))

    def _blind_since(self, window: Trail, n: int) -> bool:
        """Whether readings this slow cannot see ringing that may still lie in the last `n`: a
        knock on the table (8-20 Hz) read 10 times a second aliases to a level or a slow drift,
        so the window must start `blind_settle_s` after the last landing on the other pan (the
        pan's own landing is the press rule's)."""
        cfg = self.config
        if not self._blind(window, n):
            return False
        other = 1 - window[-1].channel
        pan = self._windows[other]
        if not pan or pan.grams[-1] < self._empty_g[other]:
            return False
        j = landing(pan.grams, pan.grams[-1])
        return j is not None and window.t[-n] < pan.t[j] + cfg.blind_settle_s

    def _quiet(self, channel: int, since: float) -> bool:
        """Whether a pan lay still since `since` (and `quiet_margin_s` before): a line within its
        noise (a table knock shakes both pans at once, so a swing on the other pan alone is that
        pan's own)."""
        window, start = self._windows[channel], since - self.config.quiet_margin_s
        if not window or window.t[0] > start:
            return False
        k = window.since(start)
        return quiet(window.t[k:], window.samples[k:], self.noise_g(channel), self.config)

    def _rising(self, channel: int) -> bool:
        """Whether the load (no empty pan) is still rising over `rising_window_s` after the press's
        peak (fits.rising)."""
        window = self._windows[channel]
        if window.g[-1] < self._empty_g[channel]:
            return False
        k = window.since_peak(self.config.rising_window_s)
        return rising(window.t[k:], window.g[k:], self.noise_g(channel), self.config)

    def _tremor(self, channel: int) -> Tremor:
        """Whether a hand still touches the piece (fits.tremor); readings too sparse to see it
        (10/s) never show a hand, nor does an empty pan."""
        cfg, window = self.config, self._windows[channel]
        if self._sparse(channel) or window.g[-1] < self._empty_g[channel]:
            return Tremor.NONE
        return tremor(window, max(cfg.noise_floor_g, self.noise_g(channel)), cfg)

    def _blind(self, window: Trail, n: int) -> bool:
        """Whether the last `n` readings come too far apart to see a knock's ringing."""
        return n > 1 and (window.t[-1] - window.t[-n]) / (n - 1) > self.config.blind_interval_s

    def _sparse(self, channel: int) -> bool:
        """Whether the pan's latest readings come too far apart to see a knock's ringing."""
        w = self._windows[channel]
        return self._blind(w, min(len(w), self.config.min_samples))

    def _unfit(self, channel: int) -> PanState:
        """A still weight that fits nothing: wait out a finger that may rest on it, then ask for a reweigh."""
        changing = self._changing[channel]
        if self._sparse(channel) or (changing and changing[2] >= self.config.sparse_confirm_s):
            self._changing[channel] = None  # a class about to be confirmed must hold unbroken
        now = self._windows[channel][-1].t
        since = self._unfit_since[channel]
        if since is None:
            self._unfit_since[channel] = since = now
        if now - since >= self.config.misfit_after_s and self._seen[channel] is None:
            self._seen[channel] = MISFIT  # a class fitted later, without emptying, is a change
        if now - since >= max(self.config.reweigh_after_s, self.config.sparse_confirm_s):  # a finger may rest on it
            return PanState(REWEIGH, reason="between_classes")
        return PanState(UNSTABLE, reason="settling")

    def _fitted(self, channel: int, group: ClassGroup, est: Estimate) -> PanState:
        """A pan that fits `group` now.  If it showed another class before without being emptied
        (a finger straightening the piece, or a piece stacked on it), or a still weight that fitted
        none for `misfit_after_s` (a foreign object, pushed into a band by the other pan's landing
        or a finger's small push), the new class must hold for `confirm_s` first; a first class
        (after a misfit too) read sparsely, or off its pieces' weights (`centre_margin_g`: a
        still finger on a lighter piece), must hold unbroken for `sparse_confirm_s`."""
        cfg, seen, margin, self._unfit_since[channel] = self.config, self._seen[channel], self.config.centre_margin_g, None
        first, sparse = seen in (None, MISFIT), self._sparse(channel)
        apart = not est.reason and group.centred(est.low, est.high, margin) is False  # a level off its pieces
        if first and not (sparse or apart or group.centred(*(est.low, est.high) if est.reason else (est.level,) * 2, margin)):
            return PanState(UNSTABLE, reason="confirming")  # not yet known to lie where its pieces weigh
        hold = cfg.sparse_confirm_s if first and (sparse or apart) else 0.0 if seen is None else cfg.confirm_s
        now, changing = self._windows[channel][-1].t, self._changing[channel]
        since, held = changing[1:] if changing and changing[0] == group.name else (now, 0.0)
        hold = max(hold, held)  # an off-centre first class holds on, even once it centres
        if seen != group.name and hold > 0:
            self._changing[channel] = (group.name, since, hold)
            if now - since < hold:
                return PanState(UNSTABLE, reason="changed" if seen else "confirming")
        self._seen[channel], self._changing[channel] = group.name, None
        return PanState("class", group)

    def identify(self, channel: int) -> PanState:
        """The class group on one pan at its latest reading, or why there is none (a pure read)."""
        return self._states[channel]

    def identified(self, channel: int) -> tuple[float, PanState] | None:
        """(time of the reading, state) of the first class or reweigh the pan showed since
        `reset()` or its emptying, or None: the answer a caller asking after every reading
        would have taken first, however seldom it asks."""
        return self._first[channel]

    def _judge_pan(self, channel: int) -> PanState:
        """The pan's state at its latest reading; moves its timers (called once per reading)."""
        refusal = self._refusal(channel)
        if refusal == "no_data":
            return PanState(UNSTABLE, reason=refusal)
        if refusal:
            return PanState(REFUSED, reason=refusal)
        groups = self.groups[channel]
        now = self._windows[channel][-1].t
        if self._rising(channel):
            self._unfit_since[channel] = None  # still coming down: not a still misfit
            return PanState(UNSTABLE, reason="rising")
        tremor = self._tremor(channel)
        load, hand = self._windows[channel].level(), self._hands[channel]
        hand.feed(tremor, load, now)
        # a first class: no hand seen for a while
        unclear = self._seen[channel] is None and hand.clear_for(now) < self.config.tremor_clear_s
        if tremor is Tremor.UNTOLD or hand.held(load, now) or (unclear and not self._sparse(channel)):
            self._unfit_since[channel] = None  # a hand on it, or not yet told: not a still misfit
            return PanState(UNSTABLE, reason="touch_unknown" if tremor is Tremor.UNTOLD else "held")
        est = self._estimate(channel, self._fits[channel])
        if est is not None and est.reason == "unsettled" and self._seen[channel]:
            # the other pan's landing may shake this one unseen: it keeps the class it showed
            return PanState("class", next(g for g in groups if g.name == self._seen[channel]))
        if est is None or not est.still:
            if est is None or est.reason == "moving":
                self._unfit_since[channel] = None  # real motion, not a noisy slope
            return PanState(UNSTABLE, reason=est.reason if est else "filling")
        if est.high < self._empty_g[channel]:
            self._forget(channel)
            return PanState(WAITING, reason="empty")
        for group in groups:
            if group.fits(est.low, est.high):
                return self._fitted(channel, group, est)
        return self._unfit(channel)

    # -- verdicts --------------------------------------------------------------

    def _time(self) -> float | None:
        times = [w[-1].t for w in self._windows if w]
        return max(times) if times else None

    def battle(self) -> Verdict:
        """Two pans: which is heavier, with each pan's class group (a pure read).  The first
        final verdict since `reset()` or a pan's emptying stays, with the time of the reading
        that settled it; before it, the latest reading's "not yet" and why."""
        return self._verdict or self._combine(self._time())

    def _combine(self, t: float | None) -> Verdict:
        pans = self._states
        for kind in (REFUSED, UNSTABLE, WAITING, REWEIGH):
            for p in pans:
                if p.kind == kind:
                    return Verdict(kind, t, reason="swaying" if kind == UNSTABLE and self._sway.swayed(t) else p.reason)
        left, right = pans[0].group, pans[1].group
        assert left is not None and right is not None, "both pans hold a class: every other kind returned above"
        kind = BALANCED if left.overlaps(right) else LEFT if left.low > right.high else RIGHT
        return Verdict(kind, t, left.name, right.name)
