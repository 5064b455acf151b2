"""Naval War: the legal actions at the current decision (`todo[0]` of the table).

Every action is a plain JSON value:

chance (`to_move() == CHANCE`)
  `{"first": seat}`           who plays first in round 1
  `{"ship": id}`              a ship card dealt, or taken by an additional ship
  `{"drew": "hidden"}`        a black card drawn into a hand, identity unknown
  `{"drew": key}`             a red card drawn (shown, to be played at once)
  `{"die": 1..6}`             a die roll
players
  `{"play": key, ...}`        play a card; the target is `"ship": id` (with `"salvo": i`
                              for additional damage and repair), `"fleet": seat`
                              (minefield) or `"squadron": n`; none for the others
  `{"discard": key}`          discard a card (a red card only when it cannot be played)
  `"no_red"`                  first turn: no red card left in the hand
  `"draw"` / `"air_strike"`   a normal turn: draw, or strike with the carriers instead
  `{"strike": id}`            the next carrier's target
  `{"attack": seat}`          the fleet a destroyer squadron attacks
  `{"sink": id}`              a ship the squadron's owner picks to sink
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
DIE = [{"die": n} for n in range(1, 7)]


def card_plays(t: dict, comp: Composition, seat: int, key: str, stage: bool) -> list[dict]:
    """Every way `seat` may play the card `key` now (empty: it can only be discarded)."""
    kind = card_type(key)
    if kind == "salvo":
        if salvo_calibre(key) not in calibres_afloat(t, comp, seat):
            return []
        return ([{"play": key, "ship": s} for s in enemy_targets(t, comp, seat, smoke_blocks=True)]
                + [{"play": key, "squadron": q["n"]} for q in t["squadrons"] if q["owner"] != seat])
    if kind == "additional_damage":
        if stage:
            return []  # RULES §3: simply discarded during the first turn
        return [{"play": key, "ship": e["id"], "salvo": i}
                for other in active(t) if other != seat
                for e in t["fleets"][other] if e["id"] in exposed(t, comp, other)
                for i in range(len(e["salvos"]))]
    if kind == "minefield":
        return [{"play": key, "fleet": other} for other in active(t)
                if other != seat and not t["smoke"][other]
                and not (stage and other in t["stage_mined"])]
    if kind in ("submarine", "torpedo_boat"):
        smoke_blocks = kind == "torpedo_boat"
        return [{"play": key, "ship": s} for s in enemy_targets(t, comp, seat, smoke_blocks)]
    if kind == "additional_ship":
        return [{"play": key}] if t["harbour"] else []
    if kind == "minesweeper":
        return [{"play": key}] if t["mines"][seat] else []
    if kind == "repair":
        return [{"play": key, "ship": e["id"], "salvo": i}
                for e in t["fleets"][seat] for i in range(len(e["salvos"]))]
    return [{"play": key}]  # smoke, destroyer squadron


def red_card_options(t: dict, comp: Composition, seat: int, key: str, stage: bool) -> list:
    """A red card in play: its plays, or discarding it when it has none."""
    return card_plays(t, comp, seat, key, stage) or [{"discard": key}]


def draw_outcomes(t: dict, comp: Composition) -> list[dict]:
    """What the top card of the drawing pile can be, given what has been seen."""
    if t["draw"] <= 0:
        return []
    known_black, _ = hidden_split(t)
    _, black = unseen_by_colour(t, comp)
    outcomes = [{"drew": "hidden"}] if black > known_black else []
    return outcomes + [{"drew": k} for k in comp.red_keys if unseen(t, comp, k) > 0]


def _stage_hand(t: dict, comp: Composition, seat: int, only: str | None) -> list:
    keys = [k for k in comp.red_keys if unseen(t, comp, k) > 0]
    options: list = []
    for key in keys:
        if only is None or key == only:
            options += red_card_options(t, comp, seat, key, stage=True)
    known_black, _ = hidden_split(t)
    _, black = unseen_by_colour(t, comp)
    if only is None and black >= known_black + t["hands"][seat]["unknown"]:
        options.append("no_red")
    return options


def _hand_play(t: dict, comp: Composition, seat: int, only: str | None) -> list:
    keys = [k for k in comp.black_keys if unseen(t, comp, k) > 0]
    options: list = []
    for key in keys:
        if only is None or key == only:
            options += card_plays(t, comp, seat, key, stage=False)
    if only is None:
        options += [{"discard": k} for k in keys]
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
        return [{"first": s} for s in range(d["options"]["players"])]
    if kind in ("deal", "harbour"):
        return [{"ship": s} for s in t["harbour"]]
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
        return ["draw", "air_strike"]
    if kind == "strike":
        return [{"strike": s} for s in enemy_targets(t, comp, seat, smoke_blocks=True)]
    if kind == "squadron":
        return [{"attack": s} for s in attackable_fleets(t, seat)]
    if kind == "pick":
        return [{"sink": s} for s in exposed(t, comp, item["seat"])]
    raise AssertionError(f"unknown decision {kind!r}")
