"""What a 九九戦艦 renderer draws, per stage and per reader: `model(controller, who)`.

JSON values and `Text`s only.  The board's `fleet` is in the rules' spelling
("0:leader@4×6"): a seat's display holds its own fleet, the table's none but, once
the game is over, both.  (The shared screen draws a seat's display only while that
seat places behind the cover.)  A text value is a Text, or a list of Texts (lines).
"""

from __future__ import annotations

from companion.games.kuku.board import is_cell
from companion.games.kuku.report import store_report, weakest_first
from companion.games.kuku.texts import (GOOD_HEX, WRONG_HEX, announcement, coloured, headline,
                                        markers_after, pairs_text, remaining_text, shown_name)
from companion.play.controller import TABLE, Text, Who
from companion.play.session import tally


def model(c, who: Who) -> dict:
    stage, pad = c.stage_of(who), c.pad(who)
    offers = c.offered(who)
    base = {"stage": stage, "on_phone": False, "setup": dict(c.setup), "opponent": c.opponent, "offers": offers,
            "can_undo": any(o.kind == "undo" for o in offers),
            "thinking": stage == "wait",
            "board": {"markers": {}, "fleet": [], "rings": [], "hints": [], "aim": "", "values": True,
                      "interactive": False}}
    if c.session is not None and who in (0, 1):
        base["board"]["fleet"] = c.session.state.view(who).get("fleet", [])
    return base | STAGES[stage](c, who, pad, base["board"])


def own_seat(c) -> int | None:
    """Against the computer, the seat of the player at the table, while the game goes on:
    nobody here is to be kept from its fleet, so the shared screen may show it on request
    (and warn before it attacks its own ship).  None otherwise."""
    if c.session is None or c.opponent != "cpu" or c.session.state.is_over():
        return None
    return next(iter(c.at_table), None)


def _setup(c, who, pad, board) -> dict:
    table = tally(c.store, c.setup_scoreboard())
    defaults = ("you", "cpu") if c.setup["opponent"] == "cpu" else ("red", "blue")
    return {"score": [Text("kuku_ui.score_item", {"name": _person(c, name), "n": row["win"]})
                      for name, row in list(table.items())[:3]],
            "default_names": [Text(f"kuku_ui.{name}") for name in defaults]}


def _person(c, name: str):
    """A stored player as people read it: the computer's role and a default name in words."""
    return Text(f"kuku_ui.{name}") if name in c.ROLES else shown_name(name)


def _report(c, who, pad, board) -> dict:
    table = store_report(c.store)
    names = sorted(table)
    name = c.report_name if c.report_name in table else (names[0] if names else "")
    lines = []
    for product, stats in weakest_first(table.get(name, {})):
        line = Text("kuku_ui.report_row", {"product": product, "wrong": stats.wrong, "tries": stats.tries})
        missed = [pair for pair, _ in stats.missed.most_common(3)]
        if missed:
            line = Text("kuku_ui.two", {"a": line, "b": Text("kuku_ui.report_missed", {"pairs": pairs_text(missed)})})
        lines.append(coloured(WRONG_HEX if stats.wrong else GOOD_HEX, line))
    return {"report": {"names": names[:5], "name": name, "lines": lines or [Text("kuku_ui.report_empty")]}}


def _cover(c, who, pad, board) -> dict:
    seat = c.table_placer()
    if who != TABLE:  # a phone hands nothing over: the other seat places at the table, or (the moment
        # before the table hears of its claim) its own seat is about to place on it
        words = (Text("kuku_ui.other_placing", {"player": c.names[seat]}) if seat not in (None, who)
                 else Text("seats.on_phone", {"player": c.names[who]}))
        return {"cover": words, "cover_button": None}
    if seat is None:  # every fleet still to come goes in on a phone: the table stays covered, saying so
        return {"cover": [Text("seats.on_phone", {"player": c.names[s]}) for s in c.placers() if s in c.remote],
                "cover_button": Text("seats.on_phone_button")}
    name = c.names[seat]
    return {"cover": Text("kuku_ui.hand_to", {"player": name}),
            "cover_button": Text("kuku_ui.i_am", {"player": name})}


def _place(c, who, pad, board) -> dict:
    seat = c.placing(who)
    seat = c.private if seat is None else seat  # (a reader not placing: the table's placer)
    kind = c.kind(who, seat)
    board["interactive"] = kind is not None and c.mine(who, seat)
    status = Text("kuku_ui.place_title", {"player": c.names[seat]})
    others = [s for s in c.placers() if s != seat]
    if kind is None and others and seat in c.remote:  # a phone's fleet is in: the other's still goes in
        status = Text("kuku_ui.other_placing", {"player": c.names[others[0]]})
    return {"status": status, "status_seat": seat, "kinds": c.kinds_left(seat), "kind": kind}


def _public(c, board) -> dict:
    view = c.session.state.view(None)
    board["markers"] = view["markers"]
    return view


def _wait(c, who, pad, board) -> dict:
    view = _public(c, board)
    return {"status": Text("kuku_ui.cpu_placing" if view["phase"] == "place" else "kuku_ui.cpu_thinking"),
            "status_seat": view["to_move"], "said": remaining_text(view["remaining"], c.names)}


def _turn(c, who, pad, board) -> dict:
    """What the play and list stages share: whose turn, the entry and the main button."""
    view = _public(c, board)
    board["interactive"] = c.mine(who, view["to_move"])
    return {"status_seat": view["to_move"], "entry": pad.entry, "primary": c.primary_label(pad.entry),
            "on_phone": on_phone(c, who, view["to_move"])}


def on_phone(c, who, seat: int) -> bool:
    """The table waits for `seat`, which plays on its phone: it offers no input of its own."""
    return who == TABLE and seat in c.remote


def _play(c, who, pad, board) -> dict:
    found = _turn(c, who, pad, board)
    board["aim"] = pad.entry if is_cell(pad.entry) else ""
    names, remaining = c.names, c.session.state.remaining()
    mover = found["status_seat"]
    status = ("kuku_ui.to_attack_phone" if found["on_phone"] else  # the table waits for a phone
              "kuku_ui.to_attack" if who not in c.remote else  # a phone: its keypad only, or it waits
              "kuku_ui.to_attack_keys" if who == mover else "kuku_ui.to_attack_wait")
    return found | {"status": Text(status, {"player": names[mover]}),
                    "said": remaining_text(list(remaining), names)}


def _list(c, who, pad, board) -> dict:
    found = _turn(c, who, pad, board)
    board["values"] = False  # the answer is not on the board while it is being said
    bomb = c.session.state.pending
    status = "kuku_ui.listing_phone" if found["on_phone"] else "kuku_ui.listing"
    return found | {"status": Text(status, {"player": c.names[found["status_seat"]],
                                                       "product": bomb["product"]}),
                    "said": Text("kuku_ui.said", {"pairs": pairs_text(bomb["listing"])})}


def _answer(c, who, pad, board) -> dict:
    view, names = _public(c, board), c.names
    seat, leader = view["awaiting"]["seat"], view["phase"] == "leader"
    board["rings"] = list(view["awaiting"]["cells"])
    answers = [{"value": value, "chosen": value in pad.chosen,
                "label": Text("kuku.leader_sunk_earlier") if value == "earlier" else
                Text("kuku_ui.leader_was" if leader else "kuku_ui.ship_was", {"cell": value})}
               for value in c.answer_options()]
    phone = on_phone(c, who, seat)
    status = "kuku_ui.ask_phone" if phone else "kuku_ui.ask_leader" if leader else "kuku_ui.ask_hits"
    return {"status": Text(status, {"player": names[seat]}), "status_seat": seat, "on_phone": phone, "said": headline(c.session.state.pending["record"], names),
            "answers": answers, "one_answer": leader, "confirm": c.confirm_label(pad.chosen)}


def _attack(board, history: list, shown: int) -> dict | None:
    """The board after the first `shown` attacks, the last of them ringed (and, after a
    failed bomb, the right cells)."""
    board["markers"] = markers_after(history, shown)
    record = history[shown - 1] if shown else None
    if record:
        board["rings"] = list(record["cells"])
        if record["action"] == "bomb" and record["judgement"] != "exact":
            board["hints"] = list(record["correct"])
    return record


def _result(c, who, pad, board) -> dict:
    names = c.names
    record = _attack(board, list(c.session.state.history), c.seen + 1)
    assert record is not None, "the result of an attack made"
    return {"news_title": headline(record, names), "news": announcement(record, names),
            "status_seat": record["by"], "continue": c.continue_label()}


def _over(c, who, pad, board) -> dict:
    view, names = c.session.state.view(None), c.names
    outcome, history = view["outcome"], view["history"]
    winner = outcome["winner"]
    status = Text("kuku_ui.draw") if winner is None else Text("kuku_ui.winner", {"player": names[winner]})
    board["fleet"] = [token for tokens in view.get("fleets", []) for token in tokens]
    record = _attack(board, history, c.review_index)
    review = headline(record, names) if record else None
    return {"status": [status, Text(f"kuku.reason_{outcome['reason']}")], "status_seat": winner,
            "legend": Text("kuku_ui.fleets_legend", {"first": names[0], "second": names[1]}),
            "review_title": Text("kuku_ui.review", {"i": c.review_index, "n": len(history)}),
            "review": [review] + announcement(record, names) if record else [Text("kuku_ui.review_start")]}


STAGES = {"setup": _setup, "report": _report, "cover": _cover, "place": _place, "wait": _wait,
          "play": _play, "list": _list, "answer": _answer, "result": _result, "over": _over}
