"""The Kivy application: one ScreenManager, home, settings and a screen per game."""

from __future__ import annotations

import os

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.config import Config as KivyConfig  # noqa: E402  (before any window exists)

KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")
KivyConfig.set("kivy", "exit_on_escape", "0")
# The first window is already the table's size (not Kivy's 800×600, which a 480-high
# screen centres with its top, the header and Home, above the screen's edge).
KivyConfig.set("graphics", "width", "800")
KivyConfig.set("graphics", "height", "480")

from kivy.app import App  # noqa: E402
from kivy.base import ExceptionManager  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.logger import Logger  # noqa: E402
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty  # noqa: E402
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from companion import config as config_module  # noqa: E402
from companion import i18n  # noqa: E402
from companion.play import registry  # noqa: E402
from companion.play.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402
from companion.ui.problems import ProblemHandler, install_cjk_font, window  # noqa: E402


class CompanionApp(App):
    lang = StringProperty("en")
    notice = StringProperty("")  # a problem the people should know about (font, database)
    sensor_text = StringProperty("")
    seats_problem = StringProperty("")  # why the phones' server does not listen yet (a busy port), said anew each tick
    phones_away = StringProperty("")  # the phones button's warning while a seat's phone is gone
    sensor_ok = BooleanProperty(False)
    cfg = ObjectProperty(None)

    def __init__(self, cfg: config_module.Config, source=None, store: Store | None = None,
                 **kwargs):
        super().__init__(**kwargs)
        self.cfg = cfg
        self.title = "companion"
        self.store = store or Store.in_dir(cfg.data_path)  # a StoreError: the app cannot start
        self.problems = ProblemHandler(self)  # any later failure: a message, not a crash
        self.has_cjk = install_cjk_font(cfg.display.cjk_font)
        self.lang = self._language()
        problems = []
        self._given_source = source  # a source made elsewhere (the tests'), for the weighing device
        self._sensor, self._sensor_opened = None, False
        self._rate_warned = False
        self._screen_keyboard = None  # companion.ui.keyboard.OnScreenKeyboard while it is on
        self.seats = None  # companion.seats.server.SeatServer while the phones' server runs
        if not self.has_cjk:
            problems.append(i18n.translate("app.no_cjk_font", "en"))
            if cfg.display.cjk_font:  # the file and the key, for whoever mends it
                problems.append(f"(display.cjk_font: {cfg.display.cjk_font} does not exist)")
        if self.store.problem:
            Logger.warning("companion: %s", self.store.problem)
        if self.store.set_aside:
            problems.append(self.tr("app.database_set_aside", self.lang,
                                    path=str(self.store.set_aside)))
            if self.store.salvaged:
                problems.append(self.tr("app.database_salvaged", self.lang, count=self.store.salvaged))
        if self.store.rebuilt:
            problems.append(self.tr("app.database_index_rebuilt", self.lang))
        for name in self.store.damaged_calibrations():
            problems.append(self.tr("app.calibration_damaged", self.lang, name=name))
        if cfg.notice:
            Logger.warning("companion: %s", cfg.notice)
            problems.append(self.tr("app.settings_set_aside", self.lang))
        self.notice = "  ".join(problems)

    # language and text -------------------------------------------------------

    def _language(self) -> str:
        wanted = i18n.language_from(self.cfg.language)
        return wanted if self.has_cjk else "en"

    def tr(self, key: str, lang: str | None = None, **values) -> str:
        """Text for `key`; pass `app.lang` from kv so the text follows language changes."""
        return i18n.translate(key, lang or self.lang, **values)

    def game_title(self, kind: str) -> str:
        title = registry.get(kind).title
        return title.get(self.lang) or title["en"]

    # screens -------------------------------------------------------------------

    def build(self):
        from companion.ui import widgets  # noqa: F401  (shared kv rules)
        from companion.ui.history import HistoryScreen
        from companion.ui.home import HomeScreen
        from companion.ui.settings import SettingsScreen

        window()  # NoDisplay, not an AttributeError, if Kivy found nothing to draw on
        if not self.cfg.display.fullscreen:
            Window.size = (self.cfg.display.width, self.cfg.display.height)
            Window.left, Window.top = max(Window.left, 0), max(Window.top, 0)  # the header on screen
        else:
            Window.fullscreen = "auto"
        ExceptionManager.add_handler(self.problems)
        self.manager = ScreenManager(transition=NoTransition())
        self._apply_screen_keyboard()
        self.manager.add_widget(HomeScreen())
        self.manager.add_widget(SettingsScreen())
        self.manager.add_widget(HistoryScreen())
        self.sensor_text = self.tr(f"app.source_{self.cfg.sensor.source}", self.lang)
        self._sensor_clock = Clock.schedule_interval(self._update_sensor_status, 0.25)
        Clock.schedule_once(self._start_seats, 0)  # after the first frame
        return self.manager

    # phones ----------------------------------------------------------------------

    def _start_seats(self, *_) -> None:
        """The phones' server (companion/seats), when config.yaml's seats.enabled says so;
        every frame it gets is handed to this (the Kivy) thread."""
        if not self.cfg.seats.enabled:
            return
        from companion.seats.claims import Claims
        from companion.seats.room import Room
        from companion.seats.server import SeatServer, SeatsError

        server = SeatServer(Room(Claims(self.store)), lambda fn: Clock.schedule_once(lambda _: fn()),
                            self.cfg.seats.host, self.cfg.seats.port)
        try:
            server.start()  # a busy port is tried again on its own (server.problem says so meanwhile)
        except SeatsError as exc:
            self.notice = f"{self.notice}  {i18n.said(exc, self.lang)}".strip()
            return
        self.seats = server
        server.room.listeners.append(self._phones_changed)
        if self.manager.current_screen is not None:  # a game opened before the server started
            self._seat_controller(self.manager.current_screen)

    def _seat_controller(self, screen) -> None:
        """Phones play the game of `screen` when it has a controller (the last one stays open)."""
        controller = getattr(screen, "controller", None)
        if self.seats is not None and controller is not None:
            self.seats.room.attach(controller)

    def _phones_changed(self, *_) -> None:
        from companion.ui.phones import away_label

        self.phones_away = away_label(self.seats.room, lambda key: self.tr(key, self.lang))

    def show_phones(self) -> None:
        """The phones panel (every game screen's PhonesButton, widgets.kv) for the game on screen."""
        from companion.ui.phones import PhonesPanel

        if self.seats is None:
            self.notice = self.tr("seats.server_off", self.lang)
            return
        self._seat_controller(self.manager.current_screen)  # the QR is for the game shown here
        PhonesPanel(self.seats).open()

    def show_screen(self, name: str) -> None:
        self.manager.current = name

    def show_rules(self, kind: str = "", back_to: str = "") -> None:
        """A game's rules page (the first game's, from Home); `back_to` a screen to return to."""
        from companion.ui.rules import RulesScreen  # the first time only: it reads the docs

        if not self.manager.has_screen("rules"):
            self.manager.add_widget(RulesScreen())
        screen = self.manager.get_screen("rules")
        screen.show(kind or screen.kind, back_to)
        self.manager.current = "rules"

    def show_home(self) -> None:
        self._drop_empty_game()
        self.manager.current = "home"
        self.manager.get_screen("home").refresh()

    def _drop_empty_game(self) -> None:
        """A game left with no move made is not kept: the tile opens its setup next time,
        and Resume lists no 0-move game."""
        session = getattr(self.manager.current_screen, "session", None)
        if session is not None and not session.actions and self.store.game(session.id).status == "active":
            session.abandon()

    def game_screen(self, kind: str):
        from companion.ui.tiles import tile

        if not self.manager.has_screen(kind):
            self.manager.add_widget(tile(kind).make_screen())
        return self.manager.get_screen(kind)

    def open_game(self, kind: str, session: Session | None = None) -> None:
        """Show `kind`'s screen with `session`; without one the screen starts its own."""
        screen = self.game_screen(kind)
        self.manager.current = kind
        screen.show(session)
        self._seat_controller(screen)

    def resume_game(self, game_id: int) -> None:
        session = Session.resume(self.store, game_id)
        self.open_game(session.record.kind, session)

    # settings ------------------------------------------------------------------

    def change_setting(self, **changes) -> None:
        config_module.save_settings(self.cfg, changes)
        self.cfg = config_module.load(self.cfg.path) if self.cfg.path else self.cfg
        self.lang = self._language()
        self._apply_screen_keyboard()

    def _apply_screen_keyboard(self) -> None:
        """Keys on the screen or not, as the settings say, at once."""
        wanted = self.cfg.display.on_screen_keyboard
        if wanted and self._screen_keyboard is None:
            from companion.ui.keyboard import OnScreenKeyboard

            self._screen_keyboard = OnScreenKeyboard(Window, self.manager)
        elif not wanted and self._screen_keyboard is not None:
            self._screen_keyboard.stop()
            self._screen_keyboard = None

    # sensor --------------------------------------------------------------------
    # The weighing device belongs to the game that weighs (companion/ui/sensor.py); it is
    # opened on first use (the first status tick, after the home screen is drawn), so that
    # start-up does not wait for numpy and the sensor.

    @property
    def sensor(self):
        """The weighing device (`companion.ui.sensor.WeighingDevice`), or None when no game weighs."""
        if not self._sensor_opened:
            from companion.ui.sensor import open_device

            self._sensor_opened = True
            self._sensor = open_device(self.cfg, self.store, self._given_source)
            if self._sensor is not None and self._sensor.problem:
                self.notice = f"{self.notice}  {self._sensor.problem}".strip()
        return self._sensor

    def _update_sensor_status(self, *_):
        from companion.ui.sensor import badge

        name = self.tr(f"app.source_{self.cfg.sensor.source}", self.lang)
        self.sensor_text, self.sensor_ok = badge(self.sensor, name, self.tr)
        self.seats_problem = (self.seats.problem_in(self.lang) if self.seats else None) or ""  # gone once it listens
        self._warn_of_the_rate()

    def _warn_of_the_rate(self) -> None:
        """Once: the board does not run at the configured rate (the measured one is used)."""
        mismatch = None if self._rate_warned or self.sensor is None else self.sensor.rate_warning()
        if mismatch is not None:
            self._rate_warned = True
            wanted, measured = mismatch
            text = self.tr("app.rate_mismatch", self.lang, wanted=f"{wanted:g}", measured=f"{measured:.0f}")
            self.notice = f"{self.notice}  {text}".strip()

    def on_stop(self):
        from companion.ui.widgets import GameScreen

        ExceptionManager.remove_handler(self.problems)
        self._sensor_clock.cancel()
        self._drop_empty_game()
        if self.seats is not None:
            self.seats.stop()
        if self._screen_keyboard is not None:
            self._screen_keyboard.stop()
        for screen in self.manager.screens:
            if isinstance(screen, GameScreen):
                screen.close()
        if self._sensor is not None:
            self._sensor.close()
        self.store.close()
