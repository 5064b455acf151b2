"""Naval War with three players or more: every fleet a card, all in view, and one fleet's
ships below them, big enough to tap (issue 43: nine at 800×480 without scrolling; three
fleets of five long names as strips needed 495 px of 385).

A card is a fleet at a glance: name and points, ships afloat, its minefields and smoke.
The player to move's card is filled with their colour.  Under the cards, one fleet is
shown whole (its strip, fleets.py, with the hand): the player to move's, or the fleet whose card was
tapped, so a target ship is two taps away (its fleet, then the ship), each ≥ 48 px.  The
cards never move; the ships below change only on a tap on a card, or for a new player to
move once no finger is near (still.py).
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.games.navalwar.screen.chart import SEAT_COLOURS
from companion.games.navalwar.screen.fleets import badges

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

CHIP_ROW = 62  # px a row of ship chips takes (two 18sp lines, padding, spacing)
HEADER = 28  # px the strip's header and padding take


class FleetCard(ButtonBehavior, BoxLayout):
    """One fleet at a glance; a tap shows its ships below (or names the fleet, when a step
    asks for a fleet)."""

    seat = NumericProperty(0)
    colour = ListProperty([1, 1, 1, 1])
    header = StringProperty("")
    points = StringProperty("")
    counts = StringProperty("")
    badges = StringProperty("")
    is_turn = BooleanProperty(False)
    focused = BooleanProperty(False)  # its ships are the ones shown below
    marked = BooleanProperty(False)  # one of its ships may be named now
    out = BooleanProperty(False)
    step = StringProperty("")  # the choice a tap enters ("": a tap shows its ships)
    pick = ObjectProperty(None, allownone=True)
    focus = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.step and self.pick:
            self.pick(self.step)
        elif self.focus:
            self.focus(self.seat)

    def show(self, fleet: dict, tr, targets: dict, step: str) -> None:
        self.seat, self.out, self.step = fleet["seat"], fleet["out"], step
        self.colour = SEAT_COLOURS[fleet["seat"]]
        self.is_turn = fleet["is_turn"]
        self.header = fleet["name"]
        self.points = f"{fleet['points']:+d}" if fleet["points"] else "0"
        self.counts = "" if fleet["out"] else tr("navalwar_ui.ships_short", n=len(fleet["ships"]))
        self.badges = tr("navalwar.eliminated") if fleet["out"] else "  ".join(badges(fleet, tr, "navalwar_ui.mines_card"))
        self.marked = any(ship["id"] in targets for ship in fleet["ships"])


class ManyFleets:
    """The cards and the one fleet shown whole under them (`view`: the kv's box holding the
    `cards` grid and the `focus` strip); `still` says when the ships below may change."""

    def __init__(self, view, still, pick):
        self.view, self._still, self._pick = view, still, pick
        self.seat = None  # the fleet shown whole
        self._mover = None  # the player to move it was last brought back to
        self._drawn = None  # what the last draw drew, for a tap on a card
        self._taps = 0  # cards tapped
        view.ids.room.bind(height=lambda *_: self._drawn and self._draw_focus())  # the rows it holds

    def draw(self, fleets: list[dict], tr, targets: dict, fleet_targets: dict, mover, key) -> None:
        cards = self.view.ids.cards
        while len(cards.children) < len(fleets):
            cards.add_widget(FleetCard(pick=self._pick, focus=self.show_fleet), index=0)
        while len(cards.children) > len(fleets):
            cards.remove_widget(cards.children[0])
        for card, fleet in zip(reversed(cards.children), fleets):
            card.show(fleet, tr, targets, fleet_targets.get(fleet["seat"], ""))
        if self._drawn is not None and self._drawn[-1] != key:
            self._mover = None  # a new round: its first player's fleet, even if they moved last
        self._drawn = (fleets, tr, targets, fleet_targets, key)
        if self.seat is None or self.seat >= len(fleets):
            self.seat, self._mover = (mover or 0), mover
        elif mover is not None and mover != self._mover:
            self._mover, taps = mover, self._taps  # the new player's fleet, once no finger is near,
            self._still.when_still("focus", lambda: self._taps == taps and self._show(mover))  # unless a card was tapped
        self._draw_focus()

    def clear(self) -> None:
        """Few players: no cards (nor a fleet under them)."""
        self.view.ids.cards.clear_widgets()
        self.view.ids.focus.ids.chips.clear_widgets()
        self.view.ids.focus.step = ""
        self.seat = self._mover = self._drawn = None

    def show_fleet(self, seat: int) -> None:
        """A card was tapped: its fleet's ships below."""
        self._taps += 1
        self._show(seat)

    def _show(self, seat: int) -> None:
        self.seat = seat
        self._draw_focus()

    def _draw_focus(self) -> None:
        fleets, tr, targets, fleet_targets, key = self._drawn
        fleet, strip = fleets[self.seat], self.view.ids.focus
        for card in self.view.ids.cards.children:
            card.focused = card.seat == self.seat
        strip.colour = SEAT_COLOURS[self.seat]
        strip.pick = self._pick
        strip.slots_key = key + (self.seat,)
        strip.rows = max(1, int((self.view.ids.room.height - HEADER) // CHIP_ROW))
        strip.show(fleet, fleet["name"], fleet["points"], tr, fleet["is_turn"], targets,
                   fleet_targets.get(self.seat, ""))
