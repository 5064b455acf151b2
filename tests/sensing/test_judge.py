"""The judge: verdicts, identification, refusals, and never a wrong answer during a transient."""

import numpy as np
import pytest

from companion.sensing.judge import (
    BALANCED, LEFT, REFUSED, REWEIGH, RIGHT, UNSTABLE, WAITING, Judge, build_groups)
from companion.games.gunkan.pieces import PieceClass, default_table, pan_classes
from companion.sensing.pipeline import OVERLOAD, Pipeline, Reading
from companion.sensing.simulator import ManualClock, Realism, SimulatedSeesaw, Transient, _press

RATE = 80.0
LEFT_CLASSES, RIGHT_CLASSES = pan_classes(default_table())


def judge():
    return Judge(LEFT_CLASSES, RIGHT_CLASSES, rate_hz=RATE)


def first_final(verdicts):
    return next(v for v in verdicts if v.final)


def feed(j, left, right, t0=0.0, flags=frozenset(), noise=0.0, seed=0):
    """Feed two gram sequences (or constants for 1 s) as interleaved readings; return the last verdict."""
    rng = np.random.default_rng(seed)
    n = max(len(v) for v in (left, right) if not np.isscalar(v)) if not (np.isscalar(left) and np.isscalar(right)) else 80
    left = np.full(n, left, float) if np.isscalar(left) else np.asarray(left, float)
    right = np.full(n, right, float) if np.isscalar(right) else np.asarray(right, float)
    verdicts = []
    for i in range(n):
        t = t0 + i / RATE
        for ch, g in ((0, left[i]), (1, right[i])):
            j.feed(Reading(t, ch, 0, float(g + noise * rng.standard_normal()), True, flags))
        verdicts.append(j.battle())
    return verdicts


def test_groups_merge_what_weighs_the_same():
    names = [g.name for g in build_groups(LEFT_CLASSES, 0.4)]
    assert "carrier|submarine+counterweight" in names
    assert "carrier" in [g.name for g in build_groups(RIGHT_CLASSES, 0.4)]
    groups = build_groups([PieceClass("a", 10, 0.3), PieceClass("b", 12, 0.3)], 0.4)
    assert [(g.accept_low, g.accept_high) for g in groups] == [
        pytest.approx((9.7 - 0.56, 10.3 + 0.56)), pytest.approx((11.7 - 0.56, 12.3 + 0.56))]


@pytest.mark.parametrize("left, right, kind, names", [
    (22.0, 20.0, LEFT, ("carrier|submarine+counterweight", "battleship")),
    (10.2, 11.8, RIGHT, ("landing_ship", "submarine")),
    (16.3, 15.7, BALANCED, ("destroyer", "destroyer")),
    (22.35, 21.75, BALANCED, ("carrier|submarine+counterweight", "carrier")),
    (30.0, 26.0, LEFT, ("port", "mine")),
])
def test_battle_verdicts(left, right, kind, names):
    verdict = first_final(feed(judge(), left, right, noise=0.05))
    assert (verdict.kind, verdict.left, verdict.right) == (kind, *names)


def test_waits_for_an_empty_pan():
    kinds = {v.kind for v in feed(judge(), 18.0, 0.0, noise=0.05)}
    assert WAITING in kinds and kinds <= {WAITING, UNSTABLE}


def test_refuses_overload():
    verdict = feed(judge(), 18.0, 18.0, flags=frozenset({OVERLOAD}))[-1]
    assert verdict.kind == REFUSED and verdict.reason == OVERLOAD


def test_unstable_while_moving():
    ramp = np.linspace(5.0, 25.0, 80)
    assert all(v.kind == UNSTABLE for v in feed(judge(), 18.0, ramp, noise=0.05)[10:])


def test_between_classes_waits_then_asks_to_reweigh():
    verdicts = feed(judge(), 18.0, 21.0, noise=0.05)  # halfway between battleship and carrier
    kinds = [v.kind for v in verdicts]
    assert REWEIGH in kinds and not any(k in (LEFT, RIGHT, BALANCED) for k in kinds)
    first = kinds.index(REWEIGH)
    assert verdicts[first].t >= 0.5
    assert all(k == UNSTABLE for k in kinds[8:first])


def test_a_spike_pair_does_not_change_the_verdict():
    right = np.full(80, 20.0)
    right[40:42] = 300.0
    verdicts = feed(judge(), 22.0, right, noise=0.05)
    assert {v.kind for v in verdicts if v.final} == {LEFT}


def hand_sweep():
    """Hands from gentle to the hardest: overshoot, release time, ringing."""
    for overshoot in (0.0, 0.06, 0.1, 0.5):
        for release in (0.05, 0.4):
            for ring, hz in ((0.0, 8.0), (0.08, 5.0)):
                yield Transient(overshoot, 0.05, release, ring, hz, 0.12)


def test_never_a_wrong_class_during_any_hand_transient():
    """Noiseless worst cases: each class at both ends of its spread, every hand in the sweep."""
    t = np.arange(0.0, 1.5, 1 / RATE)
    for cls in RIGHT_CLASSES[::3]:
        for mass in (cls.low, cls.high):
            for hand in hand_sweep():
                j = judge()
                truth = j.group_of(1, cls.name).name
                g = _press(t, mass, hand)
                for ti, gi in zip(t, g):
                    j.feed(Reading(ti, 1, 0, float(gi), True))
                    state = j.identify(1)
                    if state.kind == "class":
                        assert state.group.name == truth, (cls.name, mass, hand, ti)
                assert j.identify(1).kind == "class"


def test_simulated_battles_end_to_end():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=11, clock=clock, realism=Realism(), table=default_table())
    pipe = Pipeline(rate_hz=RATE)
    j = judge()

    def run(seconds):
        for _ in range(round(seconds / 0.05)):
            clock.advance(0.05)
            readings = pipe.feed(sim.poll())
            j.feed_all(readings)

    run(1.0)
    pipe.tare()
    for ch in (0, 1):
        sim.place(ch, grams=100.0)
        run(1.5)
        pipe.channels[ch].calibrate(100.0)
        sim.remove(ch)
        run(1.0)
    for attacker, defender, kind in (("carrier", "battleship", LEFT), ("submarine+counterweight", "carrier", BALANCED),
                                     ("landing_ship", "mine", RIGHT), ("cruiser", "cruiser", BALANCED)):
        j.reset()
        sim.place(0, attacker)
        run(0.7)
        sim.place(1, defender)
        verdicts = []
        for _ in range(30):
            clock.advance(0.05)
            for r in pipe.feed(sim.poll()):
                j.feed(r)
                verdicts.append(j.battle())
        assert first_final(verdicts).kind == kind, (attacker, defender)
        sim.clear()
        run(1.0)
