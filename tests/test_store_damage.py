"""A bit flipped in any stored field of a game is caught at the store's edge (issue 26):
the game becomes a `Damaged` record naming it, and no tally, listing, History row or
game display reads its fields (before, a flip in an outcome, a status or a lineup key
changed scores silently, raised KeyError in tallies, or stopped the app starting)."""

import sqlite3
import sys
from pathlib import Path

import pytest

from companion.play import registry
from companion.play.session import Session, tally, unfinished
from companion.store import FILENAME, Lineup, OutOfSequence, Store, UnreadableGame

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import _store_faults as faults  # noqa: E402  (the fault harness's index flip)


def _finished_uttt(store, players=("you", "friend")):
    """A finished two-player UTTT game, seat 0 winning (X takes the centre column boards)."""
    session = Session.start(store, "uttt", players=list(players), scoreboard="uttt:2p")
    while not session.state.is_over():
        session.play(session.state.legal_actions()[0])
    return session


def _games(tmp_path):
    with Store(tmp_path / FILENAME) as store:
        finished = [_finished_uttt(store) for _ in range(3)]
        active = Session.start(store, "uttt", players=["you", "friend"], scoreboard="uttt:2p",
                               lineup=Lineup("cpu", "hard"))
        active.play(active.state.legal_actions()[0])
        before = tally(store, "uttt:2p")
    return finished, active, before


def _edit(tmp_path, game_id, column, edit):
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("PRAGMA ignore_check_constraints=ON")  # a flip on disk passes no CHECK either
    (value,), = db.execute(f"SELECT {column} FROM games WHERE id = ?", (game_id,))
    db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (edit(value), game_id))
    db.commit()
    db.close()


def _flip(old: str, new: str):
    def edit(text):
        assert old in text, (old, text)
        return text.replace(old, new, 1)
    return edit


DAMAGE = {  # the reported cases: one bit each
    "winner_value": ("outcome", lambda t: _flip('"winner":0', '"winner":1')(t)
                     if '"winner":0' in t else _flip('"winner":1', '"winner":0')(t)),
    "winner_key": ("outcome", _flip('"winner"', '"winner"'.replace("w", "v", 1))),
    "reason": ("outcome", lambda t: t.replace('"reason":"', '"reason":"\x01', 1)),
    "status_finished": ("status", lambda t: "finishec"),
    "status_to_active": ("status", lambda t: "active"),  # not one bit, but a byte SQLite reads
    "options": ("options", lambda t: t.replace("{", "{ ", 1) if t != "{}" else "{ }"),
    "players": ("players", _flip('"you"', '"yov"')),
    "updated": ("updated", lambda v: v + 2 ** -20),
    "moves": ("moves", lambda v: v ^ 1),
}


@pytest.mark.parametrize("case", sorted(DAMAGE))
def test_a_flip_in_a_finished_game_is_reported_and_counts_nowhere(tmp_path, case):
    finished, active, before = _games(tmp_path)
    column, edit = DAMAGE[case]
    damaged = finished[1].id
    _edit(tmp_path, damaged, column, edit)
    with Store(tmp_path / FILENAME) as store:
        assert damaged not in {g.id for g in store.games()}  # no game code reads its fields
        assert [(d.id, d.kind) for d in store.damaged()] == [(damaged, "uttt")]
        after = tally(store, "uttt:2p")  # no KeyError, and no changed score
        winner = finished[1].state.outcome().winner
        expected = {p: dict(row) for p, row in before.items()}
        for seat, player in enumerate(finished[1].players):
            expected[player]["draw" if winner is None else "win" if winner == seat else "loss"] -= 1
        assert after == expected
        sessions, problems = unfinished(store)
        assert [s.id for s in sessions] == [active.id]
        assert any(f"game {damaged} (uttt)" in str(p) for p in problems)
        with pytest.raises(UnreadableGame, match=f"game {damaged}"):
            Session.resume(store, damaged)
        from companion.games.uttt.controller import UtttController
        from companion.play.controller import TABLE
        UtttController(store, sessions[0]).display(TABLE)  # its tally, drawn every frame


@pytest.mark.parametrize("stored", ['{"opponent":"cpu","leved":"hard"}', '{"opponent":"cpu","level":"hard","x":1}',
                                    '{"opponent":"cpt","level":"hard"}'])
def test_a_flipped_lineup_key_never_stops_the_start(tmp_path, stored):
    """"level" -> "leved" once made `store.games()` raise KeyError: the app could not start."""
    finished, active, _ = _games(tmp_path)
    _edit(tmp_path, active.id, "lineup", lambda _: stored)
    with Store(tmp_path / FILENAME) as store:
        assert len(store.games()) == 3 and [d.id for d in store.damaged()] == [active.id]
        sessions, problems = unfinished(store)
        assert sessions == [] and len(problems) == 1


def test_a_damaged_finished_game_is_not_given_to_history(tmp_path):
    """History read `options['variant']` of a game its check had flagged."""
    with Store(tmp_path / FILENAME) as store:
        game = store.create_game("battleship", {"variant": "salvo", "advanced": False}, players=["a", "b"])
        store.extend(game, 0, [{"type": "x"}], outcome={"winner": 0, "reason": "r"})
    _edit(tmp_path, game, "options", _flip('"variant"', '"vapiant"'))
    with Store(tmp_path / FILENAME) as store:
        assert store.games("finished") == [] and store.damaged()[0].id == game


def test_a_stale_copy_with_as_many_moves_cannot_write_over_another(tmp_path):
    """Two copies of a game at the same count: one takes a move back and plays another;
    the stale one's move would have landed on top of it."""
    with Store(tmp_path / FILENAME) as store:
        first = Session.start(store, "uttt")
        first.play(first.state.legal_actions()[0])
        stale = Session.resume(store, first.id)
        first.undo()
        first.play(first.state.legal_actions()[1])
        with pytest.raises(OutOfSequence):
            stale.play(stale.state.legal_actions()[0])
        assert Session.resume(store, first.id).actions == first.actions


def test_a_lost_last_move_is_seen(tmp_path):
    """Each move row checks itself, but a last row gone (its game number flipped) left a
    shorter game that read as whole."""
    _, active, _ = _games(tmp_path)
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("UPDATE actions SET game_id = 999 WHERE game_id = ?", (active.id,))
    db.commit()
    db.close()
    with Store(tmp_path / FILENAME) as store:
        with pytest.raises(UnreadableGame, match="its record says 1"):
            Session.resume(store, active.id)
        assert 999 in [d.id for d in store.damaged()]


def test_naval_war_refuses_true_as_a_seat():
    from companion.play.state import Refused

    game = registry.get("navalwar")
    state = game.new_state(game.options({}))
    with pytest.raises(Refused):
        state.apply({"type": "first", "seat": True})
    state.apply({"type": "first", "seat": 1})


def test_a_flipped_seat_claim_hands_no_phone_another_seat(tmp_path):
    """A seat number flipped in a claim row would have given the phone the other fleet."""
    from companion.seats.claims import Claims

    with Store(tmp_path / FILENAME) as store:
        game = store.create_game("battleship", {}, players=["a", "b"])
        claims = Claims(store)
        key = claims.claim(game, 0)
        assert claims.by_key(key).seat == 0
        store._db.execute("UPDATE seat_claims SET seat = 1 WHERE game_id = ?", (game,))
        assert claims.by_key(key) is None and claims.of_game(game) == {}
        assert not claims.advance(next(iter([r[0] for r in store._db.execute("SELECT key_hash FROM seat_claims")])), 5)
        assert claims.claim(game, 1) is not None  # the damaged row holds no seat
        assert claims.claim(game, 0) is not None


def test_a_flipped_calibration_is_not_used_and_is_named(tmp_path):
    with Store(tmp_path / FILENAME) as store:
        store.save_calibration("default", {"scale": [1.25, 0.5]})
        assert store.calibration("default") == {"scale": [1.25, 0.5]} and store.damaged_calibrations() == []
        store._db.execute("UPDATE calibrations SET data = '{\"scale\":[1.75,0.5]}'")
        assert store.calibration("default") is None and store.calibration() is None
        assert store.damaged_calibrations() == ["default"]


def _overwrite_page_of(path, name: str) -> None:
    """Garbage over the first page of table or index `name`: SQLite's quick check fails."""
    db = sqlite3.connect(path)
    (page,), = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,))
    (size,), = db.execute("PRAGMA page_size")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    with open(path, "r+b") as file:
        file.seek((page - 1) * size)
        file.write(bytes(range(256)) * (size // 256))


def test_a_file_set_aside_gives_back_the_games_that_still_read(tmp_path):
    """A broken index makes SQLite call the file damaged, yet every game still reads: they
    stay playable in the new file (before, all of them left Resume until a repair)."""
    finished, active, before = _games(tmp_path)
    _overwrite_page_of(tmp_path / FILENAME, "games_by_status")
    with Store(tmp_path / FILENAME) as store:
        assert store.set_aside is not None and store.salvaged == 4
        assert store.damaged() == [] and tally(store, "uttt:2p") == before
        sessions, problems = unfinished(store)
        assert [s.record.id for s in sessions] == [active.record.id] and problems == []
        assert sessions[0].state == active.state
    with Store(tmp_path / FILENAME) as store:  # the copy is a sound file of its own
        assert store.set_aside is None and len(store.games()) == 4


def test_moves_lost_with_the_damage_make_their_games_damaged_not_shorter(tmp_path):
    finished, active, before = _games(tmp_path)
    _overwrite_page_of(tmp_path / FILENAME, "actions")
    with Store(tmp_path / FILENAME) as store:
        assert store.set_aside is not None and store.salvaged == 4
        named = {d.id for d in store.damaged()}
        assert {active.record.id} <= named and all(s.record.id in named for s in finished)
        sessions, problems = unfinished(store)
        assert sessions == [] and len(problems) == 4 and tally(store, "uttt:2p") == {}



def _integrity(path) -> tuple[str, str]:
    """(quick check, full check) of the file, as SQLite says them."""
    db = sqlite3.connect(path)
    try:
        return (db.execute("PRAGMA quick_check").fetchone()[0],
                "; ".join(line for line, in db.execute("PRAGMA integrity_check")))
    finally:
        db.close()


def test_a_flip_in_the_status_index_is_repaired_and_reported_and_no_score_changes(tmp_path):
    """Issue 41, finding 5: one bit of a finished game's status in the `games_by_status`
    index page.  The quick check said ok, History listed the game, the score table dropped
    it, and nothing was said.  Now every bit of each "finished" in that page is flipped in
    turn: the file opens, the index is rebuilt from the table (and on disk), the scores are
    as written, and the repair is reported."""
    finished, active, before = _games(tmp_path)
    path = tmp_path / FILENAME
    healthy = path.read_bytes()  # whole: closing the store checkpointed its WAL
    for nth in range(len(finished)):
        for bit in range(8 * len("finished")):
            path.write_bytes(healthy)
            faults.flip_in_index(path, "games_by_status", b"finished", bit, nth)
            quick, full = _integrity(path)
            assert quick == "ok" and "missing from index games_by_status" in full
            with Store(path) as store:
                assert tally(store, "uttt:2p") == before
                assert store.set_aside is None and store.rebuilt == ["games_by_status"]
                assert "games_by_status" in store.problem and "missing from index" in store.problem
                assert {g.id for g in store.games("finished")} == {s.id for s in finished}
                assert [s.id for s in unfinished(store)[0]] == [active.id]
            assert _integrity(path) == ("ok", "ok")  # mended on disk, not only in memory
