"""The on-screen keyboard's two layouts, in Kivy's VKeyboard format: かな and ABC.

かな follows the 五十音 table: one column per consonant (あかさ…わ), one row
per vowel; the カナ key turns it to katakana and back.  Two keys change the
kana before the cursor: ゛゜ voices it (か→が→か, は→ば→ぱ→は) and 小
makes it small (や→ゃ, つ→っ).  ABC has letters and digits (Aa for
capitals).  The key at the right of the fourth row switches layouts.
"""

from __future__ import annotations

COLS, ROWS = 12, 5
VOICING, SMALL = "kana_voicing", "kana_small"  # the special names of the ゛゜ and 小 keys

KANA_ROWS = ("あかさたなはまやらわ", "いきしちにひみゆりを", "うくすつぬふむよるん",
             "えけせてねへめ、れ。", "おこそとのほも？ろ！")
LATIN_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl&", "zxcvbnm,!?")


def _key(label: str, text: str | None = None, special: str | None = None, size: float = 1) -> list:
    return [label, text, special, size]


def _chars(chars: str) -> list:
    return [_key(c, c) for c in chars]


def katakana(text: str) -> str:
    """Hiragana in `text` turned to katakana (the two blocks lie 0x60 apart)."""
    return "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text)


def _special(label: str, name: str) -> list:
    return _key(label, None, name)


def _rows(chars: tuple[str, ...], ends: list, last: list) -> list:
    """Rows 1-4: ten characters, then two keys that stand at the same place in
    every layout (a key held down while the layout changes stays on the board)."""
    return [_chars(row) + keys for row, keys in zip(chars, ends)] + [last]


def _kana_rows(chars: tuple[str, ...], toggle: str) -> list:
    ends = [[_special("゛゜", VOICING), _special("けす", "backspace")],
            [_key("ー", "ー"), _special("⏎", "enter")],
            [_special("小", SMALL), _special(toggle, "capslock")],
            [_key("・", "・"), _special("ABC", "layout")]]
    return _rows(chars, ends, _chars(chars[4]) + [_key("空白", " ", "spacebar", 2)])


def _latin_rows(chars: tuple[str, ...]) -> list:
    ends = [[_key("@", "@"), _special("del", "backspace")],
            [_key("'", "'"), _special("⏎", "enter")],
            [_key(".", "."), _special("Aa", "capslock")],
            [_key("-", "-"), _special("かな", "layout")]]
    return _rows(chars, ends, [_key("space", " ", "spacebar", COLS)])


def _layout(title: str, normal: list, shifted: list) -> dict:
    """Kivy's layout format: the rows, and the rows while the capslock key is on."""
    layout = {"title": title, "description": title, "cols": COLS, "rows": ROWS}
    for number, (plain, shift) in enumerate(zip(normal, shifted), start=1):
        layout[f"normal_{number}"], layout[f"shift_{number}"] = plain, shift
    return layout


LAYOUTS = {
    "kana": _layout("かな", _kana_rows(KANA_ROWS, "カナ"), _kana_rows(tuple(map(katakana, KANA_ROWS)), "かな")),
    "latin": _layout("ABC", _latin_rows(LATIN_ROWS), _latin_rows(tuple(r.upper() for r in LATIN_ROWS))),
}


def _with_katakana(cycles: list[str]) -> list[str]:
    return cycles + [katakana(cycle) for cycle in cycles]


def _next(cycles: list[str]) -> dict[str, str]:
    return {c: cycle[(i + 1) % len(cycle)] for cycle in cycles for i, c in enumerate(cycle)}


VOICED = _next(_with_katakana(
    [c + chr(ord(c) + 1) for c in "かきくけこさしすせそたちつてと"]
    + [c + chr(ord(c) + 1) + chr(ord(c) + 2) for c in "はひふへほ"] + ["うゔ"]))
"""The next voiced form under the ゛゜ key: か→が→か, は→ば→ぱ→は."""

SMALLER = _next(_with_katakana([c + chr(ord(c) - 1) for c in "あいうえおつやゆよわ"]))
"""The small form and back under the 小 key: や→ゃ→や, つ→っ→つ."""

NEXT_FORM = {VOICING: VOICED, SMALL: SMALLER}
