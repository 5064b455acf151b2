"""Our Ultimate Tic-Tac-Toe levels against an engine we did not write.

The peer is any program speaking the CodinGame "Tic-Tac-Toe" (ultimate league)
protocol on stdin/stdout: each turn it reads the opponent's last move
"row col" ("-1 -1" on the first turn), the number of legal moves and each legal
move "row col", and answers one move "row col" (rows and columns 0..8 over the
whole 9x9 grid).  A new peer process plays each game.  Our rules judge: a peer
move that is not legal, not two numbers, or later than `--peer-timeout`, loses
the game for the peer and is counted.  Games alternate who moves first (even
games: ours is X).  Each finished game is appended to `--out` (JSONL) at once, so
a run cut short still counts; `--summary FILE` reports a JSONL file.

The score is ours: (wins + draws / 2) / games, with a 95 % interval (normal
approximation on the per-game scores).  Iterations per move: ours from the search;
the peer's parsed from its stderr with `--peer-iterations` (a regular expression
whose first group is the count), if it prints one.

Time per move: ours is `--seconds` for a level defined by time (hard); easy and
medium keep their own budget (iterations).  The peer's is its own, so `--engine` may
contain `{ms}`, replaced by the milliseconds, to pick a build or pass a flag.

Engines used for issue #27, and what was changed to build them (outside this
tree): bench/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import threading
import time
from multiprocessing import get_context
from pathlib import Path

from companion.games.uttt.ai import LEVELS, choose_move
from companion.games.uttt.rules import DRAW, ONGOING, Engine


def to_row_col(cell: int) -> tuple[int, int]:
    """Our cell number (board * 9 + cell in board) as CodinGame's row and column."""
    board, inner = divmod(cell, 9)
    return board // 3 * 3 + inner // 3, board % 3 * 3 + inner % 3


def to_cell(row: int, col: int) -> int:
    return (row // 3 * 3 + col // 3) * 9 + row % 3 * 3 + col % 3


class PeerFault(Exception):
    """The peer lost by its own fault: `kind` is "illegal", "garbled", "timeout" or "crash"."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


class Peer:
    """One running peer process, one game."""

    def __init__(self, command: list[str], timeout: float, iterations: re.Pattern | None) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.timeout = timeout
        self.iterations: list[int] = []
        self.pattern = iterations
        self.lines: list[str] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)
            self.ready.set()
        self.ready.set()

    def _read_stderr(self) -> None:
        for line in self.proc.stderr:
            match = self.pattern.search(line) if self.pattern else None
            if match:
                self.iterations.append(int(match.group(1)))

    def move(self, last: int, legal: list[int]) -> tuple[int, float]:
        """Send a turn; the peer's cell and the seconds it took."""
        moves = sorted(to_row_col(c) for c in legal)
        row, col = to_row_col(last) if last >= 0 else (-1, -1)
        text = f"{row} {col}\n{len(moves)}\n" + "".join(f"{r} {c}\n" for r, c in moves)
        start = time.perf_counter()
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise PeerFault("crash", str(error)) from None
        while not self.lines:
            self.ready.clear()
            if self.lines:
                break
            left = self.timeout - (time.perf_counter() - start)
            if left <= 0:
                raise PeerFault("timeout", f"no move after {self.timeout} s")
            if self.proc.poll() is not None and not self.lines:
                raise PeerFault("crash", f"exited with {self.proc.returncode}")
            self.ready.wait(min(left, 0.05))
        took = time.perf_counter() - start
        answer = self.lines.pop(0)
        parts = answer.split()
        if len(parts) < 2 or not all(p.lstrip("-").isdigit() for p in parts[:2]):
            raise PeerFault("garbled", repr(answer))
        r, c = int(parts[0]), int(parts[1])
        cell = to_cell(r, c) if 0 <= r < 9 and 0 <= c < 9 else -1
        if cell not in legal:
            raise PeerFault("illegal", f"{r} {c}")
        return cell, took

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def play_game(task: tuple) -> dict:
    """One game of our `level` against the peer; the record written to the JSONL file."""
    index, command, level, seconds, peer_timeout, pattern, seed = task
    ours = 0 if index % 2 == 0 else 1  # the seat we play: X on even games
    rng = random.Random(seed)
    timed = seconds if LEVELS[level].time_limit is not None else None  # easy, medium: their own budget
    engine = Engine()
    peer = Peer(command, peer_timeout, re.compile(pattern) if pattern else None)
    our_iterations: list[int] = []
    our_times: list[float] = []
    peer_times: list[float] = []
    fault = None
    moves: list[int] = []
    try:
        while engine.result == ONGOING:
            legal = engine.legal_moves()
            if engine.player == ours:
                stats: dict = {}
                start = time.perf_counter()
                cell = choose_move(engine, level, rng, time_limit=timed, stats=stats)["cell"]
                our_times.append(time.perf_counter() - start)
                our_iterations.append(stats.get("iterations", 0))
                assert cell in legal, f"our {level} chose an illegal move {cell}"
            else:
                try:
                    cell, took = peer.move(engine.last, legal)
                except PeerFault as error:
                    fault = error.kind
                    break
                peer_times.append(took)
            moves.append(cell)
            engine.play(cell)
    finally:
        peer.close()
    if fault:
        score = 1.0
    elif engine.result == DRAW:
        score = 0.5
    else:
        score = 1.0 if engine.result == ours else 0.0
    return {
        "game": index, "seed": seed, "we_play": "XO"[ours], "score": score,
        "peer_fault": fault, "moves": moves,
        "our_iterations_per_move": _mean(our_iterations),
        "our_s_per_move": _mean(our_times),
        "peer_iterations_per_move": _mean(peer.iterations),
        "peer_s_per_move": _mean(peer_times),
    }


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def summary(records: list[dict]) -> dict:
    """Score with a 95 % interval, results, faults and iterations per move."""
    n = len(records)
    scores = [r["score"] for r in records]
    mean = sum(scores) / n if n else 0.0
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n) if n else 0.5

    def avg(key: str) -> float | None:
        values = [r[key] for r in records if r.get(key) is not None]
        return round(sum(values) / len(values), 1) if values else None

    return {
        "games": n,
        "score": round(mean, 3),
        "interval_95": [round(max(0.0, mean - half), 3), round(min(1.0, mean + half), 3)],
        "wins": sum(s == 1.0 for s in scores), "draws": sum(s == 0.5 for s in scores),
        "losses": sum(s == 0.0 for s in scores),
        "peer_faults": sum(1 for r in records if r.get("peer_fault")),
        "score_as_x": _mean([r["score"] for r in records if r["we_play"] == "X"]),
        "score_as_o": _mean([r["score"] for r in records if r["we_play"] == "O"]),
        "our_iterations_per_move": avg("our_iterations_per_move"),
        "peer_iterations_per_move": avg("peer_iterations_per_move"),
        "our_s_per_move": _mean([r["our_s_per_move"] for r in records if r.get("our_s_per_move")]),
        "peer_s_per_move": _mean([r["peer_s_per_move"] for r in records if r.get("peer_s_per_move")]),
    }


def read_jsonl(path: Path) -> list[dict]:
    records = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise SystemExit(f"{path}:{number}: not JSON ({error})") from None
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=os.environ.get("UTTT_PEER_ENGINE"),
                        help="the peer's command line; {ms} is the time per move in ms "
                             "(default $UTTT_PEER_ENGINE)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per move, both sides")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="hard", help="our level: easy, medium or hard")
    parser.add_argument("--parallel", type=int, default=1, help="games played at once")
    parser.add_argument("--peer-timeout", type=float, default=None,
                        help="seconds after which a peer's move is a loss (default 3 x --seconds + 2)")
    parser.add_argument("--peer-iterations", default=None,
                        help="regex on the peer's stderr whose first group is its iterations")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--out", type=Path, default=None, help="JSONL file, one line per game")
    parser.add_argument("--summary", type=Path, default=None, help="only report this JSONL file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    if args.summary:
        report = summary(read_jsonl(args.summary))
        print(json.dumps(report) if args.json else json.dumps(report, indent=2))
        return 0
    if not args.engine:  # `make bench` runs every bench: without a peer there is nothing to play
        print(json.dumps({"skipped": "no peer engine: give --engine or set UTTT_PEER_ENGINE"}))
        return 0
    command = shlex.split(args.engine.replace("{ms}", str(round(args.seconds * 1000))))
    timeout = args.peer_timeout or 3 * args.seconds + 2
    tasks = [(i, command, args.level, args.seconds, timeout, args.peer_iterations, args.seed + i)
             for i in range(args.games)]
    out = args.out.open("a") if args.out else None
    records = []
    started = time.perf_counter()
    # --parallel 1 plays here, not in a pool; a pool's workers start from a forkserver, never a
    # fork() of this process, which may already run threads (a test's) that deadlock them.
    workers = get_context("forkserver").Pool(args.parallel) if args.parallel > 1 else contextlib.nullcontext()
    with workers as pool:
        for record in (pool.imap_unordered(play_game, tasks) if pool else map(play_game, tasks)):
            records.append(record)
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
            s = summary(records)
            print(f"game {record['game']}: {record['score']} (peer fault: {record['peer_fault']}); "
                  f"{s['games']} games {s['score']} {s['interval_95']} "
                  f"after {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    report = {"engine": args.engine, "level": args.level, "seconds_per_move": args.seconds,
              **summary(records), "elapsed_s": round(time.perf_counter() - started, 1)}
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
