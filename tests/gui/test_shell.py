"""The app shell through the real window: home, tiles, settings, resume."""

from pathlib import Path

import pytest

from companion import config
from companion.ui.tiles import tiles


def test_home_shows_japanese_title_and_a_tile_per_game(gui):
    assert gui.screen.name == "home"
    assert gui.find("ゲームコンパニオン")
    assert len(gui.screen.ids.tiles.children) == len(tiles())
    gui.screenshot("home-ja-800x480")


def test_the_window_opens_with_its_header_on_screen(gui):
    from kivy.core.window import Window

    assert Window.top >= 0 and Window.left >= 0
    assert tuple(Window.size) == (800, 480)


def test_every_tile_opens_its_own_game_screen(gui):
    for tile in tiles():
        gui.app.show_home()
        gui.pump(0.05)
        gui.tap(gui.tile(tile.kind))
        assert gui.screen.name == tile.kind


def test_every_touch_target_is_big_enough(gui):
    from kivy.uix.button import ButtonBehavior

    for screen in ("home", "settings"):
        gui.app.show_screen(screen)
        gui.pump(0.1)
        for widget in gui.widgets(gui.screen):
            if isinstance(widget, ButtonBehavior) and widget.opacity > 0 and not widget.disabled:
                assert min(widget.size) >= 48, f"{widget} on {screen} is {widget.size}"


def test_settings_change_language_at_once_and_persist(gui):
    gui.tap(gui.find("設定"))
    assert gui.screen.name == "settings"
    gui.screenshot("settings-ja")
    gui.tap(gui.screen.ids.lang_en)
    assert gui.app.lang == "en"
    assert gui.find("Language")
    gui.tap(gui.screen.ids.sound_off)
    gui.screenshot("settings-en")
    app = gui.restart()
    assert app.lang == "en" and app.cfg.sound.enabled is False
    assert gui.find("Game Companion")


def test_layout_holds_at_1280x720(gui):
    from kivy.core.window import Window

    Window.size = (1280, 720)
    gui.pump(0.2)
    assert tuple(gui.app.root.size) == (1280, 720)
    settings = gui.find("設定")
    assert settings.right <= 1280 and settings.y >= 0
    gui.screenshot("home-1280x720")
    Window.size = (800, 480)
    gui.pump(0.1)


def test_without_a_japanese_font_the_app_says_so_and_speaks_english(gui, tmp_path):
    from companion import config

    path = tmp_path / "nofont.yaml"
    path.write_text(f"data_dir: {tmp_path / 'd2'}\nlanguage: ja\n"
                    f"display:\n  cjk_font: {tmp_path / 'missing.ttc'}\n")
    gui.stop()
    gui.cfg = config.load(path)
    app = gui.start()
    assert app.has_cjk is False and app.lang == "en"
    assert "No Japanese font" in app.notice and f"display.cjk_font: {tmp_path / 'missing.ttc'}" in app.notice
    assert gui.find("Game Companion")
    gui.screenshot("home-no-cjk-font")


def test_an_unreadable_database_is_set_aside_and_reported(gui):
    gui.stop()
    db = gui.cfg.data_path / "companion.db"
    for extra in ("-wal", "-shm"):
        (gui.cfg.data_path / f"companion.db{extra}").unlink(missing_ok=True)
    db.write_bytes(b"garbage" * 500)
    app = gui.start()
    assert "set aside" in app.notice or "退避" in app.notice
    assert list(gui.cfg.data_path.glob("companion.db.unreadable-*"))
    gui.screenshot("home-database-set-aside")


@pytest.mark.parametrize("gui_config", ["sensor:\n  rate_hz: 80\n"], ids=["80-configured"], indirect=True)
def test_a_board_slower_than_configured_is_noticed_on_the_home_screen(gui):
    """Most HX711 boards run at 10/s: configured for 80, the app measures and says so once."""
    from companion.sensing.simulator import SimulatedSeesaw

    gui.stop()
    gui.source_factory = lambda: SimulatedSeesaw(seed=1, rate_hz=10.0)  # the board, not the setting
    app = gui.start()
    gui.wait_until(lambda: "実測は毎秒 10 回" in app.notice, timeout=8, what="the rate notice")
    assert app.notice.count("sensor.rate_hz") == 1 and app.sensor.seesaw.rate_hz == 10.0
    assert gui.find("毎秒 80 回")
    gui.screenshot("home-rate-mismatch")


def test_a_notice_on_the_home_screen_breaks_between_phrases(gui):
    """The phones' server waiting for a busy port (a second copy of the app runs) said on Home:
    its Japanese wraps between phrases, not inside 試し直します."""
    import word_breaks

    app = gui.app
    app.notice = app.tr("seats.waiting", "ja", where="*:8765", why=app.tr("seats.port_busy", "ja"), s="2")
    gui.pump(0.1)
    assert gui.find("8765").height > 40  # two lines at 800 px
    assert not word_breaks.problems(app), word_breaks.problems(app)
    gui.screenshot("home-notice-two-lines")


@pytest.fixture
def busy_port():
    """A port on loopback another program holds (a second copy of the app)."""
    import socket

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    yield holder
    holder.close()


def test_the_phones_server_waiting_is_said_in_the_tables_language_and_goes_once_it_listens(gui, busy_port):
    """The newcomer walk: a busy port's notice stayed Japanese after the switch to English (and
    would stay after the server listened)."""
    port = busy_port.getsockname()[1]
    gui.stop()
    path = Path(gui.cfg.path)
    path.write_text(path.read_text() + f"seats:\n  host: 127.0.0.1\n  port: {port}\n")
    gui.cfg = config.load(path)
    app = gui.start()
    gui.wait_until(lambda: app.seats is not None and "8765" not in gui.texts() and f"{port}" in gui.texts(),
                   what="the waiting notice")
    assert "待っています" in gui.find(f"{port}").text
    app.lang = "en"
    gui.pump(0.4)
    assert "waits for" in gui.find(f"{port}").text and "待っています" not in gui.texts()
    gui.screenshot("home-phones-waiting-en")
    busy_port.close()
    gui.wait_until(lambda: app.seats.listening.is_set(), timeout=8, what="the server to listen")
    gui.pump(0.4)
    assert f"{port}" not in gui.texts()
