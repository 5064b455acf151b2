"""Attacks on everything that takes outside input, by section and class: how many were
tried and how many were accepted wrongly (crash, data lost, or bad input taken as good).
Every accepted_wrongly must be 0; the exit status says whether it is.

    python bench/faults.py --json [--quick] [--only store,damage,config,lines] [--seed N] [--count N]

`damage` flips one bit of one stored value at a time, per column of every table games are
read from (bench/_damage_faults.py: silent_changes, crashes, reported per column); its
count is the bits tried per column, and `--count 1000000000` tries every bit.

A section is a function figures(count, seed) -> {class: {tried, accepted_wrongly, ...}}
with its full-size count; adding one is one line in SECTIONS.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial

import _config_faults
import _damage_faults
import _line_faults
import _store_faults

SECTIONS = {  # name: (figures(count, seed), count at full size)
    "store": (_store_faults.figures, 25),
    "damage": (_damage_faults.figures, 200),  # bits per column (every bit: --count 1000000000)
    "config": (partial(_config_faults.figures, scale=50), 40),  # 50 MB files, 10**6 items
    "lines": (_line_faults.figures, 1_000_000),  # damaged serial lines
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--only", help="comma-separated sections (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, help="each section's count (default: its full size)")
    args = parser.parse_args(argv)
    wanted = args.only.split(",") if args.only else list(SECTIONS)
    result, wrong = {}, 0
    for name in wanted:
        figures, count = SECTIONS[name]
        started = time.perf_counter()
        count = args.count or count
        classes = figures(max(1, count // 20) if args.quick else count, args.seed)
        wrong += sum(row["accepted_wrongly"] for row in classes.values())
        result[name] = {"classes": classes, "wall_s": round(time.perf_counter() - started, 1)}
    result["accepted_wrongly"] = wrong
    result["ok"] = wrong == 0
    if args.json:
        print(json.dumps(result))
    else:
        for name in wanted:
            print(f"== {name} ({result[name]['wall_s']} s)")
            for cls, row in result[name]["classes"].items():
                print(f"{cls:>32}: tried {row['tried']:>5}  accepted wrongly "
                      f"{row['accepted_wrongly']}  {row.get('first_failure', row.get('skipped', ''))}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
