"""Benchmark of the 九九戦艦 computer opponent.

The strongest level (3) plays, through the real rules engine in referee mode,
the greedy baseline (level 2: always bombs the product with the most
unattacked cells not covering its own ships) and the random baseline (a
uniformly random legal action at every step, as in the rules' random
playouts).  `--random-attacker` adds a tougher random player whose every turn
is a real attack.  First player alternates every game, and the basic / extra
rule alternates every two games.  A draw counts as half a win.

    python bench/kuku_ai.py --json          # 2,000 games per baseline
    python bench/kuku_ai.py --quick --json  # smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from multiprocessing import get_context

from companion.games.kuku.ai import KukuAI, Options
from companion.games.kuku.rules import GAME

STRONG = 3


class RandomLegal:
    """The random baseline: a uniformly random legal action at every step
    (placement, attack, bomb, every pair of a listing), like the rules' own
    random playouts.  Its bomb listings are therefore nearly always wrong."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def act_on(self, state) -> dict:
        return self.rng.choice(state.legal_actions())


class RandomAttacker(KukuAI):
    """A stronger random baseline: any available attack, uniformly, listed right,
    even one that sinks its own ships; random placement."""

    def __init__(self, rng: random.Random):
        super().__init__(level=1, rng=rng)

    def choose(self, known) -> dict:
        options = Options(known.unattacked)
        return options.action(self.rng.randrange(len(options)))


OPPONENTS = {"greedy": lambda rng: KukuAI(2, rng), "random": RandomLegal, "random_attacker": RandomAttacker}
DEFAULT_OPPONENTS = ("greedy", "random")


def play(job: tuple[str, int]) -> dict:
    """One game of level 3 against `opponent`; `index` fixes seats, rule and seed."""
    opponent, index = job
    strong_seat = index % 2
    rule = ("basic", "extra")[(index // 2) % 2]
    rng = random.Random(f"{opponent}-{index}")
    players = {strong_seat: KukuAI(STRONG, rng), 1 - strong_seat: OPPONENTS[opponent](rng)}
    state = GAME.new_state({"rule": rule, "first": 0})
    thinks = []
    cpu = time.process_time()
    while not state.is_over():
        seat = state.to_move()
        if isinstance(players[seat], RandomLegal):
            state = state.apply(players[seat].act_on(state))
            continue
        view = state.view(seat)
        started = time.perf_counter()
        action = players[seat].act(view)
        if seat == strong_seat and view["phase"] == "play":
            thinks.append(time.perf_counter() - started)
        state = state.apply(action)
    outcome = state.outcome()
    return {
        "opponent": opponent,
        "rule": rule,
        "score": outcome.scores[strong_seat],
        "turns": len(state.history),
        "think": thinks,
        "cpu": time.process_time() - cpu,
    }


def summarise(results: list[dict], games: int, seconds: float, workers: int, opponents) -> dict:
    summary = {
        "games_per_opponent": games,
        "draws_count_as": 0.5,
        "first_player": "alternates every game (the strong AI starts half of them)",
        "rules": "basic and extra alternate every two games",
        "wall_seconds": round(seconds, 1),
        "workers": workers,
        # the machine may be shared: CPU time over 2 cores is the wall time an idle 2-core machine needs
        "cpu_seconds_in_games": round(sum(r["cpu"] for r in results), 1),
        "idle_2_core_wall_seconds_estimate": round(sum(r["cpu"] for r in results) / 2, 1),
    }
    for name in opponents:
        mine = [r for r in results if r["opponent"] == name]
        summary[f"win_rate_vs_{name}"] = round(sum(r["score"] for r in mine) / len(mine), 4)
        for rule in ("basic", "extra"):
            ruled = [r["score"] for r in mine if r["rule"] == rule]
            summary[f"win_rate_vs_{name}_{rule}"] = round(sum(ruled) / len(ruled), 4)
        summary[f"mean_turns_vs_{name}"] = round(sum(r["turns"] for r in mine) / len(mine), 2)
    thinks = [t for r in results for t in r["think"]]
    summary["mean_turns_per_game"] = round(sum(r["turns"] for r in results) / len(results), 2)
    summary["mean_think_ms_per_move"] = round(1000 * sum(thinks) / len(thinks), 3)
    summary["max_think_ms_per_move"] = round(1000 * max(thinks), 3)
    summary["thresholds"] = {"win_rate_vs_greedy": 0.55, "win_rate_vs_random": 0.95}
    summary["pass"] = summary["win_rate_vs_greedy"] >= 0.55 and summary["win_rate_vs_random"] >= 0.95
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games against each baseline")
    parser.add_argument("--quick", action="store_true", help="a 100-game smoke run")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--random-attacker", action="store_true", help="also play a random player whose every attack is real"
    )
    args = parser.parse_args()
    games = 100 if args.quick else args.games
    opponents = DEFAULT_OPPONENTS + (("random_attacker",) if args.random_attacker else ())
    jobs = [(name, i) for name in opponents for i in range(games)]
    started = time.perf_counter()
    if args.workers > 1:
        with get_context("forkserver").Pool(args.workers) as pool:
            results = pool.map(play, jobs, chunksize=16)
    else:
        results = [play(job) for job in jobs]
    summary = summarise(results, games, time.perf_counter() - started, args.workers, opponents)
    if args.json:
        print(json.dumps(summary))
    else:
        for key, figure in summary.items():
            print(f"{key}: {figure}")


if __name__ == "__main__":
    main()
