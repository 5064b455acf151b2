"""The rules pages the app shows come from docs/rules.md and docs/rules.ja.md, section for section,
or from a game's own folder."""

import logging
import shutil

import pytest

from companion import rules_pages
from companion.rules_pages import RulesPageError, page, plain
from companion.ui.tiles import tiles
from tests.test_game_folders import NIM


@pytest.mark.parametrize("kind", [t.kind for t in tiles()])
def test_every_game_has_a_page_in_both_languages_with_the_same_shape(kind):
    ja, en = page(kind, "ja"), page(kind, "en")
    assert [b.kind for b in ja] == [b.kind for b in en]  # the Japanese page follows the English one
    assert ja[0].kind == "title" and all(b.text for b in ja + en)
    assert not any(mark in b.text for b in ja + en for mark in ("**", "`", "](", "<!--"))


def test_the_pages_explain_what_a_new_group_asked_about():
    kuku = " ".join(b.text for b in page("kuku", "ja"))
    assert "九九ボム" in kuku and "積 N" in kuku
    gunkan = {b.text for b in page("gunkan", "ja") if b.kind == "heading"}
    assert {"はじめてのゲーム", "コンパニオンでの戦闘の手順", "仮想駒", "ルール"} <= gunkan
    english = {b.text for b in page("gunkan", "en") if b.kind == "heading"}
    assert {"Your first game", "A battle with the companion", "Virtual pieces", "The rules"} <= english


def test_markdown_becomes_words():
    assert plain("**Our ruling.** see [the deck](navalwar_deck.md), `3×8` and *seesaw*") == \
        "Our ruling. see the deck, 3×8 and seesaw"
    blocks = rules_pages._blocks(["| a | b |", "|---|---|", "| 1 | 2 |", "", "- one", "  more", "1. first"],
                                 " ", "• ")
    assert [(b.kind, b.text) for b in blocks] == [("row", "a ｜ b"), ("row", "1 ｜ 2"), ("item", "• one more"),
                                                   ("item", "1. first")]


def test_a_missing_section_or_file_names_it(tmp_path):
    (tmp_path / "rules.md").write_text("<!-- help: kuku -->\n## Kuku\n")
    with pytest.raises(RulesPageError, match=r"rules\.md: no section for 'uttt'"):
        page("uttt", "en", tmp_path)
    with pytest.raises(RulesPageError, match=r"rules\.ja\.md: cannot read"):
        page("kuku", "ja", tmp_path)


def test_kukus_page_names_the_ships_as_its_screen_does():
    """The newcomer walk read 「旗艦」 on the rules page and 「リーダー船」 on the game's screen."""
    from companion import i18n

    leader = i18n.translate("kuku.leader", "ja")
    kuku = " ".join(b.text for b in page("kuku", "ja"))
    assert leader in kuku and "旗艦" not in kuku


def test_a_games_own_folder_holds_its_page_and_a_game_without_one_has_no_tab(game_folders, caplog):
    shutil.copytree(NIM, game_folders / "nim")
    assert [(b.kind, b.text) for b in page("nim", "ja")][0] == ("title", "ニム")
    assert page("nim", "en")[1].text.startswith("Two players take turns") and rules_pages.has("nim", "en")
    assert page("uttt", "en") == page("uttt", "en", rules_pages.DOCS)  # the others': docs/
    (game_folders / "nim" / "rules.ja.md").unlink()
    with caplog.at_level(logging.WARNING):
        assert not rules_pages.has("nim", "ja") and not rules_pages.has("nim", "ja")
    assert [r.getMessage() for r in caplog.records] == [
        f"no Rules tab for 'nim': {rules_pages.DOCS / 'rules.ja.md'}: no section for 'nim' "
        "(a line '<!-- help: nim -->' begins one)"]
