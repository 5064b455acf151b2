"""What each game's state says must be in view, checked on every frame the evening sees.

Each function takes a game screen and returns the player's `musts`: a frame (tests/gui/drawn.py)
-> {check: [fault]}.  The state is read through the game's public view or display model
(never a widget): `to_move`, the player whose turn it is is drawn; `items`, every item the
state holds for a list seen is drawn.
"""

from __future__ import annotations

import re

from kivy.app import App

POINTS = re.compile(r"[+-]?\d+")
CUT_PX = 80  # px: a fleet header this near a list's lower edge may have its ships below it


def navalwar(screen):
    """The player to move is named; with few players (strips) their fleet is drawn (its header:
    name and points), with many (cards) every fleet's card is (its name, alone); every ship of
    each fleet whose header is drawn (a strip, or the one fleet shown whole under the cards) is
    drawn."""

    seen = {}  # the view, once per state (the odds in it take a while)

    def musts(frame) -> dict[str, list[str]]:
        if screen.session is None or screen.setting_up:
            return {}
        key = (screen.session.id, screen.session.revision, len(screen.session.actions))
        if key not in seen:
            seen.clear()
            seen[key] = screen.session.state.view(None)
        view = seen[key]
        names = screen.session.players
        headers, cards = {}, {}
        for d in frame.items:
            name, _, points = d.text.rpartition(" ")
            if not d.face and name in names and POINTS.fullmatch(points):
                headers[names.index(name)] = d
            elif not d.face and d.pressable and d.text in names:  # a card's name line
                cards[names.index(d.text)] = d
        waiting = view["waiting"] or {}
        seat = waiting.get("seat", view["seat"])
        faults = {"to_move": [], "items": []}
        if seat is not None and not frame.shows(names[seat]):
            faults["to_move"].append(f"{names[seat]} is to move but that name is drawn nowhere")
        elif seat is not None and not cards and headers and seat not in headers:  # (the deal's catalogue hides them all)
            faults["to_move"].append(f"{names[seat]} is to move but their fleet is not drawn; "
                                     f"the fleets drawn: {[names[s] for s in sorted(headers)]}")
        if cards and len(cards) < len(names):
            faults["items"].append(f"the fleets' cards drawn are {[names[s] for s in sorted(cards)]}, "
                                   f"not every fleet's ({names})")
        shown = {d.text for d in frame.items if not d.face}
        for seat, header in headers.items():
            if not header.whole or any(r[0] <= header.centre[0] <= r[2] and header.rect[1] - r[1] < CUT_PX
                                       for r in frame.below):
                continue  # cut, or at the lower edge of a list with more below: its ships a scroll away
            missing = [s["name"] for s in view["fleets"][seat]["ships"] if s["name"] not in shown]
            if missing:
                faults["items"].append(f"{names[seat]}'s fleet holds {missing}, not drawn (header {header})")
        return faults

    return musts


def _said(thing, lang: str) -> str:
    """A name or message of a display model in words, without spaces (a drawn text may wrap)."""
    words = thing.say(lang) if hasattr(thing, "say") else str(thing)
    return "".join(words.split())


def _drawn(frame, words: str) -> bool:
    return any(words in "".join(d.text.split()) for d in frame.items)


def two_players(screen, lists=()):
    """UTTT, Kuku, Battleship: the display model's words for whose turn it is are drawn (its
    status, or the title of a placing step, or the cover's hand-over: each names the player);
    and each of the model's `lists` (texts that list what the state holds: Battleship's ships
    afloat, Kuku's remaining) in full, when the model has it."""

    def musts(frame) -> dict[str, list[str]]:
        controller = screen.controller
        if controller is None or controller.session is None:
            return {}
        lang = App.get_running_app().lang
        model = controller.display("table")
        faults = {"to_move": [], "items": []}
        turn = model.get("status") or model.get("title") or model.get("cover") or []
        for line in turn if isinstance(turn, list) else [turn]:
            if not _drawn(frame, _said(line, lang)):
                faults["to_move"].append(f"whose turn it is, {_said(line, lang)!r}, is not drawn")
        warned = getattr(screen, "warn_text", "")  # Kuku: an attack on an own ship is warned of in
        for key in lists if not warned else ():  # the remaining line's place, until the next touch
            if model.get(key) and not _drawn(frame, _said(model[key], lang)):
                faults["items"].append(f"the display model's {key} ({_said(model[key], lang)!r}) is not drawn")
        return faults

    return musts
