"""Benchmark: how many piece weighings the calibration wizard asks for on the simulated
seesaw before it stops (every neighbouring pair of classes surely apart), and the
simulated seconds they take with a hand that does at once what is asked (a person adds
their own time per weighing), at 80 and 10 samples/s.

    bench/calibration.py --json            seeds 1-8
    bench/calibration.py --json --seeds 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.gunkan.weighplan import first_round, scripted  # noqa: E402


def figures(seeds: int) -> dict:
    out = {"first_round": len(first_round()), "fixed_plan_before": 60}
    for rate in (80, 10):
        runs = [scripted(seed, rate) for seed in range(1, seeds + 1)]
        counts = [plan.count for plan, _ in runs]
        secs = [t for _, t in runs]
        out[f"{rate}_per_s"] = {
            "weighings": {"median": statistics.median(counts), "max": max(counts), "each": counts},
            "simulated_s": {"median": round(statistics.median(secs), 1), "max": round(max(secs), 1)},
            "runs_with_warnings": sum(bool(plan.build().warnings) for plan, _ in runs),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args()
    result = figures(args.seeds)
    print(json.dumps(result, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
