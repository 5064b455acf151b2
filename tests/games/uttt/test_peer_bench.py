"""bench/uttt_peer.py against small peers written here: the CodinGame protocol both ways,
our rules judging (an illegal, garbled, late or dead peer loses, counted), seats
alternating, results written line by line and summarised with an interval."""

import json
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import uttt_peer  # noqa: E402  (bench/ is not a package)
from companion.games.uttt.rules import Engine

PEER = textwrap.dedent("""
    import random, sys, time
    behaviour = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    turn = 0
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        n = int(sys.stdin.readline())
        legal = [sys.stdin.readline().split() for _ in range(n)]
        turn += 1
        if behaviour == "first" or turn < 3:
            print(*legal[0], flush=True)
        elif behaviour == "illegal":
            print("9 9", flush=True)
        elif behaviour == "garbled":
            print("centre please", flush=True)
        elif behaviour == "slow":
            time.sleep(5)
        elif behaviour == "crash":
            sys.exit(3)
        else:
            print(*rng.choice(legal), flush=True)
""")


@pytest.fixture
def peer(tmp_path):
    script = tmp_path / "peer.py"
    script.write_text(PEER)
    return lambda behaviour: [sys.executable, str(script), behaviour]


def test_row_and_column_are_codingames_grid():
    assert uttt_peer.to_row_col(0) == (0, 0)
    assert uttt_peer.to_row_col(8) == (2, 2)  # board 0, bottom-right cell
    assert uttt_peer.to_row_col(4 * 9 + 4) == (4, 4)
    assert uttt_peer.to_row_col(2 * 9 + 3) == (1, 6)  # board 2 (top right), cell 3 (middle left)
    assert all(uttt_peer.to_cell(*uttt_peer.to_row_col(c)) == c for c in range(81))


def test_the_peer_is_sent_the_last_move_and_the_legal_moves(peer):
    record = uttt_peer.play_game((1, peer("first"), "easy", 0.01, 5, None, 3))
    assert record["we_play"] == "O" and record["peer_fault"] is None
    e = Engine()
    for i, cell in enumerate(record["moves"]):
        if i % 2 == 0:  # the peer plays X and always answers the first legal move it was sent
            assert cell == min(e.legal_moves(), key=uttt_peer.to_row_col)
        e.play(cell)
    assert e.result != -1 and record["score"] == {0: 0.0, 1: 1.0, 2: 0.5}[e.result]


@pytest.mark.parametrize("behaviour, fault", [("illegal", "illegal"), ("garbled", "garbled"),
                                              ("slow", "timeout"), ("crash", "crash")])
def test_a_peer_at_fault_loses_and_is_counted(peer, behaviour, fault):
    record = uttt_peer.play_game((0, peer(behaviour), "easy", 0.01, 1.0, None, 5))
    assert record["peer_fault"] == fault and record["score"] == 1.0
    assert len(record["moves"]) == 5  # ours (X) three, the peer's two good ones


def test_a_run_alternates_seats_writes_each_game_and_summarises(peer, tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    engine = " ".join(peer("random")) + " {ms}"  # {ms} becomes the peer's seed here: 10
    assert uttt_peer.main(["--engine", engine, "--seconds", "0.01", "--games", "4", "--level", "medium",
                           "--peer-timeout", "60",  # a loaded machine starts the peer slowly: no fault of its
                           "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["game"] for r in lines) == [0, 1, 2, 3]
    assert {r["we_play"] for r in lines} == {"X", "O"}
    assert report["games"] == 4 and report["peer_faults"] == 0
    assert report["interval_95"][0] <= report["score"] <= report["interval_95"][1]
    assert report["our_iterations_per_move"] > 0
    assert uttt_peer.summary(lines)["score"] == report["score"]


def test_summary_interval_narrows_with_games():
    few = [{"score": s, "we_play": "X"} for s in (1.0, 0.0, 0.5, 1.0)]
    many = few * 25
    assert uttt_peer.summary(few)["interval_95"][0] < uttt_peer.summary(many)["interval_95"][0]
    assert uttt_peer.summary(many)["score"] == 0.625


def test_a_bad_results_line_names_file_and_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"score": 1.0, "we_play": "X"}\n{"score": \n')
    with pytest.raises(SystemExit, match="broken.jsonl:2"):
        uttt_peer.read_jsonl(path)
