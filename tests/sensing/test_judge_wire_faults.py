"""The HX711 fault its wire cannot show (docs/hx711.md, `WireBlindFaults`): a shifted word, one
conversion of another setting, then four settling ones, all accepted by the driver.  The
pipeline and the judge must not turn it into a wrong verdict, whenever it comes, on either
pan, at 10 and 80 samples/s."""

import pytest

from companion.games.gunkan.pieces import default_table, pan_classes
from companion.sensing.judge import BALANCED, LEFT, RIGHT, Judge, JudgeConfig
from companion.sensing.pipeline import Pipeline
from companion.sensing.simulator import ManualClock, Realism, SimulatedSeesaw
from companion.sensing.wire_faults import EXTRA_PULSES, WireBlindFaults

BATTLES = [("carrier", "battleship", LEFT), ("submarine+counterweight", "carrier", BALANCED),
           ("landing_ship", "mine", RIGHT), ("cruiser", "cruiser", BALANCED)]
FAULT_AFTER_S = (-0.3, 0.0, 0.1, 0.2, 0.35, 0.5)  # after the second piece lands


@pytest.mark.parametrize("rate", [10.0, 80.0])
def test_a_wire_blind_fault_never_makes_a_wrong_verdict(rate):
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=21, rate_hz=rate, clock=clock, realism=Realism(), table=default_table())
    faulty = WireBlindFaults(sim.poll)
    pipe = Pipeline(rate_hz=rate)
    judge = Judge(*pan_classes(default_table()), rate_hz=rate)
    step = 1.0 / rate

    def run(seconds, fault=None):
        """Advance, arming `fault` (at, pan, setting) when its time comes; the first final verdict."""
        verdict = None
        for _ in range(round(seconds / step)):
            if fault and clock() >= fault[0]:
                faulty.arm(*fault[1:])
                fault = None
            clock.advance(step)
            for reading in pipe.feed(faulty()):
                judge.feed(reading)
                battle = judge.battle()
                if verdict is None and battle.final:
                    verdict = battle
        return verdict

    run(1.0)
    pipe.tare()
    for pan in (0, 1):
        sim.place(pan, grams=100.0)
        run(2.0)
        pipe.channels[pan].calibrate(100.0)
        sim.remove(pan)
        run(2.0)
    cases = [(battle, after, pan, setting) for battle in BATTLES for after in FAULT_AFTER_S
             for pan in (0, 1) for setting in EXTRA_PULSES][::3]
    for (attacker, defender, kind), after, pan, setting in cases:
        judge.reset()
        before = faulty.faults
        sim.place(0, attacker)
        run(0.7, (clock() + 0.7 + after, pan, setting) if after < 0 else None)
        sim.place(1, defender)
        verdict = run(4.0 + JudgeConfig().sparse_confirm_s, (clock() + after, pan, setting) if after >= 0 else None)
        # (10/s waits out a finger)
        assert faulty.faults == before + 1
        assert verdict is not None and verdict.kind == kind, (attacker, defender, after, pan, setting,
                                                              verdict)
        sim.clear()
        run(1.5)
