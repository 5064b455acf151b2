"""Text for people, Japanese first and English too.

Catalogs live in `companion/locale/<domain>.yaml`, one per part of the app,
each key holding both languages: `title: {ja: "…", en: "…"}`; a text counted by `n`
may give plural forms, `en: {one: "{n} move", other: "{n} moves"}` (never glue an "s" on).  A key is looked up
as "domain.key".  Missing Japanese falls back to English, then to the key.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import yaml

LANGUAGES = ("ja", "en")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def language_from(setting: str, environ=os.environ) -> str:
    """The language to use: the configured one, or the locale's when "auto"."""
    if setting in LANGUAGES:
        return setting
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(var, "")
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return "en"


@cache
def catalog(domain: str) -> dict:
    path = LOCALE_DIR / f"{domain}.yaml"
    if not path.exists():
        return {}
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def translate(key: str, language: str, /, **values) -> str:
    domain, _, name = key.partition(".")
    entry = catalog(domain).get(name)
    if not isinstance(entry, dict):
        return key
    text = entry.get(language) or entry.get("en") or key
    if isinstance(text, dict):  # plural forms: {one: "…", other: "…"}, chosen by the count n
        text = text["one"] if values.get("n") == 1 and "one" in text else text["other"]
    return text.format(**values) if values else text


def domains() -> list[str]:
    return sorted(p.stem for p in LOCALE_DIR.glob("*.yaml"))
