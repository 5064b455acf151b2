"""The calibration's known mass: typed on the keypad or coins stacked, and the error it leaves."""

import math

import pytest
from hypothesis import given, strategies as st

from companion.games.gunkan.reference import BUDGET, COIN_G, KEYS, MIN_G, Reference


def typed(text: str) -> Reference:
    ref = Reference()
    for key in text:
        ref = ref.key(key)
    return ref


def test_the_coins_weigh_what_the_mint_says():
    assert COIN_G == {"1": 1.0, "5": 3.75, "10": 4.5, "50": 4.0, "100": 4.8, "500": 7.1, "500_old": 7.0}
    ref = Reference()
    for coin in ("500", "500_old", "5", "5", "1"):
        ref = ref.add(coin)
    assert ref.grams == 7.1 + 7.0 + 2 * 3.75 + 1.0
    assert ref.coins == (("1", 1), ("5", 2), ("500", 1), ("500_old", 1))


def test_typing_a_mass():
    assert typed("20").grams == 20.0 and typed("20").usable
    assert typed("9.99").grams == 9.99 and not typed("9.99").usable  # under 10 g
    assert typed("12.345").typed == "12.34"  # two decimals, as a 0.01 g scale shows
    assert typed(".5").typed == "0.5" and typed("007").typed == "7"
    assert typed("50").key("back").typed == "5"
    assert typed("20").add("10").typed == "" and Reference().add("10").key("2").coins == ()  # one or the other


@given(st.lists(st.sampled_from(KEYS), max_size=20))
def test_any_keys_make_a_number_or_nothing(keys):
    ref = typed(keys)
    assert ref.grams is None or (0 <= ref.grams < 10_000_000 and not math.isnan(ref.grams))
    assert ref.typed.count(".") <= 1


def test_the_error_a_reference_leaves():
    at_80 = 8  # readings in the pipeline's 0.1 s window
    assert typed("50").error(at_80) == pytest.approx((0.01 + 0.05 * math.sqrt(2 / 8)) / 50)
    assert typed("20").error(at_80) < BUDGET  # a weight known to 0.01 g is plenty from 20 g
    coins = Reference()
    for _ in range(5):
        coins = coins.add("500")
    assert coins.error(at_80) > BUDGET  # unweighed coins: their wear alone is 1 %
    assert typed(f"{MIN_G:g}").error(4) < 2 * BUDGET


def test_a_saved_calibration_offers_its_reference_again():
    coins = Reference().add("100").add("100").add("500")
    assert Reference.from_saved({"reference": coins.describe()}) == coins
    assert Reference.from_saved({"known_g": 100.0}) == Reference(typed="100")
    assert Reference.from_saved({"known_g": 2.0}) == Reference() and Reference.from_saved(None) == Reference()
