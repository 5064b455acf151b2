"""Each game's rules page for the app's Rules screen, read from a rules.md (English) and a
rules.ja.md (Japanese), the same sections in both: a section begins with a line
`<!-- help: <game> -->` and runs to the next one (or the end).  A game's page is in its own
folder's files if they have its section (a new game's folder holds its page), else in
docs/rules.md and docs/rules.ja.md, the rules reference.  No Kivy here.

A page is a list of `Block`s: "title" (the section's `##` heading), "heading" (`###`),
"para" (a paragraph, its lines joined), "item" (a list item, "・"/"•" before it) and "row"
(a table row, its cells joined by " ｜ ").  Markdown's emphasis, code and link syntax is
dropped (the words stay), since a label shows the words, not the markup.  A missing file or
section is a `RulesPageError` naming the file and the game.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from companion.errors import CompanionError
from companion.play import registry

DOCS = Path(__file__).resolve().parents[1] / "docs"
FILES = {"en": "rules.md", "ja": "rules.ja.md"}
MARK = re.compile(r"^<!-- help: ([a-z_]+) -->\s*$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|`")
_ITEM = re.compile(r"^(\s*)(?:[-*]|\d+\.)\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d+)\.\s")
log = logging.getLogger(__name__)


class RulesPageError(CompanionError):
    pass


@dataclass(frozen=True)
class Block:
    kind: str  # "title", "heading", "para", "item", "row"
    text: str


def page(kind: str, lang: str, docs: Path = DOCS) -> list[Block]:
    """The rules page of game `kind` in `lang` ("ja" or "en"): from its folder, else from `docs`."""
    folder = registry.folders().get(kind)
    own = folder / FILES[lang] if folder else None
    path = own if own and own.is_file() and kind in _sections(own) else docs / FILES[lang]
    sections = _sections(path)
    if kind not in sections:
        raise RulesPageError(f"{path}: no section for {kind!r} (a line '<!-- help: {kind} -->' begins one)")
    return _blocks(sections[kind], joiner="" if lang == "ja" else " ", bullet="・" if lang == "ja" else "• ")


def has(kind: str, lang: str) -> bool:
    """Whether game `kind` has a rules page in `lang`; a game without one is said once in the log."""
    try:
        page(kind, lang)
    except RulesPageError as error:
        if str(error) not in _said:
            _said.add(str(error))
            log.warning("no Rules tab for %r: %s", kind, error)
        return False
    return True


_said: set[str] = set()


def _sections(path: Path) -> dict[str, list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesPageError(f"{path}: cannot read the rules ({exc.strerror})") from None
    return _split(text)


@lru_cache(maxsize=8)
def _split(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        mark = MARK.match(line)
        if mark:
            current = sections.setdefault(mark.group(1), [])
        elif current is not None:
            current.append(line)
    return sections


def plain(text: str) -> str:
    """Markdown's inline syntax dropped: links keep their words, no asterisks or backticks."""
    return _EMPHASIS.sub("", _LINK.sub(r"\1", text)).strip()


def _blocks(lines: list[str], joiner: str, bullet: str) -> list[Block]:
    blocks: list[Block] = []
    open_block: list | None = None  # [kind, prefix, [parts]] being gathered

    def close():
        nonlocal open_block
        if open_block is not None:
            kind, prefix, parts = open_block
            blocks.append(Block(kind, prefix + plain(joiner.join(parts))))
            open_block = None

    for line in lines:
        stripped = line.strip()
        if not stripped:
            close()
        elif stripped.startswith("## "):
            close()
            blocks.append(Block("title", plain(stripped[3:])))
        elif stripped.startswith("### "):
            close()
            blocks.append(Block("heading", plain(stripped[4:])))
        elif stripped.startswith("|"):
            close()
            cells = [plain(c) for c in stripped.strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):  # not the header's rule
                blocks.append(Block("row", " ｜ ".join(cells)))
        elif (item := _ITEM.match(line)) and len(item.group(1)) < 2:
            close()
            number = _NUMBERED.match(line)
            open_block = ["item", f"{number.group(1)}. " if number else bullet, [item.group(2).strip()]]
        elif open_block is not None:
            open_block[2].append(stripped)
        else:
            open_block = ["para", "", [stripped]]
    close()
    return blocks
