"""How often can any sweep beat bench/kuku_ai.py's random baseline?  An idealised race.

The random baseline picks a uniformly random legal action: a normal attack on
any unattacked cell or a bomb on any product still bombable, and its bomb
listings are nearly always wrong, so a bomb costs it the turn.  Its choices say
nothing about its fleet, so the strong player can only search: it bombs the
products in order of size, the fastest way to cover the board (the order
hardly matters: smallest first or shuffled came within 0.003 of it).

This race gives the searcher every benefit: its ships sit on one-cell
products (no bomb of its own is ever blocked), it never sinks its own ship,
an enemy ship on one of its own cells counts as found, and the baseline's
bombs always fail.  Whatever it wins is an upper bound for a searcher against
this baseline: the real AI's `win_rate_vs_random` cannot be expected above it.

    python bench/kuku_ceiling.py --json     # 50,000 races, first player alternating
"""

from __future__ import annotations

import argparse
import json
import random

from companion.games.kuku.board import CELLS, PRODUCTS, cells_of

FLEET_SIZE = 3
CELLS_OF = {n: frozenset(cells_of(n)) for n in PRODUCTS}
ONE_CELL_PRODUCTS = [n for n in PRODUCTS if len(CELLS_OF[n]) == 1]


def race(rng: random.Random, searcher_first: bool) -> int:
    """1 if the idealised searcher sinks the random player's fleet first, else 0."""
    mine = set(rng.sample([cells_of(n)[0] for n in ONE_CELL_PRODUCTS], FLEET_SIZE))
    theirs = set(rng.sample(CELLS, FLEET_SIZE)) - mine
    sweep = sorted((n for n in PRODUCTS if not mine & CELLS_OF[n]), key=lambda n: (-len(CELLS_OF[n]), rng.random()))
    unattacked = set(CELLS)
    searching = searcher_first
    while True:
        if searching:
            bombed = CELLS_OF[sweep.pop(0)]
            unattacked -= bombed
            theirs -= bombed
        else:
            cells = sorted(unattacked)
            bombable = sum(not group.isdisjoint(unattacked) for group in CELLS_OF.values())
            pick = rng.randrange(len(cells) + bombable)
            if pick < len(cells):  # a normal attack; anything else is a failed bomb
                unattacked.discard(cells[pick])
                mine.discard(cells[pick])
                theirs.discard(cells[pick])
                if not mine:
                    return 0
        if not theirs:
            return 1
        searching = not searching


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    wins = sum(race(rng, i % 2 == 0) for i in range(args.races))
    figures = {"races": args.races, "idealised_win_rate_vs_random": round(wins / args.races, 4),
               "required_win_rate_vs_random": 0.95}
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
