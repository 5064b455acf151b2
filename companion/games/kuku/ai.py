"""Computer opponent for 九九戦艦 (referee mode), three levels.

It decides only from a seat view (`state.view(seat)`): its own fleet, the
shared markers and the attack records - never the opponent's fleet.  Its bomb
listings are always right (the companion is the referee).

* level 1 (random): any attack that spares its own ships; random placement.
* level 2 (greedy): bombs the product with the most unattacked cells not
  covering its own ships; random placement.
* level 3 (strong): keeps a posterior over the opponent's fleet - particles
  consistent with the markers, weighted by how likely each fleet makes the
  opponent's past choices under a model "players avoid attacking their own
  ships" (a softmax over attack sizes, its sharpness itself inferred) - and
  picks the attack with the best expected result, self-destruct included only
  when it wins or ends the game favourably, less what the opponent's likely
  reply on the board it leaves would sink of its own fleet.  It places its
  ships where few cells share their product (hard to bomb), but not always on
  the five one-cell products: that was measured (about +0.01 against random,
  +0.02 against greedy) and left out, as a child soon learns to bomb 81 first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from companion.errors import UnknownLevel
from companion.games.kuku.board import CELL_INDEX, CELLS, PRODUCTS, cells_of, value
from companion.games.kuku.rules import ship_of
from companion.i18n import Words

LEVELS = (1, 2, 3)
N_CELLS = len(CELLS)
PRODUCT_MASKS = np.array([[value(cell) == n for cell in CELLS] for n in PRODUCTS], dtype=bool)
ONE_CELL = np.eye(N_CELLS, dtype=bool)
PRODUCT_SIZE = {n: len(cells_of(n)) for n in PRODUCTS}
PLACEMENT_POWER = 3  # a cell's placing weight is 1 / (cells sharing its product) ** power
BETAS = np.array([0.0, 1.0, 3.0, 8.0])  # sharpness of the opponent model "prefers bigger attacks"


class Options:
    """The attacks available on a board: normal attacks on each unattacked cell,
    then bombs on each product with unattacked cells.  Row `i` of `masks` is the
    set of cells attack `i` hits; `sizes` counts them."""

    def __init__(self, unattacked: np.ndarray):
        self.cells = np.flatnonzero(unattacked)
        bombs = PRODUCT_MASKS & unattacked
        self.sizes_bombs = bombs.sum(axis=1)
        self.products = np.flatnonzero(self.sizes_bombs)
        self.masks = np.vstack([ONE_CELL[self.cells], bombs[self.products]])
        self.sizes = np.concatenate([np.ones(len(self.cells), int), self.sizes_bombs[self.products]])

    def __len__(self) -> int:
        return len(self.sizes)

    def action(self, i: int) -> dict:
        """The first action of attack `i`."""
        if i < len(self.cells):
            return {"type": "attack", "cell": CELLS[self.cells[i]]}
        return {"type": "bomb", "product": PRODUCTS[self.products[i - len(self.cells)]]}


def _mask(cells) -> np.ndarray:
    mask = np.zeros(N_CELLS, dtype=bool)
    mask[[CELL_INDEX[cell] for cell in cells]] = True
    return mask


@dataclass
class Knowledge:
    """What one seat knows, read from its view."""

    seat: int
    rule: str
    unattacked: np.ndarray
    own_afloat: np.ndarray  # own unsunk ship cells
    own_leader: int | None  # cell index of own unsunk leader
    remaining: tuple[int, int]  # (mine, opponent's)
    history: list[dict]

    @classmethod
    def from_view(cls, view: dict) -> "Knowledge":
        seat = view["seat"]
        attacked = _mask(view["markers"])
        ships = [ship_of(token) for token in view["fleet"] if token not in view["sunk"]]
        leader = next((CELL_INDEX[cell] for kind, cell in ships if kind == "leader"), None)
        return cls(
            seat=seat,
            rule=view["rule"],
            unattacked=~attacked,
            own_afloat=_mask(cell for _, cell in ships),
            own_leader=leader,
            remaining=(view["remaining"][seat], view["remaining"][1 - seat]),
            history=view["history"],
        )

    def safe_choices(self, options: Options) -> np.ndarray:
        """Indices of the attacks that sink none of my ships (all of them if none is safe)."""
        safe = np.flatnonzero(~(options.masks & self.own_afloat).any(axis=1))
        return safe if len(safe) else np.arange(len(options))


class KukuAI:
    """A computer player: `act(view)` returns the next action for `view["seat"]`."""

    def __init__(self, level: int = 3, rng: random.Random | None = None, particles: int = 512):
        if level not in LEVELS:
            raise UnknownLevel(Words("play.unknown_level", level=repr(level), levels=list(LEVELS)))
        self.level = level
        self.rng = rng or random.Random()
        self.particles = particles

    def act(self, view: dict) -> dict:
        phase = view["phase"]
        if phase == "place":
            return self._place(view)
        if phase == "list":
            return self._say(view["bomb"])
        if phase == "play":
            return self.choose(Knowledge.from_view(view))
        raise ValueError(f"the computer does not act in phase {phase!r} (referee mode only)")

    # ---------------------------------------------------------------- set-up
    def _place(self, view: dict) -> dict:
        placed = [ship_of(token) for token in view["fleet"]]
        kind = "leader" if all(kind != "leader" for kind, _ in placed) else "normal"
        free = [cell for cell in CELLS if cell not in {cell for _, cell in placed}]
        if self.level < 3:
            return {"type": "place", "kind": kind, "cell": self.rng.choice(free)}
        # hard to bomb, and blocking none of its own big bombs: few cells share the
        # product; the leader hides best of all
        power = PLACEMENT_POWER + (kind == "leader")
        weights = [PRODUCT_SIZE[value(cell)] ** -power for cell in free]
        return {"type": "place", "kind": kind, "cell": self.rng.choices(free, weights)[0]}

    @staticmethod
    def _say(bomb: dict) -> dict:
        missing = [cell for cell in cells_of(bomb["product"]) if cell not in bomb["listing"]]
        return {"type": "say", "pair": missing[0]} if missing else {"type": "done"}

    # ---------------------------------------------------------------- the turn
    def choose(self, known: Knowledge) -> dict:
        """The first action of the attack this level makes now."""
        options = Options(known.unattacked)
        if self.level == 3:
            return options.action(self._best(known, options))
        safe = known.safe_choices(options)
        if self.level == 2:
            safe = safe[options.sizes[safe] == options.sizes[safe].max()]
        return options.action(int(self.rng.choice(list(safe))))

    def _best(self, known: Knowledge, options: Options) -> int:
        gen = np.random.default_rng(self.rng.getrandbits(64))
        fleets, weights, sharpness = opponent_posterior(known, self.particles, gen)
        scores = score_options(known, options, fleets, weights, gen)
        scores -= EXPOSURE_WEIGHT * exposure(known, options, sharpness)
        scores -= SELF_SINK_PENALTY * (options.masks & known.own_afloat).sum(axis=1)
        return int(self.rng.choice(list(np.flatnonzero(scores >= scores.max() - 1e-9))))


# ------------------------------------------------------------------ inference
def opponent_posterior(known: Knowledge, count: int, gen: np.random.Generator):
    """Particles for the opponent's afloat ships (particles × ships, cell indices),
    their normalised weights, and the posterior over BETAS.

    Prior: the afloat ships lie uniformly on distinct unattacked cells.  Each
    of the opponent's past attacks weighs a fleet by P(choice | fleet) under a
    softmax over attack sizes restricted to attacks that spare that fleet,
    averaged over the softmax sharpness BETAS.
    """
    free = np.flatnonzero(known.unattacked)
    k = min(known.remaining[1], len(free))
    fleets = free[np.argsort(gen.random((count, len(free))), axis=1)[:, :k]]
    loglik = np.zeros((count, len(BETAS)))
    for unattacked, sunk_later, chosen_size in _opponent_choices(known):
        options = Options(unattacked)
        masks, sizes = options.masks, options.sizes.astype(float)
        known_block = (masks & sunk_later).any(axis=1)
        spared = ~(masks.T[fleets].any(axis=1) | known_block)  # particles × options
        z = spared @ np.exp(np.outer(sizes - sizes.max(), BETAS))
        loglik += BETAS * (chosen_size - sizes.max()) - np.log(z)
    joint = np.exp(loglik - loglik.max())
    weights, sharpness = joint.sum(axis=1), joint.sum(axis=0)
    return fleets, weights / weights.sum(), sharpness / sharpness.sum()


def _opponent_choices(known: Knowledge):
    """(unattacked before, opponent ships sunk after, size) for each of the opponent's
    successful attacks that sank none of its own ships."""
    opponent = 1 - known.seat
    unattacked = np.ones(N_CELLS, dtype=bool)
    sunk_after = _mask(cell for record in known.history for cell in record["hits"][opponent])
    for record in known.history:
        cells = _mask(record["cells"])
        sank_own = _mask(record["hits"][opponent])
        sunk_after &= ~sank_own
        if record["by"] == opponent and cells.any() and not sank_own.any():
            yield unattacked.copy(), sunk_after.copy(), int(cells.sum())
        unattacked &= ~cells


# ------------------------------------------------------------------ evaluation
EXPLORE_WEIGHT = 0.004  # per cell attacked: what it reveals
EXPOSURE_WEIGHT = 0.3  # per own ship the opponent's expected reply sinks (tuned with bench/kuku_ai.py)
SELF_SINK_PENALTY = 0.25  # per own ship an attack sinks: self-destruct only for a clear gain


def score_options(known: Knowledge, options: Options, fleets, weights, gen) -> np.ndarray:
    """Expected result of each option: 1 win, 0 loss, ½ draw; when play goes on,
    my share of the ships still afloat, plus a little for the cells it explores."""
    masks = options.masks
    mine, theirs = known.remaining
    own_hit = (masks & known.own_afloat).sum(axis=1)  # options
    their_hit = masks.T[fleets].sum(axis=1)  # particles × options
    my_left = mine - own_hit[None, :]
    their_left = theirs - their_hit
    value = np.where(my_left > 0, my_left / np.maximum(my_left + their_left, 1), 0.0)
    both_gone = (my_left == 0) & (their_left == 0)
    if known.rule == "extra":
        value = np.where(both_gone, 1.0, value)
    elif both_gone.any():
        value = np.where(both_gone, _leader_duel(known, masks, fleets, gen), value)
    explore = masks.sum(axis=1) * EXPLORE_WEIGHT
    return weights @ value + explore


def exposure(known: Knowledge, options: Options, sharpness: np.ndarray) -> np.ndarray:
    """How many of my ships the opponent's reply is expected to sink after each option,
    under the same model (softmax over attack sizes; its own ships ignored)."""
    left = known.unattacked & ~options.masks  # options × cells
    mine = left & known.own_afloat
    sizes = left.astype(np.int32) @ PRODUCT_MASKS.T.astype(np.int32)  # options × products
    hits = mine.astype(np.int32) @ PRODUCT_MASKS.T.astype(np.int32)
    singles, single_hits = left.sum(axis=1), mine.sum(axis=1)
    expected = np.zeros(len(options))
    for beta, share in zip(BETAS, sharpness):
        top = max(int(sizes.max()), 1)
        w = np.where(sizes > 0, np.exp(beta * (sizes - top)), 0.0)
        one = np.exp(beta * (1 - top))
        z = singles * one + w.sum(axis=1)
        expected += share * (single_hits * one + (w * hits).sum(axis=1)) / np.maximum(z, 1e-300)
    return expected


def _leader_duel(known: Knowledge, masks, fleets, gen) -> np.ndarray:
    """My result when both fleets sink at once under the basic rule (particles × options)."""
    mine_leader = masks[:, known.own_leader] if known.own_leader is not None else np.zeros(len(masks), bool)
    # the opponent's sunk ships' kinds are hidden: its leader is afloat with chance afloat/3
    count, afloat = fleets.shape
    has_leader = gen.random(count) < afloat / 3
    leader_cell = fleets[np.arange(count), gen.integers(afloat, size=count)]
    their_leader = has_leader[:, None] & masks.T[leader_cell]
    return np.where(mine_leader[None, :] == their_leader, 0.5, np.where(mine_leader[None, :], 1.0, 0.0))
