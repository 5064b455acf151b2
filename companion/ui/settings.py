"""The settings screen: language, sensor source, sounds, fullscreen, screen keys; saved in the data dir.
It also opens the sensor test."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class SettingsScreen(Screen):
    def open_sensor_test(self) -> None:
        """The sensor test (companion/ui/sensortest.py), made the first time it is opened."""
        from companion.ui.sensortest import SensorTestScreen

        if not self.manager.has_screen("sensor_test"):
            self.manager.add_widget(SensorTestScreen())
        self.manager.current = "sensor_test"
