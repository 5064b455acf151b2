"""Battleship shooters and placers measured against yardsticks we did not write.

Shooters, on the same N uniformly random fleets, in advanced mode (sinks
named, hits not) and standard mode (hits named):
  peer (bench/_density_peer.py: an independent probability-density shooter
  with hunt/target and checkerboard parity, sharing no code with companion),
  density (the bench's older density shooter, no parity), random,
  hunt_target, parity, and the computer's levels easy, normal, hard
  (companion.games.battleship.ai; easy and normal in advanced mode only,
  hard also in salvo).  Means with 95 % intervals; the ratio
  hard/peer is paired (same fleets), with a delta-method interval; the gain
  from named hits is advanced minus standard shots on the same fleets.

Placers: a learning shooter (the peer knowing a placer's habits from 10,000
of its fleets: per-placement frequencies and how often ships touch, see
_density_peer.Prior) against --placer-fleets fleets of our placer, divided by
the plain peer against as many fresh uniform fleets (standard mode).  Our
placer is uniform among legal fleets, so the learner has nothing true to
learn: what it learns is the noise of 10,000 samples, which can only mislead
it (`learner_ours_vs_peer_on_uniform_fleets`, paired on the same fleets,
measures that cost).  The same learner against the placer we had before
(ships never touching, the draw lowest on the density map kept among 12)
shows the learner finds a habit when there is one.

Thinking time: CPU seconds per call of the hard level (process time, so the
machine's load does not count), mean and worst; the budget is 1 s a shot on
a Raspberry Pi 4, taken as PI_SLOWER times this machine (an estimate, not
measured on a Pi).

    python bench/battleship_ai.py --json [--quick] [--fleets N] [--others M]
        [--placer-fleets K] [--train 10000] [--out FILE.jsonl]
        [--only hard/advanced,peer/advanced]   # a screen: only those plans, same fleets
    python bench/battleship_ai.py --summary FILE.jsonl

Cost: the hard level is about 8 CPU-ms a shot (it draws 1,000 fleets a
shot), 0.35 CPU-s a game; the peer and the learner about 20 ms a game.  The
hard/peer pairs run on --fleets, the other shooters on --others, so the
headline can take thousands of fleets.  Batches run interleaved, every plan
advancing alike, and --out writes each as it ends: a run stopped early is
reported by --summary from the fleets both sides of each pair finished.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only get in the way

import argparse  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from multiprocessing import get_context  # noqa: E402

import numpy as np  # noqa: E402

import _density_peer as peer  # noqa: E402
from companion.games.battleship.ai import choose_fleet, choose_shots  # noqa: E402
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, SIZE, masks, placements  # noqa: E402

LEVELS = ("easy", "normal", "hard")
BASELINES = ("random", "hunt_target", "parity", "density", "peer")
PI_SLOWER = 5.0  # a Pi 4 core against one core of this machine (estimate)
BUDGET_PI_S = 1.0  # the longest a person should wait for the computer's shot on the Pi
TARGET_RATIO = 0.97
HEADLINE = ("hard", "peer")  # the pairs measured on every fleet (--fleets); the rest on --others
HIT_WEIGHT = 30.0  # density: a placement through k unresolved hits counts 1 + HIT_WEIGHT * k


# -- fleets ------------------------------------------------------------------------------
def uniform_fleet(rng: random.Random) -> dict[int, str]:
    """Cell -> ship, uniform over all legal fleets (whole draw rejected on overlap)."""
    return {c: ship for ship, mask in _uniform_masks(rng) for c in range(CELLS) if mask >> c & 1}


def _uniform_masks(rng: random.Random) -> list[tuple[str, int]]:
    while True:
        fleet, taken = [], 0
        for ship in NAMES:
            _, _, mask = rng.choice(placements(LENGTH[ship]))
            if mask & taken:
                break
            fleet.append((ship, mask))
            taken |= mask
        else:
            return fleet


def computer_fleet(rng: random.Random) -> dict[int, str]:
    return _owner(choose_fleet(rng))


HALO = {mask: sum(1 << n for c in range(CELLS) if mask >> c & 1 for n in peer.NEAR[c]) & ~mask
        for length in set(LENGTH.values()) for mask in masks(length)}
EMPTY_SEA_DENSITY = peer.density(())[0]


def apart_fleet(rng: random.Random) -> dict[int, str]:
    """The placer we had before: no two ships touching, the lowest of 12 draws on the density map."""
    draws = []
    while len(draws) < 12:
        fleet = _uniform_masks(rng)
        taken = sum(mask for _, mask in fleet)
        if not any(HALO[mask] & taken for _, mask in fleet):
            draws.append({c: ship for ship, mask in fleet for c in range(CELLS) if mask >> c & 1})
    return min(draws, key=lambda owner: sum(EMPTY_SEA_DENSITY[c] for c in owner))


def _owner(actions) -> dict[int, str]:
    owner = {}
    for action in actions:
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


def peer_shot(record, called, rng, parity=False):
    return peer.shoot(record, rng)


BASELINE_SHOT = {"random": random_shot, "hunt_target": hunt_target_shot,
                 "parity": parity_shot, "density": density_shot, "peer": peer_shot}


# -- games -------------------------------------------------------------------------------
def answer(owner: dict[int, str], hits: dict[str, int], cell: int, advanced: bool):
    ship = owner.get(cell)
    if ship is None:
        return (cell, "miss", None)
    hits[ship] = hits.get(ship, 0) + 1
    sunk = hits[ship] == LENGTH[ship]
    return (cell, "sunk" if sunk else "hit", ship if sunk or not advanced else None)


def play(shooter, owner: dict[int, str], advanced: bool, volley: int, rng: random.Random):
    """(turns, shots, CPU seconds thinking, worst call, misses hunting, misses with a hit open)
    for one shooter against one fleet.

    `shooter`: a level, a baseline's name, or a learned `peer.Prior`.  A miss is
    "hunting" when no ship is hit and afloat (by the fleet's truth), else "with a
    hit open": the two phases' shares of a lead.
    """
    record, hits, turns, thinking, worst = (), {}, 0, 0.0, 0.0
    misses = [0, 0]
    while True:
        turns += 1
        called = {c for c, _, _ in record}
        start = time.process_time()
        if isinstance(shooter, peer.Prior):
            cells = [peer.shoot(record, rng, shooter)]
        elif shooter in LEVELS:
            cells = choose_shots(record, volley, shooter, rng)
        else:
            cells = []
            for _ in range(volley):
                cells.append(BASELINE_SHOT[shooter](record, called | set(cells), rng))
        spent = time.process_time() - start
        thinking, worst = thinking + spent, max(worst, spent)
        for cell in cells:
            hit_open = any(0 < n < LENGTH[ship] for ship, n in hits.items())
            record += (answer(owner, hits, cell, advanced),)
            misses[hit_open] += record[-1][1] == "miss"
            if sum(hits.values()) == sum(LENGTH.values()):
                return turns, len(record), thinking, worst, *misses


def run_task(task):
    """Each fleet gets its own seed, the same for every shooter and mode: a shooter's two
    modes draw the same random numbers, so they part only where their answers differ
    (named hits then cost or gain shots visibly, not buried in luck)."""
    shooter, advanced, volley, fleets, seed = task
    return [play(shooter, owner, advanced, volley, random.Random(seed + n)) for n, owner in enumerate(fleets)]


# -- figures -----------------------------------------------------------------------------
def interval(values) -> list[float]:
    """The mean's 95 % interval."""
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    mean = statistics.mean(values)
    return [round(mean - half, 3), round(mean + half, 3)]


def paired_ratio(a, b) -> dict:
    """mean(a) / mean(b) over the same fleets, with a delta-method 95 % interval."""
    r = statistics.mean(a) / statistics.mean(b)
    half = 1.96 * statistics.stdev([x - r * y for x, y in zip(a, b)]) / (len(a) ** 0.5 * statistics.mean(b))
    return {"ratio": round(r, 4), "interval": [round(r - half, 4), round(r + half, 4)]}


def ratio(a, b) -> dict:
    """mean(a) / mean(b) over different fleets, with a delta-method 95 % interval."""
    r = statistics.mean(a) / statistics.mean(b)
    rel = ((statistics.stdev(a) / statistics.mean(a)) ** 2 / len(a)
           + (statistics.stdev(b) / statistics.mean(b)) ** 2 / len(b)) ** 0.5
    return {"ratio": round(r, 4), "interval": [round(r * (1 - 1.96 * rel), 4), round(r * (1 + 1.96 * rel), 4)]}


def difference(a, b) -> dict:
    """mean(a - b) over the same fleets, with its 95 % interval."""
    d = [x - y for x, y in zip(a, b)]
    return {"shots": round(statistics.mean(d), 3), "interval": interval(d)}


def summarise(results) -> dict:
    shots = [r[1] for r in results]
    return {"mean": round(statistics.mean(shots), 3), "interval": interval(shots),
            "median": statistics.median(shots),
            "mean_turns": round(statistics.mean(r[0] for r in results), 3),
            "cpu_ms_per_call": round(1000 * sum(r[2] for r in results) / sum(r[0] for r in results), 2),
            "worst_call_ms": round(1000 * max(r[3] for r in results), 1),
            **({"misses_hunting": round(statistics.mean(r[4] for r in results), 3),
                "misses_with_a_hit_open": round(statistics.mean(r[5] for r in results), 3)}
               if all(len(r) > 4 for r in results) else {})}  # files written before the split have none


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run (20 fleets, 500 to learn from)")
    parser.add_argument("--fleets", type=int, default=None, help="fleets per shooter (default 400)")
    parser.add_argument("--placer-fleets", type=int, default=None,
                        help="fleets per placer against the learner (default 5 x --fleets: it is cheap)")
    parser.add_argument("--others", type=int, default=None,
                        help="fleets for the shooters other than hard and peer (default --fleets; "
                             "the headline pairs can then run on more fleets than the rest)")
    parser.add_argument("--train", type=int, default=None, help="fleets the learner studies (default 10000)")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", help="write each finished batch of games to FILE (JSON lines) as it ends")
    parser.add_argument("--only", help="run only these plans, e.g. hard/advanced,peer/advanced (a screen: "
                                       "the report then gives the table and the pairs it can)")
    parser.add_argument("--summary", help="report from a FILE written by --out (a run cut short too: "
                                         "pairs use the fleets both sides finished)")
    args = parser.parse_args()
    if args.summary:
        with open(args.summary) as lines:
            header, *rows = [json.loads(line) for line in lines if line.strip()]
        print(json.dumps(figures(header, rows)))
        return
    count = args.fleets or (20 if args.quick else 400)
    placer_count = args.placer_fleets or 5 * count
    others = min(count, args.others or count)
    train = args.train or (500 if args.quick else 10_000)
    rng = random.Random(args.seed)
    fleets = [uniform_fleet(rng) for _ in range(count)]
    placers = {"ours": computer_fleet, "apart": apart_fleet}
    reference = [uniform_fleet(rng) for _ in range(train)]
    learners = {name: peer.Prior.learn([placer(rng) for _ in range(train)], reference)
                for name, placer in placers.items()}
    plan = {}  # key -> (shooter, advanced, volley, fleets)
    some = fleets[:others]
    for shooter in BASELINES + ("hard",):
        plan[(shooter, "standard")] = (shooter, False, 1, fleets if shooter in HEADLINE else some)
    for shooter in BASELINES + LEVELS:
        plan[(shooter, "advanced")] = (shooter, True, 1, fleets if shooter in HEADLINE else some)
    plan[("hard", "salvo")] = ("hard", False, 5, some)
    # the placers' own fleets, and fresh uniform ones for the plain peer to measure them by
    plan[("peer", "uniform_fleets")] = ("peer", False, 1, [uniform_fleet(rng) for _ in range(placer_count)])
    for name, placer in placers.items():
        plan[(f"learner_{name}", f"{name}_fleets")] = (learners[name], False, 1,
                                                       [placer(rng) for _ in range(placer_count)])
    plan[("learner_ours", "uniform_fleets")] = (learners["ours"], False, 1, plan[("peer", "uniform_fleets")][3])
    if args.only:
        wanted = {tuple(key.split("/")) for key in args.only.split(",")}
        if wanted - plan.keys():
            parser.error(f"--only: no plan {sorted('/'.join(k) for k in wanted - plan.keys())}")
        plan = {key: value for key, value in plan.items() if key in wanted}
    tasks = []  # (key, first fleet, task)
    for key, (shooter, advanced, volley, pool) in plan.items():
        chunk = max(1, min(50, len(pool) // 10 if shooter in LEVELS else len(pool) // 4))
        for i in range(0, len(pool), chunk):  # fleet i's seed is the same in every plan
            tasks.append((key, i / len(pool), i, (shooter, advanced, volley, pool[i:i + chunk], args.seed + i)))
    # every plan advances alike (the long ones first in each round), so a run cut short still pairs
    tasks.sort(key=lambda t: (t[1], t[3][0] not in LEVELS))
    header = {"fleets": count, "other_shooters_fleets": others, "placer_fleets": placer_count,
              "learner_trained_on": train}
    started = time.perf_counter()
    done_tasks = []
    out = open(args.out, "w") if args.out else None
    if out:
        out.write(json.dumps(header) + "\n")
    with get_context("forkserver").Pool(args.processes) as workers:
        jobs = [(n, t[3]) for n, t in enumerate(tasks)]
        for done, (n, results) in enumerate(workers.imap_unordered(_indexed, jobs)):
            row = {"key": list(tasks[n][0]), "first": tasks[n][2], "results": results}
            done_tasks.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if not args.json or os.environ.get("BENCH_PROGRESS"):
                print(f"{done + 1}/{len(tasks)} {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    report = figures(header, done_tasks)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(report))
    else:
        for key, row in report["table"].items():
            print(f"{key:32s} {row}")
        print(json.dumps({k: v for k, v in report.items() if k != "table"}, indent=1))


def paired_shots(a: dict, b: dict) -> tuple[list, list]:
    """Two plans' shots on the fleets both played, fleet by fleet, from their batches
    ({first fleet: results}); a plan on fewer fleets is cut in smaller batches."""
    left, right = ({first + j: r[1] for first, batch in plan.items() for j, r in enumerate(batch)}
                   for plan in (a, b))
    common = sorted(left.keys() & right.keys())
    return [left[f] for f in common], [right[f] for f in common]


def figures(header: dict, rows: list[dict]) -> dict:
    """The report from finished batches; paired figures use the fleets both sides played."""
    by_key: dict = {}
    for row in rows:
        by_key.setdefault(tuple(row["key"]), {})[row["first"]] = row["results"]

    def results(key):
        return [r for first in sorted(by_key.get(key, {})) for r in by_key[key][first]]

    def pair(a, b):
        return paired_shots(by_key.get(a, {}), by_key.get(b, {}))

    def shots(key):
        return [r[1] for r in results(key)]

    table = {f"{s}/{m}": {**summarise(results((s, m))), "fleets": len(results((s, m)))} for s, m in by_key}
    if not {"hard/standard", "hard/advanced", "hard/salvo", "peer/advanced"} <= table.keys():  # a screen (--only)
        report = {**header, "table": table}
        if {"hard/advanced", "peer/advanced"} <= table.keys():
            report["hard_vs_peer_advanced"] = paired_ratio(*pair(("hard", "advanced"), ("peer", "advanced")))
        for s in ("hard", "peer"):
            if {f"{s}/advanced", f"{s}/standard"} <= table.keys():
                report.setdefault("named_hits_gain", {})[s] = difference(*pair((s, "advanced"), (s, "standard")))
        return report
    hard_peer = pair(("hard", "advanced"), ("peer", "advanced"))
    hard_adv = paired_ratio(*hard_peer)
    named_gain = {s: difference(*pair((s, "advanced"), (s, "standard"))) for s in ("hard", "peer", "density")}
    placement = {name: ratio(shots((f"learner_{name}", f"{name}_fleets")), shots(("peer", "uniform_fleets")))
                 for name in ("ours", "apart")}
    worst_ms = max(table[f"hard/{m}"]["worst_call_ms"] for m in ("standard", "advanced", "salvo"))
    level_means = [table[f"{lv}/advanced"]["mean"] for lv in LEVELS]
    report = {
        **header,
        "hard_vs_peer_advanced": {**hard_adv, "fleets": len(hard_peer[0])},
        "hard_vs_peer_standard": paired_ratio(*pair(("hard", "standard"), ("peer", "standard"))),
        "hard_vs_density_advanced": paired_ratio(*pair(("hard", "advanced"), ("density", "advanced"))),
        "named_hits_gain": named_gain,
        "placement_vs_learner": placement,
        "learner_ours_fleets_vs_uniform_fleets": ratio(shots(("learner_ours", "ours_fleets")),
                                                       shots(("learner_ours", "uniform_fleets"))),
        "learner_ours_vs_peer_on_uniform_fleets": paired_ratio(*pair(("learner_ours", "uniform_fleets"),
                                                                     ("peer", "uniform_fleets"))),
        "hard_cpu_ms_per_shot": table["hard/advanced"]["cpu_ms_per_call"],
        "hard_worst_call_ms": worst_ms,
        "budget_ms_here": round(1000 * BUDGET_PI_S / PI_SLOWER, 1),
        "table": table,
    }
    report["targets"] = {
        "hard_vs_peer_advanced_at_most_0.97": hard_adv["ratio"] <= TARGET_RATIO,
        "hard_vs_peer_advanced_upper_at_most_0.97": hard_adv["interval"][1] <= TARGET_RATIO,
        "named_hits_gain_positive": named_gain["hard"]["shots"] > 0,
        "named_hits_gain_interval_above_0": named_gain["hard"]["interval"][0] > 0,
        "placer_vs_learner_at_least_1": placement["ours"]["ratio"] >= 1.0,
        "hard_worst_call_within_budget": worst_ms <= report["budget_ms_here"],
        "levels_in_order": level_means == sorted(level_means, reverse=True),
    }
    report["ok"] = all(report["targets"].values())
    return report


def _indexed(job):
    i, task = job
    return i, run_task(task)


if __name__ == "__main__":
    main()
