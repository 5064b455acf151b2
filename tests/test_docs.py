"""The docs stay true to the tree: every file path and dotted name they write exists."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "hardware").glob("*.md"))]
TOP = "companion|tests|bench|docs|hardware|firmware|scripts|deploy"
# A path as written in prose: `companion/play/review.py`, tests/gui/, bench/faults.py
# (a pattern such as companion/games/<game>/ is not a path).
PATH = re.compile(rf"(?<![\w/.])((?:{TOP})/[\w./<>-]*[\w>])")
# A dotted name in code quotes: `companion.play.session.unfinished` (files such as
# companion.db are data, not modules).
DOTTED = re.compile(r"`(companion(?:\.[A-Za-z_]\w*)+)")
DATA_FILES = ("companion.db", "companion.lock")


def _written(pattern):
    for doc in DOCS:
        for match in pattern.finditer(doc.read_text(encoding="utf-8")):
            if "<" not in match.group(1):
                yield doc.relative_to(ROOT).as_posix(), match.group(1)


def test_the_docs_name_paths():
    assert len(list(_written(PATH))) > 50  # the pattern still finds what the docs write


@pytest.mark.parametrize("doc,path", sorted(set(_written(PATH))))
def test_every_path_a_doc_names_exists(doc, path):
    assert (ROOT / path).exists(), f"{doc} names {path}, which is not in the tree"


def _resolves(dotted):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute, None)
            if found is None:
                return False
        return True
    return False


@pytest.mark.parametrize(
    "doc,dotted",
    sorted((d, n) for d, n in set(_written(DOTTED)) if not n.startswith(DATA_FILES)),
)
def test_every_dotted_name_a_doc_writes_resolves(doc, dotted):
    assert _resolves(dotted), f"{doc} writes {dotted}, which does not import"
