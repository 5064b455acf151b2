"""What a Battleship renderer draws, per stage and per reader: `model(controller, who)`.

JSON values and `Text`s only.  A text that is a list holds lines to be joined.  The
sea is a target grid (`marks`, one character a cell as the rules' views draw it); a
fleet appears only in a seat's own model, in the rules' spelling ("0:C3"), and the
table draws it only while that seat holds the screen to place its ships.
"""

from __future__ import annotations

from companion.games.battleship.fleet import CELLS, NAMES, index, label
from companion.games.battleship.rules import own_cell
from companion.games.battleship.texts import news, said
from companion.play.controller import TABLE, Text, Who
from companion.play.session import tally


def model(c, who: Who) -> dict:
    stage, offers = c.stage_of(who), c.offered(who)
    found = {"stage": stage, "setup": dict(c.setup), "offers": offers,
             "can_undo": any(o.kind == "undo" for o in offers), "thinking": c.computer_to_move() is not None,
             "sea": {"marks": "." * CELLS, "rings": [], "aim": None, "interactive": False, "caption": None}}
    if stage == "setup":
        return found | _setup(c)
    found |= {"opponent": c.opponent, "players": c.roles(), "names": c.names,
              "holder": c.holder()}
    if isinstance(who, int):  # a seat's (not TABLE's)
        view = c.session.state.view(who)
        found["fleet"] = view.get("fleet", [])  # its own, hits marked
        found["own_sea"] = "".join(view["boards"][1 - who]["grid"])  # the other's shots at it (public)
    return found | STAGES[stage](c, who, found["sea"])


def _setup(c) -> dict:
    """The panel's choices, and each player's wins on its scoreboard (by role or name as
    played: the screen says those of the players its name fields would start)."""
    opponent = c.setup["opponent"]
    table = tally(c.store, c.setup_scoreboard())
    return {"wins": {player: row["win"] for player, row in table.items()},
            "about": Text(f"battleship_ui.about_{opponent}")}


def _cover(c, who, sea) -> dict:
    name = c.names[c.session.state.to_move()]
    return {"cover": Text("battleship_ui.hand_to", {"player": name}),
            "cover_button": Text("battleship_ui.i_am", {"player": name})}


def _place(c, who, sea) -> dict:
    seat = c.placing(who)
    seat = c.private if seat is None else seat  # (a reader not placing: the table's placer)
    found = {"title": Text("battleship_ui.place_title", {"player": c.names[seat]}),
             "band": c.roles()[seat]}
    if who in c.remote:  # a phone: the hint, then (its fleet in) whom it waits for; both fleets' counts
        other = c.names[1 - seat]
        found["status"] = [found["title"], Text("battleship_ui.place_hint")] if c.to_place(seat) else [
            Text("battleship_ui.fleet_in_wait", {"player": other})]
        found["afloat"] = _fleets(c.session.state.view(None), c.names)
    return found | (_placing(c, seat, sea) if who == seat else {})


def _placing(c, seat: int, sea: dict) -> dict:
    """The placer's own: the ships left, the one in hand, its direction, where it fits."""
    left, ship, direction = c.to_place(seat), c.ship(seat), c.desks[seat].direction
    fits = [own_cell(seat, index(a["cell"])) for a in (c.session.state.legal_actions() if left else [])
            if a["ship"] == ship and a["dir"] == direction]
    sea["interactive"] = bool(left)
    return {"place": {"to_place": left, "ship": ship, "direction": direction, "fits": fits, "done": not left,
                      "names": {name: Text(f"battleship.{name}") for name in left},
                      "rotate": Text("battleship.horizontal" if direction == "h" else "battleship.vertical"),
                      "random": Text("battleship.place_random")}}


def _show_board(sea: dict, view: dict, seat: int) -> None:
    board = view["boards"][seat]
    sea["marks"] = "".join(board["grid"])
    sea["rings"] = [index(shot["cell"]) for shot in board["last"]]


def _result(c, who, sea) -> dict:
    seat, view, names = c.result, c.session.state.view(None), c.names
    _show_board(sea, view, seat)
    return {"title": Text("battleship_ui.result_title", {"player": names[seat]}),
            "band": c.roles()[seat], "news": news(view, names)}


def _play(c, who, sea) -> dict:
    state, names, players = c.session.state, c.names, c.roles()
    review = c.review()
    view = c.shown().view(None)  # a finished game: as it stood where the review is
    phase, shooter = view["phase"], view["turn"]
    if who != TABLE:
        shown = who  # a seat's own screen shows its own target grid
    else:
        if review and review.before:
            home = review.before.turn  # the sea the step shown fired at
        else:
            home = players.index("you") if c.opponent == "cpu" else shooter
        shown = 1 - home if c.view_other else home
    _show_board(sea, view, shown)
    sea["interactive"] = c.shooter(who) is not None
    if phase == "answer":  # the shot awaiting its answer, on the shooter's target grid only
        sea["aim"] = index(view["pending"][0]) if shown == shooter else None
    else:
        sea["aim"] = c.aim(who)
    if sea["aim"] is not None or "?" in sea["marks"]:
        sea["rings"] = []  # gold marks the volley being entered, not beside the one before
    sea["caption"] = Text("battleship_ui.board_of", {"player": names[shown]})
    answering = state.phase == "answer"
    answers = sorted(next((o.choices for o in c.offered(who) if o.kind == "answer"), ()),  # the defender's
                     key=lambda a: (NAMES.index(a["ship"]) if "ship" in a else -1, a["result"] == "sunk"))
    return {"band": players[state.outcome().winner if review else view["to_move"]],
            "status": _status(c, who, state.view(None), names), "answering": answering,
            "answers": answers, "answer_labels": [said(a) for a in answers],
            "news": news(view, names, 2 if c.opponent == "cpu" else 1),
            "afloat": _fleets(view, names),
            "bottom": _bottom(c, who, view)}


def _fleets(view: dict, names: list) -> Text:
    """Each fleet in a line: the ships placed while fleets go in, then the ships afloat."""
    if view["phase"] == "place":
        placed = view["placed"]
        return Text("battleship_ui.placed", {"a": names[0], "na": placed[0], "b": names[1], "nb": placed[1],
                                             "m": len(NAMES)})
    afloat = [view["boards"][1 - seat]["afloat"] for seat in (0, 1)]
    return Text("battleship_ui.afloat", {"a": names[0], "na": afloat[0], "b": names[1], "nb": afloat[1]})


def _status(c, who, view: dict, names: list) -> list[Text]:
    phase, shooter = view["phase"], view["turn"]
    if phase == "over":
        return [Text("battleship.winner", {"player": names[view["winner"]]})]
    if view["to_move"] in c.computer_seats:
        return [Text("battleship_ui.cpu_placing" if phase == "place" else "battleship_ui.cpu_thinking")]
    if phase == "place":  # the seats still placing do so on their phones
        return [Text("battleship_ui.phone_placing", {"player": names[seat], "n": view["placed"][seat],
                                                      "m": len(NAMES)}) for seat in c.placers() if seat in c.remote]
    if phase == "answer":
        return [Text("battleship.phase_answer", {"player": names[1 - shooter], "cell": view["pending"][0]})]
    on_phone = who == TABLE and shooter in c.remote  # the table waits for a phone
    lines = [Text("battleship_ui.to_fire_phone" if on_phone else "battleship_ui.to_fire", {"player": names[shooter]})]
    if view["options"]["variant"] == "salvo" and not on_phone:  # the phone counts its own
        lines.append(Text("battleship.shots_left", {"n": view["shots_allowed"] - len(view["pending"])}))
    return lines


def _bottom(c, who, view: dict) -> dict:
    """The panel's big button: its words (None: no button, the move is not `who`'s), and
    the input it sends (None: not now)."""
    if view["phase"] == "over":
        return {"label": Text("battleship_ui.new_game"), "kind": "new" if who == TABLE else None}
    if not c.mine(who, view["to_move"]):  # a phone's or the computer's move
        return {"label": None, "kind": None}
    fire = "fire" if c.can_fire(who) else None
    if view["options"]["variant"] == "salvo":
        return {"label": Text("battleship_ui.fire_count", {"entered": len(view["pending"]),
                                                           "allowed": view["shots_allowed"]}), "kind": fire}
    aim = c.aim(who)
    if aim is not None:
        return {"label": Text("battleship_ui.fire_at", {"cell": label(aim)}), "kind": fire}
    return {"label": Text("battleship_ui.pick_cell"), "kind": None}


STAGES = {"cover": _cover, "place": _place, "result": _result, "play": _play}
