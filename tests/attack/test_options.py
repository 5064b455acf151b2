"""Game options that look right but are not (0.0 or True for seat 0/1) are refused before
anything is written, so legal_actions() is never reached with them."""

import pytest

from companion.play.state import Refused
from companion.play.session import Session
from companion.store import Store


@pytest.mark.parametrize("kind", ["kuku", "battleship"])
@pytest.mark.parametrize("first", [0.0, 1.0, True, False, "0", None, [0]])
def test_first_must_be_the_int_0_or_1(tmp_path, kind, first):
    with Store(tmp_path / "c.db") as store:
        with pytest.raises(Refused, match="first"):
            Session.start(store, kind, {"first": first})
        assert store.games() == []


@pytest.mark.parametrize("kind", ["kuku", "battleship"])
def test_seat_0_and_1_play(tmp_path, kind):
    with Store(tmp_path / "c.db") as store:
        for first in (0, 1):
            assert Session.start(store, kind, {"first": first}).state.legal_actions()
