"""Text for people, Japanese first and English too.

The shell's catalogs live in `companion/locale/<domain>.yaml`, one per part of the app;
each game's words are in its own folder, `companion/games/<game>/locale.yaml`, whose
top-level sections are its domains (`kuku:`, `kuku_errors:`, `kuku_ui:`).  Each key holds
both languages: `title: {ja: "…", en: "…"}`; a text counted by `n` may give plural forms,
`en: {one: "{n} move", other: "{n} moves"}` (never glue an "s" on).  A key is looked up
as "domain.key".  Missing Japanese falls back to English, then to the key.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from pathlib import Path

import yaml

import companion.games
from companion.errors import CompanionError

LANGUAGES = ("ja", "en")
NO_BREAK = "\u00a0"  # a space no line breaks at: inside a unit (a name and its count)
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
log = logging.getLogger(__name__)
GAME_LOCALE = "locale.yaml"  # a game's words, in its folder


class CatalogError(CompanionError):
    """A catalog file that cannot be read as catalogs: its path and what is wrong."""


def language_from(setting: str, environ=os.environ, *, unset: str = "ja") -> str:
    """The language to use: the configured one, else ("auto") the locale's, else `unset`.

    A machine with no locale (a fresh image, a service started without one: nothing set,
    or C or POSIX) says no language, and the screens then speak Japanese, the app's first.
    A terminal passes `unset="en"`: a console without a Japanese font draws kana as boxes."""
    if setting in LANGUAGES:
        return setting
    locale = _locale(environ)
    return ("ja" if locale.lower().startswith("ja") else "en") if locale else unset


def _locale(environ) -> str:
    """The locale messages follow (LC_ALL, else LC_MESSAGES, else LANG), or "" for none or
    C/POSIX; over a real one, GNU's LANGUAGE list ("ja:en") comes first."""
    value = next((environ[var] for var in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(var)), "")
    if value.split(".")[0].upper() in ("", "C", "POSIX"):
        return ""
    return environ.get("LANGUAGE", "").split(":")[0] or value


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: every catalog is read at the first word


def _read(path: Path):
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER) or {}
    except yaml.YAMLError as error:
        raise CatalogError(f"{path}: not YAML: {error}") from None


@cache
def _catalogs() -> dict[str, tuple[Path, dict]]:
    """Every domain, with the file it comes from: the shell's files, then each game's sections.
    A game's file that is not sections of catalogs is left out whole, said in the log (a game
    folder half written does not stop the app); a shell's file that is not one is an error."""
    found: dict[str, tuple[Path, dict]] = {}
    for path in sorted(LOCALE_DIR.glob("*.yaml")):
        found[path.stem] = _checked(path.stem, path, _read(path), found)
    for path in sorted(path for root in game_roots() for path in Path(root).glob(f"*/{GAME_LOCALE}")):
        try:
            sections = _read(path)
            if not isinstance(sections, dict):
                raise CatalogError(f"{path}: a game's words are sections, one per domain (\"kuku_ui:\")")
            found |= {domain: _checked(domain, path, entries, found) for domain, entries in sections.items()}
        except CatalogError as error:
            log.warning("%s (the game's words are left out)", error)
    return found


def _checked(domain: str, path: Path, entries, found: dict) -> tuple[Path, dict]:
    if not isinstance(entries, dict):
        raise CatalogError(f"{path}: {domain}: a catalog is a mapping of keys to texts")
    if domain in found:
        raise CatalogError(f"{path}: {domain}: already a domain in {found[domain][0]}; name it once")
    return path, entries


def game_roots() -> list[str]:
    """The folders that hold the games' folders: `companion.games`'s path (a test may add one)."""
    return list(companion.games.__path__)


def catalog(domain: str) -> dict:
    """The keys of `domain` and their texts ({} for a domain no file has)."""
    return _catalogs().get(domain, (None, {}))[1]


def source(domain: str) -> Path | None:
    """The file that holds `domain`."""
    return _catalogs().get(domain, (None, {}))[0]


def translate(key: str, language: str, /, **values) -> str:
    domain, _, name = key.partition(".")
    entry = catalog(domain).get(name)
    if not isinstance(entry, dict):
        return key
    text = entry.get(language) or entry.get("en") or key
    if isinstance(text, dict):  # plural forms: {one: "…", other: "…"}, chosen by the count n
        text = text["one"] if values.get("n") == 1 and "one" in text else text["other"]
    return text.format(**_said_in(values, language)) if values else text


class Words(str):
    """A text for a person that keeps its catalog key and values until a language is known
    (a sensor's message, a calibration step): `text(lang)` says it in one language, `said`
    says it (or an error holding it) in the configured one; as a plain string it reads in
    both, "日本語 / English", for a log or a caller that knows no language."""

    key: str
    params: dict

    def __new__(cls, key: str, /, **params):
        words = super().__new__(cls, " / ".join(translate(key, language, **params) for language in LANGUAGES))
        words.key, words.params = key, params
        return words

    def text(self, language: str) -> str:
        return translate(self.key, language, **self.params)


def _said_in(params: dict, language: str) -> dict:
    """A message's values with any `Words` among them said in `language` too (a `Text` of a
    rules refusal may hold them)."""
    return {k: v.text(language) if isinstance(v, Words) else v for k, v in params.items()}


def said(thing, language: str) -> str:
    """`thing` for a person in `language`: `Words`, an error made of them (its one argument),
    anything with `text(language)` (a rules refusal), else its own `str`."""
    if isinstance(thing, BaseException) and len(thing.args) == 1 and isinstance(thing.args[0], Words):
        thing = thing.args[0]
    text = getattr(thing, "text", None)
    return text(language) if callable(text) else str(thing)


def both(key: str, /, **values) -> dict[str, str]:
    """The text in every language, {"ja": …, "en": …} (a game's title, as its registry has it)."""
    return {language: translate(key, language, **values) for language in LANGUAGES}


def domains() -> list[str]:
    return sorted(_catalogs())
