"""The compiled search (core.c), loaded through ctypes, and how it is built.

`make run` and `make test` build `_core.so` next to this file with the system C
compiler (`python -m companion.games.uttt.core`); without a compiler that says so
in one line and the app starts all the same.  Where the library is missing, stale
or will not load, `LIBRARY` is None and the computer opponent searches in pure
Python (`search.py`): the same moves for the same seed and iteration budget, about
40 times fewer iterations a second (`companion doctor` says which, and how many).
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

from companion.games.uttt.rules import Engine

SOURCE = Path(__file__).with_name("core.c")
TARGET = Path(__file__).with_name("_core.so")
# -ffp-contract=off: no fused multiply-add, so UCB scores round exactly as Python's do.
FLAGS = ["-O2", "-ffp-contract=off", "-fPIC", "-shared"]
INSTALL = "sudo apt-get install gcc libc6-dev"  # the compiler and the C library's headers


def build(target: Path = TARGET) -> Path:
    """Compile core.c into `target` with $CC (default cc); raises CalledProcessError."""
    compiler = os.environ.get("CC", "cc")
    subprocess.run([compiler, *FLAGS, "-o", str(target), str(SOURCE), "-lm"], check=True)
    return target


def build_or_say(target: Path = TARGET, err=sys.stderr) -> bool:
    """`build`, or one line on `err` saying why not and that the search stays in pure Python."""
    compiler = os.environ.get("CC", "cc")
    try:
        build(target)
        return True
    except FileNotFoundError:
        why = f"no C compiler ({compiler} not found)"
    except subprocess.CalledProcessError as exc:  # the compiler's own words are above
        why = f"{compiler} could not build {SOURCE.name} (exit status {exc.returncode})"
    except OSError as exc:
        why = f"{compiler} could not run ({exc.strerror})"
    print(f"uttt: {why}: the computer opponent searches in pure Python, about 40 times fewer"
          f" iterations (上級 much weaker); to compile it: {INSTALL}, then make again", file=err)
    return False


def load(path: Path = TARGET) -> ctypes.CDLL | None:
    """The core library at `path`, or None if it is missing, older than core.c or broken."""
    try:
        if path.stat().st_mtime < SOURCE.stat().st_mtime:
            return None
        lib = ctypes.CDLL(str(path))
    except OSError:
        return None
    lib.uttt_init()  # the tables, once, before any thread searches
    lib.uttt_search.restype = ctypes.c_int
    lib.uttt_search.argtypes = [
        ctypes.POINTER(ctypes.c_uint16), ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
        ctypes.c_int, ctypes.c_uint64, ctypes.c_long, ctypes.c_double, ctypes.c_int, ctypes.c_int,
        ctypes.c_double, ctypes.c_int, ctypes.POINTER(ctypes.c_long),
    ]
    lib.uttt_random_playouts.restype = ctypes.c_long
    lib.uttt_random_playouts.argtypes = [ctypes.c_double, ctypes.c_uint64]
    return lib


LIBRARY = None if os.environ.get("COMPANION_UTTT_CORE") == "python" else load()


def search(lib: ctypes.CDLL, e: Engine, seed: int, iterations: int | None, seconds: float | None,
           solver: bool, smart: bool, exploration: float, prior_weight: int) -> tuple[int, int]:
    """The core's move for the ongoing position `e`, and the iterations it ran."""
    cells = (ctypes.c_uint16 * 18)(*e.cells)
    done = ctypes.c_long(0)
    move = lib.uttt_search(cells, e.won[0], e.won[1], e.drawn, e.forced, e.player, seed,
                           -1 if iterations is None else iterations,
                           -1.0 if seconds is None else seconds,
                           int(solver), int(smart), exploration, prior_weight, ctypes.byref(done))
    if move < 0:
        raise MemoryError("the UTTT search ran out of memory")
    return move, done.value


if __name__ == "__main__":  # `make`: never stops the app from starting (exit 0 either way)
    built = Path(sys.argv[1]) if len(sys.argv) > 1 else TARGET
    if build_or_say(built):
        print(f"built {built}", file=sys.stderr)
