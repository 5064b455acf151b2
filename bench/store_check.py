"""What checking every index against its table costs at each start (issue 41, finding 5).

Builds a database of `--games` finished Ultimate Tic-Tac-Toe games (one real game played
to its end by the rules, its rows copied under new numbers with their own checks), then
times SQLite's quick check, its full integrity check (what the start runs), and a whole
`Store` open, each the median of `--runs`.  The file is in the page cache: a cold SD card
adds the reading of the file, which both checks do alike.
Usage: python bench/store_check.py [--json] [--games N] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from companion.migrations import GAME_FIELDS, action_crc, game_crc
from companion.play.session import Session
from companion.store import FILENAME, Store


def build(path: Path, games: int) -> None:
    with Store(path) as store:
        session = Session.start(store, "uttt", players=["red", "blue"], scoreboard="uttt:2p")
        while not session.state.is_over():
            session.play(session.state.legal_actions()[0])
    db = sqlite3.connect(path, isolation_level=None)
    game = db.execute(f"SELECT {', '.join(GAME_FIELDS)} FROM games").fetchone()
    actions = db.execute("SELECT seq, action, at, entry FROM actions ORDER BY seq").fetchall()
    db.execute("BEGIN")
    for n in range(2, games + 1):
        fields = (n, *game[1:12], n + game[12], *game[13:])
        db.execute(f"INSERT INTO games ({', '.join(GAME_FIELDS)}, crc) VALUES ({', '.join('?' * 17)})",
                   (*fields, game_crc(*fields)))
        db.executemany("INSERT INTO actions (game_id, seq, action, at, entry, crc) VALUES (?, ?, ?, ?, ?, ?)",
                       [(n, seq, text, at, entry, action_crc(n, seq, entry, text))
                        for seq, text, at, entry in actions])
    db.execute("COMMIT")
    db.close()


def timed(work, runs: int) -> float:
    took = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        took.append(time.perf_counter() - started)
    return round(statistics.median(took) * 1000, 1)


def check(path: Path, pragma: str) -> None:
    db = sqlite3.connect(path)
    assert db.execute(f"PRAGMA {pragma}").fetchall() == [("ok",)]
    db.close()


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / FILENAME
        build(path, args.games)
        with Store(path) as store:
            assert len(store.games("finished")) == args.games and not store.damaged()
        result = {"games": args.games, "file_mb": round(path.stat().st_size / 2 ** 20, 2),
                  "quick_check_ms": timed(lambda: check(path, "quick_check"), args.runs),
                  "integrity_check_ms": timed(lambda: check(path, "integrity_check"), args.runs),
                  "store_open_ms": timed(lambda: Store(path).close(), args.runs)}
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return result


if __name__ == "__main__":
    main()
