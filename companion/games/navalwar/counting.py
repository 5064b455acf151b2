"""Naval War "count your deck", free of Kivy: card type by card type, the players count
their copy.

Each step shows a card (an action card by type and value, or the ships of one
calibre), the count the composition expects, and -/+ starting at that count.  The end
lists the differences (`count_check`, plus the ship groups) in plain words, with the
`counts:` lines to put in the `navalwar.deck` file.  `DeckCount` is the walk-through's
state (part of the controller's start form); its texts are `Text`s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.navalwar.choices import card_text, plain
from companion.games.navalwar.data import CALIBRES, Composition, count_check
from companion.play.controller import Text

CARRIER = "carrier"


@dataclass(frozen=True)
class CountStep:
    """One thing to count: a card key, or `ships:<calibre>` / `ships:carrier`."""

    key: str
    label: Text
    expected: int


def count_steps(comp: Composition, ships: bool) -> list[CountStep]:
    """The action cards in deck order, then (if `ships`) the ships by calibre."""
    steps = [CountStep(k, card_text(k), n) for k, n in comp.actions]
    if ships:
        for calibre in (*CALIBRES, CARRIER):
            n = sum(1 for s in comp.ships if (s.calibre or CARRIER) == calibre)
            label = (Text("navalwar_ui.count_carriers") if calibre == CARRIER
                     else Text("navalwar_ui.count_ships", {"calibre": calibre}))
            if n:
                steps.append(CountStep(f"ships:{calibre}", label, n))
    return steps


def differences(comp: Composition, steps: list[CountStep], counted: dict[str, int]) -> list[dict]:
    """`count_check` for the action cards, then the ship groups that differ."""
    cards = {k: n for k, n in counted.items() if not k.startswith("ships:")}
    diffs = count_check(comp, cards)
    diffs += [{"card": s.key, "expected": s.expected, "counted": counted[s.key]}
              for s in steps if s.key.startswith("ships:") and counted[s.key] != s.expected]
    return diffs


def report(steps: list[CountStep], diffs: list[dict]) -> list[Text]:
    """The differences in plain words, the `counts:` lines and where to put them (lines)."""
    if not diffs:
        return [Text("navalwar_ui.count_all_right")]
    labels = {s.key: s.label for s in steps}
    lines = [Text("navalwar_ui.count_differs", {"n": len(diffs)})]
    for d in diffs:
        gap = d["counted"] - d["expected"]
        how = (Text("navalwar_ui.count_missing", {"n": -gap}) if gap < 0
               else Text("navalwar_ui.count_extra", {"n": gap}))
        lines.append(Text("navalwar_ui.count_row", {
            "card": labels.get(d["card"], plain(d["card"])),
            "line": Text("navalwar_ui.count_line", {"expected": d["expected"], "counted": d["counted"], "how": how})}))
    cards = [d for d in diffs if not d["card"].startswith("ships:")]
    lines += [plain(""), Text("navalwar_ui.count_hint")]
    if cards:
        lines += [plain("[b]counts:[/b]")] + [plain(f"  {d['card']}: {d['counted']}") for d in cards]
    if len(cards) < len(diffs):
        lines.append(Text("navalwar_ui.count_ship_hint"))
    return lines


@dataclass
class DeckCount:
    """The walk-through: `page` is "intro", "step" or "result"."""

    comp: Composition
    page: str = "intro"
    index: int = 0
    steps: list[CountStep] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    diffs: list[dict] = field(default_factory=list)

    def begin(self, ships: bool) -> None:
        self.steps = count_steps(self.comp, ships)
        self.counts = {s.key: s.expected for s in self.steps}
        self._go(0)

    def change(self, delta: int) -> None:
        key = self.steps[self.index].key
        self.counts[key] = max(0, self.counts[key] + delta)

    def next(self) -> None:
        if self.index + 1 < len(self.steps):
            self._go(self.index + 1)
            return
        self.diffs = differences(self.comp, self.steps, self.counts)
        self.page = "result"

    def previous(self) -> None:
        if self.page == "result":
            self._go(len(self.steps) - 1)
        elif self.index > 0:
            self._go(self.index - 1)
        else:
            self.page = "intro"

    def _go(self, index: int) -> None:
        self.index, self.page = index, "step"

    def model(self) -> dict:
        """What a renderer draws (JSON values and Texts)."""
        found = {"page": self.page, "index": self.index, "total": len(self.steps)}
        if self.page == "step":
            step = self.steps[self.index]
            found |= {"label": step.label, "expected": step.expected, "counted": self.counts[step.key],
                      "last": self.index + 1 == len(self.steps)}
        if self.page == "result":
            found |= {"diffs": self.diffs, "result": report(self.steps, self.diffs)}
        return found
