"""Benchmark: simulated Gunkan Shogi battles through the app's pipeline and judge.

    bench/judge.py --json              10,000 battles at 80 samples/s, every hand family
    bench/judge.py --json --stress     2,000 battles at the hard end of every family
    bench/judge.py --json --rate 10    the same at 10 samples/s (most HX711 boards)
    bench/judge.py --json --odd        foreign objects between and beyond the classes' bands
    bench/judge.py --replay FILE...    judge recorded weighings (companion record, --record DIR)
    bench/judge.py --json --holds      and per hand family, what held each verdict back after the let-go
    bench/judge.py --json --blind 0.01 1 % of readings hit by the HX711 fault its wire cannot show
    bench/judge.py --json --pace reading  ask after every reading, not once per 50 ms screen tick
    bench/judge.py --json --set sparse_confirm_s=0  a judge setting changed: what its rule costs and saves
    bench/judge.py --json --family finger_still  one family: issue 44's (finger_linger, finger_still,
                                       slow_still, sway, drift) are outside the default mix
    bench/judge.py --json --family finger_linger --tremor-g 0.07  every hand's tremor at this rms

Issue 44 asks 0 wrong in 200 battles of each of its families at each rate (docs/judge.md: at
80/s finger_still and slow_still rest on the hand's tremor, and are not met).

Asked for (issue 30): misjudged 0 and misidentified 0 everywhere (a reweigh is allowed
under --stress: reweigh_rate <= 0.05); under --odd, where only a reweigh is right,
misjudged 0 (`odd_named_class`: objects named a class); `window_excess_s` median <= 0.05 s
and p99 <= 0.25 s at 80/s, median <= 0.3 s at 10/s (out of reach: docs/judge.md, "The speed
asked, and what holds it").  The default seed is 2: the judge was tuned on seed 1.

Latency runs from the moment the second piece lands to the reading that settled
the verdict.  `letgo_overhead_s` is the verdict's time minus the moment the last
hand let go (the end of its release, or of a straightening touch: negative when
the verdict came before the touch); `letgo_ratio_median` divides the latency by
max(oracle, let-go).  The oracle is the moment the noiseless signals enter, and
stay within, the bands of their true classes (`Judge.band`), on a 2 ms grid; it
often enters during the release, so alone it would ask the judge to predict a
moving hand.  `families` gives each hand family's share, reweigh rate and
median overhead (the family of the hand that let go last), and `settle_median_s`: when
after the let-go both noiseless signals stay within 0.1 g of their final weights (a floor
for waiting on a level, noise aside).  `band_floor_s` is the overhead of a clairvoyant
judge that answered the moment both noiseless signals entered their bands for good (or at
the let-go): no judge that waits for its bands can beat it, and a knock on the table keeps
a few battles in a hundred out of band for over 0.2 s (`over_0_2_s`; per family
`band_floor_p99_s`).  `window` is the yardstick that is one (issue 30): `window_floor_s`, from
the end of the later hand's first release to the first moment both noiseless signals have
spent 0.1 s inside their bands, and `window_excess_s`, the verdict after that moment, overall,
without straighten and per family; each family also counts `wrong` verdicts and `reweighs`.
`--families NAME...` draws from those only; `--holds` adds `holds_s`:
per family, the mean seconds after the let-go that each reason (`Verdict.reason`:
"pressed", "curved", "moving", ...) held the verdict back.
"""

from __future__ import annotations

import time

from _weighing import REWEIGH, arguments, holds_figures, latency_figures, odd_figures, report, run_header, run_sessions


def main() -> None:
    args = arguments(__doc__.splitlines()[0], default_count=10_000)
    start = time.perf_counter()
    results = run_sessions("battle", args)
    decided = [r for r in results if r["kind"] != REWEIGH]
    figures = {
        "battles": len(results),
        **run_header(args),
        "misjudged": sum(r["kind"] != r["truth"] for r in decided),
        "misidentified": sum(not r["classes_ok"] for r in decided),
        "reweigh_rate": round(sum(r["kind"] == REWEIGH for r in results) / len(results), 5),
        "balanced_battles": sum(r["truth"] == "balanced" for r in results),
        **(odd_figures(results) if args.odd else latency_figures(results)),
        **({"holds_s": holds_figures(results)} if args.holds else {}),
        "seconds": round(time.perf_counter() - start, 1),
    }
    report(figures, args.json)


if __name__ == "__main__":
    main()
