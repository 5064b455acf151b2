"""ネイバルウォー Naval War: the screen that tracks a physical game (docs/rules.md §navalwar).

The screen draws `NavalWarController.display(TABLE)` and forwards every tap to it (its
controller.py holds the flow of play: the stages, whose entry is awaited, each step's
choices, undo).  Kept here is only what a screen owns: its panes and pop-ups, the ship
catalogue's search, the input lock after an entry or a step deeper, the new choices drawn
once it lifts (ui/input_lock.py).  The left side shows the shared table: the piles with
the next draw's chance of red (the full odds: behind the discards button), and the fleets,
a target tapped on them: two players a strip each (fleets.py; the list scrolls to the
player to move only once no finger is near, still.py), three or more a card each, all in
view, one fleet's ships under them (cards.py); the right side the choices, where a die's banner stands in for the prompt, and a turn's main
entries (カードを引く, 航空攻撃) in a row under them that never scrolls; the deal's
catalogue takes the whole width, its names flowing.  `players`: the names in seat order (clockwise).
"""

from __future__ import annotations

import random
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import (AliasProperty, BooleanProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)

from companion.games.navalwar.screen.cards import ManyFleets
from companion.games.navalwar.screen.chart import SEAT_COLOURS
from companion.games.navalwar.controller import NavalWarController
from companion.games.navalwar.screen.count import CountView
from companion.games.navalwar.screen.fleets import FleetStrip
from companion.games.navalwar.screen.popups import InfoView, ScoresView
from companion.games.navalwar.slots import SalvoSlots
from companion.games.navalwar.screen.still import Follow, JoinedShips, Stillness
from companion.games.navalwar.screen.tiles import ChoiceTile, FirstButton
from companion.play.controller import TABLE, Text
from companion.ui import theme
from companion.ui.controller_screen import ControllerScreen
from companion.ui.input_lock import InputLock

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

GOLD_HEX = "".join(f"{int(c * 255):02x}" for c in theme.GOLD[:3])
STRIPS_UP_TO = 2  # players: a strip per fleet (three overflow: five long names wrap to two rows); more, a card each
FIRST_ON_FORM = 5  # up to this many players, the start form names who plays first
START_MIN_WIDTH = 110  # px the plain Start keeps beside the first-player buttons
NEW_CHOICES_S = 0.4  # s: new buttons wait for the finger (a double tap's second touch comes within 0.3 s)


class NavalWarScreen(ControllerScreen):
    kind = "navalwar"
    setting_up = BooleanProperty(True)
    player_count = NumericProperty(4)
    target = NumericProperty(100)
    dice = StringProperty("table")  # who rolls: "table" or "companion" (the game's option)
    title_text = StringProperty("")
    prompt_text = StringProperty("")
    prompt_colour = ListProperty(theme.PANEL)
    last_text = StringProperty("")
    piles_text = StringProperty("")
    discard_text = StringProperty("")
    squadrons_text = StringProperty("")
    squadrons_room = NumericProperty(0)  # px the squadrons' lines keep for the round: the fleets never move up
    many = BooleanProperty(False)  # more players than STRIPS_UP_TO: the fleets as cards
    extra_text = StringProperty("")  # the panel's extra button (roll, pick at random)
    can_back = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    cataloguing = BooleanProperty(False)
    # px the prompt is fitted to: three lines, one beside the catalogue (a die's banner may grow the head)
    prompt_room = AliasProperty(lambda self: 48 if self.cataloguing else 96, bind=["cataloguing"])
    banner_text = StringProperty("")  # what the die just entered did, large
    banner_sunk = BooleanProperty(False)
    choices_shown = BooleanProperty(True)  # False while an entry's input lock is held: no new button under its finger
    deck = ObjectProperty(None, allownone=True)  # a `deck` option set by hand (tests)
    deck_text = StringProperty("")  # the set-up panel's line on the cards in play
    deck_broken = BooleanProperty(False)  # the user's card file has a mistake: no new game with it
    deck_fallback = BooleanProperty(False)  # ... but one with the packaged cards (a button offers it)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rng = random.Random()
        self.model: dict = {}
        self._popup = None
        self._popup_stage = None  # the stage whose scores the open pop-up shows
        self._tiles: list[ChoiceTile] = []
        self.input_lock = InputLock(on_release=lambda: setattr(self, "choices_shown", True))
        self._steps = None  # the panel drawn: its choices' ids
        self._salvo_slots = SalvoSlots()
        self._still = Stillness()  # the fleet list moves only while no finger is near (still.py)
        self._joined = JoinedShips(self._still, self.refresh)
        self._many = ManyFleets(self.ids.many, self._still, self.choose)
        self._follow = Follow(self._still, self.ids.fleet_scroll)
        # kv ids are weak references: keep both panes alive while one is out of the tree
        self._panes = (self.ids.setup.__self__, self.ids.game.__self__)
        self._fleet_views = (self.ids.fleet_scroll.__self__, self.ids.many.__self__)  # one in the tree
        self.ids.fleet_area.remove_widget(self.ids.many)
        self._room_round = None
        self.ids.squadrons.bind(texture_size=self._keep_squadrons_room)
        for field in self._name_fields():  # the start buttons say the names as typed
            field.bind(text=lambda *_: self.draw_firsts())

    # games -------------------------------------------------------------------

    def show(self, session) -> None:
        """Open `session`, else the unfinished game, else the set-up form."""
        self._close_popup()
        controller = NavalWarController.open(self.store, session, self.app.cfg.navalwar.deck, self.rng)
        controller.deck = self.deck
        self.last_text = ""
        self.take(controller)

    def on_target(self, _screen, target) -> None:
        if self.controller is not None and self.controller.setup["target"] != target:
            self.act("target", int(target))

    def on_deck(self, _screen, deck) -> None:
        if self.controller is not None:
            self.controller.deck = deck
            self.refresh()

    def start(self, first: int | None = None) -> None:
        """Start the game the form describes (an empty name is its default), with `first`
        playing first (None: chosen on the next panel)."""
        names = [(field.text.strip() or field.hint_text) for field in self._name_fields()]
        names = names[:int(self.player_count)]
        if first is None:
            self.act("start", names)
        else:
            self.act("start_first", {"names": names, "first": first})

    def _name_fields(self):
        return list(reversed(self.ids.names.children))

    # entering actions --------------------------------------------------------

    def choose(self, step: str) -> None:
        """A choice button was tapped: go one step deeper, or play its action."""
        self._entered(lambda: self.act("choose", step))

    def extra(self) -> None:
        """The companion rolls the die (or picks the first player) at random."""
        self._entered(lambda: self.act("random"))

    def _entered(self, act) -> None:
        """`act`; after an entry the search cleared; after new choices (an entry's, a step deeper's) the
        input lock held and the buttons drawn once it lifts: a double tap's second touch never presses them."""
        if self.input_lock.held:
            return
        before = (len(self.session.actions) if self.session else 0, self._steps)
        act()
        if self.session and len(self.session.actions) != before[0]:
            self.ids.search.text = ""  # a name searched for has been found
        if self.session and (len(self.session.actions), self._steps) != before:
            self.input_lock.hold(NEW_CHOICES_S)
            self.choices_shown = False

    # popups ------------------------------------------------------------------

    def show_scores(self) -> None:
        """The scores so far (the chart button)."""
        self._open_scores(self.model["chart"], None)

    def _open_scores(self, scores: dict, stage: str | None) -> None:
        actions = {"over": lambda: self.act("new"), "summary": lambda: self.act("continue"), None: self._close_popup}
        popup = ScoresView(title=scores["title"].render(self.tr), history=scores["history"],
                           players=scores["players"], target=scores["target"],
                           button_text=scores["button"].render(self.tr), action=actions[stage],
                           back_text=scores["back"].render(self.tr) if scores["back"] else "",
                           back=lambda: self.act("review", -1))
        popup.fill(tuple(t.render(self.tr) for t in scores["header"]),
                   [(row["name"], row["points"], row["total"]) for row in scores["rows"]])
        self._open(popup)
        self._popup_stage = stage

    def show_discards(self) -> None:
        """The discard pile, and what the next draw may be (the odds)."""
        odds = self._odds(self.model["odds"])
        body = "\n".join(t.render(self.tr) for t in self.model["discards"])
        self._open(InfoView(title=self.tr("navalwar.discard_pile"), body=body + ("\n\n" + odds if odds else "")))

    def show_walkthrough(self) -> None:
        """A first game, step by step (the start form's button)."""
        self._open(InfoView(title=self.tr("navalwar_ui.walkthrough_title"), body=self.tr("navalwar_ui.walkthrough"),
                            size=(760, 440)))

    def _open(self, popup) -> None:
        self._close_popup()
        self._popup = popup
        popup.bind(on_dismiss=self._forget_popup)
        popup.open(animation=False)

    def _forget_popup(self, popup) -> None:
        if self._popup is popup:
            self._popup, self._popup_stage = None, None

    def _close_popup(self, *_) -> None:
        if self._popup is not None:
            self._popup.dismiss(animation=False)
            self._popup, self._popup_stage = None, None

    def close(self) -> None:
        super().close()
        self._close_popup()
        self._still.cancel()

    # drawing -----------------------------------------------------------------

    def refresh(self) -> None:
        if self.controller is None:
            return
        self.model = model = self.controller.display(TABLE)
        tr = self.tr
        self.setting_up = model["stage"] in ("setup", "count")
        body = self.ids.body
        wanted = self.ids.setup if self.setting_up else self.ids.game
        if wanted.parent is not body:
            body.clear_widgets()
            body.add_widget(wanted)
        self.can_undo = model["can_undo"]
        self.player_count, self.target = model["setup"]["players"], model["setup"]["target"]
        self.dice = model["setup"]["dice"]
        self.title_text = " ".join(t.render(tr) for t in model["title"])
        self.last_text = model["last"].render(tr).replace("\n", " ") if model["last"] else ""
        if self.setting_up:
            self._draw_setup(model)
            self._draw_count(model["count"])
            return
        self._draw_table(model)
        self._draw_panel(model)
        self._draw_summary(model["stage"], model["summary"])

    def _draw_setup(self, model: dict) -> None:
        self.deck_text = model["deck"]["text"].render(self.tr)
        self.deck_broken = model["deck"]["broken"]
        self.deck_fallback = model["deck"]["packaged"]
        grid = self.ids.names
        for i, (field, name) in enumerate(zip(self._name_fields(), model["default_names"])):
            shown = i < self.player_count
            field.hint_text = name.render(self.tr)
            field.opacity = 1 if shown else 0
            field.disabled = not shown
        grid.height = 52 * ((int(self.player_count) + 2) // 3)
        self.draw_firsts()

    def draw_firsts(self) -> None:
        """One "starts first" button per player, named as on the form, where they fit beside
        Start (few players, short names); else Start asks on the next panel."""
        row, n = self.ids.firsts, int(self.player_count)
        row.clear_widgets()
        if n > FIRST_ON_FORM:
            return
        buttons = []
        for seat, field in enumerate(self._name_fields()[:n]):
            button = FirstButton(text=self.tr("navalwar_ui.start_first", name=field.text.strip() or field.hint_text),
                                 on_release=lambda _b, s=seat: self.start(s))
            button.texture_update()
            buttons.append(button)
        needed = sum(b.width + row.spacing for b in buttons)  # kv sizes a button by its texture
        if needed + START_MIN_WIDTH > row.parent.width:
            return
        for button in buttons:
            row.add_widget(button)

    def _draw_count(self, count: dict | None) -> None:
        """The "count your deck" pop-up while it is open (any other closes on the form)."""
        view = self._popup if isinstance(self._popup, CountView) else None
        if count is None:
            self._close_popup()
            return
        if view is None:
            view = CountView(self.controller.counting, self.act, source=self.deck_text)
            self._open(view)
            view.bind(on_dismiss=lambda *_: self.act("count_close"))
        view.show(count, self.tr)

    def _draw_table(self, model: dict) -> None:
        tr = self.tr
        odds = model["odds"]
        red = "" if odds is None or odds["empty"] else "　" + tr("navalwar_ui.odds_red", p=_pct(odds["red"]))
        self.piles_text = model["piles"].render(tr) + red
        self.discard_text = model["discard_button"].render(tr)
        self.squadrons_text = "\n".join(t.render(tr) for t in model["squadrons"])
        playing = any(f["is_turn"] for f in model["fleets"])
        fleets = [self._joined.shown(fleet, (self.session.id, model["round"]), playing, model["targets"])
                  for fleet in model["fleets"]]
        self.many = model["players"] > STRIPS_UP_TO
        area, shown = self.ids.fleet_area, self._fleet_views[self.many]
        if shown.parent is not area:  # (out of the tree, the other takes no touch)
            area.clear_widgets()
            area.add_widget(shown)
        strips = self.ids.fleets
        if self.many:
            strips.clear_widgets()
            self._many.draw(fleets, tr, model["targets"], model["fleet_targets"], model["seat"],
                            (self.session.id, model["round"]))
            return
        self._many.clear()
        while len(strips.children) < model["players"]:
            strips.add_widget(FleetStrip())
        while len(strips.children) > model["players"]:
            strips.remove_widget(strips.children[0])
        for strip, fleet in zip(reversed(strips.children), fleets):
            strip.colour = SEAT_COLOURS[fleet["seat"]]
            strip.pick = self.choose
            strip.slots_key = (self.session.id, model["round"])
            strip.show(fleet, fleet["name"], fleet["points"], tr, fleet["is_turn"], model["targets"],
                       model["fleet_targets"].get(fleet["seat"], ""))
        self._follow(model["seat"])

    def _keep_squadrons_room(self, label, size) -> None:
        """The squadrons' lines keep the most room they took this round: a squadron gone
        (destroyed, or its attack made) leaves its line empty, the fleets stay where they were."""
        key = (self.session.id, self.model.get("round")) if self.session else None
        if key != self._room_round:
            self._room_round, self.squadrons_room = key, 0
        if self.squadrons_text and not self.cataloguing:  # (squeezed by the harbour's catalogue: a char a line)
            self.squadrons_room = max(self.squadrons_room, size[1])

    def _draw_panel(self, model: dict) -> None:
        tr = self.tr
        self.cataloguing = model["catalogue"]
        cards = {"navalwar_ui.tap_target": "navalwar_ui.tap_target_cards"} if self.many else {}  # (its card first)
        self._fit_prompt([Text(cards.get(t.key, t.key), t.params).render(tr) for t in model["prompt"]],
                         [t.render(tr) for t in model["chosen"]])
        seat = model["prompt_seat"]
        self.prompt_colour = _dim(SEAT_COLOURS[seat]) if seat is not None else theme.PANEL
        banner = model["banner"]
        self.banner_text = banner["text"].render(tr) if banner else ""
        self.banner_sunk = bool(banner) and banner["sunk"]
        self.extra_text = model["random"].render(tr) if model["random"] else ""
        self.can_back = any(o.kind == "back" for o in model["offers"])
        choices = model["choices"]
        if self.cataloguing:
            choices = [c for c in choices if self._ship_matches(c["ship"])]
        grid, pinned = self.ids.choices, self.ids.primary
        self.choices_shown = not self.input_lock.held
        grid.clear_widgets()
        pinned.clear_widgets()
        primary = sum(1 for c in choices if c.get("primary"))
        if any(c.get("salvo") for c in choices):  # they keep their places (slots.py)
            panel = (model["prompt_seat"], self.controller.waiting()["kind"],
                     tuple(self.controller.shown_prefix(TABLE)))
            choices = self._salvo_slots.arrange((self.session.id, model["round"]), panel, choices)
        while len(self._tiles) < len(choices):  # buttons are reused: building them is slow
            self._tiles.append(ChoiceTile(on_release=lambda b: self.choose(b.step)))
        for tile, c in zip(self._tiles, choices):
            tile.cols = 0 if self.cataloguing else c["cols"]
            tile.words, tile.step, tile.red = c["label"].render(tr), c["id"], c["red"]
            tile.opacity, tile.disabled = (0.25, True) if c.get("gone") else (1, False)  # a faint empty slot
            tile.main = c.get("primary", False)
            if tile.main:  # a turn's main entry: in the row under the list, always in sight
                tile.cols = primary
                pinned.add_widget(tile)
            else:
                grid.add_widget(tile)
        steps = (self.session.id, model["prompt_seat"], tuple(c["id"] for c in choices))
        if steps != self._steps:  # a new panel starts at its top; the same one redrawn stays as scrolled
            self._steps, self.ids.choice_scroll.scroll_y = steps, 1

    def _fit_prompt(self, lines: list[str], chosen: list[str]) -> None:
        """The prompt in the head's three lines: who moves, what is awaited (or the steps
        chosen so far, which say it), a target to tap; when that is more, without who moves
        (the prompt's colour and the fleet's outline say it)."""
        if chosen:
            lines = lines[:1] + ["› " + " › ".join(chosen)] + lines[2:]
        prompt = self.ids.prompt
        for first in (0, 1):
            self.prompt_text = "\n".join(lines[first:])
            prompt.texture_update()
            if prompt.texture_size[1] + 6 <= self.prompt_room or first or len(lines) < 2:
                return

    def _ship_matches(self, ship: dict) -> bool:
        """The search: part of the name, or the calibre ("16")."""
        text = self.ids.search.text.strip().lower()
        return not text or text in ship["name"].lower() or text == (ship["calibre"] or "")

    def _odds(self, odds: dict | None) -> str:
        """The next draw: red, and each salvo calibre (the mover's own in gold)."""
        if odds is None:
            return ""
        if odds["empty"]:
            return self.tr("navalwar_ui.odds_none")
        cells = [(f"[color=#{GOLD_HEX}]{s['calibre']}″ {_pct(s['p'])}[/color]" if s["mine"]
                  else f"{s['calibre']}″ {_pct(s['p'])}") for s in odds["salvo"]]
        return "\n".join([self.tr("navalwar_ui.odds_red", p=_pct(odds["red"])),
                          "  ".join(cells[:3]), "  ".join(cells[3:])])

    def _draw_summary(self, stage: str, summary: dict | None) -> None:
        """A round's end and the game's end show their scores until moved on."""
        if summary is not None and self._popup_stage != stage:
            self._open_scores(summary, stage)
        elif summary is None and self._popup_stage in ("summary", "over"):
            self._close_popup()


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _dim(colour) -> list:
    return [c * 0.55 for c in colour[:3]] + [1]
