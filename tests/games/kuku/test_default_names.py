"""Kuku keeps names as typed and its defaults as they read when the game began (「赤」): in
English those defaults read in English in the game too (issue 29, small faults: the table
said 「赤の番」 in an English app)."""

import pytest

from companion import i18n
from companion.play.controller import TABLE
from tests.games.kuku.test_controller import start


def words(text, lang):
    return text.render(lambda key, **v: i18n.translate(key, lang, **v))


@pytest.mark.parametrize("typed_in", ["ja", "en"])
def test_default_names_read_in_the_apps_language(store, typed_in):
    defaults = [i18n.translate(f"kuku_ui.{w}", typed_in) for w in ("red", "blue")]
    c, step = start(store, names=defaults)
    assert c.session.players == defaults  # stored as they read
    for lang, red, blue in (("ja", "赤", "青"), ("en", "Red", "Blue")):
        assert [words(n, lang) for n in c.names] == [red, blue]
    cover = next(o.label for o in c.offers(TABLE) if o.kind == "open")  # the cover's button, as drawn
    assert words(cover, "en") == "I am Red: place my ships" and words(cover, "ja") == "赤です（船を置く）"


def test_a_typed_name_stays_as_typed(store):
    c, _ = start(store, names=["赤井", "Blue Team"])
    assert c.names == ["赤井", "Blue Team"]


def test_against_the_computer_the_default_you_reads_in_english(store):
    c, _ = start(store, opponent="cpu", names=[i18n.translate("kuku_ui.you", "ja"), ""])
    assert [words(n, "en") if not isinstance(n, str) else n for n in c.names] == \
        [i18n.translate("kuku_ui.you", "en"), i18n.translate("kuku_ui.cpu", "en")]
