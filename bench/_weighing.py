"""Shared scenario code for bench/judge.py and bench/identify.py.

A session is one simulated seesaw with its own hardware (offsets, scales, noise,
drift, oscillators), calibrated through the app's Calibrator, then used for many
weighings.  Every weighing draws its pieces and each hand afresh, from every
hand family of the simulator (`FAMILIES`: press, slide, drop, straighten,
cautious, bump, and the hands that stay on the piece: slow_release, slow_first,
knock_own, partial_lift, finger_rest).  `--stress` draws the hard end of every range instead: noise
0.08 g, presses that peak inside the next class's band, 0.3-0.4 s releases,
6-8 % ringing at 5-7 Hz.  Samples go through the app's Pipeline and Judge, one
reading at a time, on the app's own path: the seesaw polled and the judge asked once
per 50 ms screen tick (`--pace reading`: after every reading; the judge is a fold, so
both see the same verdicts).  A verdict's time is the time of the reading that settled
it; `screen_delay_s` how much later the screen's tick saw it.
The judge sees the readings only, never a hand's parameters.  Issue 44's hands and tables
(hands.LINGERING) and `drift` (a piece parked for minutes while its pan's zero moves, then taken
off) are drawn only when named with `--families`; before every weighing the empty pans are
zeroed as the game does before a 勝負 (Seesaw.rezero).

The yardstick is the hand: `letgo_overhead_s` is the verdict's time minus the
moment the last hand let go (the end of its release, or of a straightening
touch), `letgo_ratio_median` the latency over max(oracle, let-go), both
counted from the second piece's landing.  `settle_median_s` is when, after that
let-go, both noiseless signals stay within `SETTLE_G` of their final weights: a
floor for any judge that waits for a level, before it has averaged any noise;
`band_floor_s` the overhead of a judge that answered as soon as both noiseless
signals were in their bands for good: the floor for any judge that waits for its bands.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from multiprocessing import get_context

from dataclasses import fields, replace

import numpy as np

from companion.sensing.calibration import Calibrator
from companion.sensing.judge import BALANCED, LEFT, REWEIGH, RIGHT, Judge, JudgeConfig
from companion.games.gunkan.pieces import default_table, pan_classes
from companion.games.gunkan.seesaw import rezero_limit_g
from companion.sensing.wire_faults import WireBlindFaults
from companion.sensing.pipeline import NotStableError, Pipeline
from companion.sensing.recording import Recorder, read_recording
from companion.sensing.hands import EVERY_FAMILY, FAMILIES, Transient
from companion.sensing.simulator import ManualClock, Realism, SimulatedSeesaw

TICK_S = 0.05  # the 軍艦将棋 screen's tick: it polls the seesaw and tells the controller this often
CHUNK_S = 0.1  # how often the rig polls the source when it asks after every reading
PACES = ("app", "reading")  # ask once per screen tick (the app's path) or after every reading
TIMEOUT_S = 15.0  # no verdict this long after the last piece landed: counted as a reweigh (a slow release
# or a resting finger takes up to 5 s, a swaying table as long; then, read 10 times a second, a first class holds 5.2 s)
ORACLE_SPAN_S = 8.0
WINDOW_S = 0.1  # `window_floor_s`: both noiseless signals this long inside their bands
ORACLE_STEP_S = 0.002
SETTLE_G = 0.1  # `settle`: when the noiseless signals stay this close to their final weights
PER_SESSION = 50
ODD = "odd"  # a foreign object's name in results and recordings
ODD_BEYOND_G = 5.0  # odd objects reach this far past the heaviest class's band...
CALIBRATION_HAND = Transient(family="press")  # the wizard's known mass is set down and let go, plainly: a
# hand that stays on it (a slow release read "still" at 88 % of the mass) would miscalibrate the pan, and
# every later weighing on it would read a class light, whatever the judge does
ODD_MARGIN_G = 0.08  # ...and keep this far from every band: a reading's noise at its worst (at a band's
# very edge any scale's verdict is a coin toss: the edge is where the judge's answer changes)


DRIFT = "drift"  # not a hand: a piece parked for minutes while a pan's zero moves, before the weighing
PARK_S = (120.0, 900.0)  # how long the piece lies parked...
DRIFT_G = 3.0  # ...while the pan's zero moves by up to this, either way (issue 44)
CHOICES = tuple(EVERY_FAMILY) + (DRIFT,)


def realism(noise_g: float, stress: bool, families: tuple[str, ...] = tuple(FAMILIES),
            tremor_g: float | None = None) -> Realism:
    """No kinder than real hardware: every hand family, within what people do (or at its hard end);
    `tremor_g`: every hand's tremor at this rms instead of the premise's 0.1-0.5 g (docs/judge.md)."""
    return Realism(noise_g=0.08 if stress else noise_g, spike_rate=0.01, drift_g=0.3, crosstalk_max=0.02,
                   families=families, hard=stress, tremor_g=None if tremor_g is None else (tremor_g, tremor_g))


class Rig:
    """A simulated seesaw wired to the app's pipeline and judge, on a manual clock."""

    def __init__(self, seed: int, rate_hz: float, stress: bool = False, blind: float = 0.0, pace: str = "app",
                 families: tuple[str, ...] = tuple(FAMILIES), config: JudgeConfig = JudgeConfig(),
                 tremor_g: float | None = None):
        self.rng = np.random.default_rng([seed, 0x5EE5A7])
        self.stress, self.pace = stress, pace
        self.drift = DRIFT in families and 1.0 / len(families)  # the share of weighings after a drifting park
        families = tuple(f for f in families if f != DRIFT) or tuple(FAMILIES)
        self.clock = ManualClock(0.0)
        signs = np.where(self.rng.random(2) < 0.5, -1.0, 1.0)  # some cells are wired reversed
        scales = tuple(float(s * self.rng.uniform(380.0, 900.0)) for s in signs)
        noise = float(self.rng.uniform(0.05, 0.08))  # the hardware's: the same all session
        self.sim = SimulatedSeesaw(seed, rate_hz, self.clock, realism(noise, stress, families, tremor_g), counts_per_gram=scales,
                                   table=default_table())
        self.poll = WireBlindFaults(self.sim.poll, blind, random.Random(seed)) if blind else self.sim.poll
        self.pipeline = Pipeline(2, rate_hz)
        self.table = default_table()
        self.left_classes, self.right_classes = pan_classes(self.table)
        self.judge = Judge(self.left_classes, self.right_classes, config, rate_hz)
        self.recorder = None
        self.drift_undo = None  # (the zero's move back, the pipeline's offsets before a park)

    def record(self, path: str, scenario: str) -> None:
        """From now on, save the stream and the weighings' events (after calibration: its result goes in the header)."""
        self.recorder = Recorder(path, source="simulator", rate_hz=self.sim.rate_hz,
                                 calibration=self.pipeline.calibration(),
                                 note=f"bench {scenario}, seed {self.sim.seed}, stress {self.stress}")

    def event(self, t: float, event: str, **data) -> None:
        if self.recorder is not None:
            self.recorder.event(t, event, **data)

    def place(self, channel: int, piece: str | None, at: float, grams: float | None = None,
              first: bool = True) -> tuple[float, str, float]:
        """Put a piece (or an odd object of `grams`) down with a hand drawn from the families
        (a battle's second piece never with a first-only one); returns (let-go time, family, end
        of the hand's first release).  Under stress a press peaks inside the band of the next
        heavier class."""
        hand = self.sim.draw_transient(self.rng)
        while not first and EVERY_FAMILY[hand.family].first_only and any(
                not EVERY_FAMILY[f].first_only for f in self.sim.realism.families):
            hand = self.sim.draw_transient(self.rng)
        groups = self.judge.groups[channel]
        mass = grams if piece is None else sum(self.table[p].mass_g for p in piece.split("+"))
        heavier = [g for g in groups if g.low > mass]
        if self.stress and hand.overshoot > 0 and heavier:
            peak = self.rng.uniform(heavier[0].accept_low, heavier[0].accept_high)
            hand = replace(hand, overshoot=float(peak / mass - 1.0))
        load = self.sim.place(channel, piece, grams=grams, at=at, transient=hand)
        letgo, hand = self.sim.hand(load)
        self.event(at, "placed", pan=channel, piece=piece or ODD, letgo=round(letgo, 6), family=hand.family,
                   **({} if piece else {"grams": round(grams, 4)}))
        return letgo, hand.family, at + hand.first_release_s

    def odd_grams(self, channel: int) -> float:
        """An object no class accepts on this pan: in a gap between two acceptance bands (each gap
        as likely as another), under the lightest band (but no empty pan) or over the heaviest,
        `ODD_MARGIN_G` clear of every band."""
        groups = self.judge.groups[channel]
        gaps = [(a.accept_high, b.accept_low) for a, b in zip(groups, groups[1:])]
        empty = self.judge.config.empty_fraction * groups[0].low
        gaps += [(max(empty, groups[0].accept_low - ODD_BEYOND_G), groups[0].accept_low),
                 (groups[-1].accept_high, groups[-1].accept_high + ODD_BEYOND_G)]
        low, high = gaps[self.rng.integers(len(gaps))]
        return float(self.rng.uniform(low + ODD_MARGIN_G, high - ODD_MARGIN_G))

    def run(self, until: float, ask=None) -> tuple[float, object, float] | None:
        """Advance to `until`, feeding every reading.  With `ask` (now -> (time of the reading
        that settled it, answer) or None), stop at the first final answer and return (that
        reading's time, the answer, when the asker saw it).  At the app's pace the source is
        polled and `ask` called once per screen tick (`TICK_S`), as the 軍艦将棋 screen does
        (Seesaw.poll, then Weighing.read); at "reading" pace after every reading."""
        while self.clock() < until:
            per_reading = self.pace == "reading"
            now = self.clock.advance(CHUNK_S if per_reading else TICK_S)
            found = None
            samples = self.poll()
            if self.recorder is not None:
                self.recorder.samples(samples)
            for reading in self.pipeline.feed(samples):
                self.judge.feed(reading)
                if per_reading and ask is not None and found is None:
                    answer = ask(reading.t)
                    found = answer and (*answer, reading.t)
            if not per_reading and ask is not None:
                answer = ask(now)
                found = answer and (*answer, now)
            if found:
                return found
        return None

    def calibrate(self, known_g: float = 100.0) -> None:
        """The wizard's steps, each retried until the pans are still."""
        cal = Calibrator(self.pipeline, known_g)
        self.run(self.clock() + 1.0)
        while not cal.done:
            step = cal.step
            if step.kind == "mass":
                self.sim.place(step.channel, grams=known_g, transient=CALIBRATION_HAND)
                self.run(self.clock() + 1.5)
            while True:
                try:
                    cal.do()
                    break
                except NotStableError:
                    self.run(self.clock() + 0.1)
            if step.kind == "mass":
                self.sim.remove(step.channel)
                self.run(self.clock() + 1.0)

    def signals(self, since: float) -> tuple[np.ndarray, list[np.ndarray]]:
        """The noiseless signals of both pans from `since` on, taken as soon as the pieces are
        down: every load and knock is still in the simulator's lists (it prunes those that have
        died out as it polls on, which would leave them out of the oracles)."""
        grid = since + np.arange(0.0, ORACLE_SPAN_S, ORACLE_STEP_S)
        return grid, [self.sim.ideal_grams(channel, grid) for channel in (0, 1)]

    def _inside(self, signals, truth: list[str]) -> np.ndarray:
        """Per grid point, whether every pan with a true class reads inside its band."""
        grid, ideal = signals
        inside = np.ones(len(grid), bool)
        for channel, name in enumerate(truth):
            if name is not None:
                low, high = self.judge.band(channel, self.judge.group_of(channel, name).name)
                inside &= (ideal[channel] >= low) & (ideal[channel] <= high)
        return inside

    def oracle(self, signals, truth: list[str]) -> float:
        """When the noiseless signals enter, and stay within, their classes' bands (after `since`)."""
        grid, _ = signals
        out = ~self._inside(signals, truth)
        return float(grid[out].max()) + ORACLE_STEP_S - grid[0] if out.any() else 0.0

    def window(self, signals, truth: list[str]) -> float | None:
        """The first moment both noiseless signals have spent the previous `WINDOW_S` inside their
        bands (after `since`; None if never within the span): the earliest a judge that must see
        half a period of the slowest ringing in band could answer."""
        grid, _ = signals
        inside = self._inside(signals, truth).astype(int)
        need = round(WINDOW_S / ORACLE_STEP_S) + 1
        runs = np.convolve(inside, np.ones(need, int), "valid")  # runs[i]: points i .. i + need - 1
        hit = np.flatnonzero(runs == need)
        return float(grid[hit[0] + need - 1]) if len(hit) else None

    def settle(self, signals, letgo: float) -> float:
        """How long after `letgo` both noiseless signals stay within `SETTLE_G` of where they end
        (a floor for any judge that waits for a level: noise is still to be averaged after it)."""
        grid, ideal = signals
        last_out = letgo
        for channel in (0, 1):
            out = (np.abs(ideal[channel] - ideal[channel][-1]) > SETTLE_G) & (grid >= letgo)
            if out.any():
                last_out = max(last_out, float(grid[out].max()) + ORACLE_STEP_S)
        return last_out - letgo

    def before_weighing(self) -> str | None:
        """Under `--families drift`, some weighings (all, when drift alone is asked) come after a
        piece was parked on a pan for minutes while that pan's zero moved by up to `DRIFT_G`, and
        was then taken off; returns DRIFT for those (their family in the figures), else None.  The
        zero and the pipeline's offsets are put back before the next weighing: each drift stands alone.
        Then, as the game does before each 勝負 (Seesaw.rezero), the empty pans are zeroed."""
        if self.drift_undo is not None:
            channel, grams, offsets = self.drift_undo
            self.sim.move_zero(channel, -grams, self.clock(), 0.0)
            self.pipeline.apply_calibration(offsets)
            self.drift_undo = None
            self.run(self.clock() + 0.5)  # read with the zero put back before anything is judged on it
        condition = self.drift and self.rng.random() < self.drift and self.park()
        self.pipeline.rezero(rezero_limit_g(self.table, self.judge.config))
        return condition or None

    def park(self) -> str:
        """A piece parked for minutes while its pan's zero moves, then taken off (`before_weighing`)."""
        channel = int(self.rng.integers(2))
        classes = self.left_classes if channel == 0 else self.right_classes
        piece = classes[self.rng.integers(len(classes))].name
        start = self.clock() + 0.1
        self.sim.place(channel, piece, at=start, transient=CALIBRATION_HAND)
        self.run(start + 1.0)
        park_s, grams = self.rng.uniform(*PARK_S), self.rng.uniform(-DRIFT_G, DRIFT_G)
        self.sim.move_zero(channel, grams, self.clock(), park_s)
        self.drift_undo = (channel, grams, self.pipeline.calibration())
        self.clock.advance(park_s - 2.0)  # minutes unread: the simulator skips what lies beyond its backlog
        self.run(self.clock() + 2.0)
        self.event(self.clock(), "parked", pan=channel, piece=piece, park_s=round(park_s, 1), zero_g=round(grams, 3))
        self.sim.remove(channel, at=self.clock() + 0.1)
        self.run(self.clock() + self.rng.uniform(1.0, 3.0))
        return DRIFT

    def clear(self, after: float) -> None:
        """People take their pieces back, then the pans rest empty for a moment."""
        t = after + self.rng.uniform(0.3, 0.8)
        for channel in (0, 1):
            for _ in self.sim.loads(channel):
                self.sim.remove(channel, at=t + self.rng.uniform(0.0, 0.2))
        self.run(t + 0.6 + self.rng.uniform(0.2, 0.8))


class Holds:
    """What held the answer back after the last hand let go: seconds per reason (each reading's
    reason counts until the next reading)."""

    def __init__(self, since: float):
        self.since, self.last, self.seconds = since, None, {}

    def see(self, t: float, reason: str) -> None:
        if self.last is not None and t > self.since:
            held, why = t - max(self.last[0], self.since), self.last[1]
            self.seconds[why] = self.seconds.get(why, 0.0) + held
        self.last = (t, reason)


def truth_verdict(judge: Judge, left: str, right: str) -> str:
    a, b = judge.group_of(0, left), judge.group_of(1, right)
    if a.overlaps(b):
        return BALANCED
    return LEFT if a.low > b.high else RIGHT


def battle(rig: Rig, odd: bool = False) -> dict:
    """Attacker on the left, defender on the right, in either order; judge until final.
    With `odd`, one pan holds a foreign object instead (`Rig.odd_grams`): only "reweigh" is right."""
    rng, judge = rig.rng, rig.judge
    attacker = rig.left_classes[rng.integers(len(rig.left_classes))].name
    if rng.random() < 0.25:  # a good share of same-rank battles: the balanced case is the tight one
        defender = attacker.split("+")[0] if "+" not in attacker else "carrier"
    else:
        defender = rig.right_classes[rng.integers(len(rig.right_classes))].name
    odd_pan = int(rng.integers(2)) if odd else None
    pieces = [(0, attacker, None), (1, defender, None)]
    if odd:
        pieces[odd_pan] = (odd_pan, None, rig.odd_grams(odd_pan))
    condition = rig.before_weighing()
    judge.reset()
    rig.event(rig.clock(), "reset", scenario="battle")
    t1 = rig.clock() + rng.uniform(0.0, 0.3)
    t2 = t1 + rng.uniform(0.2, 1.5)
    first, second = (pieces[0], pieces[1]) if rng.random() < 0.7 else (pieces[1], pieces[0])
    hands = [rig.place(*first[:2], at=t1, grams=first[2]),
             rig.place(*second[:2], at=t2, grams=second[2], first=False)]
    letgo, family, _ = max(hands)
    family = condition or family
    released = max(h[2] for h in hands)  # the later of the two hands' first releases
    holds = Holds(letgo)

    def ask(now):
        verdict = judge.battle()
        holds.see(now, verdict.reason or verdict.kind)
        return (verdict.t, verdict) if verdict.final else None

    signals = rig.signals(t2)
    found = rig.run(t2 + TIMEOUT_S, ask)
    if found:
        rig.event(found[0], "verdict", kind=found[1].kind, left=found[1].left, right=found[1].right)
    oracle = 0.0 if odd else rig.oracle(signals, [attacker, defender])
    window = None if odd else rig.window(signals, [attacker, defender])
    settle = rig.settle(signals, letgo)
    t_end = found[0] if found else rig.clock()
    rig.clear(t_end)
    if odd:
        return odd_result(pieces[odd_pan][2], found, t2, letgo, family)
    truth = truth_verdict(judge, attacker, defender)
    result = {"truth": truth, "kind": REWEIGH, "latency": None, "oracle": oracle, "letgo": letgo - t2,
              "family": family, "classes_ok": True, "holds": holds.seconds, "settle": settle,
              "released": released - t2, "window": None if window is None else window - t2}
    if found is not None:
        t, verdict, _ = found
        result.update(kind=verdict.kind, latency=t - t2, shown=found[2] - t, classes_ok=verdict.kind == REWEIGH or (
            verdict.left == judge.group_of(0, attacker).name and verdict.right == judge.group_of(1, defender).name))
    return result


def identification(rig: Rig, odd: bool = False) -> dict:
    """One piece (or the submarine with its counterweight) on one pan; identify it.
    With `odd`, a foreign object (`Rig.odd_grams`): only "reweigh" is right."""
    rng, judge = rig.rng, rig.judge
    channel = int(rng.integers(2))
    classes = rig.left_classes if channel == 0 else rig.right_classes
    piece = classes[rng.integers(len(classes))].name
    grams = rig.odd_grams(channel) if odd else None
    condition = rig.before_weighing()
    judge.reset()
    rig.event(rig.clock(), "reset", scenario="identify")
    t0 = rig.clock() + rng.uniform(0.0, 0.3)
    letgo, family, released = rig.place(channel, None if odd else piece, at=t0, grams=grams)
    family = condition or family
    holds = Holds(letgo)

    def ask(now):
        state = judge.identify(channel)
        holds.see(now, state.reason or state.kind)
        return judge.identified(channel)

    signals = rig.signals(t0)
    found = rig.run(t0 + TIMEOUT_S, ask)
    if found:
        rig.event(found[0], "verdict", kind=found[1].kind, pan=channel,
                  group=found[1].group.name if found[1].group else None)
    settle = rig.settle(signals, letgo)
    truth = [piece, None] if channel == 0 else [None, piece]
    oracle = 0.0 if odd else rig.oracle(signals, truth)
    window = None if odd else rig.window(signals, truth)
    rig.clear(found[0] if found else rig.clock())  # after the oracle and settle: they read the signal on
    if odd:
        return odd_result(grams, found, t0, letgo, family)
    result = {"truth": judge.group_of(channel, piece).name, "kind": REWEIGH, "latency": None, "oracle": oracle,
              "letgo": letgo - t0, "family": family, "holds": holds.seconds, "settle": settle,
              "released": released - t0, "window": None if window is None else window - t0}
    if found is not None and found[1].kind != REWEIGH:
        result.update(kind=found[1].group.name, latency=found[0] - t0, shown=found[2] - found[0])
    return result


def odd_result(grams: float, found, landed: float, letgo: float, family: str) -> dict:
    """A weighing of a foreign object: any verdict but "reweigh" names a class for it (a timeout,
    no verdict at all, is safe and counted as a reweigh)."""
    kind = REWEIGH if found is None or found[1].kind == REWEIGH else ODD
    return {"truth": REWEIGH, "kind": kind, "classes_ok": kind == REWEIGH, "odd_g": round(grams, 3),
            "latency": None, "oracle": 0.0, "letgo": letgo - landed, "family": family,
            "reweigh_s": found[0] - landed if found is not None and kind == REWEIGH else None}


def odd_figures(results: list[dict]) -> dict:
    """Foreign objects: how many were named a class (misjudged), and how soon a reweigh came."""
    reweighs = [r["reweigh_s"] for r in results if r["reweigh_s"] is not None]
    return {"odd_named_class": sum(r["kind"] != REWEIGH for r in results),
            "odd_named_g": sorted(r["odd_g"] for r in results if r["kind"] != REWEIGH)[:20],
            "timeouts": sum(r["kind"] == REWEIGH and r["reweigh_s"] is None for r in results),
            "reweigh_median_s": round(float(np.median(reweighs)), 4) if reweighs else None,
            "reweigh_p99_s": round(float(np.percentile(reweighs, 99)), 4) if reweighs else None}


SCENARIOS = {"battle": battle, "identify": identification}


def session(job: tuple) -> list[dict]:
    scenario, seed, count, rate_hz, stress, odd, blind, record_dir, pace, families, settings, tremor_g = job
    rig = Rig(seed, rate_hz, stress, blind, pace, families, JudgeConfig(**settings), tremor_g)
    rig.calibrate()
    if record_dir:
        name = f"{scenario}-{rate_hz:g}hz{'-stress' if stress else ''}{'-odd' if odd else ''}-{seed}.jsonl.gz"
        rig.record(os.path.join(record_dir, name), scenario)
    results = [SCENARIOS[scenario](rig, odd) for _ in range(count)]
    if rig.recorder is not None:
        rig.recorder.close()
    return results


def replay(path: str, settings: dict[str, float]) -> list[dict]:
    """Judge every weighing of a recording again (a bench's own, or one from a real seesaw whose
    "placed" events name the pieces): the stream goes through a fresh Pipeline and Judge."""
    recording = read_recording(path)
    pipeline = Pipeline(recording.header["channels"], recording.rate_hz, calibration=recording.calibration)
    table = default_table()
    left, right = pan_classes(table)
    judge = Judge(left, right, JudgeConfig(**settings), recording.rate_hz)
    events = sorted(recording.events, key=lambda e: e["t"])
    weighings = []  # [reset event, placed events]
    for e in events:
        if e["event"] == "reset":
            weighings.append([e, []])
        elif e["event"] == "placed" and weighings:
            weighings[-1][1].append(e)
    starts = [w[0]["t"] for w in weighings] + [float("inf")]
    results, current, found = [], -1, None

    def close(index: int, found) -> None:
        reset, placed = weighings[index]
        if not placed:
            return
        last = max(p["t"] for p in placed)
        letgo = max(p.get("letgo", p["t"]) for p in placed) - last
        family = max(placed, key=lambda p: p.get("letgo", p["t"])).get("family", "recorded")
        pieces = {p["pan"]: p["piece"] for p in placed}
        if ODD in pieces.values():
            results.append(odd_result(next(p.get("grams", 0.0) for p in placed if p["piece"] == ODD), found,
                                      last, letgo + last, family))
            return
        r = {"letgo": letgo, "oracle": letgo, "family": family, "latency": None, "kind": REWEIGH, "classes_ok": True}
        if reset.get("scenario", "battle") == "battle":
            r["truth"] = truth_verdict(judge, pieces[0], pieces[1])
            if found and found[1].kind != REWEIGH:
                v = found[1]
                r.update(kind=v.kind, latency=found[0] - last, classes_ok=(
                    v.left == judge.group_of(0, pieces[0]).name and v.right == judge.group_of(1, pieces[1]).name))
        else:
            (pan, piece), = pieces.items()
            r["truth"] = judge.group_of(pan, piece).name
            if found and found[1].kind == "class":
                r.update(kind=found[1].group.name, latency=found[0] - last)
        results.append(r)

    for reading in pipeline.feed(recording.samples):
        while reading.t >= starts[current + 1]:
            if current >= 0:
                close(current, found)
            current, found = current + 1, None
            judge.reset()
        judge.feed(reading)
        if current < 0 or found is not None:
            continue
        reset, placed = weighings[current]
        needed = 2 if reset.get("scenario", "battle") == "battle" else 1
        if len(placed) < needed or reading.t < max(p["t"] for p in placed):
            continue
        if needed == 2:
            v = judge.battle()
            found = (reading.t, v) if v.final else None
        else:
            state = judge.identify(placed[0]["pan"])
            found = (reading.t, state) if state.kind in ("class", REWEIGH) else None
    if current >= 0:
        close(current, found)
    return results


def run_sessions(scenario: str, args: argparse.Namespace) -> list[dict]:
    if args.replay:
        return [r for path in args.replay for r in replay(path, args.set)]
    total, workers = args.count, args.workers
    jobs = [(scenario, args.seed * 100_003 + i, min(PER_SESSION, total - i * PER_SESSION), args.rate, args.stress,
             args.odd, args.blind, args.record, args.pace, tuple(args.families), args.set, args.tremor_g) for i in range((total + PER_SESSION - 1) // PER_SESSION)]
    if workers <= 1:
        results = [session(job) for job in jobs]
    else:
        with get_context("forkserver").Pool(workers) as pool:
            results = pool.map(session, jobs, chunksize=1)
    return [r for batch in results for r in batch]


def arguments(description: str, default_count: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run (300 weighings)")
    parser.add_argument("--count", type=int)
    parser.add_argument("--stress", action="store_true",
                        help="the hard end of every hand family (default count: 2,000)")
    parser.add_argument("--odd", action="store_true",
                        help="foreign objects between and beyond the classes' bands: only a reweigh is right")
    parser.add_argument("--seed", type=int, default=2, help="seed 1 is the one the judge was tuned on")
    parser.add_argument("--rate", type=float, default=80.0, help="samples per second (10 or 80)")
    parser.add_argument("--pace", choices=PACES, default="app",
                        help="ask the judge once per 50 ms screen tick, polling the seesaw then, as the app does"
                             " (default), or after every reading")
    parser.add_argument("--families", "--family", nargs="+", choices=CHOICES, default=tuple(FAMILIES),
                        help="draw hands from these families only (default: the default mix, hands.FAMILIES; the"
                             " lingering hands and tables of hands.LINGERING, and drift, on their own)")
    parser.add_argument("--tremor-g", type=float, metavar="GRAMS",
                        help="every hand's tremor at this rms (default: the premise's 0.1-0.5 g; docs/judge.md)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--holds", action="store_true",
                        help="per family, the mean seconds after the let-go each reason held the answer back")
    parser.add_argument("--blind", type=float, default=0.0, metavar="SHARE",
                        help="this share of readings hit by the HX711 fault its wire cannot show (docs/hx711.md)")
    parser.add_argument("--record", metavar="DIR", help="save each session's stream and events to DIR")
    parser.add_argument("--replay", nargs="+", metavar="FILE", help="judge recordings instead of simulating")
    parser.add_argument("--set", type=judge_setting, action="append", default=[], metavar="NAME=VALUE",
                        help="one of the judge's settings changed (companion/sensing/judge_config.py), to measure"
                             " what a rule costs and what it saves; repeatable")
    parser.set_defaults(count=None)
    args = parser.parse_args()
    args.set = dict(args.set)  # NAME=VALUE pairs as the judge settings they change
    if args.count is None:
        args.count = 2_000 if args.stress else default_count
    if args.quick:
        args.count = 300
    return args


def judge_setting(text: str) -> tuple[str, int | float]:
    """`--set`'s NAME=VALUE: a number setting of JudgeConfig, and its new value ("inf" too)."""
    name, _, value = text.partition("=")
    numbers = {f.name: type(f.default) for f in fields(JudgeConfig) if type(f.default) in (int, float)}
    if name not in numbers:
        raise argparse.ArgumentTypeError(f"{name!r} is no number setting of companion/sensing/judge_config.py"
                                         f" (one of: {', '.join(numbers)})")
    try:
        return name, numbers[name](value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: {value!r} is not a number") from None


def run_header(args: argparse.Namespace) -> dict:
    """What a run was: the recordings replayed, or the simulated seesaw's settings; and any judge setting changed."""
    changed = {"settings": args.set} if args.set else {}
    if args.replay:
        return {"replayed": [os.path.basename(f) for f in args.replay], **changed}
    return {"rate_hz": args.rate, "stress": args.stress, "odd": args.odd, "blind": args.blind, "seed": args.seed,
            "pace": args.pace, **({"tremor_g": args.tremor_g} if args.tremor_g is not None else {}), **changed}


def holds_figures(results: list[dict]) -> dict:
    """Per family: the mean seconds after the let-go that each reason held the answer back
    (the reason of the reading before, so the last step's is the verdict's own)."""
    figures = {}
    for family in sorted({r["family"] for r in results}):
        rows = [r["holds"] for r in results if r["family"] == family and r["latency"] is not None and "holds" in r]
        reasons = {why for row in rows for why in row}
        means = {why: sum(row.get(why, 0.0) for row in rows) / len(rows) for why in reasons}
        figures[family] = {why: round(s, 4) for why, s in sorted(means.items(), key=lambda kv: -kv[1]) if s >= 5e-4}
    return figures


def band_floor(results: list[dict]) -> dict:
    """The overhead of a judge that answered the moment both noiseless signals entered their bands
    for good, or at the let-go if they already had: max(oracle, let-go) - let-go.  No judge that
    waits for its bands can beat it (`over_0_2_s`: the share still outside a band 0.2 s on)."""
    floor = np.array([max(r["oracle"], r["letgo"]) - r["letgo"] for r in results])
    return {"median": round(float(np.median(floor)), 4), "p99": round(float(np.percentile(floor, 99)), 4),
            "over_0_2_s": round(float(np.mean(floor > 0.2)), 4)}


def _spread(values) -> dict:
    values = [v for v in values if v is not None]
    if not values:
        return {"median": None, "p99": None, "n": 0}
    return {"median": round(float(np.median(values)), 4), "p99": round(float(np.percentile(values, 99)), 4),
            "n": len(values)}


def window_figures(results: list[dict]) -> dict:
    """`window_floor_s`: from the end of the later hand's first release to the first moment both
    noiseless signals have spent `WINDOW_S` inside their bands (the earliest any judge that
    must see a band held for half a ringing period could answer; negative when a cautious hand
    was in band before its release ended); `window_excess_s`: the judge's verdict after that
    moment.  Overall, without straighten (whose let-go comes after a second touch), and per
    hand family, straighten in its own row."""
    rows = [r for r in results if r.get("window") is not None]

    def figures(subset):
        done = [r for r in subset if r["latency"] is not None]
        return {"window_floor_s": _spread([r["window"] - r["released"] for r in subset]),
                "window_excess_s": _spread([r["latency"] - r["window"] for r in done])}

    return {"all": figures(rows), "without_straighten": figures([r for r in rows if r["family"] != "straighten"]),
            **{f: figures([r for r in rows if r["family"] == f]) for f in sorted({r["family"] for r in rows})}}


def latency_figures(results: list[dict]) -> dict:
    """Latency against the oracle and against the hand, overall and per hand family."""
    done = [r for r in results if r["latency"] is not None]
    if not done:
        return {}
    latencies = np.array([r["latency"] for r in done])
    overhead = np.array([r["latency"] - r["letgo"] for r in done])
    ratios = [r["latency"] / r["oracle"] for r in done if r["oracle"] > 0]
    families = sorted({r["family"] for r in results})
    return {"latency_median_s": round(float(np.median(latencies)), 4),
            "latency_p99_s": round(float(np.percentile(latencies, 99)), 4),
            "oracle_median_s": round(float(np.median([r["oracle"] for r in results])), 4),
            "oracle_ratio_median": round(float(np.median(ratios)), 4) if ratios else None,
            "letgo_median_s": round(float(np.median([r["letgo"] for r in results])), 4),
            **({"settle_median_s": round(float(np.median([r["settle"] for r in done])), 4)} if "settle" in done[0] else {}),
            **({"screen_delay_s": {"median": round(float(np.median([r["shown"] for r in done])), 4),
                                   "p99": round(float(np.percentile([r["shown"] for r in done], 99)), 4)}}
               if "shown" in done[0] else {}),
            "letgo_overhead_s": {"median": round(float(np.median(overhead)), 4),
                                 "p99": round(float(np.percentile(overhead, 99)), 4)},
            **({"band_floor_s": band_floor(results)} if "settle" in done[0] else {}),
            **({"window": window_figures(results)} if "window" in done[0] else {}),
            "letgo_ratio_median": round(float(np.median(latencies / np.maximum(
                [r["oracle"] for r in done], [r["letgo"] for r in done]))), 4),
            "families": {f: {"share": round(sum(r["family"] == f for r in results) / len(results), 3),
                             "wrong": sum(r["family"] == f and r["kind"] != REWEIGH
                                          and (r["kind"] != r["truth"] or not r.get("classes_ok", True))
                                          for r in results),
                             "reweighs": sum(r["family"] == f and r["kind"] == REWEIGH for r in results),
                             "reweigh_rate": round(sum(r["family"] == f and r["latency"] is None for r in results)
                                                   / max(1, sum(r["family"] == f for r in results)), 4),
                             "letgo_overhead_median_s": round(float(np.median(
                                 [r["latency"] - r["letgo"] for r in done if r["family"] == f] or [np.nan])), 4),
                             **({"settle_median_s": round(float(np.median(
                                 [r["settle"] for r in done if r["family"] == f] or [np.nan])), 4),
                                 "band_floor_p99_s": band_floor([r for r in results if r["family"] == f])["p99"]}
                                if "settle" in done[0] else {})}
                         for f in families}}


def report(figures: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
