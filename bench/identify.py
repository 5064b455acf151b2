"""Benchmark: simulated identifications of single pieces through the app's pipeline and judge.

    bench/identify.py --json           10,000 identifications at 80 samples/s, every hand family
    bench/identify.py --json --stress  2,000 at the hard end of every family
    bench/identify.py --json --rate 10 the same at 10 samples/s
    bench/identify.py --json --odd     foreign objects between and beyond the classes' bands
    bench/identify.py --json --blind 0.01 with HX711 faults the wire cannot show (bench/judge.py)
    bench/identify.py --replay FILE... judge recorded weighings
    bench/identify.py --json --family drift  one family (issue 44's too: bench/judge.py)

Asked for the same figures as bench/judge.py (see there): misidentified 0, and the
let-go overhead and ratio, counted from the piece's landing.
"""

from __future__ import annotations

import time

from _weighing import REWEIGH, arguments, holds_figures, latency_figures, odd_figures, report, run_header, run_sessions


def main() -> None:
    args = arguments(__doc__.splitlines()[0], default_count=10_000)
    start = time.perf_counter()
    results = run_sessions("identify", args)
    decided = [r for r in results if r["kind"] != REWEIGH]
    figures = {
        "identifications": len(results),
        **run_header(args),
        "misidentified": sum(r["kind"] != r["truth"] for r in decided),
        "reweigh_rate": round(sum(r["kind"] == REWEIGH for r in results) / len(results), 5),
        **(odd_figures(results) if args.odd else latency_figures(results)),
        **({"holds_s": holds_figures(results)} if args.holds else {}),
        "seconds": round(time.perf_counter() - start, 1),
    }
    report(figures, args.json)


if __name__ == "__main__":
    main()
