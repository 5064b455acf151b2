"""Fixtures the games' tests share."""

import pytest

from companion.store import Store


@pytest.fixture
def store(tmp_path):
    """A fresh store in the test's own directory."""
    with Store.in_dir(tmp_path) as store:
        yield store
