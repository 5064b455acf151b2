"""What a record of shots and answers says about a hidden fleet.

A record is a sequence of shots in the order they were answered, each
`(cell, result, ship)`: result "miss", "hit" or "sunk", ship the type named
(None for a miss, and for a hit in advanced mode).  A fleet *explains* a
record when every answer is what that fleet would have given: misses on
water, hits on ships (on the named type), "sunk X" on the shot that hit the
last cell of X, and no other ship with every cell hit.

`explanations` lists the ways the hidden ships can cover the hit cells (the
ships not in an explanation lie on cells not shot yet); `consistent` tells
whether any whole fleet explains the record.  The tracker uses it to refuse
impossible answers, the computer opponent to weigh its guesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Sequence

from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, masks

Shot = tuple[int, str, "str | None"]
FULL = (1 << CELLS) - 1


@dataclass(frozen=True)
class Evidence:
    """A record of shots condensed to bitmasks."""

    shot: int  # every cell answered
    miss: int
    hit: int  # hits and sinks
    named: dict  # ship -> cells answered as that ship (hit or sunk)
    sunk: dict  # ship -> (sinking cell, answer number)
    order: dict  # cell -> answer number

    @classmethod
    def of(cls, shots: Sequence[Shot]) -> "Evidence":
        shot = miss = hit = 0
        named = {name: 0 for name in NAMES}
        sunk, order = {}, {}
        for number, (cell, result, ship) in enumerate(shots):
            bit = 1 << cell
            shot |= bit
            order[cell] = number
            if result == "miss":
                miss |= bit
                continue
            hit |= bit
            if ship is not None:
                named[ship] |= bit
            if result == "sunk":
                sunk[ship] = (cell, number)
        return cls(shot, miss, hit, named, sunk, order)

    def fits(self, ship: str, mask: int) -> bool:
        """Whether `ship` lying on `mask` agrees with every answer about those cells."""
        if mask & self.miss:
            return False
        named = self.named[ship]
        if named & ~mask or any(self.named[o] & mask for o in NAMES if o != ship):
            return False
        if ship in self.sunk:
            cell, number = self.sunk[ship]
            return (mask >> cell) & 1 and not mask & ~self.hit and all(
                self.order[c] <= number for c in _bits(mask))
        return bool(mask & ~self.shot)  # afloat: some cell not hit yet


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def candidates(evidence: Evidence, through: int | None = None) -> dict[str, list[int]]:
    """Per ship, its placements that agree with the answers on their own.

    With `through`, only placements touching those cells (the hits, usually).
    """
    ev = evidence
    out = {}
    for name in NAMES:
        pool: Sequence[int] = masks(LENGTH[name])
        if through is not None:
            pool = [m for m in pool if m & through]
        if name in ev.sunk:
            out[name] = [m for m in pool if ev.fits(name, m)]
            continue
        own = ev.named[name]
        banned = ev.miss | sum(ev.named[o] for o in NAMES if o != name)
        unshot = ~ev.shot
        out[name] = [m for m in pool if not m & banned and not own & ~m and m & unshot]
    return out


def explanations(shots: Sequence[Shot], evidence: Evidence | None = None) -> Iterator[dict[str, int]]:
    """Every way to cover the hit cells with ships (ship -> mask), each exactly once.

    Sunk ships are always part of an explanation; the ships left out must lie
    wholly on cells not shot yet.  The search branches on the hit cell with
    the fewest ways to be covered, so impossible records are refuted quickly.
    """
    ev = evidence or Evidence.of(shots)
    by_cell: dict[str, dict] = {name: {} for name in NAMES}
    for name, ms in candidates(ev, ev.hit).items():
        for m in ms:
            for cell in _bits(m & ev.hit):
                by_cell[name].setdefault(cell, []).append(m)

    def cover(uncovered: int, used: int, chosen: dict) -> Iterator[dict[str, int]]:
        if not uncovered:
            if all(name in chosen for name in ev.sunk):
                yield dict(chosen)
            return
        left = [n for n in NAMES if n not in chosen]
        if uncovered.bit_count() > sum(LENGTH[n] for n in left):
            return
        best, apart = None, list[int]()  # apart: hits no single ship can cover two of
        for cell in _bits(uncovered):
            options = [(n, m) for n in left for m in by_cell[n].get(cell, ()) if not m & used]
            reach = 0
            for _, m in options:
                reach |= m
            if not any(r >> cell & 1 for r in apart):
                apart.append(reach)
            if best is None or len(options) < len(best):
                best = options
        if not best or len(apart) > len(left):
            return
        for name, m in best:
            chosen[name] = m
            yield from cover(uncovered & ~m, used | m, chosen)
            del chosen[name]

    return cover(ev.hit, 0, {})


def _place_rest(names: list[str], free: int) -> bool:
    """Whether the ships `names` fit together on the cells of `free` without overlapping."""
    if not names:
        return True
    name, rest = names[0], names[1:]
    return any(not m & ~free and _place_rest(rest, free & ~m) for m in masks(LENGTH[name]))


@lru_cache(maxsize=200_000)
def consistent(shots: tuple[Shot, ...]) -> bool:
    """Whether some whole fleet would have given exactly these answers."""
    ev = Evidence.of(shots)
    for chosen in explanations(shots, ev):
        used = 0
        for m in chosen.values():
            used |= m
        rest = sorted((n for n in NAMES if n not in chosen), key=lambda n: -LENGTH[n])
        if _place_rest(rest, FULL & ~ev.shot & ~used):
            return True
    return False
