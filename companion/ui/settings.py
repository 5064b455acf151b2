"""The settings screen: language, sensor source, sounds and their volume, fullscreen, screen keys;
saved in the data dir. It also opens the sensor test."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion.config import Sound

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class SettingsScreen(Screen):
    VOLUMES = {"quiet": 0.3, "medium": 0.7, "loud": 1.0}  # sound.volume; 0.7 is the default

    def volume_step(self, sound: Sound) -> str | None:
        """The volume button a setting lights: the nearest step (a hand-edited 0.5 lights "medium")."""
        if not sound.enabled:
            return None
        return min(self.VOLUMES, key=lambda step: abs(self.VOLUMES[step] - sound.volume))

    def try_sound(self) -> None:
        """Play a verdict at the chosen volume, so the table hears what it chose."""
        from companion.games.gunkan.screen.sounds import Sounds

        app = App.get_running_app()
        self.sounds = getattr(self, "sounds", None) or Sounds(app.cfg.data_path / "sounds")
        self.sounds.play("verdict", app.cfg.sound.enabled, app.cfg.sound.volume)

    def open_sensor_test(self) -> None:
        """The sensor test (companion/ui/sensortest.py), made the first time it is opened."""
        from companion.ui.sensortest import SensorTestScreen

        if not self.manager.has_screen("sensor_test"):
            self.manager.add_widget(SensorTestScreen())
        self.manager.current = "sensor_test"
