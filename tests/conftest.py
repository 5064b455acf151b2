"""Shared test set-up: no test touches the real user's data directory, and the tests that play
whole games do not wait for the disk after every move."""

import os
from pathlib import Path

import pytest

from companion import store_open

# The folders whose tests play games through controllers, the app or the phones.  Their stores
# commit without a sync (synchronous=OFF): the same rows, read back the same, since only a power
# cut tells the two apart; a sync was 20 % of the controllers' test time.  The store's own tests
# (tests/test_store*.py, test_migrations.py, tests/attack/) and every subprocess keep FULL.
PLAYING = {"games", "play", "gui", "evening", "seats"}
TESTS = Path(__file__).parent


@pytest.fixture(autouse=True)
def private_data_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))


@pytest.fixture(autouse=True)
def no_sync_per_turn(request, monkeypatch):
    if Path(request.node.path).relative_to(TESTS).parts[0] in PLAYING:
        monkeypatch.setattr(store_open, "SYNCHRONOUS", "OFF")


# A start-up failure stays in the terminal during tests (the appliance also shows it on screen).
os.environ["COMPANION_PROBLEM_WINDOW"] = "0"
os.environ.setdefault("COMPANION_DISPLAY_WAIT_S", "0")  # no waiting for a KMS device that tests do not have
