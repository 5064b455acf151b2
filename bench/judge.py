"""Benchmark: simulated Gunkan Shogi battles through the app's pipeline and judge.

    bench/judge.py --json     10,000 battles at 80 samples/s (needs misjudged 0,
                              reweigh_rate <= 0.01, latency_median_s <= 0.5,
                              oracle_ratio_median <= 1.5)

Latency runs from the moment the second piece lands to the reading that settled
the verdict.  The oracle is the moment the noiseless signals enter, and stay
within, the bands of their true classes (`Judge.band`: the very bands the judge
decides by), on a 2 ms grid; the ratio compares the two per battle.  No causal
judge can match it: it knows the future (that a signal which has entered a
band will not fall through it) and has no noise to average.

`floor_ratio_median` is the ratio of a judge that answered the instant its
shortest window (8 readings at 80/s) and the spike filter's lag lay wholly
after the oracle.  At 0.05-0.08 g of noise, 8 readings are about the fewest
whose slope tells a still pan from one sliding through a band (6 readings
at 0.08 g leave a standard error of 1.5 g/s, the judge's whole slope limit);
a verdict on fewer must assume how the hand lets go.  The floor is about
1.6, above the 1.5 asked for.
"""

from __future__ import annotations

import os
import time

from _weighing import REWEIGH, arguments, latency_figures, report, run_sessions


def main() -> None:
    args = arguments(__doc__.splitlines()[0], default_count=10_000)
    start = time.perf_counter()
    results = run_sessions("battle", args)
    decided = [r for r in results if r["kind"] != REWEIGH]
    figures = {
        "battles": len(results),
        **({"replayed": [os.path.basename(f) for f in args.replay]} if args.replay else
           {"rate_hz": args.rate, "stress": args.stress, "seed": args.seed}),
        "misjudged": sum(r["kind"] != r["truth"] for r in decided),
        "misidentified": sum(not r["classes_ok"] for r in decided),
        "reweigh_rate": round(sum(r["kind"] == REWEIGH for r in results) / len(results), 5),
        "balanced_battles": sum(r["truth"] == "balanced" for r in results),
        **latency_figures(results),
        "seconds": round(time.perf_counter() - start, 1),
    }
    report(figures, args.json)


if __name__ == "__main__":
    main()
