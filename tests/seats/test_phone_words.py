"""The phone page's words (/strings.json): the page's own from companion/locale/seats.yaml,
each game's from the `<game>_phone` section of its own locale.yaml (issue 45: the shell's
catalog held every game's phone words, so a new game's renderer needed an edit outside it)."""

import re

from companion.play import registry
from companion.seats.server import STATIC, phone_words

PAGE = (STATIC / "phone.js").read_text(encoding="utf-8")
GAMES = {name: path.read_text(encoding="utf-8") for name, path in registry.phone_pages().items()}


def said(script: str) -> set[str]:
    """The words a script asks for by key: t("key") (a key ending in "." is a prefix)."""
    return set(re.findall(r'\bt\("([\w.]+)"', script))


def test_every_word_a_phone_script_says_is_served():
    """In both languages (tests/test_i18n.py holds every catalog key to both)."""
    words = phone_words("ja")
    assert words.keys() == phone_words("en").keys() and words["kuku_phone.pair"].startswith("段 × 列")
    for script in [PAGE, *GAMES.values()]:
        for key in said(script):
            assert any(k.startswith(key) for k in words) if key.endswith(".") else key in words, key


def test_a_games_phone_words_are_its_own_and_the_shells_name_no_game():
    for name, script in GAMES.items():
        others = [PAGE] + [s for n, s in GAMES.items() if n != name]
        for key in said(script):
            own = key.startswith(f"{name}_phone.")
            shared = any(key in said(other) for other in others)
            assert own or shared, f"{name}/phone.js says {key!r}, a word of the shell's only it uses: " \
                                  f"put it in {name}/locale.yaml under {name}_phone:"
    assert not [key for key in phone_words("en") if "." not in key and key.startswith(tuple(registry.games()))]
