"""Naval War: a fleet's strip, a chip per ship (a strip per fleet with few players; with
many, the strip of the one fleet shown whole under the cards, cards.py).

A ship or fleet that may be named now (a target) is outlined and tapped on the strip
itself: its `step` goes to `pick`, the screen's choice handler.

A ship keeps its place in the row for the whole round: one sunk stays as a dim 撃沈 chip
of the same width, so the ships beside it never move under a finger (a destroyer
squadron's three picks are tapped one after another).  A ship added joins at the end.
"""

from __future__ import annotations

import math

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.games.navalwar.data import card_value


class ShipChip(ButtonBehavior, BoxLayout):
    """A ship afloat: name, calibre, hits over defence and a red bar for the damage."""

    name = StringProperty("")
    detail = StringProperty("")
    hits = NumericProperty(0)
    defence = NumericProperty(1)
    carrier = BooleanProperty(False)
    sunk = BooleanProperty(False)  # its place kept for the round
    least = NumericProperty(0)  # px: a sunk ship's chip keeps the width it had afloat
    step = StringProperty("")  # the choice it enters when tapped ("": not a target now)
    pick = ObjectProperty(None, allownone=True)
    cols = NumericProperty(0)  # chips a row, each as wide (0: as wide as the name, the row flowing)
    fleet_seat = NumericProperty(-1)

    @property
    def takes_touch(self) -> bool:  # (the layout check's word: a target now, else the touch goes through)
        return bool(self.step)

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.step else False  # else the fleet's

    def on_release(self) -> None:
        if self.step and self.pick:
            self.pick(self.step)


class FleetStrip(ButtonBehavior, BoxLayout):
    """One player's fleet: a header (name, hand, minefields, smoke, points) and the ships."""

    seat = NumericProperty(0)
    colour = ListProperty([1, 1, 1, 1])
    header = StringProperty("")
    badges = StringProperty("")
    is_turn = BooleanProperty(False)
    out = BooleanProperty(False)
    below = BooleanProperty(False)  # the fleet shown whole under the cards (cards.py): always outlined
    rows = NumericProperty(0)  # rows the chips may take, as many chips a row as that needs (0: flowing)
    warn = BooleanProperty(False)  # minefields or smoke in front of the fleet
    step = StringProperty("")  # the choice a tap on the fleet enters ("": none now)
    pick = ObjectProperty(None, allownone=True)
    slots_key = ObjectProperty(None, allownone=True)  # the game and round the slots are kept for

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._slots: dict = {}  # slots_key -> every ship of the fleet this round, in its place

    @property
    def takes_touch(self) -> bool:
        return bool(self.step)

    def on_touch_down(self, touch):
        if self.step:
            return super().on_touch_down(touch)
        return BoxLayout.on_touch_down(self, touch)  # not a button now: only its chips

    def on_release(self) -> None:
        if self.step and self.pick:
            self.pick(self.step)

    def show(self, fleet: dict, name: str, points: int, tr, is_turn: bool, targets: dict, step: str) -> None:
        """Draw `fleet`; `targets` (ship id -> step) and `step` (the fleet's) are what a tap names."""
        self.step = step
        self.seat = fleet["seat"]
        self.out = fleet["out"]
        self.is_turn = is_turn
        sign = "+" if points > 0 else ""
        self.header = f"{name}  {sign}{points}"
        self.warn = bool(fleet["minefields"] or fleet["smoke"])
        words = [tr("navalwar_ui.hand_short", n=fleet["hand"])] + badges(fleet, tr)
        self.badges = tr("navalwar.eliminated") if fleet["out"] else "  ".join(words)
        chips = self.ids.chips
        slots = self._kept_slots(fleet["ships"], set(fleet["sunk_this_round"]))
        # three a row (the longest name fits), four if the rows would not hold them (the longest
        # word fits: "Pennsylvania"); never more (a name would break mid-word)
        cols = min(4, max(3, math.ceil(len(slots) / self.rows))) if self.rows else 0
        while len(chips.children) < len(slots):
            chips.add_widget(ShipChip(), index=0)  # appended at the end
        while len(chips.children) > len(slots):
            chips.remove_widget(chips.children[0])
        for chip, (ship, afloat) in zip(reversed(chips.children), slots):
            if chip.name != ship["name"]:
                chip.least = 0  # another ship in this place (a new round)
            if not afloat and not chip.sunk:
                chip.least = chip.width  # as wide as it was: its neighbours stay put
            gun = tr("navalwar_ui.carrier_short") if ship["carrier"] else f"{ship['calibre']}″"
            chip.name, chip.sunk = ship["name"], not afloat
            chip.detail = f"{gun} {ship['hits']}/{ship['defence']}" if afloat else tr("navalwar_ui.sunk_short")
            chip.hits, chip.defence, chip.carrier = ship["hits"], ship["defence"], ship["carrier"]
            chip.step, chip.pick = (targets.get(ship["id"], "") if afloat else ""), self.pick
            chip.cols, chip.fleet_seat = cols, fleet["seat"]

    def _kept_slots(self, ships: list[dict], sunk: set[str]) -> list[tuple[dict, bool]]:
        """(ship, afloat) for every ship in the fleet this round, each in the place it had; a
        ship gone but not sunk (its deal undone) leaves its place."""
        key = self.slots_key or ()
        if key not in self._slots:  # a new round (or another fleet, shown under the cards)
            self._slots = {k: v for k, v in self._slots.items() if k[:2] == key[:2]}
        afloat = {ship["id"]: ship for ship in ships}
        slots = [afloat.get(ship["id"], ship) for ship in self._slots.get(key, [])
                 if ship["id"] in afloat or ship["id"] in sunk]
        known = {ship["id"] for ship in slots}
        slots += [ship for ship in ships if ship["id"] not in known]
        self._slots[key] = slots
        return [(ship, ship["id"] in afloat) for ship in slots]


def badges(fleet: dict, tr, mines: str = "navalwar_ui.mines_short") -> list[str]:
    """The fleet's minefields (how many, their hits: `mines`, the words) and smoke."""
    found = []
    if fleet["minefields"]:
        hits = sum(card_value(m["card"]) for m in fleet["minefields"])
        found.append(tr(mines, n=len(fleet["minefields"]), hits=hits))
    if fleet["smoke"]:
        found.append(tr("navalwar.card_type.smoke"))
    return found
