"""Every document the tree cites is in the tree: a module, a test, a doc or a benchmark that
sends its reader to a `.md` file sends them to one that exists (DESIGN.md and RULES.md once
lived only in the team's folder), a cited principle of docs/design.md is one it numbers, and
a cited section of docs/rules.md (`docs/rules.md §kuku`) is one it has."""

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()  # names missing documents on purpose
ROOT = HERE.parent.parent
TOP = ["README.md", "Makefile", "config.yaml", "pyproject.toml",
       "companion", "tests", "docs", "bench", "firmware", "hardware", "deploy", "scripts", ".ci"]
SKIP = {"__pycache__", "node_modules", "artifacts", ".venv"}
TEXT = {".py", ".md", ".kv", ".js", ".mjs", ".yaml", ".yml", ".c", ".h", ".sh", ".service", ".toml",
        ".html", ".css", ".txt", ".ini", ".scad", ".sql", ""}
INSTALLED = "/opt/companion/"  # where deploy/ puts the tree on the appliance
# A document as written: docs/judge.md, ../deploy/README.md, rules.ja.md, file:///opt/companion/...
CITED = re.compile(r"(?<![\w.-])((?:/|\.\./|\.?[\w-]+/)*[\w.-]*\w\.md)\b")
PRINCIPLE = re.compile(r"docs/design\.md,? principles? (\d+)")
SECTION = re.compile(r"docs/rules\.md §(\w+)")


def _files():
    for top in TOP:
        path = ROOT / top
        for file in [path] if path.is_file() else sorted(path.rglob("*")):
            if file.is_file() and file.suffix in TEXT and not SKIP & set(file.parts) and file != HERE:
                yield file


def _texts():
    for file in _files():
        try:
            yield file, file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue


NAMES = {file.name for file in _files()}


def missing(file: Path, text: str) -> list[str]:
    """`file:line: document` for every document `text` (the text of `file`) cites that the tree lacks."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for cited in CITED.findall(line):
            if cited.startswith("/"):
                cited = "/" + cited.lstrip("/")  # file:///opt/... too
                there = cited.startswith(INSTALLED) and (ROOT / cited.removeprefix(INSTALLED)).exists()
            elif "/" in cited:
                there = (file.parent / cited).exists() or (ROOT / cited).exists()
            else:  # a bare name, as a page in the same folder writes it
                there = cited in NAMES
            if not there:
                found.append(f"{file.relative_to(ROOT)}:{number}: {cited}")
    return found


def test_the_pattern_finds_what_the_tree_cites():
    cited = [c for _, text in _texts() for c in CITED.findall(text)]
    assert len(cited) > 200 and "docs/design.md" in cited and "docs/rules.md" in cited


def test_a_document_missing_from_the_tree_is_found():
    here = ROOT / "companion" / "store.py"
    assert missing(here, "x\nthe log is the truth (DESIGN.md principle 2)") == [
        "companion/store.py:2: DESIGN.md"]
    assert missing(here, "see docs/nowhere.md and /work/shared/RULES.md §2") == [
        "companion/store.py:1: docs/nowhere.md", "companion/store.py:1: /work/shared/RULES.md"]
    assert missing(here, "docs/rules.md, ../docs/judge.md, rules.ja.md, file:///opt/companion/deploy/README.md") == []


def test_every_cited_document_is_in_the_tree():
    found = [problem for file, text in _texts() for problem in missing(file, text)]
    assert not found, "cited but not in the repository:\n" + "\n".join(found)


def test_every_cited_principle_is_numbered_in_the_design():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    numbered = set(re.findall(r"^(\d+)\. \*\*", design, re.M))
    assert numbered == {str(n) for n in range(1, 9)}
    cited = {(file.relative_to(ROOT).as_posix(), n) for file, text in _texts() for n in PRINCIPLE.findall(text)}
    assert len(cited) >= 5
    assert not [c for c in cited if c[1] not in numbered], "a principle docs/design.md does not number"


@pytest.mark.parametrize("page", ["rules.md", "rules.ja.md"])
def test_every_cited_section_of_the_rules_is_there(page):
    """Sections are cited by the key their `<!-- help: key -->` line gives (the app's names)."""
    keys = set(re.findall(r"<!-- help: (\w+) -->", (ROOT / "docs" / page).read_text(encoding="utf-8")))
    cited = {(file.relative_to(ROOT).as_posix(), key) for file, text in _texts() for key in SECTION.findall(text)}
    assert len(cited) >= 25
    assert not [c for c in cited if c[1] not in keys], f"a section docs/{page} does not have"
