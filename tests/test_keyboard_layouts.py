"""The on-screen keyboard's layouts and its kana keys (pure data: no window needed)."""

from hypothesis import given
from hypothesis import strategies as st

from companion.ui.keyboard_layouts import COLS, LAYOUTS, ROWS, SMALLER, VOICED, katakana


def rows(layout, mode):
    return [layout[f"{mode}_{n}"] for n in range(1, ROWS + 1)]


def test_every_row_fills_the_width_and_function_keys_stand_alike_in_every_layout():
    places = {}
    for name, layout in LAYOUTS.items():
        for mode in ("normal", "shift"):
            for number, row in enumerate(rows(layout, mode), start=1):
                assert sum(key[3] for key in row) == COLS, (name, mode, number)
                for index, (_label, _text, special, _size) in enumerate(row):
                    if special in ("backspace", "enter", "capslock", "layout"):
                        places.setdefault(special, set()).add((number, index))
    assert all(len(where) == 1 for where in places.values()), places


def test_kana_keys_follow_the_table_and_katakana_is_their_shift():
    def chars(mode):
        return ["".join(key[1] for key in row if key[2] is None and key[1]) for row in rows(LAYOUTS["kana"], mode)]

    plain = chars("normal")
    assert plain[0].startswith("あかさたなはまやらわ")
    assert "".join(row[0] for row in plain) == "あいうえお"
    assert {"ん", "を", "ゆ", "よ", "ー"} <= set("".join(plain))
    assert chars("shift") == [katakana(row) for row in plain]


@given(st.sampled_from(sorted(VOICED)))
def test_the_voicing_key_cycles_back(char):
    seen = [char]
    while (char := VOICED[char]) != seen[0]:
        seen.append(char)
        assert len(seen) <= 3
    assert len(seen) >= 2


def test_voicing_and_small_forms():
    assert [VOICED[c] for c in "かがはばぱつウ"] == list("がかばぱはづヴ")
    assert [SMALLER[c] for c in "やゃつっヨ"] == list("ゃやっつョ")
