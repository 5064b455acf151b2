"""A bomb's pairs written as each language lists them: the newcomer walk read 「7×8、8×7」 with
the Japanese 、 on the English screen."""

from companion.games.kuku.texts import headline, pairs_text, verdict


def test_pairs_are_listed_with_each_languages_comma():
    record = {"by": 0, "action": "bomb", "product": 24, "listing": ["3×8", "4×6", "8×3"]}
    line = headline(record, ["Aki", "Ben"])
    assert line.say("en") == "Aki: bomb 24\n3×8, 4×6, 8×3"
    assert line.say("ja") == "Aki: 九九ボム 24\n3×8、4×6、8×3"
    assert pairs_text(["7×7"]) == "7×7" and pairs_text([]) == "—"


def test_the_right_listing_after_a_failed_bomb_too():
    record = {"by": 1, "action": "bomb", "product": 16, "listing": ["2×8"], "judgement": "omission",
              "faults": {"omission": ["4×4", "8×2"], "wrong": [], "extra": []}, "correct": ["2×8", "4×4", "8×2"]}
    said = "\n".join(t.say("en") for t in verdict(record))
    assert "4×4, 8×2" in said and "2×8, 4×4, 8×2" in said and "、" not in said
