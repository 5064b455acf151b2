"""bench/battleship_ai.py at a size for `make test`: it runs end to end and states each
target of issue 27, and its learning shooter sees a placer's habit where there is one."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "battleship_ai.py"
sys.path.insert(0, str(BENCH.parent))

import _density_peer as peer  # noqa: E402
import battleship_ai as bench  # noqa: E402


def test_the_bench_runs_and_states_each_target():
    out = subprocess.run([sys.executable, str(BENCH), "--fleets", "2", "--others", "2", "--train", "40",
                          "--placer-fleets", "2", "--processes", "1", "--json"],
                         capture_output=True, text=True, timeout=600, check=True)
    report = json.loads(out.stdout)
    assert set(report["targets"]) == {
        "hard_vs_peer_advanced_at_most_0.97", "hard_vs_peer_advanced_upper_at_most_0.97",
        "named_hits_gain_positive", "named_hits_gain_interval_above_0", "placer_vs_learner_at_least_1",
        "hard_worst_call_within_budget", "levels_in_order"}
    assert report["ok"] == all(report["targets"].values())
    for key in ("hard/advanced", "hard/standard", "peer/advanced", "hard/salvo", "learner_ours/ours_fleets"):
        assert 17 <= report["table"][key]["mean"] <= 100, key  # a game needs the fleet's 17 cells hit
    assert report["hard_vs_peer_advanced"]["ratio"] > 0


def test_the_learner_finds_the_apart_placers_habit_and_none_in_uniform_fleets():
    rng = random.Random(5)
    reference = [bench.uniform_fleet(rng) for _ in range(400)]
    apart = peer.Prior.learn([bench.apart_fleet(rng) for _ in range(400)], reference)
    uniform = peer.Prior.learn([bench.computer_fleet(rng) for _ in range(400)], reference)
    assert apart.touch < 0.1  # its ships never touch
    assert 0.8 < uniform.touch < 1.25  # ours touch as uniform fleets do


def test_pairs_match_fleet_by_fleet_across_batches_of_different_sizes():
    game = lambda shots: [1, shots, 0.0, 0.0]  # noqa: E731  (turns, shots, CPU, worst call)
    hard = {0: [game(s) for s in (40, 50, 60, 70)], 4: [game(80)]}
    density = {0: [game(41), game(51)], 2: [game(61), game(71)]}
    assert bench.paired_shots(hard, density) == ([40, 50, 60, 70], [41, 51, 61, 71])


def test_a_screen_runs_only_the_plans_asked_and_pairs_them():
    out = subprocess.run([sys.executable, str(BENCH), "--fleets", "2", "--train", "40", "--processes", "1",
                          "--json", "--only", "hard/advanced,peer/advanced"],
                         capture_output=True, text=True, timeout=600, check=True)
    report = json.loads(out.stdout)
    assert set(report["table"]) == {"hard/advanced", "peer/advanced"}
    assert report["hard_vs_peer_advanced"]["ratio"] > 0
    for row in report["table"].values():  # every shot is one of the 17 hits or a miss in one phase
        assert row["misses_hunting"] + row["misses_with_a_hit_open"] + 17 == pytest.approx(row["mean"], abs=0.01)
        assert row["misses_hunting"] > 0
