"""The evening suite: whole games through the real app, played as a group plays them.

It drives the app with tests/gui's harness: the same `gui` driver, fixtures and layout check.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gui"))

from gui_harness import GuiDriver, gui, gui_config, pytest_collection_modifyitems  # noqa: E402,F401
