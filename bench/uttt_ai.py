"""Benchmark of the Ultimate Tic-Tac-Toe computer opponent.

Plays each pairing over many games, alternating who moves first, and scores
the first-named player (wins + draws / 2):

    easy_vs_random     >= 0.90
    medium_vs_easy     >= 0.80
    hard_vs_medium     >= 0.70   (also gives hard_move_s, mean <= 1.0 s)
    hard_vs_reference  >= 0.60   plain UCT with random playouts, same time per move

and measures random playouts per second of the bitboard engine against the
straightforward list-based implementation (ratio_vs_naive >= 3).

    python bench/uttt_ai.py --json            # the full run (200 games a pairing)
    python bench/uttt_ai.py --json --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from multiprocessing import Pool

from companion.games.uttt.ai import LEVELS, REFERENCE, SearchConfig, choose_move
from companion.games.uttt.ai_naive import NaiveBoard
from companion.games.uttt.ai_naive import random_playout as naive_playout
from companion.games.uttt.playout import legal_moves, random_playout
from companion.games.uttt.rules import DRAW, ONGOING, Engine

THRESHOLDS = {
    "easy_vs_random": 0.90,
    "medium_vs_easy": 0.80,
    "hard_vs_medium": 0.70,
    "hard_vs_reference": 0.60,
}
MAX_HARD_MOVE_S = 1.0
MIN_RATIO_VS_NAIVE = 3.0

Player = SearchConfig | None  # None: uniformly random moves


def play_game(task: tuple[Player, Player, int]) -> tuple[int, list[float], list[float]]:
    """One game, X vs O; the result and each side's thinking times."""
    x, o, seed = task
    rng = random.Random(seed)
    engine = Engine()
    times: tuple[list[float], list[float]] = ([], [])
    while engine.result == ONGOING:
        player = (x, o)[engine.player]
        start = time.perf_counter()
        legal = list(legal_moves(engine))
        move = rng.choice(legal) if player is None else choose_move(engine, player, rng)["cell"]
        times[engine.player].append(time.perf_counter() - start)
        assert move in legal, f"illegal move {move} chosen by {player}"
        engine.play(move)
    return engine.result, times[0], times[1]


def match(pool: Pool, first: Player, second: Player, games: int, seed: int) -> dict:
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


def playouts_per_second(make, playout, seconds: float) -> float:
    rng = random.Random(1)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(make(), rng)
        count += 1
    return count / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--reference-time", type=float, default=0.05,
                        help="seconds per move for both hard and the reference UCT")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    games = 8 if args.quick else args.games
    ref_time = 0.02 if args.quick else args.reference_time

    started = time.perf_counter()
    fast = playouts_per_second(Engine, random_playout, 0.5 if args.quick else 3.0)
    naive = playouts_per_second(NaiveBoard, naive_playout, 0.5 if args.quick else 3.0)
    easy, medium, hard = LEVELS["easy"], LEVELS["medium"], LEVELS["hard"]
    timed_hard = replace(hard, iterations=None, time_limit=ref_time)
    reference = replace(REFERENCE, time_limit=ref_time)
    plan = {
        "easy_vs_random": (easy, None),
        "medium_vs_easy": (medium, easy),
        "hard_vs_medium": (hard, medium),
        "hard_vs_reference": (timed_hard, reference),
    }
    pairings = {}
    with Pool(args.processes) as pool:
        for i, (name, (first, second)) in enumerate(plan.items()):
            pairings[name] = match(pool, first, second, games, args.seed + 10_000 * i)
            print(f"{name}: {pairings[name]} after {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)
    report = {name: result["score"] for name, result in pairings.items()}
    report["hard_move_s"] = pairings["hard_vs_medium"]["mean_move_s"]
    report["playouts_per_s"] = {
        "fast": round(fast), "naive": round(naive), "ratio_vs_naive": round(fast / naive, 2),
    }
    report["reference_time_per_move_s"] = ref_time
    report["games_per_pairing"] = games
    report["pairings"] = pairings
    report["pass"] = (
        all(report[name] >= floor for name, floor in THRESHOLDS.items())
        and report["hard_move_s"] <= MAX_HARD_MOVE_S
        and report["playouts_per_s"]["ratio_vs_naive"] >= MIN_RATIO_VS_NAIVE
    )
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(report))
    else:
        print(json.dumps(report, indent=2))
    return 0 if report["pass"] or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
