"""The battle table of 軍艦将棋「戦略大海戦」 as small pure functions (docs/rules.md §gunkan).

The sensing/UI layer calls these directly:

- `judge_identified(attacker, defender, counterweight)`: calibrated pans have
  recognised both pieces' classes; the written table is applied in full.
- `judge_seesaw(comparison, counterweight)`: only which pan went down is known,
  exactly like the wooden seesaw (ship against ship).
- `judge_mine(minesweeper)`: the defender showed a mine; did the attacker show a 5?

Each returns a `Ruling`: a verdict key, or no verdict and a `redo` key saying
what the players must do before weighing again.
"""

from __future__ import annotations

from dataclasses import dataclass

# Ships from strongest (rank 1) to weakest (rank 7); heavier is stronger.
SHIPS = ("carrier", "battleship", "cruiser", "destroyer", "minesweeper", "submarine", "landing_ship")
RANK = {ship: rank for rank, ship in enumerate(SHIPS, 1)}
PIECES = SHIPS + ("mine", "port")
FLEET = {"carrier": 1, "battleship": 2, "cruiser": 3, "destroyer": 4, "minesweeper": 3,
         "submarine": 1, "landing_ship": 1, "mine": 5, "port": 1}  # 21 a side
SHIPS_PER_SIDE = sum(FLEET[ship] for ship in SHIPS)  # 15
COUNTERWEIGHT = "counterweight"  # one for the whole game, only on an attacking submarine

DECLARATIONS = ("ship", "mine", "port")  # what the defender announces
COMPARISONS = ("attacker_heavier", "defender_heavier", "balanced")
VERDICTS = ("attacker_wins", "defender_wins", "both_removed",
            "mine_cleared", "both_destroyed_by_mine", "port_captured")
REDOS = ("remove_counterweight", "counterweight_not_allowed")

# What each side takes off the board after a verdict: (attacker, defender); None = nothing.
REMOVALS = {
    "attacker_wins": (None, "defending_piece"),
    "defender_wins": ("attacking_piece", None),
    "both_removed": ("attacking_piece", "defending_piece"),
    "mine_cleared": (None, "mine"),
    "both_destroyed_by_mine": ("attacking_piece", "mine"),
    "port_captured": (None, None),
}

_RANK_GLYPHS = "①②③④⑤⑥⑦"  # the seed's own spelling of ranks ("②戦艦")


def rank_label(ship: str) -> str:
    """A ship's rank as views spell it: "①" … "⑦"."""
    return _RANK_GLYPHS[RANK[ship] - 1]


def declaration_of(piece: str) -> str:
    """What a defender holding `piece` declares: "ship", "mine" or "port"."""
    return "ship" if piece in RANK else piece


@dataclass(frozen=True)
class Ruling:
    """A verdict (a `VERDICTS` key), or None and a `REDOS` key saying what to redo.

    redo "remove_counterweight": the counterweight was on and the pans did not
    balance, so the battle is the bare submarine's: take it off, weigh again.
    redo "counterweight_not_allowed": the counterweight sits on an attacker that
    is not a submarine: refuse the battle, re-place the pieces, weigh again.
    """

    verdict: str | None = None
    redo: str | None = None


def judge_mine(minesweeper: bool) -> Ruling:
    """A ship attacked a mine: a minesweeper clears it, any other ship dies with it."""
    return Ruling("mine_cleared" if minesweeper else "both_destroyed_by_mine")


def judge_identified(attacker: str, defender: str, counterweight: bool = False) -> Ruling:
    """The verdict for identified classes (`SHIPS` attacker, `PIECES` defender).

    A submarine attacking the carrier wins with or without the counterweight (the
    companion knows both pieces; the counterweight is only the wooden seesaw's way
    of showing it).  The counterweight on any other attacker is refused.
    """
    if attacker not in RANK or defender not in FLEET:
        raise ValueError(f"not a gunkan attacker/defender: {attacker!r}/{defender!r}")
    if counterweight and attacker != "submarine":
        return Ruling(redo="counterweight_not_allowed")
    if defender == "port":
        return Ruling("port_captured")
    if defender == "mine":
        return judge_mine(attacker == "minesweeper")
    if (attacker, defender) == ("submarine", "carrier"):
        return Ruling("attacker_wins")
    stronger = RANK[defender] - RANK[attacker]  # > 0: the attacker has the lower rank
    return Ruling("attacker_wins" if stronger > 0 else "defender_wins" if stronger < 0 else "both_removed")


def judge_seesaw(comparison: str, counterweight: bool = False) -> Ruling:
    """The verdict of the wooden seesaw, ship against ship.

    Heavier wins, balance removes both.  With the counterweight on, balance means
    "6 attacked 1" (the submarine wins); no balance means the counterweight must
    come off and the bare submarine is weighed again (docs/rules.md §gunkan, our ruling).
    """
    if comparison not in COMPARISONS:
        raise ValueError(f"not a seesaw comparison: {comparison!r}; one of {COMPARISONS}")
    if counterweight:
        return Ruling("attacker_wins") if comparison == "balanced" else Ruling(redo="remove_counterweight")
    return Ruling({"attacker_heavier": "attacker_wins", "defender_heavier": "defender_wins",
                   "balanced": "both_removed"}[comparison])
