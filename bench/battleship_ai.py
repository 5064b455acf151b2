"""Battleship shooters on the same uniformly random fleets: baselines vs the computer.

Baselines (implemented here, independently of companion.ai):
  random, hunt_target (random hunt, then the neighbours of hits),
  parity (hunt on one colour of the checkerboard), density (the classic
  probability-density shooter: count every placement of each unsunk ship
  that fits the answers, placements through unresolved hits weighted up,
  fire at the cell most placements cover).
Computer levels: easy, normal, hard (companion.games.battleship.ai).

Figures: mean/median shots per shooter in standard and advanced mode; salvo
turns (5 shots a turn, the shooter's own fleet untouched); the density
shooter and the baselines against the computer's own fleets.

    python bench/battleship_ai.py --json [--quick] [--fleets N]

Cost: about 0.5 CPU-second per fleet for all shooters together, so the
default 5,000 fleets need ~21 minutes on two idle cores; `--fleets 1000` ~5.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only get in the way

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from multiprocessing import Pool  # noqa: E402

import numpy as np  # noqa: E402

from companion.games.battleship.ai import choose_fleet, choose_shots  # noqa: E402
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, SIZE, masks, placements  # noqa: E402

LEVELS = ("easy", "normal", "hard")
BASELINES = ("random", "hunt_target", "parity", "density")
HIT_WEIGHT = 30.0  # density: a placement through k unresolved hits counts 1 + HIT_WEIGHT * k


# -- fleets ------------------------------------------------------------------------------
def uniform_fleet(rng: random.Random) -> dict[int, str]:
    """Cell -> ship, uniform over all legal fleets (whole draw rejected on overlap)."""
    while True:
        owner: dict[int, str] = {}
        for ship in NAMES:
            _, _, mask = rng.choice(placements(LENGTH[ship]))
            cells = [c for c in range(CELLS) if mask >> c & 1]
            if any(c in owner for c in cells):
                break
            owner.update((c, ship) for c in cells)
        else:
            return owner


def computer_fleet(rng: random.Random) -> dict[int, str]:
    owner = {}
    for action in choose_fleet(rng):
        row, col = "ABCDEFGHIJ".index(action["cell"][0]), int(action["cell"][1:]) - 1
        step = 1 if action["dir"] == "h" else SIZE
        start = row * SIZE + col
        owner.update((start + i * step, action["ship"]) for i in range(LENGTH[action["ship"]]))
    return owner


# -- baselines ---------------------------------------------------------------------------
NEIGHBOURS = [[r2 * SIZE + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
               if 0 <= r2 < SIZE and 0 <= c2 < SIZE] for r in range(SIZE) for c in range(SIZE)]
RUNS_THROUGH = {L: [[frozenset(c for c in range(CELLS) if m >> c & 1) for m in masks(L) if m >> cell & 1]
                    for cell in range(CELLS)] for L in set(LENGTH.values())}
PLACEMENT_MATRIX = {L: np.array([[m >> c & 1 for c in range(CELLS)] for m in masks(L)], dtype=np.float32)
                    for L in set(LENGTH.values())}


def random_shot(record, called, rng, parity=False):
    return rng.choice([c for c in range(CELLS) if c not in called])


def hunt_target_shot(record, called, rng, parity=False):
    """Neighbours of hits on unsunk-looking cells first, else a random (parity) hunt."""
    resolved = _resolved_hits(record)
    for cell, result, _ in reversed(record):
        if result != "miss" and cell not in resolved:
            open_near = [n for n in NEIGHBOURS[cell] if n not in called]
            if open_near:
                return rng.choice(open_near)
    pool = [c for c in range(CELLS) if c not in called and (not parity or (c // SIZE + c) % 2 == 0)]
    return rng.choice(pool or [c for c in range(CELLS) if c not in called])


def parity_shot(record, called, rng, parity=True):
    return hunt_target_shot(record, called, rng, parity=True)


def _resolved_hits(record) -> set[int]:
    """Hit cells known to belong to sunk ships (named hits, or a unique run through the sink)."""
    hits = {c for c, r, _ in record if r != "miss"}
    order = {c: i for i, (c, _, _) in enumerate(record)}
    named = {}
    for c, r, s in record:
        if r != "miss" and s is not None:
            named.setdefault(s, set()).add(c)
    resolved: set[int] = set()
    sunk = [(c, s, i) for i, (c, r, s) in enumerate(record) if r == "sunk"]
    for cell, ship, number in sunk:
        runs = RUNS_THROUGH[LENGTH[ship]][cell]
        fits = [r for r in runs if r <= hits and all(order[c] <= number for c in r)
                and all(c not in named or c in named.get(ship, ()) for c in r)]
        fits = [r for r in fits if not (r & resolved)] or fits
        if len(fits) == 1 or named.get(ship) and len(named[ship]) == LENGTH[ship]:
            resolved |= named.get(ship) if named.get(ship) and len(named[ship]) == LENGTH[ship] else fits[0]
    if len(hits) == sum(LENGTH[s] for _, s, _ in sunk):
        resolved = hits
    return resolved


def density_shot(record, called, rng, parity=False):
    """The classic probability-density shooter, per ship, independent placements."""
    shot = np.zeros(CELLS, dtype=np.float32)
    miss = np.zeros(CELLS, dtype=np.float32)
    open_hit = np.zeros(CELLS, dtype=np.float32)
    resolved = _resolved_hits(record)
    named = {s: np.zeros(CELLS, dtype=np.float32) for s in NAMES}
    for c in called:
        shot[c] = 1
    for c, r, s in record:
        if r == "miss":
            miss[c] = 1
        elif c in resolved:
            miss[c] = 1  # part of a sunk ship: no other ship there
        else:
            open_hit[c] = 1
            if s is not None:
                named[s][c] = 1
    sunk = {s for _, r, s in record if r == "sunk"}
    score = np.zeros(CELLS, dtype=np.float32)
    for ship in NAMES:
        if ship in sunk:
            continue
        pm = PLACEMENT_MATRIX[LENGTH[ship]]
        others = sum(named[o] for o in NAMES if o != ship)
        ok = (pm @ (miss + others) == 0)
        if named[ship].any():
            ok &= pm @ named[ship] == named[ship].sum()
        ok &= pm @ (1 - shot) > 0
        weight = ok * (1.0 + HIT_WEIGHT * (pm @ open_hit))
        score += weight @ pm
    score[shot > 0] = -1
    best = np.flatnonzero(score >= score.max() - 1e-6)
    return int(best[rng.randrange(len(best))])


BASELINE_SHOT = {"random": random_shot, "hunt_target": hunt_target_shot,
                 "parity": parity_shot, "density": density_shot}


# -- games -------------------------------------------------------------------------------
def answer(owner: dict[int, str], hits: dict[str, int], cell: int, advanced: bool):
    ship = owner.get(cell)
    if ship is None:
        return (cell, "miss", None)
    hits[ship] = hits.get(ship, 0) + 1
    sunk = hits[ship] == LENGTH[ship]
    return (cell, "sunk" if sunk else "hit", ship if sunk or not advanced else None)


def play(shooter: str, owner: dict[int, str], advanced: bool, volley: int, rng: random.Random):
    """(turns, shots, seconds thinking) for one shooter against one fleet."""
    record, hits, turns, thinking = (), {}, 0, 0.0
    while True:
        turns += 1
        called = {c for c, _, _ in record}
        start = time.perf_counter()
        if shooter in LEVELS:
            cells = choose_shots(record, volley, shooter, rng)
        else:
            cells = []
            for _ in range(volley):
                cells.append(BASELINE_SHOT[shooter](record, called | set(cells), rng))
        thinking += time.perf_counter() - start
        for cell in cells:
            record += (answer(owner, hits, cell, advanced),)
            if sum(hits.values()) == sum(LENGTH.values()):
                return turns, len(record), thinking


def run_task(task):
    shooter, advanced, volley, fleets, seed = task
    rng = random.Random(seed)
    return [play(shooter, owner, advanced, volley, rng) for owner in fleets]


def summarise(results) -> dict:
    shots = [r[1] for r in results]
    turns = [r[0] for r in results]
    return {"mean": round(statistics.mean(shots), 3), "median": statistics.median(shots),
            "mean_turns": round(statistics.mean(turns), 3),
            "think_ms_per_shot": round(1000 * sum(r[2] for r in results) / sum(shots), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run (30 fleets)")
    parser.add_argument("--fleets", type=int, default=None, help="fleets per shooter (default 5000)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    count = args.fleets or (30 if args.quick else 5000)
    rng = random.Random(args.seed)
    fleets = [uniform_fleet(rng) for _ in range(count)]
    ours = [computer_fleet(rng) for _ in range(count)]
    shooters = BASELINES + LEVELS
    plan = {}  # key -> (shooter, advanced, volley, fleets)
    for shooter in shooters:
        plan[(shooter, "standard")] = (shooter, False, 1, fleets)
        plan[(shooter, "advanced")] = (shooter, True, 1, fleets)
        plan[(shooter, "salvo")] = (shooter, False, 5, fleets)
    for shooter in BASELINES:
        plan[(shooter, "vs_computer_fleets")] = (shooter, False, 1, ours)
    chunk = max(1, count // 20)
    tasks, keys = [], []
    for key, (shooter, advanced, volley, pool) in plan.items():
        for i in range(0, count, chunk):
            tasks.append((shooter, advanced, volley, pool[i:i + chunk], args.seed + i))
            keys.append(key)
    started = time.perf_counter()
    with Pool(args.processes) as workers:
        outputs = workers.map(run_task, tasks, chunksize=1)
    merged: dict = {}
    for key, out in zip(keys, outputs):
        merged.setdefault(key, []).extend(out)
    table = {f"{s}/{m}": summarise(r) for (s, m), r in merged.items()}
    density_adv = table["density/advanced"]["mean"]
    gains = {s: round(table[f"{s}/vs_computer_fleets"]["mean"] / table[f"{s}/standard"]["mean"], 4)
             for s in BASELINES}
    hard = [table[f"hard/{m}"] for m in ("standard", "advanced", "salvo")]
    report = {
        "fleets": count,
        "seconds": round(time.perf_counter() - started, 1),
        "ratio_vs_density": round(table["hard/advanced"]["mean"] / density_adv, 4),
        "mean_standard": table["hard/standard"]["mean"],
        "mean_advanced": table["hard/advanced"]["mean"],
        "salvo_turns": table["hard/salvo"]["mean_turns"],
        "placement_density_gain": gains["density"],
        "placement_gain_per_baseline": gains,
        "think_ms_per_shot": round(max(h["think_ms_per_shot"] for h in hard), 3),
        "table": table,
    }
    report["ok"] = bool(report["ratio_vs_density"] <= 1.01 and gains["density"] >= 1.03
                        and min(gains.values()) >= 0.98 and report["think_ms_per_shot"] <= 50)
    if args.json:
        print(json.dumps(report))
    else:
        for key, row in table.items():
            print(f"{key:32s} {row}")
        print({k: v for k, v in report.items() if k != "table"})


if __name__ == "__main__":
    main()
