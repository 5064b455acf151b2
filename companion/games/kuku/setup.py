"""The table's stages around a 九九戦艦 game, free of Kivy: the start panel's choices
(how to play, the rule, who starts, the level, the names) and the learning report.

`SetupStages` is part of `KukuController` (over `companion.play.two_seats`, which
keeps the panel's choices in `setup` and starts the game): `reporting` says whether
the learning report is open.
"""

from __future__ import annotations

from companion.games.kuku.report import COMPUTER, store_report
from companion.play.controller import Offer, Text, Who
from companion.play.state import Refused

KIND = "kuku"
OPPONENTS = ("2p", "cpu", "tracker")
LEVELS = {"easy": 1, "medium": 2, "hard": 3}
CHOICES = {"opponent": OPPONENTS, "rule": ("basic", "extra"), "first": (0, 1), "level": tuple(LEVELS)}


class SetupStages:
    reporting = False
    report_name = ""

    def setup_offers(self, stage: str) -> list[Offer]:
        """The table's offers in the setup and report stages."""
        if stage == "report":
            return [Offer("report_name", choices=tuple(store_report(self.store))), Offer("back", Text("kuku_ui.back"))]
        found = [Offer("choose", choices=tuple({name: value} for name, values in CHOICES.items() for value in values)),
                 Offer("start", Text("kuku_ui.start")), Offer("report", Text("kuku_ui.report"))]
        return found + ([Offer("back", Text("kuku_ui.back_to_game"))] if self.session else [])

    def on_choose(self, who: Who, seat, choice: dict) -> None:
        self.setup = self.setup | choice

    def on_start(self, who: Who, seat, names) -> None:
        """A new game as the setup describes, with `names` (two, as typed or their defaults)."""
        if not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
            raise Refused("kuku_ui.names_needed")
        players = [names[0].strip(), COMPUTER] if self.setup["opponent"] == "cpu" else [n.strip() for n in names]
        if not all(players):
            raise Refused("kuku_ui.names_needed")
        self.start_game(players)

    def on_new(self, who: Who, seat, value) -> None:
        """The start panel, over the game (which stays until Start)."""
        super().on_new(who, seat, value)
        self.reporting = False

    def on_back(self, who: Who, seat, value) -> None:
        if self.reporting:
            self.reporting = False
        else:
            super().on_back(who, seat, value)

    def on_report(self, who: Who, seat, name) -> None:
        """The learning report: of `name`, else (after a game) its first player's, else the first."""
        over = self.stage() == "over"
        self.reporting = True
        self.report_name = name or (self.session.players[0] if over else "")

    def on_report_name(self, who: Who, seat, name: str) -> None:
        self.report_name = name

    def setup_handlers(self) -> dict:
        return {"choose": self.on_choose, "start": self.on_start, "report": self.on_report,
                "report_name": self.on_report_name}
