"""What a Naval War renderer draws, per stage and per reader: `model(controller, who)`.

JSON values and `Text`s only.  Everything on a Naval War table is public (the rules'
`secrets(seat)` is empty: the companion never knows a hand), so the table's model and
a seat's differ only in what is the reader's own: a seat's model adds `own` (its fleet
with the damage on each ship), its next-draw odds mark its own calibres, and its
choices are offered only when the entry awaited is its own.
"""

from __future__ import annotations

from companion.games.navalwar.choices import card_text, plain, target_of, unit
from companion.games.navalwar.data import card_value
from companion.games.navalwar.slots import card_slots
from companion.play.controller import TABLE, Text, Who

SHIPS_IN_HAND = {9: 4}  # else 5
# a step's main entries, in the row under the list that never scrolls: each keeps its place
# (a faint slot for one not offered)
PRIMARY = {"choose": ("draw", "air_strike"), "draw": ("hidden", "discard"), "play": ("discard",),
           "stage_hand": ("no_red", "no_red_rest")}
ATTACKS = {"submarine": "navalwar.card_type.submarine", "torpedo_boat": "navalwar.card_type.torpedo_boat",
           "air": "navalwar.action.air_strike", "squadron": "navalwar.card_type.destroyer_squadron"}


def model(c, who: Who) -> dict:
    stage, pad = c.stage(), c.pad(who)
    offers = c.offered(who)
    base = {"stage": stage, "offers": offers, "can_undo": any(o.kind == "undo" for o in offers),
            "setup": dict(c.setup), "last": pad.last, "title": [Text("navalwar.title")]}
    if stage in ("setup", "count"):
        text, broken = c.deck_line()
        return base | {"deck": {"text": text, "broken": broken,
                                "packaged": any(o.kind == "packaged" for o in offers)},
                       "default_names": [Text("navalwar_ui.default_name", {"n": n + 1}) for n in range(9)],
                       "count": c.counting.model() if c.counting else None}
    review = c.review()
    at_end = review is None or review.at_end
    view = c.view() if at_end else review.state.view(None)  # a finished game as it stood then
    base["title"] = [Text("navalwar.round", {"n": view["round"]})]  # the game's name: on the form (room for the bar's buttons)
    if view["house_rule"]:
        base["title"].append(Text("navalwar_ui.title_house"))
    found = base | _table(c, view) | _panel(c, who, view, offers)
    found["banner"] = c.banner[1] if c.banner and c.banner[0] == c.position() else None
    found["odds"] = _odds(view, who if who != TABLE else view["seat"])
    found["chart"] = scores(c, view, None)
    found["summary"] = scores(c, view, stage) if stage == "summary" or (stage == "over" and at_end) \
        else None  # a finished game's scores stand at the end of its review
    if who != TABLE:
        found["own"] = view["fleets"][who]
    return found


def _table(c, view: dict) -> dict:
    names = c.names
    turn = view["phase"] in ("stage", "turn")
    discards = [Text("navalwar_ui.count_of", {"card": card_text(key), "n": n})
                for key, n in view["discard"].items() if key != "unseen" and n]
    if view["discard"]["unseen"]:
        discards.append(Text("navalwar_ui.count_of", {"card": Text("navalwar.unseen_discards"),
                                                      "n": view["discard"]["unseen"]}))
    sunk = [ship for fleet in view["fleets"] for ship in fleet["sunk"]]  # every fleet's sinks: ids are unique
    return {
        "players": view["players"], "seat": view["seat"], "round": view["round"],
        "piles": Text("navalwar_ui.piles", view["piles"]),
        "discard_button": Text("navalwar_ui.discard_button", {"n": view["piles"]["discard"]}),
        "discards": discards or [Text("navalwar_ui.discard_none")],
        "squadrons": [Text("navalwar_ui.squadron_row", {
            "n": q["n"], "name": unit(names[q["owner"]]), "on": unit(names[q["strikes_on_turn_of"]]),
            "hits": sum(card_value(k) for k in q["hits"])}) for q in view["squadrons"]],
        "fleets": [fleet | {"name": names[fleet["seat"]], "points": view["round_points"][fleet["seat"]],
                            "is_turn": turn and fleet["seat"] == view["seat"], "sunk_this_round": sunk}
                   for fleet in view["fleets"]],
    }


def _panel(c, who: Who, view: dict, offers: list) -> dict:
    """The choice panel: the prompt, the steps chosen, the choices of the next step."""
    waiting = view["waiting"]
    kind = waiting["kind"] if waiting else None
    catalogue = kind in ("deal", "harbour")
    panel = {"prompt": _prompt(c, view), "prompt_seat": c.actor() if kind != "first" else None,
             "chosen": [], "choices": [], "catalogue": catalogue, "columns": 3 if kind == "die" or catalogue else 2,
             "random": next((o.label for o in offers if o.kind == "random"), None),
             "targets": {}, "fleet_targets": {}}
    if c.stage() != "play" or not c.mine(who):
        return panel
    tree = c.tree()
    if c.pad(who).prefix:
        panel["chosen"] = tree.labels(c.pad(who).prefix)
    choices = tree.choices(c.shown_prefix(who))
    if catalogue:
        panel["choices"] = _catalogue(c, choices)
        return panel
    for choice in choices:
        target = target_of(choice.id)  # a ship or fleet: tapped on the fleet panel itself
        if target is not None:
            panel["targets" if target[0] == "ship" else "fleet_targets"][target[1]] = choice.id
        else:
            salvo = choice.label.key == "navalwar_ui.salvo_short"  # a salvo to play: four a row
            panel["choices"].append({"id": choice.id, "label": choice.label, "red": choice.red,
                                     "cols": 4 if salvo else panel["columns"], "primary": False, "salvo": salvo})
    if not c.pad(who).prefix:
        panel["choices"] = _in_places(c, kind, panel["choices"])
    if panel["targets"] or panel["fleet_targets"]:  # a minefield's target is a fleet
        panel["prompt"] = panel["prompt"] + [Text("navalwar_ui.tap_target" if panel["targets"] else "navalwar_ui.tap_fleet")]
    return panel


def _in_places(c, kind: str, choices: list[dict]) -> list[dict]:
    """A step's first panel in the places it always has: the salvos (most turns play one),
    the red cards (in the composition's order, each in its slot: slots.card_slots), the
    rest (the hand's other cards, 捨てる); then the main entries (the row that never scrolls)."""
    red = card_slots([x for x in choices if x["red"]], list(c.session.state.composition.red_keys))
    rows = [x for x in choices if x["salvo"]] + red
    main = PRIMARY.get(kind, ())
    rows += [x for x in choices if x not in rows and x["id"] not in main]
    offered = {x["id"]: x for x in choices if x["id"] in main}
    if offered:
        rows += [offered.get(step) or {"id": "", "label": plain(""), "red": False, "gone": True} for step in main]
        for x in rows[-len(main):]:
            x["primary"], x["cols"] = True, len(main)
    return rows


def _catalogue(c, choices: list) -> list[dict]:
    """Every ship card, the ones dealt in recent games first, then by name: one dealt or taken
    stays in its place, faint (`gone`), so no name moves under the finger (issue 43)."""
    offered = {choice.id for choice in choices}
    recent = {ship: i for i, ship in enumerate(c.recent_ships())}
    found = []
    for ship in c.session.state.composition.ships:
        step = f"ship:{ship.id}"
        found.append({"id": step if step in offered else "", "label": plain(ship.name), "red": False,
                      "gone": step not in offered, "recent": ship.id in recent,
                      "ship": {"name": ship.name, "calibre": ship.calibre, "carrier": ship.carrier},
                      "rank": (recent.get(ship.id, len(recent)), ship.name)})
    return sorted(found, key=lambda entry: entry.pop("rank"))


def die_outcome(c, waiting: dict, roll: int) -> dict:
    """What a die just entered did (`waiting`: the decision it answered): its `text`
    ("潜水艦：出目 5 → Lutzow 撃沈！") and whether it `sunk` anything."""
    view = c.view()
    if waiting["effect"] == "squadron":
        left = view["waiting"]["left"] if view["waiting"] and view["waiting"]["kind"] == "pick" else 0
        result, sunk = Text("navalwar_ui.banner_squadron", {"name": c.names[waiting["seat"]], "n": left}), left > 0
    else:
        name = c.session.state.composition.ship_by_id[waiting["ship"]].name
        sunk = not any(s["id"] == waiting["ship"] for f in view["fleets"] for s in f["ships"])
        result = Text("navalwar_ui.banner_sunk" if sunk else "navalwar_ui.banner_survived", {"name": name})
    return {"text": Text("navalwar_ui.banner", {"attack": Text(ATTACKS[waiting["effect"]]), "n": roll,
                                                "result": result}), "sunk": sunk}


def _prompt(c, view: dict) -> list:
    """The lines saying what is awaited."""
    waiting, names = view["waiting"], c.names
    if waiting is None:
        return [Text("navalwar_ui.game_over", {"name": names[view["winner"]]})]
    kind = waiting["kind"]
    if kind == "first":
        return [Text("navalwar_ui.first")]
    if kind == "deal":
        seat = waiting["seat"]
        return [Text("navalwar_ui.deal", {"name": names[seat], "size": SHIPS_IN_HAND.get(view["players"], 5),
                                          "n": len(view["fleets"][seat]["ships"]) + 1})]
    if kind == "harbour":
        return [Text("navalwar_ui.harbour", {"name": names[waiting["seat"]]})]
    who = Text("navalwar_ui.turn_of", {"name": names[view["seat"]]})
    afloat = {s["id"]: (f["seat"], s) for f in view["fleets"] for s in f["ships"]}
    if kind == "die" and waiting["effect"] == "squadron":
        return [who, Text("navalwar_ui.die_squadron", {"name": names[waiting["seat"]]})]
    if kind == "die":
        seat, ship = afloat[waiting["ship"]]
        target = Text("navalwar_ui.ship_target", {"player": names[seat], "name": ship["name"],
                                                  "hits": ship["hits"], "defence": ship["defence"]})
        return [who, Text(f"navalwar_ui.die_{waiting['effect']}", {"target": target})]
    if kind == "strike":
        return [who, Text("navalwar_ui.strike", {"carrier": afloat[waiting["carrier"]][1]["name"]})]
    if kind == "red":
        return [who, Text("navalwar_ui.red", {"card": card_text(waiting["card"])})]
    if kind in ("play", "choose", "stage_hand"):  # shorter than the rules' catalog text
        return [who, Text(f"navalwar_ui.waiting_{kind}")]
    if kind == "draw":  # the card played is entered with the draw; the first turn refills
        return [who, Text("navalwar_ui.waiting_draw" if view["phase"] == "turn" else "navalwar_ui.waiting_refill")]
    return [who, Text(f"navalwar.waiting.{kind}", {"left": waiting.get("left", 0)})]


def _odds(view: dict, seat) -> dict | None:
    """The next draw: red, and each salvo calibre (`mine`: a calibre of `seat`'s guns)."""
    if view["phase"] not in ("stage", "turn"):
        return None
    if view["piles"]["draw"] == 0:
        return {"empty": True, "red": 0.0, "salvo": []}
    mine = {s["calibre"] for s in view["fleets"][seat]["ships"]} if seat is not None else set()
    odds = view["odds"]
    return {"empty": False, "red": odds["red"],
            "salvo": [{"calibre": c, "p": p, "mine": c in mine} for c, p in odds["salvo"].items()]}


def scores(c, view: dict, stage: str | None) -> dict:
    """The scores across rounds: after a round (summary), at the end (over), or now."""
    names = c.names
    back = None  # a second button: "review" steps back into the finished game
    if stage == "over":
        title, button = Text("navalwar_ui.game_over", {"name": names[view["winner"]]}), Text("navalwar_ui.new_game")
        back = Text("navalwar_ui.review")
    elif stage == "summary":
        title, button = Text("navalwar_ui.round_over", {"n": view["round"] - 1}), Text("navalwar_ui.next_round")
    else:
        title, button = Text("navalwar.round", {"n": view["round"]}), Text("navalwar_ui.close")
    points = view["round_points"] if stage is None else view["last_round"]["points"]
    return {"title": title, "button": button, "back": back, "history": view["history"], "players": view["players"],
            "target": view["target"], "header": [Text("navalwar_ui.this_round"), Text("navalwar.totals")],
            "rows": [{"name": names[s], "points": f"{points[s]:+d}", "total": str(view["totals"][s])}
                     for s in range(view["players"])]}
