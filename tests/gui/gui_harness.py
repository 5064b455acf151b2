"""GUI harness: the real app in a real window (Xvfb when there is no display).

Used by tests/gui/ and tests/evening/ through their conftest.py.

`gui` starts a fresh CompanionApp per test on a private data directory; the
driver presses widgets with touch events through Kivy's input path, pumps the
event loop, and saves screenshots under artifacts/screenshots/ (git-ignored).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from companion.errors import CompanionError
from tests.virtual_display import ensure_display, pump, save_screenshot

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

try:
    ensure_display()
except CompanionError as exc:
    pytest.exit(str(exc), 2)
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ["KIVY_NO_ARGS"] = "1"

from companion import config  # noqa: E402
from companion.ui.app import CompanionApp  # noqa: E402
from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

import layout_check  # noqa: E402  (tests/gui/, after the display exists)


class GuiDriver:
    def __init__(self, cfg: config.Config, shots: Path, source_factory=None):
        self.cfg = cfg
        self.shots = shots
        self.source_factory = source_factory
        self.app: CompanionApp | None = None
        self.layout_checked = True  # a test may turn it off around a state it builds on purpose

    # life -------------------------------------------------------------------

    def start(self, size=(800, 480)) -> CompanionApp:
        source = self.source_factory() if self.source_factory else None
        self.app = CompanionApp(self.cfg, source=source)
        self.app._run_prepare()
        Window.size = size
        self.pump(0.2)
        return self.app

    def stop(self) -> None:
        if self.app is None:
            return
        unexpected = self.app.problems.shown  # a test that expects one clears the list
        self.app.dispatch("on_stop")
        for child in Window.children[:]:
            Window.remove_widget(child)
        App._running_app = None
        self.app = None
        self.pump(0.02)
        assert not unexpected, f"the app showed a problem over the screen: {unexpected!r}"

    def restart(self) -> CompanionApp:
        """Stop the app and start it again on the same data, as after a power cut."""
        size = tuple(Window.size)
        self.stop()
        self.cfg = config.load(self.cfg.path)
        return self.start(size)

    # time -------------------------------------------------------------------

    def pump(self, seconds: float = 0.05) -> None:
        """Run the event loop (clock, input, drawing) for `seconds` of real time."""
        pump(seconds)

    def settle(self, screen, timeout: float = 20.0) -> None:
        """Let the computer's thread finish and its turn be played (clock only, no frames drawn)."""
        end = time.monotonic() + timeout
        while screen.thinking or getattr(screen, "locked", False):  # as a person, who sees its move first
            assert time.monotonic() < end, "the computer never answered"
            Clock.tick()
        Clock.tick_draw()  # the layout follows the new stage before the next touch

    def wait_until(self, predicate, timeout: float = 10.0, what: str = "condition") -> None:
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}")
            self.pump(0.02)

    # touch ------------------------------------------------------------------

    def _wait_for_the_lock(self) -> None:
        """As a person, whose next tap comes once the screen has changed under the finger
        (a test of the lock itself touches with UnitTestTouch directly)."""
        screen = self.screen
        self.wait_until(lambda: not getattr(screen, "locked", False), what="the input lock to lift")
        self.pump(0)  # the lock lifts by the clock; the board is lit again by its event: a person taps what is drawn

    def _touch(self, widget, hold: float):
        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        self._wait_for_the_lock()
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(hold)
        touch.touch_up()
        self.pump(0.05)
        self.check_layout()

    def tap(self, widget) -> None:
        self._touch(widget, 0.03)

    def hold(self, widget, seconds: float = 0.6) -> None:
        """Press, keep the finger down for `seconds`, release."""
        self._touch(widget, seconds)

    def press_at(self, x: float, y: float):
        """Put a finger down at window coordinates; release it with `touch.touch_up()`."""
        self._wait_for_the_lock()
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(0.03)
        return touch

    def tap_at(self, x: float, y: float) -> None:
        self.press_at(x, y).touch_up()
        self.pump(0.05)
        self.check_layout()

    @staticmethod
    def cell_centre(board, cell) -> tuple[float, float]:
        """Window coordinates of the middle of `cell` on a board with `cell_rect`."""
        x, y, size = board.cell_rect(cell)
        return board.to_window(x + size / 2, y + size / 2)

    def tap_cell(self, board, cell) -> None:
        self.tap_at(*self.cell_centre(board, cell))

    # finding ------------------------------------------------------------------

    @property
    def screen(self):
        return self.app.manager.current_screen

    def widgets(self, root=None):
        return list((root or self.app.root).walk(restrict=True))

    def find(self, text: str, root=None):
        """The one visible widget whose text contains `text`."""
        found = [w for w in self.widgets(root or self.screen)
                 if text in str(getattr(w, "text", "")) and w.opacity > 0]
        assert len(found) == 1, f"{len(found)} widgets with text {text!r}"
        return found[0]

    def tile(self, kind: str):
        """The home screen's tile for a game kind."""
        return next(t for t in self.app.manager.get_screen("home").ids.tiles.children
                    if t.kind == kind)

    def texts(self, root=None) -> str:
        """All text on the current screen, one string: for leak checks."""
        return "\n".join(str(getattr(w, "text", "")) for w in self.widgets(root or self.screen))

    # the table-ready check ----------------------------------------------------

    def check_layout(self) -> None:
        """Every text on screen fits, overlaps nothing and is large enough (tests/gui/layout_check.py)."""
        if self.app is None or not self.layout_checked:
            return
        Clock.tick_draw()
        faults = layout_check.problems(self.app)
        where = f"{self.screen.name} ({self.app.lang})"
        if os.environ.get("LAYOUT_REPORT"):  # a file: collect every fault there instead of failing
            with open(os.environ["LAYOUT_REPORT"], "a") as f:
                f.writelines(f"{where}: {x}\n" for x in faults)
            return
        assert not faults, f"on {where}:\n  " + "\n  ".join(faults)

    def screenshot(self, name: str) -> Path:
        self.pump(0.1)
        self.check_layout()
        self.shots.mkdir(parents=True, exist_ok=True)
        return save_screenshot(self.shots / f"{name}.png")


@pytest.fixture
def gui_config(request, tmp_path):
    """A private configuration; more YAML comes from `parametrize("gui_config", [...], indirect=True)`."""
    path = tmp_path / "config.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\nlanguage: ja\n{getattr(request, 'param', '')}")
    return config.load(path)


@pytest.fixture
def gui(request, gui_config):
    driver = GuiDriver(gui_config, SHOTS / request.node.name.replace("/", "_"))
    driver.start()
    yield driver
    try:
        driver.check_layout()  # the state the test ended on
    finally:
        driver.stop()


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/gui/" in str(item.fspath) or "tests/evening/" in str(item.fspath):
            item.add_marker(pytest.mark.gui)
