"""What the 九九戦艦 keypad types: products and pairs, nothing else."""

import re

from hypothesis import given, strategies as st

from companion.games.kuku.keys import DELETE, KEYS, typed

TYPED = re.compile(r"([1-9][0-9]?(×([1-9][0-9]?)?)?)?")


def type_all(keys):
    entry = ""
    for key in keys:
        entry = typed(entry, key)
    return entry


@given(st.lists(st.sampled_from(KEYS), max_size=12), st.sampled_from(KEYS))
def test_any_presses_type_a_product_or_a_pair_and_delete_takes_back_the_last_change(keys, key):
    entry = type_all(keys)
    assert TYPED.fullmatch(entry), entry
    after = typed(entry, key)
    if key != DELETE and after != entry:
        assert typed(after, DELETE) == entry


def test_examples():
    assert type_all("24") == "24" and type_all("3×8") == "3×8" and type_all("2×12") == "2×12"
    assert type_all("×0123") == "12" and type_all("3××8") == "3×8" and type_all("123") == "12"
    assert type_all("3×←←") == ""
