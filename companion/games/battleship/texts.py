"""Reading Battleship views: announcements of volleys (as `Text`s), fleets, the computer's turn.

Everything here reads public views (or, for `fleet_cells` and the computer, a
seat's own view); nothing touches Kivy.
"""

from __future__ import annotations

import random

from companion.games.battleship.ai import choose_fleet
from companion.games.battleship.fleet import LENGTH, NAMES, cells_of, index, label, placements, run
from companion.play.controller import Text


ROLES = ("p1", "p2", "you", "cpu")  # the players' roles, named by the locale (a typed name is never one)


def typed_names(value) -> list[str]:
    """The two names typed on the start panel (blank where none was), from `start`'s value."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(n, str) for n in value):
        return [n.strip()[:16] for n in value]
    return ["", ""]


def lineup(opponent: str, typed) -> list[str]:
    """The players a game started now has: you and the computer, else each name typed
    (its role where none is, or where a role's own word was typed)."""
    if opponent == "cpu":
        return ["you", "cpu"]
    return [name if name and name not in ROLES else role for name, role in zip(typed_names(typed), ("p1", "p2"))]


def said(answer: dict) -> Text:
    """An answer in words: "はずれ", "巡洋艦に命中", "巡洋艦撃沈" (the ship only where it is named)."""
    ship = Text(f"battleship.{answer['ship']}") if "ship" in answer else None
    if answer["result"] == "miss":
        return Text("battleship.miss")
    if answer["result"] == "sunk":
        return Text("battleship.sunk_ship", {"ship": ship})
    return Text("battleship.hit_ship", {"ship": ship}) if ship else Text("battleship.hit")


def shot_text(shot: dict) -> Text:
    """"B5 はずれ", "C3 巡洋艦に命中", "C4 巡洋艦撃沈"."""
    return Text("battleship_ui.shot", {"cell": shot["cell"], "said": said(shot)})


def volleys(view: dict) -> list[tuple[int, int, list[dict]]]:
    """Every volley on the public boards as (volley number, shooter, shots), oldest first."""
    first = view["options"]["first"]
    groups: dict[tuple[int, int], list[dict]] = {}
    for seat in (0, 1):
        for shot in view["boards"][seat]["shots"]:
            groups.setdefault((shot["volley"], 0 if seat == first else 1), []).append(shot)
    return [(volley, first if order == 0 else 1 - first, shots)
            for (volley, order), shots in sorted(groups.items())]


def volley_texts(shots: list[dict]) -> list[Text]:
    """What a volley met, shot by shot ("E5 はずれ"); a salvo's shots grouped by what
    they met, misses last ("巡洋艦に命中 B2", "B3", "はずれ C7", "F2"), so that two
    volleys of five keep to the panel."""
    if len(shots) == 1:
        return [shot_text(shots[0])]
    groups: dict[tuple, list[str]] = {}
    for shot in sorted(shots, key=lambda s: s["result"] == "miss"):
        groups.setdefault((shot["result"], shot.get("ship")), []).append(shot["cell"])
    return [Text("battleship_ui.shot_said" if n == 0 else "battleship_ui.shot_also",
                 {"said": said({"result": result, "ship": ship} if ship else {"result": result}), "cell": cell})
            for (result, ship), cells in groups.items() for n, cell in enumerate(cells)]


def news(view: dict, names: list, count: int = 1) -> list[dict]:
    """The last `count` volleys, one line each: who fired (`by`) and what its shots met."""
    return [{"by": names[shooter], "shots": volley_texts(shots)} for _, shooter, shots in volleys(view)[-count:]]


def fleet_cells(view: dict) -> list[list[int]]:
    """The cells of each ship in a seat's own view ("0:C3" spelled) as indices."""
    return [[index(cell.split(":", 1)[1]) for cell in ship["cells"]] for ship in view.get("fleet", [])]


def ship_run(ship: str, cell: int, direction: str) -> list[int]:
    """The cells a ship would take with its top/left end at `cell` (cut at the edge)."""
    length = LENGTH[ship]
    while length and run(cell, length, direction) is None:
        length -= 1  # show the part that fits: the rules will refuse the rest
    return list(run(cell, length, direction) or ())


def computer_turn(ai, view: dict, rng: random.Random) -> list:
    """The computer's whole turn from its seat's view: its fleet, one shot, or a salvo then fire.

    A salvo's shots are asked one by one, each time with the view as it will
    read once the earlier shots are entered.
    """
    if view["phase"] == "place":
        return fill_fleet(view, rng)
    actions, pending = [], list(view["pending"])
    while True:
        action = ai.act({**view, "pending": pending})
        actions.append(action)
        if action["type"] != "shot" or view["options"]["variant"] != "salvo":
            return actions
        pending.append(action["cell"])


def fill_fleet(view: dict, rng: random.Random) -> list[dict]:
    """"place" actions for the ships still to place in a seat's own view.

    An empty sea gets the computer opponent's fleet (`ai.choose_fleet`: uniform
    among all legal fleets, so ships touch as often as chance makes them); a
    sea with ships already placed gets the rest at random where they fit.
    """
    if not view.get("fleet"):
        return choose_fleet(rng)
    taken = {cell for ship in fleet_cells(view) for cell in ship}
    actions = []
    for ship in [s for s in NAMES if s in view["to_place"]]:
        fits = [(start, d, cells) for start, d, _ in placements(LENGTH[ship])
                if taken.isdisjoint(cells := cells_of(start, LENGTH[ship], d))]
        start, direction, cells = rng.choice(fits)
        taken.update(cells)
        actions.append({"type": "place", "ship": ship, "cell": label(start), "dir": direction})
    return actions
