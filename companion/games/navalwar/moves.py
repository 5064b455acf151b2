"""Naval War: the legal actions at the current decision (`todo[0]` of the table).

Every action is a JSON object `{"type": kind, ...fields}`; `ship` is always a ship
card's id, `fleet` a seat whose fleet is meant, `card` an action card's key:

chance (`to_move() == CHANCE`)
  `{"type": "first", "seat": s}`        who plays first in round 1
  `{"type": "deal", "ship": id}`        a ship card dealt, or taken by an additional ship
  `{"type": "draw", "card": "hidden"}`  a black card drawn into a hand, identity unknown
  `{"type": "draw", "card": key}`       a red card drawn (shown, to be played at once)
  `{"type": "die", "value": 1..6}`      a die roll
players
  `{"type": "play", "card": key, ...}`  play a card; its target is `"ship": id` (with
                                        `"salvo": i` for additional damage and repair),
                                        `"fleet": s` (minefield) or `"squadron": n`;
                                        none for the others
  `{"type": "discard", "card": key}`    discard a card (a red one only when it cannot be played)
  `{"type": "no_red"}`                  first turn: no red card left in the hand
  `{"type": "choose", "turn": t}`       a normal turn: `t` "draw", or "air_strike" with the
                                        carriers instead
  `{"type": "strike", "ship": id}`      the next carrier's target
  `{"type": "attack", "fleet": s}`      the fleet a destroyer squadron attacks
  `{"type": "sink", "ship": id}`        a ship the squadron's owner picks to sink
"""

from __future__ import annotations

from companion.games.navalwar.data import Composition, card_type, salvo_calibre
from companion.games.navalwar.table import (
    active,
    carriers_afloat,
    calibres_afloat,
    enemy_targets,
    exposed,
    hidden_split,
    unseen,
    unseen_by_colour,
)

CHANCE_KINDS = {"first", "deal", "harbour", "draw", "die"}
DIE = [{"type": "die", "value": n} for n in range(1, 7)]


def card_plays(t: dict, comp: Composition, seat: int, key: str, stage: bool) -> list[dict]:
    """Every way `seat` may play the card `key` now (empty: it can only be discarded)."""
    kind = card_type(key)
    if kind == "salvo":
        if salvo_calibre(key) not in calibres_afloat(t, comp, seat):
            return []
        return ([{"type": "play", "card": key, "ship": s} for s in enemy_targets(t, comp, seat, smoke_blocks=True)]
                + [{"type": "play", "card": key, "squadron": q["n"]} for q in t["squadrons"] if q["owner"] != seat])
    if kind == "additional_damage":
        if stage:
            return []  # RULES §3: simply discarded during the first turn
        return [{"type": "play", "card": key, "ship": e["id"], "salvo": i}
                for other in active(t) if other != seat
                for e in t["fleets"][other] if e["id"] in exposed(t, comp, other)  # the carrier screen
                for i in range(len(e["salvos"]))]
    if kind == "minefield":
        return [{"type": "play", "card": key, "fleet": other} for other in active(t)
                if other != seat and not t["smoke"][other]
                and not (stage and other in t["stage_mined"])]
    if kind in ("submarine", "torpedo_boat"):
        smoke_blocks = kind == "torpedo_boat"
        return [{"type": "play", "card": key, "ship": s} for s in enemy_targets(t, comp, seat, smoke_blocks)]
    if kind == "additional_ship":
        return [{"type": "play", "card": key}] if t["harbour"] else []
    if kind == "minesweeper":
        return [{"type": "play", "card": key}] if t["mines"][seat] else []
    if kind == "repair":
        return [{"type": "play", "card": key, "ship": e["id"], "salvo": i}
                for e in t["fleets"][seat] for i in range(len(e["salvos"]))]
    return [{"type": "play", "card": key}]  # smoke, destroyer squadron


def red_card_options(t: dict, comp: Composition, seat: int, key: str, stage: bool) -> list:
    """A red card in play: its plays, or discarding it when it has none."""
    return card_plays(t, comp, seat, key, stage) or [{"type": "discard", "card": key}]


def draw_outcomes(t: dict, comp: Composition) -> list[dict]:
    """What the top card of the drawing pile can be, given what has been seen."""
    if t["draw"] <= 0:
        return []
    known_black, _ = hidden_split(t)
    _, black = unseen_by_colour(t, comp)
    outcomes = [{"type": "draw", "card": "hidden"}] if black > known_black else []
    return outcomes + [{"type": "draw", "card": k} for k in comp.red_keys if unseen(t, comp, k) > 0]


def _stage_hand(t: dict, comp: Composition, seat: int, only: str | None) -> list:
    keys = [k for k in comp.red_keys if unseen(t, comp, k) > 0]
    options: list = []
    for key in keys:
        if only is None or key == only:
            options += red_card_options(t, comp, seat, key, stage=True)
    known_black, _ = hidden_split(t)
    _, black = unseen_by_colour(t, comp)
    if only is None and black >= known_black + t["hands"][seat]["unknown"]:
        options.append({"type": "no_red"})
    return options


def _hand_play(t: dict, comp: Composition, seat: int, only: str | None) -> list:
    keys = [k for k in comp.black_keys if unseen(t, comp, k) > 0]
    options: list = []
    for key in keys:
        if only is None or key == only:
            options += card_plays(t, comp, seat, key, stage=False)
    if only is None:
        options += [{"type": "discard", "card": k} for k in keys]
    return options


def can_air_strike(t: dict, comp: Composition, seat: int) -> bool:
    return bool(carriers_afloat(t, comp, seat)) and bool(enemy_targets(t, comp, seat, True))


def attackable_fleets(t: dict, seat: int) -> list[int]:
    """Fleets a destroyer squadron of `seat` may attack (smoke blocks it)."""
    return [s for s in active(t) if s != seat and not t["smoke"][s]]


def options(d: dict, comp: Composition, only: str | None = None) -> list:
    """Every legal action at the current decision.

    `only` (a card key) narrows plays to that card, to check one action quickly.
    """
    t = d["table"]
    if not t["todo"]:
        return []
    item = t["todo"][0]
    kind = item["kind"]
    seat = d["seat"]
    stage = d["phase"] == "stage"
    if kind == "first":
        return [{"type": "first", "seat": s} for s in range(d["options"]["players"])]
    if kind in ("deal", "harbour"):
        return [{"type": "deal", "ship": s} for s in t["harbour"]]
    if kind == "draw":
        return draw_outcomes(t, comp)
    if kind == "die":
        return list(DIE)
    if kind == "stage_hand":
        return _stage_hand(t, comp, seat, only)
    if kind == "red":
        return red_card_options(t, comp, seat, item["card"], stage)
    if kind == "play":
        return _hand_play(t, comp, seat, only)
    if kind == "choose":
        return [{"type": "choose", "turn": turn} for turn in ("draw", "air_strike")]
    if kind == "strike":
        return [{"type": "strike", "ship": s} for s in enemy_targets(t, comp, seat, smoke_blocks=True)]
    if kind == "squadron":
        return [{"type": "attack", "fleet": s} for s in attackable_fleets(t, seat)]
    if kind == "pick":
        return [{"type": "sink", "ship": s} for s in exposed(t, comp, item["seat"])]
    raise AssertionError(f"unknown decision {kind!r}")
