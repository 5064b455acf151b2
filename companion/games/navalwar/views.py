"""Naval War: the shared table as screens show it (everything here is public)."""

from __future__ import annotations

from companion.play.state import CHANCE
from companion.games.navalwar.data import Composition
from companion.games.navalwar.flow import round_points, totals
from companion.games.navalwar.odds import next_draw_odds
from companion.games.navalwar.table import carriers_afloat, hits, salvo_hits


def _ship(t: dict, comp: Composition, seat: int, entry: dict) -> dict:
    ship = comp.ship_by_id[entry["id"]]
    return {**ship.to_json(), "hits": hits(t, seat, entry),
            "salvos": [{"card": s["card"], "extra": list(s["extra"]), "hits": salvo_hits(s)}
                       for s in entry["salvos"]]}


def _waiting(d: dict, comp: Composition) -> dict | None:
    """The pending decision, with what a screen needs to prompt for it."""
    todo = d["table"]["todo"]
    if not todo:
        return None
    waiting = dict(todo[0])
    if waiting["kind"] == "strike":  # which carrier names its target now
        waiting["carrier"] = carriers_afloat(d["table"], comp, d["seat"])[len(waiting["targets"])]
    return waiting


def public_view(d: dict, comp: Composition, to_move: int | None) -> dict:
    t = d["table"]
    players = d["options"]["players"]
    discards = sum(t["discard"].values()) + sum(t["discard_hidden"].values())
    return {
        "game": "navalwar",
        "players": players,
        "house_rule": "two_players" if players == 2 else None,
        "target": d["options"]["target"],
        "round": d["round"],
        "phase": d["phase"],
        "first": t["first"],
        "seat": d["seat"],
        "to_move": "chance" if to_move == CHANCE else to_move,
        "waiting": _waiting(d, comp),
        "fleets": [{
            "seat": seat,
            "out": t["out"][seat],
            "hand": t["hands"][seat]["n"],
            "ships": [_ship(t, comp, seat, e) for e in t["fleets"][seat]],
            "minefields": [dict(m) for m in t["mines"][seat]],
            "smoke": t["smoke"][seat],
            "sunk": list(t["sunk"][seat]),
        } for seat in range(players)],
        "squadrons": [{"n": q["n"], "owner": q["owner"], "hits": list(q["hits"]),
                       "strikes_on_turn_of": q["owner"]} for q in t["squadrons"]],
        "piles": {"harbour": len(t["harbour"]), "draw": t["draw"], "discard": discards},
        "discard": {**t["discard"], "unseen": sum(t["discard_hidden"].values())},
        "odds": next_draw_odds(d, comp),
        "round_points": round_points(t, comp),
        "totals": totals(d),
        "history": [list(r) for r in d["history"]],
        "last_round": d["last_round"],
        "winner": d["winner"],
    }
