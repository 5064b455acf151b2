"""Shared test set-up: no test touches the real user's data directory."""

import os

import pytest


@pytest.fixture(autouse=True)
def private_data_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))


# A start-up failure stays in the terminal during tests (the appliance also shows it on screen).
os.environ["COMPANION_PROBLEM_WINDOW"] = "0"
os.environ.setdefault("COMPANION_DISPLAY_WAIT_S", "0")  # no waiting for a KMS device that tests do not have
