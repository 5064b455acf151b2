"""The known mass the scale is calibrated with, as the builder has it: a weight typed on the
keypad (10 g up), or Japanese coins stacked; and the scale error it leaves.  No Kivy.

The error of a scale calibrated with mass m is, as a share of every weighing,

    e = u / m + σ · √(2 / n) / m

u the reference's own uncertainty (a typed weight: TYPED_U_G, what a 0.01 g pocket scale or
a calibration weight's label gives; coins: COIN_WEAR of their nominal mass, what
circulation takes off them), σ the reading noise and n the readings averaged at the tare
and at the loaded pan each.  hardware/pieces.md budgets e ≤ BUDGET.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

MIN_G = 10.0  # lighter: the noise term grows past the budget
MAX_G = 1000.0  # a 1 kg cell's rating
TYPED_U_G = 0.01
COIN_WEAR = 0.01  # circulated coins: up to 1 % lighter than new
BUDGET = 0.005  # hardware/pieces.md: a careful calibration keeps e under 0.5 %
NOISE_G = 0.05  # hardware/pieces.md: σ per reading of a 1 kg cell behind an HX711
HEAVIEST_SHIP_G = 22.0  # where the error is stated: the carrier, the heaviest piece judged

# (key, yen, grams): the Japan Mint's masses; the 500 yen coin is 7.1 g since its 2021 issue
COINS = (("1", 1, 1.0), ("5", 5, 3.75), ("10", 10, 4.5), ("50", 50, 4.0), ("100", 100, 4.8),
         ("500", 500, 7.1), ("500_old", 500, 7.0))
COIN_G = {key: grams for key, _, grams in COINS}
KEYS = tuple("1234567890") + (".", "back")


@dataclass(frozen=True)
class Reference:
    """What lies on the pan: a typed weight or a stack of coins (never both)."""

    typed: str = ""
    coins: tuple[tuple[str, int], ...] = ()  # (coin key, how many), in COINS order

    def key(self, key: str) -> "Reference":
        """A keypad key: a digit, "." or "back".  Typing starts over from any coins."""
        text = self.typed
        if key == "back":
            text = text[:-1]
        elif key == "." and "." not in text:
            text = (text or "0") + "."
        elif key.isdigit() and len(text.split(".")[1] if "." in text else "") < 2 and len(text) < 7:
            text = "" if text == "0" else text
            text += key
        return Reference(typed=text)

    def add(self, coin: str) -> "Reference":
        """One more coin on the stack.  Coins start over from a typed weight."""
        counts = dict(self.coins)
        counts[coin] = counts.get(coin, 0) + 1
        return Reference(coins=tuple((k, counts[k]) for k, _, _ in COINS if counts.get(k)))

    def cleared(self) -> "Reference":
        return replace(self, typed="", coins=())

    @property
    def grams(self) -> float | None:
        if self.coins:
            return round(sum(COIN_G[k] * n for k, n in self.coins), 2)
        try:
            return float(self.typed) if self.typed.strip(".") else None
        except ValueError:
            return None

    @property
    def usable(self) -> bool:
        return self.grams is not None and MIN_G <= self.grams <= MAX_G

    @property
    def uncertainty_g(self) -> float:
        assert self.grams is not None, "asked of a usable reference"
        return COIN_WEAR * self.grams if self.coins else TYPED_U_G

    def error(self, readings: int, noise_g: float = NOISE_G) -> float:
        """The scale error e this reference leaves, as a share of every weighing."""
        m = self.grams
        assert m is not None, "asked of a usable reference"
        return (self.uncertainty_g + noise_g * math.sqrt(2.0 / max(1, readings))) / m

    def describe(self) -> dict:
        """Saveable: what was used."""
        return {"grams": self.grams, "typed": self.typed, "coins": [list(c) for c in self.coins],
                "uncertainty_g": round(self.uncertainty_g, 3)}

    @classmethod
    def from_saved(cls, data) -> "Reference":
        """The reference a saved calibration used (an old one: its known_g, typed)."""
        if not isinstance(data, dict):
            return cls()
        ref = data.get("reference")
        if isinstance(ref, dict) and ref.get("coins"):
            return cls(coins=tuple((str(k), int(n)) for k, n in ref["coins"] if k in COIN_G and int(n) > 0))
        grams = ref.get("grams") if isinstance(ref, dict) else data.get("known_g")
        if isinstance(grams, (int, float)) and MIN_G <= grams <= MAX_G:
            return cls(typed=f"{grams:g}")
        return cls()
