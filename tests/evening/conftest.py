"""The evening suite: whole games through the real app, played as a group plays them.

It drives the app with tests/gui's harness (the `gui` driver, fixtures and layout check).
`player` is a seeded random player at that table who plays by what is drawn
(tests/evening/player.py): its seed is printed when a test fails, and EVENING_SEED=<n>
plays that evening again.

A case whose checks meet a finding of issue 43 not yet fixed carries `known(...)` (player.py): a strict
xfail that expects only those checks to fail.  Once the fix is merged the case passes, the
strict xfail turns that into a failure, and the mark is removed.
"""

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gui"))

from gui_harness import GuiDriver, gui, gui_config, pytest_collection_modifyitems  # noqa: E402,F401
from player import Player, known_checks  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "known_checks(*checks): the evening checks a case is known to fail")


@pytest.fixture
def player(request, gui):
    seed = int(os.environ.get("EVENING_SEED") or random.SystemRandom().randrange(10**6))
    request.node.evening_seed = seed
    return Player(gui, random.Random(seed), known_checks(request.node), seed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    seed = getattr(item, "evening_seed", None)
    if report.failed and seed is not None:
        report.sections.append(("evening seed", f"played with EVENING_SEED={seed}"))
