"""The GUI tests' fixtures, from gui_harness.py (shared with tests/evening/)."""

from gui_harness import GuiDriver, gui, gui_config, pytest_collection_modifyitems  # noqa: F401
