"""Naval War card data: the packaged composition, user overrides with clear errors, the deck count."""

import pytest

from companion import i18n
from companion.errors import CompanionError
from companion.userfile import FileRefused
from companion.games.navalwar.data import (
    DeckError,
    count_check,
    default_composition,
    is_red,
    load_composition,
    reduced_counts,
)


def test_packaged_composition_matches_the_transcribed_cards():
    comp = default_composition()
    assert len(comp.ships) == 54 and comp.total_actions == 108
    assert sum(s.defence for s in comp.ships) == 280
    carriers = sorted(s.name for s in comp.ships if s.carrier)
    assert carriers == ["Akagi", "Ark Royal", "Enterprise", "Shokaku"]
    assert all(s.calibre is None and s.defence == 3 for s in comp.ships if s.carrier)
    assert {s.calibre for s in comp.ships} == {None, "11", "12.6", "14", "15", "16", "18"}
    assert sorted(s.name for s in comp.ships if s.defence == 9) == ["Musashi", "Yamato"]
    salvos = sum(n for k, n in comp.actions if k.startswith("salvo"))
    assert salvos == 72
    assert sum(n for k, n in comp.actions if is_red(k)) == 22
    assert comp.counts["additional_ship"] == 8 and comp.counts["minefield-2"] == 2
    assert comp.counts["destroyer_squadron"] == 2 and comp.counts["smoke"] == 6


def test_a_user_file_overrides_sections_and_single_counts(tmp_path):
    path = tmp_path / "mydeck.yaml"
    path.write_text("counts: {salvo-14-1: 9, ship-hood: 0, torpedo_boat: 1}\n", encoding="utf-8")
    comp = load_composition(path)
    assert comp.counts["salvo-14-1"] == 9 and comp.counts["torpedo_boat"] == 1
    assert comp.total_actions == 106 and "ship-hood" not in comp.ship_by_id
    path.write_text("actions:\n  - {type: salvo, calibre: '16', value: 3, count: 4}\n"
                    "  - {type: smoke, count: 2}\n", encoding="utf-8")
    comp = load_composition(path)
    assert comp.counts == {"salvo-16-3": 4, "smoke": 2} and len(comp.ships) == 54
    assert load_composition(None) is default_composition()


@pytest.mark.parametrize("text,where", [
    ("counts: {salvo-13-1: 2}\n", "salvo-13-1"),
    ("counts: {smoke: -1}\n", "counts.smoke"),
    ("counts: {ship-hood: 2}\n", "counts.ship-hood"),
    ("actions:\n  - {type: laser, count: 1}\n", "actions[0]"),
    ("actions:\n  - {type: minefield, count: 1}\n", "actions[0]"),
    ("ships:\n  - {id: x, name: X, calibre: '20', defence: 3, carrier: false}\n", "ships[0]"),
    ("ships:\n  - {id: x, name: X, calibre: null, defence: 3, carrier: false}\n", "ships[0]"),
    ("ships:\n  - {id: x, name: X, calibre: '14', defence: 0, carrier: false}\n", "ships[0]"),
    ("ships:\n  - {id: x, name: X}\n", "ships[0]"),
    ("decks: 1\n", "decks"),
    ("counts: [1, 2]\n", "counts"),
    ("- just a list\n", "top level"),
    ("counts: {smoke: 1\n", ":"),
])
def test_mistakes_in_a_user_file_name_the_file_and_the_key(tmp_path, text, where):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises((DeckError, FileRefused)) as err:  # (FileRefused: not YAML)
        load_composition(path)
    assert str(path) in str(err.value) and where in str(err.value)
    ja = i18n.translate(err.value.key, "ja", **err.value.params)  # said in Japanese too
    assert str(path) in ja and ja != str(err.value) and isinstance(err.value, ValueError)


def test_a_missing_user_file_is_a_clear_error(tmp_path):
    with pytest.raises(CompanionError, match="cannot read"):
        load_composition(tmp_path / "nope.yaml")


def test_count_your_deck_lists_the_differences():
    comp = default_composition()
    counted = dict(comp.actions)
    assert count_check(comp, counted) == []
    counted.update({"smoke": 5, "repair": 5})
    del counted["torpedo_boat"]
    diffs = count_check(comp, counted)
    assert {"card": "smoke", "expected": 6, "counted": 5} in diffs
    assert {"card": "repair", "expected": 4, "counted": 5} in diffs
    assert {"card": "torpedo_boat", "expected": 2, "counted": 0} in diffs and len(diffs) == 3
    ships = {s.id: 1 for s in comp.ships if s.id != "ship-hood"}
    assert count_check(comp, {**dict(comp.actions), **ships}) == [
        {"card": "ship-hood", "expected": 1, "counted": 0}]
    assert count_check(comp, {**dict(comp.actions), "salvo-13-1": 1}) == [
        {"card": "salvo-13-1", "expected": 0, "counted": 1}]


def test_reduced_counts_keep_every_kind_of_card():
    comp = default_composition()
    counts = reduced_counts(comp, 8)
    assert set(counts) == set(comp.counts) and all(n >= 1 for n in counts.values())
