"""docs/glossary.md's one word per thing, held in every catalog: the words it rules out
appear in no Japanese or English text, and the things it names are named its way."""

import re

import pytest

from companion import i18n

# (what the glossary rules out, in which language, why)
AVOIDED = [
    ("新しい対局", "ja", "a fresh game is 新しいゲーム"),
    ("新規", "ja", "a fresh game is 新しいゲーム"),
    ("もう一局", "ja", "a fresh game is 新しいゲーム"),
    ("開始", "ja", "the game begins with はじめる"),
    ("CPU", "ja", "the opponent is コンピューター"),
    ("CPU", "en", "the opponent is the Computer"),
    ("記録だけ", "ja", "the companion that only records is 記録係"),
    ("やさしい", "ja", "levels are 初級・中級・上級"),
    ("つよい", "ja", "levels are 初級・中級・上級"),
    ("もどる", "ja", "back is 戻る"),
    ("対局", "ja", "a game is ゲーム"),
    ("取消", "ja", "undo is 取り消し"),
]


def _texts(entry, lang):
    text = entry.get(lang)
    return list(text.values()) if isinstance(text, dict) else [text]


def _all(lang):
    for domain in i18n.domains():
        for key, entry in i18n.catalog(domain).items():
            for text in _texts(entry, lang):
                yield f"{domain}.{key}", text


@pytest.mark.parametrize("word,lang,why", AVOIDED)
def test_no_catalog_uses_a_word_the_glossary_rules_out(word, lang, why):
    found = [key for key, text in _all(lang) if word in text]
    assert not found, f"{found} say {word!r}: {why} (docs/glossary.md)"


# key pattern → the glossary's word, in every game that has such a text
NAMED = {
    r"(new|new_game|new_game_button|another_game)": ("新しいゲーム", "New game"),
    r"start": ("はじめる", "Start"),
    r"(cpu|opp_cpu)": ("コンピューター", "Computer"),
    r"(opp_tracker|tracker)": ("記録係", "Tracker"),
    r"level_easy": ("初級", "Easy"),
    r"level_medium": ("中級", "Medium"),
    r"level_hard": ("上級", "Hard"),
    r"back": ("戻る", "Back"),
    r"back_to_game": ("ゲームに戻る", "Back to game"),
    r"undo": ("取り消し", "Undo"),
}


@pytest.mark.parametrize("pattern", NAMED)
def test_each_thing_has_the_glossarys_word_in_every_catalog(pattern):
    ja, en = NAMED[pattern]
    found = {(domain, key): entry for domain in i18n.domains() if domain.endswith("_ui") or domain == "app"
             for key, entry in i18n.catalog(domain).items() if re.fullmatch(pattern, key)}
    assert found, f"no catalog has a {pattern} text any more: update this test"
    for (domain, key), entry in found.items():  # the word, or the word heading a prompt ("New game: …")
        said = [entry["ja"].split("：")[0], entry["en"].split(":")[0]]
        assert said == [ja, en], f"{domain}.{key}: docs/glossary.md says {ja} / {en}"


YOU_DOMAINS = ("app", "seats", "battleship", "battleship_ui", "kuku", "kuku_ui", "uttt", "uttt_ui")
"""Where a seat may be named You (against the computer: battleship.you, kuku_ui.you, uttt_ui.you)."""
THIRD_PERSON = re.compile(r"\{(player|who)\}\s+(is|[a-z]+s)\b")


def test_no_text_about_a_seat_that_may_be_you_says_you_wins():
    """"You wins!" and "You attacks 1×5" were on Kuku's English screen in the newcomer walk."""
    found = [f"{domain}.{key}: {text!r}" for domain in YOU_DOMAINS
             for key, entry in i18n.catalog(domain).items() for text in _texts(entry, "en")
             if THIRD_PERSON.search(text)]
    assert not found, f"these would say 'You wins' (docs/glossary.md): {found}"
