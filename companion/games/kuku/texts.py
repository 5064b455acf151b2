"""Reading 九九戦艦 views for people: what an attack did, as `Text`s; the computer's turn.

Everything here reads public views and attack records (and, for the computer,
its own seat's view); nothing touches Kivy.  A name is a person's typed name or a
Text (the computer).  Several lines are a list of Texts, which a renderer joins.
Colours are Kivy-style markup (`[color=…]`) inside the catalog's `kuku_ui.coloured`.
"""

from __future__ import annotations

from companion import i18n
from companion.games.kuku.board import CELL_INDEX
from companion.games.kuku.rules import ship_of
from companion.play.controller import Text

MARKER_HEX = {"red": "ff5a4f", "blue": "5b8cff"}
RIGHT_HEX, WRONG_HEX, GOOD_HEX = "7cf59a", "ff8a80", "9be7a6"


DEFAULT_NAMES = ("red", "blue", "you")  # the start panel's names for a field left empty


def shown_name(name: str):
    """A player's name as people read it: a default name is stored as it read when the game
    began (「赤」), so it is that default's Text and reads in the app's language now; a typed
    name stays as typed."""
    word = next((w for w in DEFAULT_NAMES for lang in i18n.LANGUAGES
                 if i18n.translate(f"kuku_ui.{w}", lang) == name), None)
    return Text(f"kuku_ui.{word}") if word else name


def pairs_text(pairs: list[str]) -> Text | str:
    """The pairs listed as each language lists them: 「3×8、8×3」, "3×8, 8×3"."""
    if len(pairs) < 2:
        return pairs[0] if pairs else "—"
    return Text("kuku_ui.pairs", {"first": pairs[0], "rest": pairs_text(pairs[1:])})


def coloured(hex_colour: str, text: Text) -> Text:
    return Text("kuku_ui.coloured", {"hex": hex_colour, "text": text})


def headline(record: dict, names: list) -> Text:
    """"赤: 3×8 を通常攻撃" / "赤: 九九ボム 24「3×8、8×3」"."""
    who = names[record["by"]]
    if record["action"] == "attack":
        return Text("kuku_ui.did_attack", {"player": who, "cell": record["target"]})
    return Text("kuku_ui.did_bomb", {"player": who, "product": record["product"],
                                     "pairs": pairs_text(record["listing"])})


def verdict(record: dict) -> list[Text]:
    """A bomb's judgement; after a failed one, the right listing (the learning moment)."""
    if record["action"] != "bomb":
        return []
    lines = [Text(f"kuku.judgement_{record['judgement']}")]
    if record["judgement"] != "exact":
        faults = record["faults"]
        strays = faults["wrong"] + faults["extra"]
        if faults["omission"]:
            lines.append(Text("kuku_ui.missing", {"pairs": pairs_text(faults["omission"])}))
        if strays:
            lines.append(Text("kuku_ui.stray", {"pairs": pairs_text(strays)}))
        lines.append(coloured(RIGHT_HEX, Text("kuku.correct_listing", {"pairs": pairs_text(record["correct"])})))
    elif record["already"]:
        lines.append(Text("kuku.already_attacked", {"cells": pairs_text(record["already"])}))
    return lines


def marker_lines(record: dict) -> list[Text]:
    """Which marker both players put on their trays, cell by cell."""
    return [Text("kuku_ui.marker_line", {"cell": cell, "hex": MARKER_HEX[record["markers"][cell]],
                                         "word": Text(f"kuku_ui.marker_{record['markers'][cell]}")})
            for cell in sorted(record["markers"], key=CELL_INDEX.__getitem__)]


def hit_lines(record: dict, names: list) -> list[Text]:
    """Who announced "hit" (and a self-destruct)."""
    lines = []
    for seat in (record["by"], 1 - record["by"]):
        cells = record["hits"][seat]
        if cells:
            lines.append(Text("kuku_ui.announced_hit", {"player": names[seat], "cells": pairs_text(cells)}))
            if seat == record["by"]:
                lines.append(Text("kuku.self_destruct"))
    if record["cells"] and not any(record["hits"]):
        lines.append(Text("kuku_ui.nobody_hit"))
    return lines


def remaining_text(remaining: list[int], names: list) -> Text:
    """「残り Aki 3隻・コンピューター 3隻」, each name with its count kept on one line."""
    a, b = (name.replace(" ", i18n.NO_BREAK) if isinstance(name, str) else name for name in names)
    return Text("kuku_ui.remaining", {"a": a, "na": remaining[0], "b": b, "nb": remaining[1]})


def announcement(record: dict, names: list) -> list[Text]:
    """The whole news of one attack, line by line."""
    lines = verdict(record)
    if record["markers"]:
        lines.append(Text("kuku_ui.place_markers"))
        lines += marker_lines(record)
    return lines + hit_lines(record, names) + [remaining_text(record["remaining"], names)]


def markers_after(history: list[dict], count: int) -> dict[str, str]:
    """The shared markers once the first `count` attacks were made (for review)."""
    markers: dict[str, str] = {}
    for record in history[:count]:
        markers.update(record["markers"])
    return markers


def fleet_kinds(tokens: list[str]) -> dict[str, str]:
    """Cell → kind from ship tokens such as "0:leader@4×6"."""
    return {cell: kind for kind, cell in map(ship_of, tokens)}


def fleet_owners(tokens: list[str]) -> dict[str, list[tuple[int, str]]]:
    """Cell → [(seat, kind), ...] from ship tokens such as "0:leader@4×6": after the game both
    fleets are shown, and both players may hold the same cell."""
    owners: dict[str, list[tuple[int, str]]] = {}
    for token in tokens:
        kind, cell = ship_of(token)
        owners.setdefault(cell, []).append((int(token.split(":")[0]), kind))
    return owners


def computer_turn(ai, state, seat: int) -> list:
    """The computer's actions until its step is done: its fleet, or one whole attack.

    The computer sees only `state.view(seat)`; the state is used to read the
    view again after each of its own actions (a bomb is several).
    """
    actions, attacks = [], len(state.history)
    while state.to_move() == seat and len(state.history) == attacks:
        action = ai.act(state.view(seat))
        state = state.apply(action)
        actions.append(action)
    return actions
