"""The judge is a fold: how often it is asked never changes what it answers, or at which reading.

The 軍艦将棋 screen asks once per 50 ms tick (four readings at 80/s), the home screen's
badge more seldom, the benchmarks after every reading: all must see the same verdicts,
settled at the same readings."""

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.games.gunkan.pieces import default_table, pan_classes
from companion.sensing.judge import Judge
from companion.sensing.pipeline import Reading
from companion.sensing.hands import FAMILIES
from companion.sensing.simulator import ManualClock, Realism, SimulatedSeesaw

LEFT_CLASSES, RIGHT_CLASSES = pan_classes(default_table())
SHIPS = [c.name for c in RIGHT_CLASSES]


def stream(seed: int, rate: float, pieces: list[tuple[int, str, float]], removals: list[tuple[int, float]],
           span_s: float) -> list[Reading]:
    """Both pans' readings in time order: the simulator's hands (every family), noise and spikes."""
    sim = SimulatedSeesaw(seed, rate, ManualClock(), Realism(families=tuple(FAMILIES)), table=default_table())
    events = [(at, "place", pan, piece) for pan, piece, at in pieces] + [(at, "remove", pan, None)
                                                                        for pan, at in removals]
    for at, what, pan, piece in sorted(events):
        if what == "place":
            sim.place(pan, piece, at=at)
        elif sim.loads(pan):
            sim.remove(pan, at=at)
    rng = np.random.default_rng(seed)
    out = []
    for ch in (0, 1):
        t = np.arange(0.0, span_s, 1.0 / rate) + ch * 0.3 / rate
        g = sim.ideal_grams(ch, t) + 0.06 * rng.standard_normal(len(t))
        spikes = rng.random(len(t)) < 0.01
        raw = np.where(spikes, g + rng.uniform(-50, 50, len(t)), g)
        out += [Reading(float(ti), ch, 0, float(gi), True, frozenset(), float(ri)) for ti, gi, ri in zip(t, g, raw)]
    return sorted(out, key=lambda r: (r.t, r.channel))


def answers(judge: Judge) -> tuple:
    return (judge.battle(), judge.identify(0), judge.identify(1), judge.identified(0), judge.identified(1))


def asked_every(readings: list[Reading], every_s: float | None) -> list[tuple[int, tuple]]:
    """(index of the last reading fed, answers) each time the judge is asked: after every reading
    (`every_s` None) or at each tick of `every_s`, with the readings that arrived before it."""
    judge = Judge(LEFT_CLASSES, RIGHT_CLASSES, rate_hz=80.0)
    asked, tick = [], every_s
    for i, r in enumerate(readings):
        if every_s is not None:
            while r.t >= tick:
                if i:
                    asked.append((i - 1, answers(judge)))
                tick += every_s
        if i == 50:
            judge.reset()  # a new weighing, as the screen starts one
        judge.feed(r)
        if every_s is None:
            asked.append((i, answers(judge)))
    return asked


pieces = st.lists(st.tuples(st.integers(0, 1), st.sampled_from(SHIPS), st.floats(0.3, 3.0)), min_size=1, max_size=4)
removals = st.lists(st.tuples(st.integers(0, 1), st.floats(1.0, 3.5)), max_size=2)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rate=st.sampled_from([10.0, 80.0]), pieces=pieces, removals=removals)
def test_the_same_stream_gives_the_same_answers_however_often_asked(seed, rate, pieces, removals):
    readings = stream(seed, rate, pieces, removals, span_s=4.0)
    every = dict(asked_every(readings, None))
    for every_s in (0.05, 0.25):
        for i, seen in asked_every(readings, every_s):
            assert seen == every[i], (every_s, readings[i].t)
    times = {r.t for r in readings}
    assert all(a[0].t in times for a in every.values() if a[0].final)  # a settling reading's time


def test_a_verdict_settled_between_ticks_is_the_one_seen_at_the_tick():
    """A battle whose verdict settles mid-tick: the screen's next tick sees that verdict, with
    the settling reading's time, not a later reading's."""
    readings = stream(3, 80.0, [(0, "carrier", 0.3), (1, "submarine", 0.8)], [], span_s=3.0)
    per_reading = asked_every(readings, None)
    first = next(a[0] for _, a in per_reading if a[0].final)
    ticked = [a[0] for _, a in asked_every(readings, 0.05) if a[0].final]
    assert ticked and ticked[0] == first and ticked[0].kind == "left"
