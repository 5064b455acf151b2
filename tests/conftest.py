"""Shared test set-up: no test touches the real user's data directory, and the tests that play
whole games do not wait for the disk after every move."""

import importlib
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from companion import store_open

# Properties have no per-example deadline: the default 200 ms fails a property on a loaded
# machine's stall, not on its rule (six still had it: gunkan, kuku, the sample queue, keyboards)
settings.register_profile("companion", deadline=None)
settings.load_profile("companion")

# The folders whose tests play games through controllers, the app or the phones.  Their stores
# commit without a sync (synchronous=OFF): the same rows, read back the same, since only a power
# cut tells the two apart; a sync was 20 % of the controllers' test time.  The store's own tests
# (tests/test_store*.py, test_migrations.py, tests/attack/) and every subprocess keep FULL.
PLAYING = {"games", "play", "gui", "evening", "seats"}
TESTS = Path(__file__).parent


@pytest.fixture(autouse=True)
def private_data_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))


@pytest.fixture(autouse=True)
def no_sync_per_turn(request, monkeypatch):
    if Path(request.node.path).relative_to(TESTS).parts[0] in PLAYING:
        monkeypatch.setattr(store_open, "SYNCHRONOUS", "OFF")


# A start-up failure stays in the terminal during tests (the appliance also shows it on screen).
os.environ["COMPANION_PROBLEM_WINDOW"] = "0"
os.environ.setdefault("COMPANION_DISPLAY_WAIT_S", "0")  # no waiting for a KMS device that tests do not have


@pytest.fixture
def game_folders(tmp_path):
    """A folder on `companion.games`'s path beside the package's own: a game folder made in it
    at run time is found as one made in companion/games/ is (by the registry, the words, the
    tiles).  The games' caches are forgotten before and after, and the games made unloaded."""
    import companion.games

    root = tmp_path / "games"
    root.mkdir()
    before = companion.games.__path__
    companion.games.__path__ = [*before, str(root)]
    forget_games()
    try:
        yield root
    finally:
        companion.games.__path__ = before
        forget_games(root)


def forget_games(root=None) -> None:
    """Every cache of what the games are (as a fresh start finds them), and the modules of
    the games in `root`'s folders (imported again as they are now)."""
    import companion.games
    from companion import i18n
    from companion.play import registry
    from companion.ui import tiles

    made = {path.name for path in root.iterdir()} if root else set()
    for name in [m for m in sys.modules if m.startswith("companion.games.") and m.split(".")[2] in made]:
        del sys.modules[name]
    for name in made:
        vars(companion.games).pop(name, None)
    importlib.invalidate_caches()
    for cached in (registry.folders, registry.games, i18n._catalogs, tiles.tiles):
        cached.cache_clear()
