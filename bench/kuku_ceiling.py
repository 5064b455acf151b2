"""How well can any player do against bench/kuku_ai.py's random baseline?  An exact computation.

The random baseline picks a uniformly random legal action: a normal attack on
any of the U unattacked cells or a bomb on any of the B products that still
have one, each with chance 1/(U + B).  Its bomb listings are random pairs, so
a bomb fails and costs it the turn (the chance that a random listing is
exactly right is at most 1/(82 x 83) per bomb: `random_bomb_error_bound`
bounds what ignoring it can change).  Its choices say nothing about its fleet,
so its ships are uniform over the unattacked cells.

The strong player puts its ships on one-cell products (1, 25, 49, 64, 81: no
bomb of its own is ever blocked) and then plays perfectly: every turn it picks
the best of bombing a product (any number of unattacked cells), a normal attack
on one cell, or attacking its own ship's cell, knowing how many enemy ships
are left.  Each cell belongs to exactly one product, so the state is the count
of products by unattacked cells (1-4), its own ships and leader, the enemy's
ships, and whose turn it is; dynamic programming over it gives the optimum
exactly, with the rules' end of game (basic: leader beats normal when both
fleets go at once, an enemy's last ship is its leader with chance 1/3; extra:
the attacker wins).  A draw counts half.  The searcher's knowledge of the
enemy's count is, if anything, more than the real game gives (a red marker on
its own sunk ship hides whether the enemy's sank there too), so this is an
upper bound for a one-cell placement.

    python bench/kuku_ceiling.py --json              # the optimum, and the AI measured against it
    python bench/kuku_ceiling.py --ai-games 0 --json # the optimum only
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import lru_cache
from math import comb

SIZE = 9
FLEET = 3


def product_sizes() -> dict[int, int]:
    """Cells per product of the 9x9 table."""
    sizes: dict[int, int] = {}
    for a in range(1, SIZE + 1):
        for b in range(1, SIZE + 1):
            sizes[a * b] = sizes.get(a * b, 0) + 1
    return sizes


SIZES = product_sizes()
ONE_CELL = sum(1 for s in SIZES.values() if s == 1)
START = tuple(sum(1 for s in SIZES.values() if s == n) for n in (1, 2, 3, 4))  # products with 1..4 cells
START = (START[0] - FLEET,) + START[1:]  # the strong player's ships take three one-cell products


def hypergeom(total: int, good: int, drawn: int, hits: int) -> float:
    return comb(good, hits) * comb(total - good, drawn - hits) / comb(total, drawn)


def tie(extra: bool, attacker_is_us: bool, our_leader: bool) -> float:
    """Both fleets gone at once: extra rule, the attacker wins; basic, leader beats normal."""
    if extra:
        return 1.0 if attacker_is_us else 0.0
    theirs_leader = 1.0 / FLEET  # by symmetry, whatever sank before
    if our_leader:
        return theirs_leader * 0.5 + (1 - theirs_leader) * 1.0
    return (1 - theirs_leader) * 0.5


def unattacked(n: tuple, m: int) -> int:
    return n[0] + 2 * n[1] + 3 * n[2] + 4 * n[3] + m


def smaller(n: tuple, s: int, cells: int) -> tuple:
    """A product with s unattacked cells loses `cells` of them."""
    n = list(n)
    n[s - 1] -= 1
    if s > cells:
        n[s - cells - 1] += 1
    return tuple(n)


def struck(extra: bool, by_us: bool, n, m, leader, k, ours_lost: int, keeps_leader: bool, theirs_lost: int):
    """The outcome of one attack: a terminal value, or the state the other side moves in."""
    m2, k2 = m - ours_lost, k - theirs_lost
    if m2 == 0 and k2 == 0:
        return tie(extra, by_us, leader)
    if k2 == 0:
        return 1.0
    if m2 == 0:
        return 0.0
    return (n, m2, keeps_leader, k2)


def our_moves(extra: bool, n, m, leader, k):
    """Every move of the strong player, as a list of (probability, outcome)."""
    u = unattacked(n, m)
    for s in (1, 2, 3, 4):
        if n[s - 1]:
            after = smaller(n, s, s)  # a bomb: every unattacked cell of the product
            yield [(hypergeom(u, k, s, j), struck(extra, True, after, m, leader, k, 0, leader, j))
                   for j in range(max(0, s - (u - k)), min(s, k) + 1)]
            if s > 1:  # a normal attack on one of its cells
                after = smaller(n, s, 1)
                yield [(p, struck(extra, True, after, m, leader, k, 0, leader, j))
                       for j, p in ((1, k / u), (0, 1 - k / u)) if p > 0]
    if m:  # its own ship's cell (a normal one while it has one)
        keeps = leader and m > 1
        yield [(p, struck(extra, True, n, m, keeps, k, 1, keeps, j)) for j, p in ((1, k / u), (0, 1 - k / u)) if p > 0]


def their_outcomes(extra: bool, n, m, leader, k):
    """The random player's turn as (probability, outcome); a failed bomb leaves the state as it is."""
    u = unattacked(n, m)
    bombable = sum(n) + m
    attack = u / (u + bombable)
    out = [(1 - attack, (n, m, leader, k))]
    q = k / u  # the attacked cell holds one of its own ships
    for s in (1, 2, 3, 4):  # a cell of another product
        if n[s - 1]:
            after = smaller(n, s, 1)
            w = attack * s * n[s - 1] / u
            out += [(w * p, struck(extra, False, after, m, leader, k, 0, leader, j))
                    for j, p in ((1, q), (0, 1 - q)) if p > 0]
    if m:  # one of the strong player's ships; the leader with chance 1/m
        for lost, pl in ((True, leader / m), (False, 1 - leader / m)):
            if pl > 0:
                w = attack * m / u * pl
                keeps = leader and not lost
                out += [(w * p, struck(extra, False, n, m, keeps, k, 1, keeps, j))
                        for j, p in ((1, q), (0, 1 - q)) if p > 0]
    return out


def solve(extra: bool):
    """(ours, theirs, random_turns): the optimum with the strong player (or the random one) to move,
    and how many turns the random player gets under the optimal play."""

    def worth(outcome, then) -> float:
        return outcome if isinstance(outcome, float) else then(*outcome)

    @lru_cache(maxsize=None)
    def ours(n, m, leader, k) -> float:
        return max(sum(p * worth(o, theirs) for p, o in move) for move in our_moves(extra, n, m, leader, k))

    @lru_cache(maxsize=None)
    def theirs(n, m, leader, k) -> float:
        out = their_outcomes(extra, n, m, leader, k)
        stay, rest = out[0][0], out[1:]  # a failed bomb: the strong player moves in the same state
        return stay * ours(n, m, leader, k) + sum(p * worth(o, ours) for p, o in rest)

    @lru_cache(maxsize=None)
    def turns(n, m, leader, k, our_turn: bool) -> float:
        if our_turn:
            best = max(our_moves(extra, n, m, leader, k),
                       key=lambda move: sum(p * worth(o, theirs) for p, o in move))
            return sum(p * turns(*o, False) for p, o in best if not isinstance(o, float))
        return 1.0 + sum(p * turns(*o, True) for p, o in their_outcomes(extra, n, m, leader, k)
                         if not isinstance(o, float))

    return ours, theirs, turns


def optimum() -> dict:
    state = (START, FLEET, True, FLEET)
    figures, random_turns = {}, 0.0
    for extra, rule in ((False, "basic"), (True, "extra")):
        ours, theirs, turns = solve(extra)
        first, second = ours(*state), theirs(*state)
        figures[rule] = {"first": round(first, 5), "second": round(second, 5), "mean": round((first + second) / 2, 5)}
        random_turns = max(random_turns, turns(*state, True), turns(*state, False))
    figures["mean"] = round((figures["basic"]["mean"] + figures["extra"]["mean"]) / 2, 5)
    return figures, random_turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ai-games", type=int, default=2000,
                        help="games of the strong AI against the random baseline to place it (0: skip)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    sys.setrecursionlimit(100_000)
    best, random_turns = optimum()
    figures = {"optimum_win_rate_vs_random": best["mean"], "optimum_by_rule_and_seat": best,
               "random_turns_per_game": round(random_turns, 2),
               "random_bomb_error_bound": round(random_turns / (82 * 83), 5),
               "required_win_rate_vs_random": 0.95}
    if args.ai_games:
        sys.path.insert(0, __file__.rsplit("/", 1)[0])
        from kuku_ai import play

        scores = [play(("random", i))["score"] for i in range(args.ai_games)]
        rate = sum(scores) / len(scores)
        figures.update(ai_games=args.ai_games, ai_win_rate_vs_random=round(rate, 4),
                       ai_distance_from_optimum=round(best["mean"] - rate, 4))
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
