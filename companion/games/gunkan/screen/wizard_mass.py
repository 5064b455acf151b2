"""The wizard's first step on screen: the known mass the builder has, typed on a keypad or coins
stacked (reference.py, held by the flow: calibration.py), with the scale error it leaves stated
before it is used.  A mixin of CalibrationScreen (wizard.py), whose kv holds the keypad and coin
grids this fills."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from companion.games.gunkan.reference import BUDGET, COINS, HEAVIEST_SHIP_G, KEYS


class KnownMassStep:
    """Keys "0"-"9", ".", "back", "coin:<key>" and "clear" in `self.keys`, for taps and tests."""

    reference_text = StringProperty("")

    def on_kv_post(self, *_):
        self.keys: dict[str, object] = {}
        for key in KEYS:
            self.keys[key] = self._key(self.ids.keypad, "←" if key == "back" else key,
                                       lambda k=key: self.reference_key(k))
        for key, _, _ in COINS:
            self.keys[f"coin:{key}"] = self._key(self.ids.coins, "", lambda k=key: self.add_coin(k), font_size="18sp")
        self.keys["clear"] = self._key(self.ids.coins, "", self.clear_reference, font_size="18sp")
        self._label_coins()

    @staticmethod
    def _key(grid, text: str, action, font_size="24sp"):
        button = Factory.BigButton(text=text, font_size=font_size)
        button.bind(on_release=lambda *_: action())
        grid.add_widget(button)
        return button

    def _label_coins(self) -> None:
        for key, _, grams in COINS:
            self.keys[f"coin:{key}"].text = f"{self.coin_label(key)} = {grams:g} g"
        self.keys["clear"].text = self.tr("gunkan_ui.wizard_ref_clear")

    def reference_key(self, key: str) -> None:
        self.flow.reference = self.flow.reference.key(key)
        self._show_reference()

    def add_coin(self, coin: str) -> None:
        self.flow.reference = self.flow.reference.add(coin)
        self._show_reference()

    def clear_reference(self) -> None:
        self.flow.reference = self.flow.reference.cleared()
        self._show_reference()

    def _show_reference(self) -> None:
        ref, tr = self.flow.reference, self.tr
        if ref.grams is None:
            self.reference_text = tr("gunkan_ui.wizard_ref_none")
            self.ready = False
            return
        if ref.coins:
            stack = tr("gunkan_ui.wizard_coin_plus").join(
                tr("gunkan_ui.wizard_coin_n", coin=self.coin_label(k), n=n) for k, n in ref.coins)
            what = tr("gunkan_ui.wizard_ref_coins", stack=stack, g=f"{ref.grams:.2f}")
        else:
            what = tr("gunkan_ui.wizard_ref_typed", g=ref.typed)
        if not ref.usable:
            self.reference_text = what + "\n" + tr("gunkan_ui.wizard_ref_range")
            self.ready = False
            return
        e = ref.error(self.flow.readings)
        lines = [what, tr("gunkan_ui.wizard_ref_error", pct=f"{100 * e:.2f}", at=f"{HEAVIEST_SHIP_G:g}",
                          g=f"{e * HEAVIEST_SHIP_G:.2f}")]
        if e > BUDGET:
            lines.append(tr("gunkan_ui.wizard_ref_weigh_coins" if ref.coins else "gunkan_ui.wizard_ref_heavier",
                            pct=f"{100 * BUDGET:g}"))
        self.reference_text = "\n".join(lines)
        self.ready = True

    def coin_label(self, key: str) -> str:
        return self.tr("gunkan_ui.wizard_coin_old" if key.endswith("_old") else "gunkan_ui.wizard_coin",
                       yen=next(yen for k, yen, _ in COINS if k == key))
