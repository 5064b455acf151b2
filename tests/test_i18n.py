import re
from pathlib import Path

import pytest

from companion import i18n


@pytest.mark.parametrize("domain", i18n.domains())
def test_every_text_has_japanese_and_english(domain):
    for key, entry in i18n.catalog(domain).items():
        assert isinstance(key, str), f"{domain}: key {key!r} is not text (quote it in YAML)"
        assert isinstance(entry, dict) and entry.get("ja") and entry.get("en"), f"{domain}.{key}"


def test_language_follows_setting_then_locale():
    assert i18n.language_from("en", {"LANG": "ja_JP.UTF-8"}) == "en"
    assert i18n.language_from("auto", {"LANG": "ja_JP.UTF-8"}) == "ja"
    assert i18n.language_from("auto", {"LC_ALL": "de_DE", "LANG": "ja_JP"}) == "en"
    assert i18n.language_from("auto", {}) == "en"


def test_plural_forms_follow_the_count():
    assert i18n.translate("app.moves", "en", n=1) == "1 move"
    assert i18n.translate("app.moves", "en", n=0) == "0 moves"
    assert i18n.translate("app.moves", "ja", n=1) == "1手"


def test_lookup_falls_back_to_english_then_key():
    assert i18n.translate("app.moves", "ja", n=3) == "3手"
    assert i18n.translate("app.moves", "xx", n=3) == "3 moves"
    assert i18n.translate("app.no_such_key", "ja") == "app.no_such_key"
    assert i18n.translate("nodomain.key", "ja") == "nodomain.key"


def test_every_key_the_code_spells_is_in_a_catalog():
    """A text key written out in code or kv ("kuku_ui.start") names a text that exists:
    a catalog entry deleted or renamed while still in use fails here, not on a screen."""
    root = Path(__file__).resolve().parent.parent / "companion"
    names = "|".join(sorted(i18n.domains(), key=len, reverse=True))
    # a key ends in a letter or digit: "battleship_ui.about_" + kind is a prefix, not a key
    spelled = re.compile(rf"[\"']((?:{names})\.[\w.]*[A-Za-z0-9])[\"']")
    missing = [f"{path.relative_to(root)}: {key}"
               for path in sorted(root.rglob("*")) if path.suffix in (".py", ".kv")
               for key in spelled.findall(path.read_text(encoding="utf-8"))
               if key.partition(".")[2] not in i18n.catalog(key.partition(".")[0])]
    assert not missing
