"""No fork() of a process that may run threads (issue 41, 8).

Python 3.12+ warns at every fork() of a multi-threaded process (the child may deadlock on a
lock another thread held: numpy's OpenBLAS threads are enough), and 3.14 makes "forkserver"
multiprocessing's default.  The suite warned 36 times under 3.13: bench/_store_faults.py
forked its simultaneous starts.  Every process start names "forkserver" or "spawn".
A warnings filter cannot catch it: CPython clears the warning if a filter makes it an error.
"""

import ast
import os
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLEAN_STARTS = {"forkserver", "spawn"}


def _forks(tree: ast.AST) -> list[str]:
    """What in `tree` may fork(): os.fork, multiprocessing's default or "fork" context."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "multiprocessing":
            found += [f"line {node.lineno}: from {node.module} import {a.name}" for a in node.names
                      if a.name != "get_context"]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "multiprocessing" and node.attr not in ("get_context", "pool"):
                found.append(f"line {node.lineno}: multiprocessing.{node.attr}")
            elif node.value.id == "os" and node.attr in ("fork", "forkpty"):
                found.append(f"line {node.lineno}: os.{node.attr}")
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "get_context":
            method = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
            if method not in CLEAN_STARTS:
                found.append(f"line {node.lineno}: get_context({method!r})")
    return found


def test_every_process_start_names_forkserver_or_spawn():
    found = []
    for folder in ("companion", "bench", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" not in path.parts:
                found += [f"{path.relative_to(ROOT)}: {what}" for what in _forks(ast.parse(path.read_text()))]
    assert found == [], "use multiprocessing.get_context('forkserver'):\n" + "\n".join(found)


def test_the_check_sees_each_way_to_fork():
    source = ("import multiprocessing, os\nfrom multiprocessing import Pool\nmultiprocessing.Process()\n"
              "os.fork()\nmultiprocessing.get_context('fork')\nmultiprocessing.get_context()\n"
              "multiprocessing.get_context('forkserver').Pool()\n")
    assert sorted(line.split(":")[0] for line in _forks(ast.parse(source))) == [
        "line 2", "line 3", "line 4", "line 5", "line 6"]


def test_simultaneous_starts_do_not_fork_a_threaded_process(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # where the started processes find it too
    import _store_faults

    forked = []
    os.register_at_fork(before=lambda: forked.append(threading.active_count()))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, name="a test's thread", daemon=True)
    other.start()
    try:
        assert _store_faults._simultaneous_starts(tmp_path, None) is None
    finally:
        stop.set()
        other.join()
    assert forked == []
