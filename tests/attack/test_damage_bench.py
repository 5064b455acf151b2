"""The damage bench (bench/_damage_faults.py) at a size for `make test`: one bit flipped in
each column of a real database of all five games, finished and unfinished, opened by the
app's paths (start, Resume, each display, History, each review, tallies, the learning
report).  Before issue 26 a flip in an outcome changed scores unreported, and one in a
lineup key stopped the start."""

import _damage_faults  # bench/, on the path by conftest.py


def test_no_flipped_bit_changes_a_game_silently_or_crashes():
    columns = _damage_faults.figures(2, seed=3)
    assert {"games.outcome", "games.status", "games.lineup", "actions.action"} <= set(columns)
    for column, row in columns.items():
        assert row["silent_changes"] == 0 and row["crashes"] == 0, (column, row)
    assert sum(row["reported"] for row in columns.values()) > 0
