"""Benchmark of the Ultimate Tic-Tac-Toe computer opponent.

Speed, from the empty board:

    playouts_per_s.core      >= 60,000  uniformly random playouts, the compiled core, per
                                        second of CPU time (the machine is shared: the
                                        wall-clock rate is reported beside it)
    playouts_per_s.python               the same in pure Python (the fallback; reported)
    hard_iterations_per_s               hard's search iterations (per CPU and wall second)
    hard_move_s              in [0.9, 1.2] hard's real time per move (1 s, no cap behind it)

Strength, each pairing over many games alternating who moves first, scored for
the first-named player (wins + draws / 2); the bands say "fun" for a person:

    easy_vs_random     >= 0.90          easy is no pushover: it beats random play
    easy_vs_one_ply    in [0.25, 0.85]  ... but a player who only looks one move ahead
                                        (takes a board or the game, avoids gifts) still
                                        wins or draws a good part of the games
    medium_vs_one_ply  >= 0.80          medium punishes one-move thinking
    medium_vs_easy     >= 0.75          and each level is clearly stronger than the one below
    hard_vs_medium     >= 0.85          (hard at --hard-time per move, 0.05 s by default)

Strength against an engine we did not write: bench/uttt_peer.py.

    python bench/uttt_ai.py --json            # the full run (200 games a pairing)
    python bench/uttt_ai.py --json --quick    # a smoke run (its figures do not gate)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing.pool
import random
import sys
import time
from dataclasses import replace
from multiprocessing import get_context

from companion.games.uttt import core
from companion.games.uttt.ai import LEVELS, SearchConfig, choose_move
from companion.games.uttt.playout import SplitMix64, random_playout
from companion.games.uttt.rules import BITS, DRAW, FULL, IS_WIN, ONGOING, THREATS, Engine

FLOORS = {"easy_vs_random": 0.90, "medium_vs_one_ply": 0.80, "medium_vs_easy": 0.75,
          "hard_vs_medium": 0.85}
BANDS = {"easy_vs_one_ply": (0.25, 0.85), "hard_move_s": (0.9, 1.2)}
MIN_CORE_PLAYOUTS_PER_S = 60_000

Player = SearchConfig | str  # "random" or "one_ply", else a search level


def one_ply_move(e: Engine, rng: random.Random) -> int:
    """A player who looks one move ahead: wins the game or a board if it can, else
    avoids sending the opponent where they take a board (or get a free move)."""
    moves = e.legal_moves()
    p, q = e.player, 1 - e.player
    taking = []
    for m in moves:
        b, c = divmod(m, 9)
        if IS_WIN[e.cells[p * 9 + b] | 1 << c]:
            after = e.copy()
            after.play(m)
            if after.result == p:
                return m
            taking.append(m)
    if taking:
        return rng.choice(taking)

    def gift(m: int) -> bool:
        after = e.copy()
        after.play(m)
        boards = [after.forced] if after.forced >= 0 else list(BITS[FULL & ~after.closed()])
        for d in boards:
            mine, theirs = after.cells[q * 9 + d], after.cells[p * 9 + d]
            if THREATS[mine] & FULL & ~(mine | theirs):
                return True
        return False

    quiet = [m for m in moves if not gift(m)]
    return rng.choice(quiet or moves)


def play_game(task: tuple[Player, Player, int]) -> tuple[int, list[float], list[float]]:
    """One game, X vs O; the result and each side's thinking times."""
    x, o, seed = task
    rng = random.Random(seed)
    engine = Engine()
    times: tuple[list[float], list[float]] = ([], [])
    while engine.result == ONGOING:
        player = (x, o)[engine.player]
        start = time.perf_counter()
        legal = engine.legal_moves()
        if player == "random":
            move = rng.choice(legal)
        elif player == "one_ply":
            move = one_ply_move(engine, rng)
        else:
            move = choose_move(engine, player, rng)["cell"]
        times[engine.player].append(time.perf_counter() - start)
        assert move in legal, f"illegal move {move} chosen by {player}"
        engine.play(move)
    return engine.result, times[0], times[1]


def match(pool: multiprocessing.pool.Pool, first: Player, second: Player, games: int, seed: int) -> dict:
    """`games` games of `first` against `second`, alternating X; scored for `first`."""
    tasks = [(first, second, seed + i) if i % 2 == 0 else (second, first, seed + i)
             for i in range(games)]
    wins = draws = 0
    first_times: list[float] = []
    for i, (result, x_times, o_times) in enumerate(pool.imap(play_game, tasks)):
        seat = i % 2  # the seat `first` played
        first_times += (x_times, o_times)[seat]
        if result == DRAW:
            draws += 1
        elif result == seat:
            wins += 1
    return {
        "score": round((wins + draws / 2) / games, 3),
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "games": games,
        "mean_move_s": round(sum(first_times) / max(1, len(first_times)), 4),
    }


def playout_rates(seconds: float) -> dict:
    """Random playouts from the empty board, per CPU second and per wall second."""

    def python_playouts(seconds: float) -> int:
        rng = SplitMix64(1)
        count, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            random_playout(Engine(), rng)
            count += 1
        return count

    rates = {}
    runs = {"python": python_playouts}
    if core.LIBRARY is not None:
        runs["core"] = lambda s: core.LIBRARY.uttt_random_playouts(s, 1)
    for name, run in runs.items():
        wall, cpu = time.perf_counter(), time.process_time()
        count = run(seconds)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        rates[name] = round(count / max(cpu, 1e-9))
        rates[name + "_wall"] = round(count / wall)
    return rates


def hard_timing(moves: int, seed: int) -> tuple[float, float, float]:
    """Hard's mean seconds per move at its own budget, and its iterations per wall
    second and per CPU second, over the first `moves` moves of a game against itself."""
    rng = random.Random(seed)
    engine = Engine()
    took = cpu = iterations = 0.0
    for _ in range(moves):
        stats: dict = {}
        start, cpu_start = time.perf_counter(), time.process_time()
        engine.play(choose_move(engine, "hard", rng, stats=stats)["cell"])
        took += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        iterations += stats["iterations"]
    return took / moves, iterations / took, iterations / max(cpu, 1e-9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--hard-time", type=float, default=0.05,
                        help="hard's seconds per move in hard_vs_medium")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    games = 8 if args.quick else args.games
    hard_time = 0.02 if args.quick else args.hard_time

    started = time.perf_counter()
    if core.LIBRARY is None:
        print("the UTTT core is not built (python -m companion.games.uttt.core)", file=sys.stderr)
    rates = playout_rates(0.5 if args.quick else 3.0)
    hard_move_s, hard_rate, hard_cpu_rate = hard_timing(2 if args.quick else 6, args.seed)
    easy, medium = LEVELS["easy"], LEVELS["medium"]
    hard = replace(LEVELS["hard"], time_limit=hard_time)
    plan = {
        "easy_vs_random": (easy, "random"),
        "easy_vs_one_ply": (easy, "one_ply"),
        "medium_vs_one_ply": (medium, "one_ply"),
        "medium_vs_easy": (medium, easy),
        "hard_vs_medium": (hard, medium),
    }
    pairings = {}
    with get_context("forkserver").Pool(args.processes) as pool:
        for i, (name, (first, second)) in enumerate(plan.items()):
            pairings[name] = match(pool, first, second, games, args.seed + 10_000 * i)
            print(f"{name}: {pairings[name]} after {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)
    report = {name: result["score"] for name, result in pairings.items()}
    report["hard_move_s"] = round(hard_move_s, 3)
    report["hard_iterations_per_s"] = {"cpu": round(hard_cpu_rate), "wall": round(hard_rate)}
    report["playouts_per_s"] = rates
    report["hard_time_per_move_s"] = hard_time
    report["games_per_pairing"] = games
    report["pairings"] = pairings
    report["pass"] = (
        all(report[name] >= floor for name, floor in FLOORS.items())
        and all(low <= report[name] <= high for name, (low, high) in BANDS.items())
        and rates.get("core", 0) >= MIN_CORE_PLAYOUTS_PER_S
    )
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))
    return 0 if report["pass"] or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
