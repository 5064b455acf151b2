"""Reading 九九戦艦 views for the screen: what an attack did, in words; the computer's turn.

Everything here reads public views and attack records (and, for the computer,
its own seat's view) and a `tr(key, **values)` function; nothing touches Kivy.
"""

from __future__ import annotations

from companion.games.kuku.board import CELL_INDEX

MARKER_HEX = {"red": "ff5a4f", "blue": "5b8cff"}
JOIN = "、"


def pairs_text(pairs: list[str]) -> str:
    return JOIN.join(pairs) if pairs else "—"


def headline(record: dict, names: list[str], tr) -> str:
    """"赤: 3×8 を通常攻撃" / "赤: 九九ボム 24「3×8、8×3」"."""
    who = names[record["by"]]
    if record["action"] == "attack":
        return tr("kuku_ui.did_attack", player=who, cell=record["target"])
    return tr("kuku_ui.did_bomb", player=who, product=record["product"], pairs=pairs_text(record["listing"]))


def verdict(record: dict, tr) -> list[str]:
    """A bomb's judgement; after a failed one, the right listing (the learning moment)."""
    if record["action"] != "bomb":
        return []
    lines = [tr(f"kuku.judgement_{record['judgement']}")]
    if record["judgement"] != "exact":
        faults = record["faults"]
        strays = faults["wrong"] + faults["extra"]
        if faults["omission"]:
            lines.append(tr("kuku_ui.missing", pairs=pairs_text(faults["omission"])))
        if strays:
            lines.append(tr("kuku_ui.stray", pairs=pairs_text(strays)))
        lines.append("[color=7cf59a]" + tr("kuku.correct_listing", pairs=pairs_text(record["correct"])) + "[/color]")
    elif record["already"]:
        lines.append(tr("kuku.already_attacked", cells=pairs_text(record["already"])))
    return lines


def marker_lines(record: dict, tr) -> list[str]:
    """Which marker both players put on their trays, cell by cell."""
    lines = []
    for cell in sorted(record["markers"], key=CELL_INDEX.__getitem__):
        colour = record["markers"][cell]
        word = tr(f"kuku_ui.marker_{colour}")
        lines.append(f"{cell}  [color={MARKER_HEX[colour]}]●[/color] {word}")
    return lines


def hit_lines(record: dict, names: list[str], tr) -> list[str]:
    """Who announced "hit" (and a self-destruct), then the ships left."""
    lines = []
    for seat in (record["by"], 1 - record["by"]):
        cells = record["hits"][seat]
        if cells:
            lines.append(tr("kuku_ui.announced_hit", player=names[seat], cells=pairs_text(cells)))
            if seat == record["by"]:
                lines.append(tr("kuku.self_destruct"))
    if record["cells"] and not any(record["hits"]):
        lines.append(tr("kuku_ui.nobody_hit"))
    return lines


def remaining_text(remaining: list[int], names: list[str], tr) -> str:
    return tr("kuku_ui.remaining", a=names[0], na=remaining[0], b=names[1], nb=remaining[1])


def announcement(record: dict, names: list[str], tr) -> str:
    """The whole news of one attack, as Kivy markup lines."""
    lines = verdict(record, tr)
    if record["markers"]:
        lines.append(tr("kuku_ui.place_markers"))
        lines += marker_lines(record, tr)
    lines += hit_lines(record, names, tr)
    lines.append(remaining_text(record["remaining"], names, tr))
    return "\n".join(lines)


def markers_after(history: list[dict], count: int) -> dict[str, str]:
    """The shared markers once the first `count` attacks were made (for review)."""
    markers: dict[str, str] = {}
    for record in history[:count]:
        markers.update(record["markers"])
    return markers


def fleet_kinds(tokens: list[str]) -> dict[str, str]:
    """Cell → kind from ship tokens such as "leader@4×6"."""
    return {cell: kind for kind, cell in (token.split("@") for token in tokens)}


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
