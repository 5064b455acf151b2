"""The volume of the sounds is set in Settings (issue 29, finding 9): off, quiet, medium,
loud; saved, lit after a restart, and used by the game's sounds."""

from companion.games.gunkan.screen.sounds import Sounds


def test_the_volume_is_chosen_saved_and_played_at(gui, monkeypatch):
    played = []
    monkeypatch.setattr(Sounds, "play", lambda self, name, enabled, volume=0.7: played.append((name, enabled, volume)))
    gui.tap(gui.find("設定"))
    screen = gui.screen
    assert screen.name == "settings" and screen.ids.sound_medium.state == "down"  # the default, 0.7
    gui.screenshot("settings-ja")
    gui.tap(screen.ids.sound_quiet)
    assert gui.app.cfg.sound.enabled and gui.app.cfg.sound.volume == 0.3
    gui.tap(screen.ids.sound_try)
    assert played[-1] == ("verdict", True, 0.3)
    gui.tap(screen.ids.sound_off)
    assert not gui.app.cfg.sound.enabled
    gui.tap(screen.ids.sound_loud)
    gui.restart()
    assert gui.app.cfg.sound.volume == 1.0 and gui.app.cfg.sound.enabled
    gui.app.show_screen("settings")
    gui.pump(0.1)
    assert gui.screen.ids.sound_loud.state == "down" and gui.screen.ids.sound_quiet.state == "normal"
    gui.app.lang = "en"
    gui.screenshot("settings-en")
