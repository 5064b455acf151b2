"""Naval War: what an accepted action does, and the order of turns and rounds.

Works in place on a private copy of the state dict `d` (`d["table"]` is the
table of `table`).  `do(d, comp, action)` resolves one legal action;
`settle(d, comp)` then moves the game on until a decision is needed.
"""

from __future__ import annotations

from companion.games.navalwar.data import Composition, card_type, card_value
from companion.games.navalwar.moves import attackable_fleets, can_air_strike
from companion.games.navalwar.table import (
    active,
    afloat,
    carriers_afloat,
    discard,
    find_ship,
    last_mine_owner,
    new_round,
    remove_squadron,
    reveal,
    settle_fleet,
    settle_ship,
    sink,
    squadron,
)

SOLE_SURVIVOR_BONUS = 10
ELIMINATION_PENALTY = -10
SQUADRON_TOUGHNESS = 4  # salvo hits that destroy a destroyer squadron
SINKING_ROLLS = {"submarine": (5, 6), "torpedo_boat": (6,), "air": (1,)}


def hand_size(players: int) -> int:
    return 4 if players == 9 else 5


def start_round(d: dict, comp: Composition, first: int | None) -> None:
    """Gather every card; round 1 first asks who starts (a chance decision)."""
    d["table"] = new_round(comp, d["options"]["players"], first)
    d["seat"] = first
    if first is None:
        d["phase"] = "setup"
        d["table"]["todo"] = [{"kind": "first"}]
    else:
        d["phase"] = "deal"
        d["table"]["todo"] = [{"kind": "deal", "seat": 0}]


def _push(t: dict, item: dict) -> None:
    t["todo"].insert(0, item)


# --- resolving one action ----------------------------------------------------

def do(d: dict, comp: Composition, action) -> None:
    t = d["table"]
    item = t["todo"].pop(0)
    kind = item["kind"]
    seat = d["seat"]
    if kind == "first":
        t["first"] = d["seat"] = action["seat"]
        d["phase"] = "deal"
        t["todo"] = [{"kind": "deal", "seat": 0}]
    elif kind == "deal":
        _deal(d, item["seat"], action["ship"])
    elif kind == "harbour":
        t["harbour"].remove(action["ship"])
        t["fleets"][item["seat"]].append({"id": action["ship"], "salvos": []})
        by = last_mine_owner(t, item["seat"])
        if by is not None:
            settle_fleet(t, comp, item["seat"], by)
    elif kind == "draw":
        _drew(d, action["card"])
    elif kind == "die":
        _die(d, comp, item, action["value"])
    elif kind in ("stage_hand", "play", "red"):
        _card(d, comp, kind, action)
    elif kind == "choose":
        if action["turn"] == "draw":
            _push(t, {"kind": "draw"})
        else:
            _push(t, {"kind": "strike", "targets": []})
    elif kind == "strike":
        targets = item["targets"] + [action["ship"]]
        carriers = carriers_afloat(t, comp, seat)
        if len(targets) < len(carriers):
            _push(t, {"kind": "strike", "targets": targets})
        else:  # every carrier has named its target: now the dice
            t["todo"][0:0] = [{"kind": "die", "effect": "air", "ship": s, "by": seat} for s in targets]
    elif kind == "squadron":
        remove_squadron(t, squadron(t, item["n"]))
        _push(t, {"kind": "die", "effect": "squadron", "seat": action["fleet"], "by": seat})
    elif kind == "pick":
        sink(t, comp, action["ship"], seat)
        _push(t, {**item, "left": item["left"] - 1})


def _deal(d: dict, seat: int, ship_id: str) -> None:
    t = d["table"]
    size = hand_size(d["options"]["players"])
    t["harbour"].remove(ship_id)
    t["fleets"][seat].append({"id": ship_id, "salvos": []})
    if len(t["fleets"][seat]) < size:
        _push(t, {"kind": "deal", "seat": seat})
    elif seat + 1 < d["options"]["players"]:
        _push(t, {"kind": "deal", "seat": seat + 1})
    else:  # ships dealt: the action cards are dealt face down, then the first turn
        for hand in t["hands"]:
            hand.update(n=size, unknown=size)
        t["draw"] -= size * d["options"]["players"]
        players = d["options"]["players"]
        d["phase"] = "stage"
        d["stage_order"] = [(t["first"] + i) % players for i in range(players)]
        d["seat"] = t["first"]


def _drew(d: dict, drew: str) -> None:
    t = d["table"]
    t["draw"] -= 1
    if drew == "hidden":
        t["hands"][d["seat"]]["n"] += 1
        if d["phase"] == "turn":
            _push(t, {"kind": "play"})
    else:
        reveal(t, drew)
        _push(t, {"kind": "red", "card": drew})


def _die(d: dict, comp: Composition, item: dict, roll: int) -> None:
    t = d["table"]
    if item["effect"] == "squadron":
        _push(t, {"kind": "pick", "seat": item["seat"], "left": roll})
    elif roll in SINKING_ROLLS[item["effect"]]:
        sink(t, comp, item["ship"], item["by"])


def _card(d: dict, comp: Composition, kind: str, action) -> None:
    """A card from the hand (`play`, `stage_hand`) or a drawn red card (`red`)."""
    t = d["table"]
    seat = d["seat"]
    hand = t["hands"][seat]
    if action["type"] == "no_red":
        hand["unknown"] = 0
        return
    key = action["card"]
    if kind != "red":  # it leaves the hand and is shown
        hand["n"] -= 1
        if kind == "stage_hand":
            hand["unknown"] -= 1
        reveal(t, key)
    if action["type"] == "discard":
        discard(t, key)
    else:
        play(d, comp, seat, key, action)


def play(d: dict, comp: Composition, seat: int, key: str, action: dict) -> None:
    """The effect of a card `seat` plays (docs/rules.md §navalwar, "The cards")."""
    t = d["table"]
    kind = card_type(key)
    if kind == "salvo" and "squadron" in action:
        q = squadron(t, action["squadron"])
        q["hits"].append(key)
        if sum(card_value(k) for k in q["hits"]) >= SQUADRON_TOUGHNESS:
            remove_squadron(t, q)
    elif kind == "salvo":
        afloat(t, action["ship"])[1]["salvos"].append({"card": key, "extra": []})
        settle_ship(t, comp, action["ship"], seat)
    elif kind == "additional_damage":
        afloat(t, action["ship"])[1]["salvos"][action["salvo"]]["extra"].append(key)
        settle_ship(t, comp, action["ship"], seat)
    elif kind == "minefield":
        fleet = action["fleet"]
        t["mines"][fleet].append({"card": key, "by": seat})
        if d["phase"] == "stage":
            t["stage_mined"].append(fleet)
        settle_fleet(t, comp, fleet, seat)
    elif kind in ("submarine", "torpedo_boat"):
        discard(t, key)
        _push(t, {"kind": "die", "effect": kind, "ship": action["ship"], "by": seat})
    elif kind == "additional_ship":
        discard(t, key)
        _push(t, {"kind": "harbour", "seat": seat})
    elif kind == "minesweeper":
        discard(t, key)
        for mine in t["mines"][seat]:
            discard(t, mine["card"])
        t["mines"][seat] = []
    elif kind == "repair":
        discard(t, key)
        removed = afloat(t, action["ship"])[1]["salvos"].pop(action["salvo"])
        for k in [removed["card"], *removed["extra"]]:
            discard(t, k)
    elif kind == "smoke":
        t["smoke"][seat] = True
    elif kind == "destroyer_squadron":
        t["squadrons"].append({"n": t["next_squadron"], "owner": seat, "hits": []})
        t["next_squadron"] += 1


# --- moving on ---------------------------------------------------------------

def settle(d: dict, comp: Composition) -> None:
    """Advance past everything automatic until a decision (or the end) is due."""
    while d["phase"] != "over":
        t = d["table"]
        if d["phase"] in ("stage", "turn") and len(active(t)) <= 1:
            end_round(d, comp)
            continue
        if t["todo"]:
            if _moot(d, t["todo"][0]):
                t["todo"].pop(0)
                continue
            return
        if d["phase"] == "stage":
            _stage_step(d, comp)
        else:
            end_turn(d, comp)
    d["table"]["todo"] = []


def _moot(d: dict, item: dict) -> bool:
    """A pending step with nothing left to decide (its target is gone)."""
    t = d["table"]
    if item["kind"] == "die" and "ship" in item:
        return find_ship(t, item["ship"]) is None
    if item["kind"] == "pick":
        return item["left"] <= 0 or t["out"][item["seat"]]
    if item["kind"] == "squadron":  # every fleet hidden by smoke: the squadron waits
        return not attackable_fleets(t, d["seat"])
    return False


def _stage_step(d: dict, comp: Composition) -> None:
    """First turn: play red cards from the hand, refill, until no red card is left."""
    t = d["table"]
    seat = d["seat"]
    hand = t["hands"][seat]
    if not t["out"][seat] and hand["unknown"]:
        _push(t, {"kind": "stage_hand"})
    elif not t["out"][seat] and hand["n"] < hand_size(d["options"]["players"]) and t["draw"]:
        _push(t, {"kind": "draw"})
    elif t["draw"] == 0:  # the last card was drawn: this turn was the round's last
        end_round(d, comp)
    else:
        order = [s for s in d["stage_order"][1:] if not t["out"][s]]
        d["stage_order"] = order
        if order:
            d["seat"] = order[0]
        else:  # everyone has had the first turn: normal turns from the first player
            d["phase"] = "turn"
            begin_turn(d, comp, _next_active(t, t["first"] - 1))


def _next_active(t: dict, seat: int) -> int:
    """The first player still in the round clockwise after `seat`."""
    players = len(t["out"])
    return next(s % players for s in range(seat + 1, seat + 1 + players) if not t["out"][s % players])


def begin_turn(d: dict, comp: Composition, seat: int) -> None:
    """A normal turn: the player's smoke lifts; a surviving squadron attacks, or
    the player draws (or strikes with carriers instead)."""
    t = d["table"]
    d["seat"] = seat
    if t["smoke"][seat]:
        t["smoke"][seat] = False
        discard(t, "smoke")
    squadrons = [{"kind": "squadron", "n": q["n"]} for q in t["squadrons"] if q["owner"] == seat]
    if squadrons and attackable_fleets(t, seat):
        t["todo"] = squadrons  # RULES §3 Decision: the attack is the owner's whole turn
    elif can_air_strike(t, comp, seat):
        t["todo"] = [{"kind": "choose"}]
    else:
        t["todo"] = [{"kind": "draw"}]


def end_turn(d: dict, comp: Composition) -> None:
    if d["table"]["draw"] == 0:
        end_round(d, comp)
    else:
        begin_turn(d, comp, _next_active(d["table"], d["seat"]))


def round_points(t: dict, comp: Composition) -> list[int]:
    """Sunk ships' defence, +10 for the sole survivor, -10 for each player eliminated."""
    survivors = active(t)
    points = []
    for seat, sunk in enumerate(t["sunk"]):
        score = sum(comp.ship_by_id[s].defence for s in sunk)
        if t["out"][seat]:
            score += ELIMINATION_PENALTY
        elif len(survivors) == 1:
            score += SOLE_SURVIVOR_BONUS
        points.append(score)
    return points


def totals(d: dict) -> list[int]:
    return [sum(column) for column in zip(*d["history"])] if d["history"] else [0] * d["options"]["players"]


def end_round(d: dict, comp: Composition) -> None:
    """Score the round; the game ends when a single highest total reaches the target,
    else the next round starts with the leader."""
    t = d["table"]
    points = round_points(t, comp)
    d["history"].append(points)
    d["last_round"] = {"points": points, "sunk": t["sunk"], "survivors": active(t)}
    total = totals(d)
    best = max(total)
    leaders = [s for s, v in enumerate(total) if v == best]
    if best >= d["options"]["target"] and len(leaders) == 1:
        d["phase"] = "over"
        d["winner"] = leaders[0]
        d["seat"] = None
        t["todo"] = []
        return
    d["round"] += 1
    players = d["options"]["players"]
    previous = t["first"]
    # Decision (ours): tied leaders -> the first of them clockwise from last round's first player
    first = min(leaders, key=lambda s: (s - previous) % players)
    start_round(d, comp, first)
