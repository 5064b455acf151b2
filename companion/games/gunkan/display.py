"""The display model of a 軍艦将棋 game: what a renderer draws, for the table or a seat.

Built from the public view only (`GunkanState.view(None)`): outcomes, never a weight,
a rank or a fought ship's class until the identify report at the end.  A seat's model
is the table's with that seat's offers: what a player knows of their own pieces they
know from the board.  Texts are `Text`s; a *line* is a list of `Text`s and literal
strings, drawn side by side.  Tones name colours: "panel", "gold", "warn", "accent",
"seat0", "seat1".
"""

from __future__ import annotations

from companion.play.controller import TABLE, Offer, Text

BUTTON_KINDS = ("mode", "attack", "declare", "counterweight", "mine", "weighed", "cancel", "new_game")


def model(c, who) -> dict:
    offers = c.offered(who)
    kinds = {(o.kind, o.choices[:1]) for o in offers}
    shown = {
        "stage": c.stage(), "judging": c.session.state.judging if c.session else None,
        "offers": offers, "buttons": [_button(c, o) for o in offers if o.kind in BUTTON_KINDS],
        "pans": [p.kind for p in c.pans], "has_sensor": c.seesaw is not None, "weighing": c.weighing,
        "can_undo": ("ask", ("undo",)) in kinds, "can_end": ("ask", ("end",)) in kinds,
        "tray": _tray(c) if who == TABLE else None,
        "question": _question(c) if who == TABLE else None,
        "cue": {"n": c.cue[0], "sound": c.cue[1]} if c.cue else None,
        "pan_tones": ["text", "text"],  # in a battle: the attacker's colour left, the defender's right
        "report": False,  # the detail is the end's report, read line by line (else lines centred under `big`)
    }
    if c.session is None:
        return shown | {"prompt": Text("gunkan_ui.new_game"), "tone": "panel", "big": None,
                        "detail": [[Text("gunkan_ui.first_game_hint")]], "log": []}
    view = c.session.state.view(None)
    shown["log"] = _log(view)
    if who in (0, 1):
        shown["mine"] = _mine(c.session.state.view(who), who)
    if view.get("battle"):
        shown["pan_tones"] = [f"seat{view['battle']['attacker']}", f"seat{view['battle']['defender']}"]
    stage = shown["stage"]
    review = c.review()
    if review and not review.at_end:
        return shown | _step(review.state.view(None), view)
    if stage == "over":
        return shown | _over(view)
    if stage in ("idle", "verdict"):
        last = view["log"][-1] if view["log"] else None
        prompt, tone = ("gunkan_ui.remove_from_pans", "gold") if stage == "verdict" else ("gunkan_ui.idle", "panel")
        big = Text(f"gunkan.verdict.{last['verdict']}") if last else None
        detail = _removals(last) if last else []
        if c.called_off() or c.undone():  # the last battle has no verdict: none shown, nothing to remove
            big = Text("gunkan_ui.undone" if c.undone() else "gunkan_ui.called_off")
            detail = [[Text("gunkan_ui.undone_return")]] if c.undone() else []
            if any(p.kind != "empty" for p in c.pans):
                prompt, tone = "gunkan_ui.called_off_return", "gold"
        off = _off_zero(c, stage)
        text = Text("gunkan_ui.off_zero", {"pan": Text(f"gunkan_ui.off_zero_pan.{off}")}) if off else Text(prompt)
        return shown | {"prompt": text, "tone": "warn" if off else tone, "big": big, "detail": detail}
    asked, tone = _battle_prompt(c, view)
    return shown | {"prompt": asked, "tone": tone, "detail": [],
                    "big": Text("gunkan_ui.mine_boom") if view["phase"] == "mine" else None}


def _off_zero(c, stage: str) -> str | None:
    """"left", "right" or "both" when a pan that should be empty is not: too far from zero to be
    zeroed before a 勝負, or (the pieces of the verdict lifted) weighing like no piece."""
    pans = set(c.off_zero)
    if stage == "verdict":
        pans |= {i for i, p in enumerate(c.pans) if p.kind == "loaded" and p.reason == "misfit"}
    return {frozenset({0}): "left", frozenset({1}): "right", frozenset({0, 1}): "both"}.get(frozenset(pans))


def seat_name(seat: int) -> Text:
    return Text(f"gunkan.seat.{seat}")


def _button(c, offer: Offer) -> dict:
    value = offer.choices[0] if offer.choices else None
    if offer.kind in ("mode", "new_game") or (value == "tap" and c.counterweight_tap):
        tone = "accent"
    elif offer.seat is not None:
        tone = f"seat{offer.seat}"
    else:
        tone = "panel"
    return {"name": offer.kind if value is None else f"{offer.kind}:{value}", "kind": offer.kind,
            "value": value, "label": offer.label, "tone": tone}


def _tray(c) -> dict | None:
    """A virtual tray (on a simulated seesaw): `attacker_next` while the attacker is asked about the
    counterweight or said it is on before the defender placed (it is then the next piece).  Only
    the tray knows what lies on a pan, so it chooses the pan it opens on from that."""
    if not c.virtual:
        return None
    battle = c.state.current if c.session else None
    if battle is None:
        return {"attacker_next": False}
    said_on = c.counterweight_tap if c.identify else bool(battle.counterweight and not battle.counterweight_off)
    return {"attacker_next": c.state.phase == "counterweight" or (said_on and c.pans[1].kind == "empty")}


def _question(c) -> dict | None:
    if c.question is None:
        return None
    yes_no = {"yes": Text("app.yes"), "no": Text("app.no"), "close": Text("gunkan_ui.close")}
    if c.question == "undo":
        title, labels = Text("gunkan_ui.undo_confirm"), yes_no
    elif c.question.startswith("end:"):
        kind, seat = c.question.split(":")[1:]
        title = Text("gunkan_ui.end_confirm", {"end": Text(f"gunkan_ui.{kind}", {"seat": seat_name(int(seat))})})
        labels = yes_no
    else:
        title, labels = Text("gunkan_ui.end_game"), {"close": Text("gunkan_ui.close")}
    answers = []
    for answer in c.answers():
        kind, _, seat = answer.partition(":")
        label = labels.get(answer) or Text(f"gunkan_ui.{kind}", {"seat": seat_name(int(seat))})
        answers.append({"name": answer, "label": label})
    return {"name": c.question, "title": title, "answers": answers}


def _battle_prompt(c, view: dict) -> tuple[Text, str]:
    phase, battle = view["phase"], view["battle"]
    tone = f"seat{view['to_move']}"
    if phase == "declare" and view["judging"] == "seesaw":
        return Text("gunkan_ui.declare", {"seat": seat_name(battle["defender"])}), tone
    if phase == "counterweight":
        return Text("gunkan_ui.counterweight", {"seat": seat_name(battle["attacker"])}), tone
    if phase == "mine":
        return Text("gunkan.prompt.mine_hit"), tone
    if c.seesaw is None:
        return Text("gunkan_ui.no_sensor"), tone
    if c.notice:
        return c.notice, "warn"
    if view["prompt"] == "remove_counterweight":
        return Text("gunkan.prompt.remove_counterweight"), "warn"
    refused = next((p for p in c.pans if p.kind == "refused"), None)
    if refused is not None:
        return Text(f"gunkan_ui.refused.{refused.reason}"), "warn"
    if c.weighing:
        return Text(f"gunkan_ui.{c.wait_note or 'weighing'}"), "warn" if c.wait_note == "table_shaking" else "gold"
    return Text("gunkan_ui.place_both"), tone


def _removals(entry: dict) -> list[list]:
    return [[seat_name(entry[side]), ": ", Text(f"gunkan.remove.{entry['remove'][side]}")]
            for side in ("attacker", "defender") if entry["remove"][side]]


def _log(view: dict) -> list[list]:
    """The public log, newest first: outcomes only."""
    if not view["log"]:
        return [[Text("gunkan_ui.log_empty")]]
    lines = []
    for entry in reversed(view["log"]):
        line = [Text("gunkan_ui.log_entry", {
            "n": entry["n"], "attacker": seat_name(entry["attacker"]), "defender": seat_name(entry["defender"]),
            "declared": Text(f"gunkan.declared.{entry['declared']}"),
            "verdict": Text(f"gunkan.verdict.{entry['verdict']}")})]
        if entry.get("counterweight"):
            line.append(Text("gunkan_ui.log_counterweight"))
        lines.append(line)
    return lines


def _over(view: dict) -> dict:
    winner = view["outcome"]["winner"]
    return {"prompt": Text("gunkan.prompt.over"), "tone": "panel" if winner is None else f"seat{winner}",
            "report": True,
            "big": Text(f"gunkan.outcome.{view['outcome']['reason']}",
                        {"winner": "" if winner is None else seat_name(winner)}),
            "detail": _report(view) if "report" in view else []}


def battle_stops(review) -> list[int]:
    """Where a review stops (counts of actions): the start, after each battle, the end."""
    states = review.states
    return sorted({0, review.n} | {i for i in range(1, len(states))
                                    if len(states[i].battles) != len(states[i - 1].battles)})


def review_text(review) -> Text:
    """Where the review stands, in battles: "勝負 3 / 10", at the end "終局（勝負 10）"."""
    fought = len(review.states[-1].battles)
    if review.at_end:
        return Text("gunkan_ui.review_end", {"n": fought})
    return Text("gunkan_ui.review_at", {"i": len(review.state.battles), "n": fought})


def _step(then: dict, end: dict) -> dict:
    """A finished game's review, `then` the table's view after a battle (or at the start): the log
    so far and that battle's verdict (its pieces too when the end reveals them, `end`'s report)."""
    entry = then["log"][-1] if then["log"] else None
    if entry is None:
        return {"log": _log(then), "prompt": Text("gunkan.prompt.over"), "tone": "panel",
                "big": Text("gunkan_ui.review_start"), "detail": []}
    detail = _removals(entry)
    if "report" in end and entry["n"] <= len(end["log"]):
        detail.append(_report(end)[entry["n"]])  # identify judging: the pieces of that battle
    return {"log": _log(then), "prompt": Text("gunkan.prompt.over"), "tone": "panel",
            "big": Text(f"gunkan.verdict.{entry['verdict']}"), "detail": detail}


def _report(view: dict) -> list[list]:
    """Judging "identify", at the end: every battle with its pieces, and each side's losses."""
    piece = lambda name: Text(f"gunkan.piece.{name}") if name else "?"  # noqa: E731
    lines: list[list[Text | str]] = [[Text("gunkan.report.title")]]
    for entry in view["log"]:
        lines.append([Text("gunkan_ui.report_battle", {
            "n": entry["n"], "attacker": piece(entry.get("attacker_piece")),
            "defender": piece(entry.get("defender_piece")), "verdict": Text(f"gunkan.verdict.{entry['verdict']}")})])
    for seat, tally in enumerate(view["report"]):
        lost = [part for n, (name, count) in enumerate(tally["lost"].items())
                for part in ([Text("gunkan_ui.list_sep")] if n else []) + [piece(name), f"×{count}"]]
        head = Text("gunkan_ui.report_lost", {"seat": seat_name(seat)})
        lines.append([head, *(lost or [Text("gunkan_ui.report_none")])])
    return lines


def _mine(view: dict, seat: int) -> dict:
    """What a seat knows of its own side (its phone's): what it took off the board (public),
    and, judging "identify", its losses and what it has left by class, and the piece it
    fought each battle with (`pieces`, spelled as its view spells them: "0:carrier")."""
    removed = view["removed"][seat]
    found = {"removed": Text("gunkan_ui.phone_removed", {"ships": removed["ships"], "mines": removed["mines"]}),
             "lost": [], "left": [], "pieces": []}
    if "my_losses" in view:
        piece = lambda name, n: [Text(f"gunkan.piece.{name}"), f" ×{n}"]  # noqa: E731
        tally = view["my_losses"]
        found["lost"] = [piece(name, n) for name, n in tally["lost"].items()] or [[Text("gunkan_ui.report_none")]]
        found["left"] = [piece(name, n) for name, n in tally["remaining"].items() if n]
        found["pieces"] = [[f"{entry['n']}. ", Text(f"gunkan.piece.{entry['my_piece'].split(':')[1]}"),
                            " → ", Text(f"gunkan.verdict.{entry['verdict']}")]
                           for entry in reversed(view["log"]) if entry.get("my_piece")]
    return found


def render(line: list, tr) -> str:
    """A line in words, through `tr(key, **values)`."""
    return "".join(part if isinstance(part, str) else part.render(tr) for part in line)
