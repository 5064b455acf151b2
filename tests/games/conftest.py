"""What the games' tests share: a store of their own."""

import pytest

from companion.store import Store


@pytest.fixture
def store(tmp_path):
    with Store.in_dir(tmp_path) as store:
        yield store
