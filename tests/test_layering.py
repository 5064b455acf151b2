"""The layering of the package, held by its imports.

- Nothing outside ui/ and a game's screen/ imports Kivy: importing any other module in a
  fresh interpreter leaves Kivy out, and no other module's text imports it, even inside a
  function (but `companion.doctor`, which checks that Kivy can load the fonts).
- sensing/ imports no game, nor the shared play machinery, nor the UI; the shell (ui/)
  imports no game (it finds the weighing device as the registry finds rules).
- No import cycles among companion modules (every import counts, also those inside
  functions: a cycle hidden in a function is still a cycle).
- Screens ask a weight source whether it is `virtual`; none tests for the simulator class.
- Who plays is read from a game's `lineup`: a stored scoreboard string is only handed on to
  count results, never taken apart.
- A module over 400 lines says why at its top (its docstring names the "400 lines").
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
KIVY_AT_RUN_TIME = {"companion.doctor": "tries the fonts with Kivy's own label when asked to"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(name: str) -> set[str]:
    """The companion modules `name` imports anywhere in its text."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            targets = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:  # `from pkg import name`: the name may be a function
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("companion"):
                found.add(target)
    return found


GRAPH = {name: imports(name) for name in MODULES}


def may_use_kivy(name: str) -> bool:
    parts = name.split(".")
    return parts[:2] == ["companion", "ui"] or (parts[:2] == ["companion", "games"] and parts[3:4] == ["screen"])


def kivy_free_modules() -> list[str]:
    return sorted(n for n in MODULES if not may_use_kivy(n) and n != "companion.__main__")  # __main__ runs the app


def test_what_may_use_kivy_is_the_ui_and_each_games_screen_folder():
    assert may_use_kivy("companion.ui.app") and may_use_kivy("companion.games.kuku.screen.grid")
    assert may_use_kivy("companion.games.kuku.screen")
    assert not may_use_kivy("companion.games.kuku.board") and not may_use_kivy("companion.games.kuku.controller")
    assert not may_use_kivy("companion.seats.server") and not may_use_kivy("companion.games.screenplay")


def test_nothing_outside_the_ui_and_the_screens_imports_kivy():
    names = kivy_free_modules()
    assert "companion.games.uttt.rules" in names and "companion.sensing.judge" in names
    assert "companion.games.gunkan.seesaw" in names and "companion.games.uttt.screen.board" not in names
    script = ("import importlib, sys\n"
              f"for name in {names!r}:\n"
              "    importlib.import_module(name)\n"
              "    if 'kivy' in sys.modules:\n"
              "        print(name)\n"
              "        break\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "", f"{run.stdout.strip()} brings in kivy"


def test_no_module_outside_the_ui_and_the_screens_imports_kivy_even_in_a_function():
    found = []
    for name in kivy_free_modules():
        for node in ast.walk(ast.parse(MODULES[name].read_text())):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(t == "kivy" or t.startswith("kivy.") for t in targets) and name not in KIVY_AT_RUN_TIME:
                found.append(f"{MODULES[name].relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_sensing_knows_no_game():
    for name in (n for n in MODULES if n.startswith("companion.sensing")):
        wrong = {t for t in GRAPH[name] if t.startswith(("companion.games", "companion.play", "companion.ui"))}
        assert not wrong, f"{name} imports {sorted(wrong)}"


def test_the_shell_imports_no_game():
    for name in (n for n in MODULES if n.startswith("companion.ui")):
        wrong = {t for t in GRAPH[name] if t.startswith("companion.games")}
        assert not wrong, f"{name} imports {sorted(wrong)}"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycles():
    assert cycles(GRAPH) == []


def test_no_screen_asks_for_the_simulator_class():
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
                assert "SimulatedSeesaw" not in ast.unparse(node), f"{name}: use the source's `virtual`"


def test_a_stored_scoreboard_is_only_handed_on_to_count_results():
    """`x.scoreboard` may be called (`Lineup.scoreboard(kind)` builds one) or passed to
    `tally` / `results`; anything else reads who plays out of it."""
    misuse = []
    for name, path in MODULES.items():
        if name == "companion.store":
            continue
        tree = ast.parse(path.read_text())
        allowed = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                allowed.add(id(node.func))
                callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if callee in ("tally", "results"):
                    allowed.update(id(arg) for arg in node.args)
        misuse += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and node.attr == "scoreboard" and id(node) not in allowed]
    assert misuse == []


def test_a_long_module_says_why_it_is_long():
    long = {name: len(path.read_text().splitlines()) for name, path in MODULES.items()
            if len(path.read_text().splitlines()) > 400}
    unexplained = [name for name in long
                   if "400 lines" not in (ast.get_docstring(ast.parse(MODULES[name].read_text())) or "")]
    assert not unexplained, {name: long[name] for name in unexplained}
