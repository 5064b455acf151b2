"""The cards on a Naval War table: queries and the changes card effects make.

The table is a plain JSON dict (see `new_round`), worked on in place by the
rules module on its private copy.  Every action card is in exactly one place:
the drawing pile or a hand (counts, identity unknown), under a ship (`salvos`,
each with its `extra` additional damage), in front of a fleet (`mines`,
`smoke`), in the middle (`squadrons`, with the salvos that hit them), a
pending drawn red card (`todo`), or the discard pile (`discard` by key, plus
`discard_hidden` for hands thrown away unseen).  `seen` counts by key the
cards whose identity is known; the rest are *unseen*.
"""

from __future__ import annotations

from companion.games.navalwar.data import Composition, card_value


def new_round(comp: Composition, players: int, first: int | None) -> dict:
    """The table before the deal: every ship in the harbour, every card in the pile."""
    return {
        "first": first,
        "harbour": sorted(s.id for s in comp.ships),
        "draw": comp.total_actions,
        "hands": [{"n": 0, "unknown": 0} for _ in range(players)],
        "fleets": [[] for _ in range(players)],
        "mines": [[] for _ in range(players)],
        "smoke": [False] * players,
        "squadrons": [],
        "next_squadron": 1,
        "sunk": [[] for _ in range(players)],
        "out": [False] * players,
        "discard": {},
        "discard_hidden": {"black": 0, "any": 0},
        "seen": {},
        "stage_mined": [],
        "todo": [],
    }


# --- queries -----------------------------------------------------------------

def active(t: dict) -> list[int]:
    return [s for s, out in enumerate(t["out"]) if not out]


def find_ship(t: dict, ship_id: str) -> tuple[int, dict] | None:
    """(owner, entry) of a ship afloat, or None."""
    for seat, fleet in enumerate(t["fleets"]):
        for entry in fleet:
            if entry["id"] == ship_id:
                return seat, entry
    return None


def afloat(t: dict, ship_id: str) -> tuple[int, dict]:
    """(owner, entry) of a ship known to be afloat (a legal action names it)."""
    found = find_ship(t, ship_id)
    assert found is not None, f"{ship_id} is not afloat"
    return found


def mine_hits(t: dict, seat: int) -> int:
    return sum(card_value(m["card"]) for m in t["mines"][seat])


def salvo_hits(salvo: dict) -> int:
    return card_value(salvo["card"]) + sum(card_value(k) for k in salvo["extra"])


def hits(t: dict, seat: int, entry: dict) -> int:
    """Hits on a ship: its salvos with their additional damage, plus the fleet's minefields."""
    return sum(salvo_hits(s) for s in entry["salvos"]) + mine_hits(t, seat)


def calibres_afloat(t: dict, comp: Composition, seat: int) -> set[str]:
    ships = comp.ship_by_id
    # a carrier has no calibre (data.py checks it)
    return {calibre for e in t["fleets"][seat] if (calibre := ships[e["id"]].calibre) is not None}


def carriers_afloat(t: dict, comp: Composition, seat: int) -> list[str]:
    ships = comp.ship_by_id
    return [e["id"] for e in t["fleets"][seat] if ships[e["id"]].carrier]


def exposed(t: dict, comp: Composition, seat: int) -> list[str]:
    """Ships of a fleet an attack may name: carriers only once no other ship is afloat."""
    ships = comp.ship_by_id
    fleet = [e["id"] for e in t["fleets"][seat]]
    screen = [i for i in fleet if not ships[i].carrier]
    return screen or fleet


def enemy_targets(t: dict, comp: Composition, attacker: int, smoke_blocks: bool) -> list[str]:
    """Ships `attacker` may name in a targeted attack (never their own)."""
    return [ship for seat in active(t) if seat != attacker
            and not (smoke_blocks and t["smoke"][seat])
            for ship in exposed(t, comp, seat)]


def squadron(t: dict, number: int) -> dict:
    """The squadron `number`, in play (a legal action names it)."""
    found = next((q for q in t["squadrons"] if q["n"] == number), None)
    assert found is not None, f"squadron {number} is not in play"
    return found


def unseen(t: dict, comp: Composition, key: str) -> int:
    return comp.counts.get(key, 0) - t["seen"].get(key, 0)


def hidden_split(t: dict) -> tuple[int, int]:
    """(cards known to be black but unseen, hidden cards that may be any colour)."""
    known_black = sum(h["n"] - h["unknown"] for h in t["hands"]) + t["discard_hidden"]["black"]
    any_colour = sum(h["unknown"] for h in t["hands"]) + t["discard_hidden"]["any"]
    return known_black, any_colour


def unseen_by_colour(t: dict, comp: Composition) -> tuple[int, int]:
    """(unseen red cards, unseen black cards)."""
    seen = t["seen"]
    counts = comp.counts
    red = sum(counts[k] - seen.get(k, 0) for k in comp.red_keys)
    black = sum(counts[k] - seen.get(k, 0) for k in comp.black_keys)
    return red, black


# --- changes -----------------------------------------------------------------

def reveal(t: dict, key: str) -> None:
    """A hidden card's identity becomes known (played or drawn red)."""
    t["seen"][key] = t["seen"].get(key, 0) + 1


def discard(t: dict, key: str) -> None:
    t["discard"][key] = t["discard"].get(key, 0) + 1


def sink(t: dict, comp: Composition, ship_id: str, by: int) -> None:
    """Sink a ship afloat: it goes to `by`'s sunk pile, its cards to the discard pile."""
    seat, entry = afloat(t, ship_id)
    t["fleets"][seat].remove(entry)
    for salvo in entry["salvos"]:
        for key in [salvo["card"], *salvo["extra"]]:
            discard(t, key)
    t["sunk"][by].append(ship_id)
    if not t["fleets"][seat]:
        eliminate(t, seat)


def eliminate(t: dict, seat: int) -> None:
    """A fleet is gone: its player is out for the round and throws away hand and cards."""
    t["out"][seat] = True
    hand = t["hands"][seat]
    t["discard_hidden"]["black"] += hand["n"] - hand["unknown"]
    t["discard_hidden"]["any"] += hand["unknown"]
    t["hands"][seat] = {"n": 0, "unknown": 0}
    for mine in t["mines"][seat]:
        discard(t, mine["card"])
    t["mines"][seat] = []
    if t["smoke"][seat]:
        discard(t, "smoke")
        t["smoke"][seat] = False
    for q in [q for q in t["squadrons"] if q["owner"] == seat]:
        remove_squadron(t, q)


def remove_squadron(t: dict, q: dict) -> None:
    t["squadrons"].remove(q)
    for key in ["destroyer_squadron", *q["hits"]]:
        discard(t, key)


def settle_fleet(t: dict, comp: Composition, seat: int, by: int) -> None:
    """Sink every ship of a fleet whose hits reach its defence, credited to `by`."""
    ships = comp.ship_by_id
    for entry in list(t["fleets"][seat]):
        if not t["out"][seat] and hits(t, seat, entry) >= ships[entry["id"]].defence:
            sink(t, comp, entry["id"], by)


def settle_ship(t: dict, comp: Composition, ship_id: str, by: int) -> None:
    found = find_ship(t, ship_id)
    if found and hits(t, *found) >= comp.ship_by_id[ship_id].defence:
        sink(t, comp, ship_id, by)


def last_mine_owner(t: dict, seat: int) -> int | None:
    return t["mines"][seat][-1]["by"] if t["mines"][seat] else None


def placed_cards(t: dict) -> dict[str, int]:
    """Recount of the face-up cards, place by place (for the conservation check)."""
    counts: dict[str, int] = dict(t["discard"])

    def add(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1

    for fleet in t["fleets"]:
        for entry in fleet:
            for salvo in entry["salvos"]:
                for key in [salvo["card"], *salvo["extra"]]:
                    add(key)
    for mines in t["mines"]:
        for mine in mines:
            add(mine["card"])
    for smoked in t["smoke"]:
        if smoked:
            add("smoke")
    for q in t["squadrons"]:
        for key in ["destroyer_squadron", *q["hits"]]:
            add(key)
    for item in t["todo"]:
        if item["kind"] == "red":
            add(item["card"])
    return {k: v for k, v in counts.items() if v}
