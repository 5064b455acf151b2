import logging
import re
from pathlib import Path

import pytest

from companion import i18n
from companion.play import registry


@pytest.mark.parametrize("domain", i18n.domains())
def test_every_text_has_japanese_and_english(domain):
    for key, entry in i18n.catalog(domain).items():
        assert isinstance(key, str), f"{domain}: key {key!r} is not text (quote it in YAML)"
        assert isinstance(entry, dict) and entry.get("ja") and entry.get("en"), f"{domain}.{key}"


def test_language_follows_setting_then_locale():
    assert i18n.language_from("en", {"LANG": "ja_JP.UTF-8"}) == "en"
    assert i18n.language_from("auto", {"LANG": "ja_JP.UTF-8"}) == "ja"
    assert i18n.language_from("auto", {"LC_ALL": "de_DE", "LANG": "ja_JP"}) == "en"
    assert i18n.language_from("auto", {"LANG": "en_GB.UTF-8", "LANGUAGE": "ja:en"}) == "ja"  # GNU's list first


def test_no_locale_means_japanese_on_the_screens_english_on_a_console():
    """A fresh image or a service has no locale (nothing set, or C/POSIX): the screens speak
    Japanese, the app's first language; a terminal, whose console may have no Japanese font,
    English.  C ignores LANGUAGE, as gettext does."""
    for environ in ({}, {"LANG": "C"}, {"LANG": "C.UTF-8"}, {"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"},
                    {"LANG": "", "LC_MESSAGES": "C.utf8"}, {"LANG": "C", "LANGUAGE": "en"}):
        assert i18n.language_from("auto", environ) == "ja", environ
        assert i18n.language_from("auto", environ, unset="en") == "en", environ
    assert i18n.language_from("auto", {"LANG": "en_US.UTF-8"}) == "en"
    assert i18n.language_from("en", {}) == "en"


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


def test_each_games_words_are_all_in_its_own_folder_with_its_title():
    """A game's every domain (<game>, <game>_errors, <game>_ui, …) is a section of its
    games/<game>/locale.yaml, none in the shell's companion/locale/; the registry's title is the
    catalog's, and its home tile and Rules tab have their own words there."""
    for name, game in registry.games().items():
        own = [domain for domain in i18n.domains() if domain == name or domain.startswith(f"{name}_")]
        assert name in own and len(own) >= 2, own
        for domain in own:
            assert i18n.source(domain) == registry.folders()[name] / "locale.yaml", domain
        assert game.title == {lang: i18n.catalog(name)["title"][lang] for lang in i18n.LANGUAGES}
        for key in ("tile", "tab"):  # its home tile's words, its tab on the Rules screen
            assert i18n.catalog(name)[key]["ja"] and i18n.catalog(name)[key]["en"]
    shared = {path.stem for path in i18n.LOCALE_DIR.glob("*.yaml")}
    assert shared == {"app", "files", "play", "seats", "sensing", "sensortest", "terminal"}, shared


@pytest.fixture
def catalogs_in(tmp_path, monkeypatch):
    """The catalogs read from `tmp_path`'s locale/ and games/ instead of the package's."""
    (tmp_path / "locale").mkdir()
    (tmp_path / "games" / "chess").mkdir(parents=True)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setattr(i18n, "game_roots", lambda: [str(tmp_path / "games")])
    i18n._catalogs.cache_clear()
    yield tmp_path
    i18n._catalogs.cache_clear()


def test_a_games_sections_are_its_domains(catalogs_in):
    (catalogs_in / "locale" / "app.yaml").write_text('ok: {ja: "はい", en: "OK"}\n', encoding="utf-8")
    (catalogs_in / "games" / "chess" / "locale.yaml").write_text(
        'chess:\n  title: {ja: "チェス", en: "Chess"}\nchess_ui:\n  check: {ja: "王手", en: "Check"}\n',
        encoding="utf-8")
    assert i18n.domains() == ["app", "chess", "chess_ui"]
    assert i18n.translate("chess_ui.check", "ja") == "王手"
    assert i18n.both("chess.title") == {"ja": "チェス", "en": "Chess"}
    assert i18n.source("chess_ui") == catalogs_in / "games" / "chess" / "locale.yaml"


@pytest.mark.parametrize("game_file,problem", [
    ('app:\n  ok: {ja: "はい", en: "OK"}\n', "app: already a domain in"),
    ("- chess\n", "a game's words are sections"),
    ("chess: [title]\n", "chess: a catalog is a mapping"),
    ("chess: {title: [\n", "not YAML"),
])
def test_a_game_file_that_is_not_sections_is_left_out_with_a_line_naming_it(catalogs_in, game_file, problem, caplog):
    """A game folder half written stops no app: its words are left out, said once in the log."""
    (catalogs_in / "locale" / "app.yaml").write_text('ok: {ja: "はい", en: "OK"}\n', encoding="utf-8")
    path = catalogs_in / "games" / "chess" / "locale.yaml"
    path.write_text(game_file, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert i18n.translate("app.ok", "ja") == "はい" and i18n.domains() == ["app"]
    [line] = [record.getMessage() for record in caplog.records]
    assert line.startswith(f"{path}:") and problem in line and line.endswith("(the game's words are left out)")


def test_a_shell_file_that_is_not_a_catalog_is_an_error_naming_it(catalogs_in):
    path = catalogs_in / "locale" / "app.yaml"
    path.write_text("ok: {ja: [\n", encoding="utf-8")
    with pytest.raises(i18n.CatalogError, match=f"^{path}: not YAML"):
        i18n.catalog("app")


def test_the_terminal_commands_speak_english_on_a_machine_with_no_locale(monkeypatch):
    from companion import terminal
    from companion.config import Config

    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    assert terminal._lang(Config()) == "en"
    assert i18n.language_from(Config().language) == "ja"  # the app's screens
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert terminal._lang(Config()) == "ja"
