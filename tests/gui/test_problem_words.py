"""Every problem message reads whole in both languages: no word broken across lines
(issue 29, finding 10: 「もう一／度」), nothing cut, at 800×480."""

import pytest
import word_breaks

from companion.config import ConfigError
from companion.errors import CompanionError
from companion.store import DataDirInUse, OutOfSequence, StoreBusy, StoreUnwritable, UnreadableGame

ERRORS = [DataDirInUse("the data directory is in use"), StoreBusy("locked"), StoreUnwritable("disk full"),
          OutOfSequence("out of sequence"), UnreadableGame("unreadable"), ConfigError("config.yaml line 3: key"),
          CompanionError("something"), RuntimeError("a bug")]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_problem_message_breaks_only_between_words(gui, lang):
    gui.app.lang = lang
    try:
        for error in ERRORS:
            gui.app.problems.show(error)
            gui.pump(0.1)
            gui.check_layout()
            faults = word_breaks.problems(gui.app)
            assert not faults, f"{type(error).__name__}: {faults}"
            gui.screenshot(f"{lang}-{type(error).__name__}")
            gui.app.problems.open.dismiss(animation=False)
            gui.app.problems.open = None
    finally:
        gui.app.problems.shown.clear()  # expected
