"""The settings screen: language, sensor source, sounds, fullscreen, screen keys; saved in the data dir."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class SettingsScreen(Screen):
    pass
