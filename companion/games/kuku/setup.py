"""The table's stages around a 九九戦艦 game, free of Kivy: the start panel (how to
play, the rule, who starts, the level, the names) and the learning report.

`SetupStages` is part of `KukuController`: it keeps the start panel's choices in
`setup`, and `choosing` / `reporting` say whether those panels are open over the game.
"""

from __future__ import annotations

from companion.games.kuku.report import COMPUTER, store_report
from companion.play.controller import Offer, Refused, Text
from companion.play.session import Session
from companion.store import Lineup

KIND = "kuku"
OPPONENTS = ("2p", "cpu", "tracker")
LEVELS = {"easy": 1, "medium": 2, "hard": 3}
CHOICES = {"opponent": OPPONENTS, "rule": ("basic", "extra"), "first": (0, 1), "level": tuple(LEVELS)}


def choices_of(session: Session) -> dict:
    """The start panel's choices a game was started with."""
    options, lineup = session.record.options, session.lineup
    return {"opponent": lineup.opponent, "rule": options["rule"], "first": options["first"],
            "level": lineup.level or "medium"}


class SetupStages:
    setup = {"opponent": "2p", "rule": "basic", "first": 0, "level": "medium"}
    choosing = reporting = False
    report_name = ""

    def setup_offers(self, stage: str) -> list[Offer]:
        """The table's offers in the setup and report stages."""
        if stage == "report":
            return [Offer("report_name", choices=tuple(store_report(self.store))), Offer("back", Text("kuku_ui.back"))]
        found = [Offer("choose", choices=tuple({name: value} for name, values in CHOICES.items() for value in values)),
                 Offer("start", Text("kuku_ui.start")), Offer("report", Text("kuku_ui.report"))]
        return found + ([Offer("back", Text("kuku_ui.back_to_game"))] if self.session else [])

    def setup_lineup(self) -> Lineup:
        return Lineup.of(self.setup["opponent"], self.setup["level"])

    def setup_scoreboard(self) -> str:
        return self.setup_lineup().scoreboard(KIND)

    def on_choose(self, seat, choice: dict) -> None:
        self.setup = self.setup | choice

    def on_start(self, seat, names) -> None:
        """A new game as the setup describes, with `names` (two, as typed or their defaults);
        an unfinished game it replaces ends counted for nobody."""
        setup = self.setup
        if not (isinstance(names, (list, tuple)) and len(names) == 2 and all(isinstance(n, str) for n in names)):
            raise Refused("kuku_ui.names_needed")
        players = [names[0].strip(), COMPUTER] if setup["opponent"] == "cpu" else [n.strip() for n in names]
        if not all(players):
            raise Refused("kuku_ui.names_needed")
        if self.session is not None and not self.session.state.is_over():
            self.session.abandon()
        options = {"rule": setup["rule"], "first": setup["first"],
                   "mode": "tracker" if setup["opponent"] == "tracker" else "referee"}
        self._adopt(Session.start(self.store, KIND, options, players=players, scoreboard=self.setup_scoreboard(),
                                  lineup=self.setup_lineup()))

    def on_new(self, seat, value) -> None:
        """The start panel, over the game (which stays until Start)."""
        self.choosing, self.reporting = True, False

    def on_back(self, seat, value) -> None:
        if self.reporting:
            self.reporting = False
        else:
            self.choosing = False

    def on_report(self, seat, name) -> None:
        """The learning report: of `name`, else (after a game) its first player's, else the first."""
        over = self.stage() == "over"
        self.reporting = True
        self.report_name = name or (self.session.players[0] if over else "")

    def on_report_name(self, seat, name: str) -> None:
        self.report_name = name
