"""Shared scenario code for bench/judge.py and bench/identify.py.

A session is one simulated seesaw with its own hardware (offsets, scales, drift,
oscillators), calibrated through the app's Calibrator, then used for many
weighings.  Every weighing draws its pieces, noise level and hand transients
afresh.  Samples go through the app's Pipeline and Judge, one reading at a time;
a verdict's time is the time of the reading that settled it.
"""

from __future__ import annotations

import argparse
import json
import os
from multiprocessing import Pool

import numpy as np

from companion.sensing.calibration import Calibrator
from companion.sensing.judge import BALANCED, LEFT, REWEIGH, RIGHT, Judge
from companion.games.gunkan.pieces import default_table, pan_classes
from companion.sensing.pipeline import NotStableError, Pipeline
from companion.sensing.simulator import ManualClock, Realism, SimulatedSeesaw

CHUNK_S = 0.1  # how often the rig polls the source (the app polls about as often)
TIMEOUT_S = 5.0  # no verdict this long after the last piece landed: counted as a reweigh
ORACLE_SPAN_S = 3.0
ORACLE_STEP_S = 0.002
FILTER_DELAY = 1  # readings the pipeline's median-of-3 spike filter lags behind
PER_SESSION = 50


def hardest_realism(rng: np.random.Generator) -> Realism:
    """Per weighing: no kinder than real hardware (the simulator draws each hand within these)."""
    return Realism(noise_g=float(rng.uniform(0.05, 0.08)), spike_rate=0.01, overshoot_max=0.5,
                   release_s=(0.05, 0.4), ring_max=0.08, drift_g=0.3, crosstalk_max=0.02)


class Rig:
    """A simulated seesaw wired to the app's pipeline and judge, on a manual clock."""

    def __init__(self, seed: int, rate_hz: float):
        self.rng = np.random.default_rng([seed, 0x5EE5A7])
        self.clock = ManualClock(0.0)
        signs = np.where(self.rng.random(2) < 0.5, -1.0, 1.0)  # some cells are wired reversed
        scales = tuple(float(s * self.rng.uniform(380.0, 900.0)) for s in signs)
        self.sim = SimulatedSeesaw(seed, rate_hz, self.clock, hardest_realism(self.rng), counts_per_gram=scales,
                                   table=default_table())
        self.pipeline = Pipeline(2, rate_hz)
        self.table = default_table()
        self.left_classes, self.right_classes = pan_classes(self.table)
        self.judge = Judge(self.left_classes, self.right_classes, rate_hz=rate_hz)

    def run(self, until: float, ask=None) -> tuple[float, object] | None:
        """Advance to `until`, feeding every reading; with `ask`, stop at the first
        reading where ask() returns a final answer and return (time, answer)."""
        while self.clock() < until:
            self.clock.advance(CHUNK_S)
            found = None
            for reading in self.pipeline.feed(self.sim.poll()):
                self.judge.feed(reading)
                if ask is not None and found is None:
                    answer = ask()
                    if answer is not None:
                        found = (reading.t, answer)
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
                self.sim.place(step.channel, grams=known_g)
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

    def floor(self, oracle: float) -> float:
        """The soonest a windowed judge can answer: its shortest window of
        readings, all taken after the oracle, behind the spike filter."""
        return oracle + (self.judge.shortest_window + FILTER_DELAY) / self.sim.rate_hz

    def oracle(self, since: float, truth: list[str]) -> float:
        """When the noiseless signals enter, and stay within, their classes' bands."""
        grid = since + np.arange(0.0, ORACLE_SPAN_S, ORACLE_STEP_S)
        last_out = since
        for channel, name in enumerate(truth):
            if name is None:
                continue
            low, high = self.judge.band(channel, self.judge.group_of(channel, name).name)
            ideal = self.sim.ideal_grams(channel, grid)
            out = (ideal < low) | (ideal > high)
            if out.any():
                last_out = max(last_out, float(grid[out].max()) + ORACLE_STEP_S)
        return last_out - since

    def clear(self, after: float) -> None:
        """People take their pieces back, then the pans rest empty for a moment."""
        t = after + self.rng.uniform(0.3, 0.8)
        for channel in (0, 1):
            for _ in self.sim.loads(channel):
                self.sim.remove(channel, at=t + self.rng.uniform(0.0, 0.2))
        self.run(t + 0.6 + self.rng.uniform(0.2, 0.8))


def truth_verdict(judge: Judge, left: str, right: str) -> str:
    a, b = judge.group_of(0, left), judge.group_of(1, right)
    if a.overlaps(b):
        return BALANCED
    return LEFT if a.low > b.high else RIGHT


def battle(rig: Rig) -> dict:
    """Attacker on the left, defender on the right, in either order; judge until final."""
    rng, sim, judge = rig.rng, rig.sim, rig.judge
    sim.realism = hardest_realism(rng)
    attacker = rig.left_classes[rng.integers(len(rig.left_classes))].name
    if rng.random() < 0.25:  # a good share of same-rank battles: the balanced case is the tight one
        defender = attacker.split("+")[0] if "+" not in attacker else "carrier"
    else:
        defender = rig.right_classes[rng.integers(len(rig.right_classes))].name
    judge.reset()
    t1 = rig.clock() + rng.uniform(0.0, 0.3)
    t2 = t1 + rng.uniform(0.2, 1.5)
    first, second = ((0, attacker), (1, defender)) if rng.random() < 0.7 else ((1, defender), (0, attacker))
    sim.place(first[0], first[1], at=t1)
    sim.place(second[0], second[1], at=t2)
    def ask():
        verdict = judge.battle()
        return verdict if verdict.final else None

    found = rig.run(t2 + TIMEOUT_S, ask)
    oracle = rig.oracle(t2, [attacker, defender])
    floor = rig.floor(oracle)
    t_end = found[0] if found else rig.clock()
    rig.clear(t_end)
    truth = truth_verdict(judge, attacker, defender)
    if found is None:
        return {"truth": truth, "kind": REWEIGH, "latency": None, "oracle": oracle, "floor": floor, "classes_ok": True}
    t, verdict = found
    classes_ok = verdict.kind == REWEIGH or (
        verdict.left == judge.group_of(0, attacker).name and verdict.right == judge.group_of(1, defender).name)
    return {"truth": truth, "kind": verdict.kind, "latency": t - t2, "oracle": oracle, "floor": floor,
            "classes_ok": classes_ok,
            "pieces": [attacker, defender]}


def identification(rig: Rig) -> dict:
    """One piece (or the submarine with its counterweight) on one pan; identify it."""
    rng, sim, judge = rig.rng, rig.sim, rig.judge
    sim.realism = hardest_realism(rng)
    channel = int(rng.integers(2))
    classes = rig.left_classes if channel == 0 else rig.right_classes
    piece = classes[rng.integers(len(classes))].name
    judge.reset()
    t0 = rig.clock() + rng.uniform(0.0, 0.3)
    sim.place(channel, piece, at=t0)

    def ask():
        state = judge.identify(channel)
        return state if state.kind in ("class", REWEIGH) else None

    found = rig.run(t0 + TIMEOUT_S, ask)
    oracle = rig.oracle(t0, [piece, None] if channel == 0 else [None, piece])
    floor = rig.floor(oracle)
    rig.clear(found[0] if found else rig.clock())
    truth = judge.group_of(channel, piece).name
    if found is None or found[1].kind == REWEIGH:
        return {"truth": truth, "kind": REWEIGH, "latency": None, "oracle": oracle, "floor": floor}
    t, state = found
    return {"truth": truth, "kind": state.group.name, "latency": t - t0, "oracle": oracle, "floor": floor,
            "piece": piece}


SCENARIOS = {"battle": battle, "identify": identification}


def session(job: tuple[str, int, int, float]) -> list[dict]:
    scenario, seed, count, rate_hz = job
    rig = Rig(seed, rate_hz)
    rig.calibrate()
    return [SCENARIOS[scenario](rig) for _ in range(count)]


def run_sessions(scenario: str, total: int, seed: int, rate_hz: float, workers: int) -> list[dict]:
    jobs = [(scenario, seed * 100_003 + i, min(PER_SESSION, total - i * PER_SESSION), rate_hz)
            for i in range((total + PER_SESSION - 1) // PER_SESSION)]
    if workers <= 1:
        results = [session(job) for job in jobs]
    else:
        with Pool(workers) as pool:
            results = pool.map(session, jobs, chunksize=1)
    return [r for batch in results for r in batch]


def arguments(description: str, default_count: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run (300 weighings)")
    parser.add_argument("--count", type=int, default=default_count)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=80.0, help="samples per second (10 or 80)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args()
    if args.quick:
        args.count = 300
    return args


def latency_figures(results: list[dict]) -> dict:
    latencies = np.array([r["latency"] for r in results if r["latency"] is not None])
    ratios = np.array([r["latency"] / r["oracle"] for r in results
                       if r["latency"] is not None and r["oracle"] > 0])
    if not len(latencies):
        return {}
    return {"latency_median_s": round(float(np.median(latencies)), 4),
            "latency_p99_s": round(float(np.percentile(latencies, 99)), 4),
            "oracle_median_s": round(float(np.median([r["oracle"] for r in results])), 4),
            "oracle_ratio_median": round(float(np.median(ratios)), 4) if len(ratios) else None,
            "floor_ratio_median": round(float(np.median([r["floor"] / r["oracle"] for r in results
                                                          if r["oracle"] > 0])), 4)}


def report(figures: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
