"""ネイバルウォー Naval War: the screen that tracks a physical game (RULES.md §3).

The table plays with real cards; this screen is told what happened, one
choice panel at a time (action -> card -> target -> die), offering only the
engine's legal actions.  The left side shows the shared table (the public
view): a strip per fleet, the middle, the piles, the odds of the next draw.
A game's `players` are the names in seat order (clockwise).
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import (BooleanProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.button import Button
from kivy.uix.togglebutton import ToggleButton

from companion.errors import CompanionError
from companion.games.navalwar.rules import composition_of
from companion.games.navalwar.data import CALIBRES, card_value, load_composition
from companion.play.session import Session
from companion.ui import theme
from companion.games.navalwar.chart import SEAT_COLOURS
from companion.games.navalwar.choices import ChoiceTree, Labeller, card_label
from companion.games.navalwar.count import CountView
from companion.games.navalwar.fleets import FleetStrip
from companion.games.navalwar.popups import InfoView, ScoresView
from companion.ui.widgets import GameScreen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SCOREBOARD = "navalwar"
INPUT_LOCK_S = 0.2  # after an entry, taps are ignored this long (no double entries)
GOLD_HEX = "".join(f"{int(c * 255):02x}" for c in theme.GOLD[:3])
COMPACT_FROM = 4  # more players than this: one-row fleet strips
SHIP_FILTERS = ("all", *CALIBRES, "carrier")


class ChoiceTile(Button):
    """A button of the choice panel: `step` is its id in the choice tree."""

    step = StringProperty("")
    red = BooleanProperty(False)


class CalibreFilter(ToggleButton):
    """A filter of the ship catalogue: a calibre, "carrier" or "all"."""

    value = StringProperty("")


class NavalWarScreen(GameScreen):
    kind = "navalwar"
    setting_up = BooleanProperty(True)
    player_count = NumericProperty(4)
    target = NumericProperty(100)
    title_text = StringProperty("")
    prompt_text = StringProperty("")
    prompt_colour = ListProperty(theme.PANEL)
    odds_text = StringProperty("")
    last_text = StringProperty("")
    piles_text = StringProperty("")
    discard_text = StringProperty("")
    squadrons_text = StringProperty("")
    extra_text = StringProperty("")  # the panel's extra button (roll, pick at random)
    can_back = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    cataloguing = BooleanProperty(False)
    ship_filter = StringProperty("all")
    choice_cols = NumericProperty(2)
    deck = ObjectProperty(None, allownone=True)  # a `deck` option set by hand (tests)
    deck_text = StringProperty("")  # the set-up panel's line on the cards in play
    deck_broken = BooleanProperty(False)  # the user's card file has a mistake: no new game
    locked = BooleanProperty(False)  # just after an entry: the panel ignores taps

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rng = random.Random()
        self._prefix: list[str] = []
        self._tree: ChoiceTree | None = None
        self._labeller: Labeller | None = None
        self._summary_seen_round = 0
        self._popup = None
        self._tiles: list[ChoiceTile] = []
        self._shown_seat = None
        self._unlock_event = None
        self.catalogue: dict[str, dict] = {}
        # kv ids are weak references: keep both panes alive while one is out of the tree
        self._panes = (self.ids.setup.__self__, self.ids.game.__self__)
        for value in SHIP_FILTERS:
            button = CalibreFilter(value=value, state="down" if value == "all" else "normal")
            button.bind(on_release=lambda b: self.set_filter(b.value))
            (self.ids.filters_all if value == "all" else self.ids.filters).add_widget(button)

    # games -------------------------------------------------------------------

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else the set-up form."""
        self.session = session = session or self.unfinished()
        self._prefix, self.last_text = [], ""
        if session is not None:
            self._summary_seen_round = session.state.view(None)["round"]
        self.setting_up = session is None
        self.refresh()

    def new_game(self) -> None:
        self._close_popup()
        self.abandon_unfinished()
        self.session = None
        self.setting_up = True
        self.refresh()

    def set_players(self, n: int) -> None:
        self.player_count = n
        self._check_deck()
        self._draw_setup()

    def start(self) -> None:
        """Start the game the form describes."""
        n = int(self.player_count)
        names = [(field.text.strip() or field.hint_text) for field in self._name_fields()[:n]]
        try:
            options = {"players": n, "target": int(self.target), "deck": self._deck_option()}
            self.session = Session.start(self.app.store, "navalwar", options, players=names,
                                         scoreboard=SCOREBOARD)
        except CompanionError as err:  # the file changed since, or too few cards for n players
            self._show_deck_error(err, "navalwar_ui.cannot_start")
            return
        self._summary_seen_round = 1
        self._prefix, self.last_text = [], ""
        self.setting_up = False
        self.refresh()

    def _deck_option(self):
        """A new game's `deck` option: the one set by hand, else the file in the
        setting `navalwar.deck` (in full, so a saved game never depends on the
        file again), else None (the packaged composition)."""
        if self.deck is not None:
            return self.deck
        path = self.app.cfg.navalwar.deck
        return load_composition(path).to_json() if path else None

    def _check_deck(self) -> None:
        """Say on the set-up panel which cards a new game uses, or what is wrong."""
        try:
            deck = self._deck_option()
            comp = composition_of({"deck": deck})
        except CompanionError as err:
            self._show_deck_error(err)
            return
        self.deck_broken = False
        path = self.app.cfg.navalwar.deck if self.deck is None else ""
        self.deck_text = (self.tr("navalwar_ui.deck_user", path=Path(path).name,
                                  actions=comp.total_actions,
                                  ships=len(comp.ships))
                          if path else self.tr("navalwar_ui.deck_packaged"))

    def _show_deck_error(self, err: CompanionError, key: str = "navalwar_ui.deck_error") -> None:
        """Put the message where the start button was (cleared by a new check)."""
        self.deck_broken = True
        self.deck_text = self.tr(key, error=str(err))

    def count_deck(self) -> None:
        """Open the "count your deck" walk-through for the cards a new game would use."""
        try:
            comp = composition_of({"deck": self._deck_option()})
        except CompanionError as err:
            self._show_deck_error(err)
            return
        self._open(CountView(comp, self.tr, source=self.deck_text))

    def _name_fields(self):
        return list(reversed(self.ids.names.children))

    # entering actions --------------------------------------------------------

    def choose(self, step: str) -> None:
        """A choice button was tapped: go one step deeper, or play its action."""
        if self._tree is None or self.locked:
            return
        prefix = self._tree.descend(self._prefix)
        choice = next((c for c in self._tree.choices(prefix) if c.id == step), None)
        if choice is None:
            return
        if choice.action is None:
            self._prefix = prefix + [step]
            self.refresh()
        else:
            self._play(choice.action, choice.label)

    def back(self) -> None:
        self._prefix = self._prefix[:-1]
        self.refresh()

    def extra(self) -> None:
        """The companion rolls the die (or picks the first player) at random."""
        if self.locked:
            return
        actions = self.session.state.legal_actions()
        action = self.rng.choice(actions)
        text = (self.tr("navalwar_ui.rolled", n=action["die"]) if "die" in action
                else self.names[action["first"]])
        self._play(action, text)

    def _play(self, action, label: str) -> None:
        self.session.play(action)
        self._prefix = []
        if self.ids.search.text:
            self.ids.search.text = ""  # a name searched for has been found
        self.locked = True
        self._unlock_event = Clock.schedule_once(self._unlock, INPUT_LOCK_S)
        self.last_text = self.tr("navalwar_ui.last", text=label.replace("\n", " "))
        self.refresh()

    def _unlock(self, *_) -> None:
        self.locked = False

    def undo(self) -> None:
        if self.session is None or not self.session.actions:
            return
        self.session.undo(1)
        self._prefix, self.last_text = [], ""
        self.refresh()

    def set_filter(self, value: str) -> None:
        self.ship_filter = value
        if value == "all":
            self.ids.search.text = ""  # "all" really shows all
        self.refresh()

    # popups ------------------------------------------------------------------

    def show_scores(self, finished_round: int | None = None) -> None:
        view = self.session.state.view(None)
        names = self.names
        points = view["round_points"] if finished_round is None else view["last_round"]["points"]
        rows = [(names[s], f"{points[s]:+d}", str(view["totals"][s]))
                for s in range(view["players"])]
        if view["phase"] == "over":
            title = self.tr("navalwar_ui.game_over", name=names[view["winner"]])
            button, action = self.tr("navalwar_ui.new_game"), self.new_game
        elif finished_round is not None:
            title = self.tr("navalwar_ui.round_over", n=finished_round)
            button, action = self.tr("navalwar_ui.next_round"), self._close_popup
        else:
            title = self.tr("navalwar.round", n=view["round"])
            button, action = self.tr("navalwar_ui.close"), self._close_popup
        popup = ScoresView(title=title, history=view["history"], players=view["players"],
                           target=view["target"], button_text=button, action=action)
        popup.fill((self.tr("navalwar_ui.this_round"), self.tr("navalwar.totals")), rows)
        self._open(popup)

    def show_discards(self) -> None:
        view = self.session.state.view(None)
        lines = [f"{card_label(self.tr, key)} ×{n}"
                 for key, n in view["discard"].items() if key != "unseen" and n]
        if view["discard"]["unseen"]:
            lines.append(f"{self.tr('navalwar.unseen_discards')} ×{view['discard']['unseen']}")
        self._open(InfoView(title=self.tr("navalwar.discard_pile"),
                            body="\n".join(lines) or self.tr("navalwar_ui.discard_none")))

    def _open(self, popup) -> None:
        self._close_popup()
        self._popup = popup
        popup.bind(on_dismiss=self._forget_popup)
        popup.open(animation=False)

    def _forget_popup(self, popup) -> None:
        if self._popup is popup:
            self._popup = None

    def _close_popup(self, *_) -> None:
        if self._popup is not None:
            self._popup.dismiss(animation=False)
            self._popup = None

    def close(self) -> None:
        self._close_popup()
        if self._unlock_event is not None:
            self._unlock_event.cancel()

    # drawing -----------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self.session.players) if self.session else []

    def refresh(self) -> None:
        body = self.ids.body
        wanted = self.ids.setup if self.setting_up else self.ids.game
        if wanted.parent is not body:
            body.clear_widgets()
            body.add_widget(wanted)
        self.can_undo = bool(self.session and self.session.actions)
        if self.setting_up:
            self.title_text = self.tr("navalwar.title")
            self._check_deck()
            self._draw_setup()
            return
        view = self.session.state.view(None)
        self.title_text = f"{self.tr('navalwar.title')}  {self.tr('navalwar.round', n=view['round'])}"
        if view["house_rule"]:
            self.title_text += f"  ({self.tr('navalwar.house_rule.' + view['house_rule'])})"
        self._draw_table(view)
        self._draw_panel(view)
        self._maybe_round_summary(view)

    def _draw_setup(self) -> None:
        grid = self.ids.names
        fields = self._name_fields()
        for i, field in enumerate(fields):
            shown = i < self.player_count
            field.hint_text = self.tr("navalwar_ui.default_name", n=i + 1)
            field.opacity = 1 if shown else 0
            field.disabled = not shown
        grid.height = 52 * ((int(self.player_count) + 2) // 3)

    def _draw_table(self, view: dict) -> None:
        names = self.names
        self.piles_text = self.tr("navalwar_ui.piles", **view["piles"])
        self.discard_text = self.tr("navalwar_ui.discard_button", n=view["piles"]["discard"])
        self.squadrons_text = "\n".join(
            self.tr("navalwar_ui.squadron_row", n=q["n"], name=names[q["owner"]],
                    on=names[q["strikes_on_turn_of"]], hits=sum(card_value(k) for k in q["hits"]))
            for q in view["squadrons"])
        strips = self.ids.fleets
        while len(strips.children) < view["players"]:
            strips.add_widget(FleetStrip())
        while len(strips.children) > view["players"]:
            strips.remove_widget(strips.children[0])
        for strip, fleet in zip(reversed(strips.children), view["fleets"]):
            strip.colour = SEAT_COLOURS[fleet["seat"]]
            strip.compact = view["players"] > COMPACT_FROM
            strip.show(fleet, names[fleet["seat"]], view["round_points"][fleet["seat"]],
                       self.tr, fleet["seat"] == view["seat"] and view["phase"] in ("stage", "turn"))
        self._follow(view["seat"])

    def _follow(self, seat: int | None) -> None:
        """Bring the fleet of a new player to move into view (once, so people may scroll)."""
        if seat is None or seat == self._shown_seat:
            return
        self._shown_seat = seat
        strip = list(reversed(self.ids.fleets.children))[seat]
        Clock.schedule_once(lambda dt: self._scroll_to(strip))

    def _scroll_to(self, strip) -> None:
        scroll = self.ids.fleet_scroll
        if self.ids.fleets.height > scroll.height:  # only a list taller than its view scrolls
            scroll.scroll_to(strip, padding=4, animate=False)

    def _draw_panel(self, view: dict) -> None:
        state = self.session.state
        waiting = view["waiting"]
        actions = state.legal_actions()
        self.catalogue = {s.id: s.to_json() for s in state.composition.ships}
        self._labeller = Labeller(view, self.names, self.tr, self.catalogue)
        self._tree = ChoiceTree(actions, self._labeller.paths(actions))
        kind = waiting["kind"] if waiting else None
        self.cataloguing = kind in ("deal", "harbour")
        prefix = self._tree.descend(self._prefix)
        chosen = self._tree.labels(self._prefix) if self._prefix else []
        self.prompt_text = self._prompt(view) + "".join(f"\n› {label}" for label in chosen)
        seat = view["seat"] if kind not in ("deal", "harbour") else waiting["seat"]
        self.prompt_colour = _dim(SEAT_COLOURS[seat]) if seat is not None else theme.PANEL
        self.odds_text = self._odds(view) if view["phase"] in ("stage", "turn") else ""
        self.extra_text = (self.tr("navalwar_ui.roll") if kind == "die"
                           else self.tr("navalwar_ui.pick_random") if kind == "first" else "")
        self.can_back = bool(self._prefix)
        choices = self._tree.choices(prefix)
        if self.cataloguing:
            choices = [c for c in choices if self._ship_matches(c.id.split(":", 1)[1])]
        self.choice_cols = 3 if kind == "die" or self.cataloguing else 2
        grid = self.ids.choices
        grid.clear_widgets()
        while len(self._tiles) < len(choices):  # buttons are reused: building them is slow
            self._tiles.append(ChoiceTile(on_release=lambda b: self.choose(b.step)))
        for tile, c in zip(self._tiles, choices):
            tile.text, tile.step, tile.red = c.label, c.id, c.red
            grid.add_widget(tile)
        self.ids.choice_scroll.scroll_y = 1

    def _ship_matches(self, ship_id: str) -> bool:
        ship = self.catalogue[ship_id]
        wanted = self.ship_filter
        if wanted == "carrier" and not ship["carrier"]:
            return False
        if wanted not in ("all", "carrier") and ship["calibre"] != wanted:
            return False
        text = self.ids.search.text.strip().lower()
        return not text or text in ship["name"].lower() or text == (ship["calibre"] or "")

    def _prompt(self, view: dict) -> str:
        waiting, names = view["waiting"], self.names
        if waiting is None:
            return self.tr("navalwar_ui.game_over", name=names[view["winner"]])
        kind = waiting["kind"]
        if kind == "first":
            return self.tr("navalwar_ui.first")
        if kind == "deal":
            seat = waiting["seat"]
            size = 4 if view["players"] == 9 else 5
            return self.tr("navalwar_ui.deal", name=names[seat], size=size,
                           n=len(view["fleets"][seat]["ships"]) + 1)
        if kind == "harbour":
            return self.tr("navalwar_ui.harbour", name=names[waiting["seat"]])
        who = self.tr("navalwar_ui.turn_of", name=names[view["seat"]])
        if kind == "die":
            effect = waiting["effect"]
            if effect == "squadron":
                return f"{who}\n" + self.tr("navalwar_ui.die_squadron", name=names[waiting["seat"]])
            return f"{who}\n" + self.tr(f"navalwar_ui.die_{effect}",
                                        target=self._labeller.ship_target(waiting["ship"]))
        if kind == "strike":
            carrier = self._labeller.afloat[waiting["carrier"]]["name"]
            return f"{who}\n" + self.tr("navalwar_ui.strike", carrier=carrier)
        if kind == "red":
            return f"{who}\n" + self.tr("navalwar_ui.red", card=card_label(self.tr, waiting["card"]))
        if kind in ("play", "choose", "stage_hand"):  # shorter than the rules' catalog text
            return f"{who}\n" + self.tr(f"navalwar_ui.waiting_{kind}")
        return f"{who}\n" + self.tr(f"navalwar.waiting.{kind}", left=waiting.get("left", 0))

    def _odds(self, view: dict) -> str:
        """The next draw: red, and each salvo calibre (the mover's own in gold)."""
        odds = view["odds"]
        if view["piles"]["draw"] == 0:
            return self.tr("navalwar_ui.odds_none")
        seat = view["seat"]
        mine = {s["calibre"] for s in view["fleets"][seat]["ships"]} if seat is not None else set()
        cells = [(f"[color=#{GOLD_HEX}]{c}″ {_pct(p)}[/color]" if c in mine else f"{c}″ {_pct(p)}")
                 for c, p in odds["salvo"].items()]
        return "\n".join([self.tr("navalwar_ui.odds_red", p=_pct(odds["red"])),
                          "  ".join(cells[:3]), "  ".join(cells[3:])])

    def _maybe_round_summary(self, view: dict) -> None:
        """After a round ends, show its scores once; the next round is already dealt on."""
        if view["phase"] == "over":
            if self._popup is None:
                self.show_scores()
            return
        self._summary_seen_round = min(self._summary_seen_round, view["round"])  # undone
        finished = view["round"] - 1
        if finished >= 1 and view["round"] > self._summary_seen_round:
            self._summary_seen_round = view["round"]
            self.show_scores(finished_round=finished)


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _dim(colour) -> list:
    return [c * 0.55 for c in colour[:3]] + [1]

