"""The field's condition, not an injected clock: separate processes of the app's own code
whose wall clock is stepped back as NTP steps a Pi's after it boots (libfaketime, the boot
clock left alone as NTP leaves it), then the UTTT screen's resume and Resume's list
(issue 41, finding 3)."""

import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta

import pytest

STEP = r"""
import sys
from companion.games.uttt.controller import UtttController
from companion.play.session import Session, unfinished
from companion.store import Store

with Store.in_dir(sys.argv[1]) as store:
    if sys.argv[2] == "play":
        session = Session.start(store, "uttt", players=["red", "blue"])
        session.play(session.state.legal_actions()[int(sys.argv[3])])
        print(session.id)
    else:
        print(UtttController.open(store).session.id, [s.id for s in unfinished(store)[0]])
"""


def _at(when: str, data, *args) -> str:
    env = {**os.environ, "FAKETIME_DONT_FAKE_MONOTONIC": "1"}  # NTP steps the wall clock only
    result = subprocess.run(["faketime", when, sys.executable, "-c", STEP, str(data), *args],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.skipif(shutil.which("faketime") is None, reason="no faketime (apt-get install faketime)")
@pytest.mark.parametrize("back_h", [1, 24, 365 * 24])
def test_after_a_step_back_the_game_played_last_is_resumed(tmp_path, back_h):
    """Before: 3 of 3 the UTTT screen opened the older game, listed first in Resume."""
    start = datetime(2026, 12, 7, 9, 0)
    clock = [f"{start + timedelta(minutes=m) - timedelta(hours=back_h) * (m > 0):%Y-%m-%d %H:%M:%S}"
             for m in range(3)]
    older = _at(clock[0], tmp_path, "play", "0")
    newer = _at(clock[1], tmp_path, "play", "1")  # NTP stepped the clock back meanwhile
    assert _at(clock[2], tmp_path, "open") == f"{newer} [{newer}, {older}]"
