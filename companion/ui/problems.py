"""What a person sees when something fails: a message saying what is wrong and what to do,
never a Python traceback.  `ProblemPanel` shows one; in the app it opens over the screen
(a move that could not be saved, a game that cannot be read), and when the app cannot
start at all `show_start_problem` puts it on the screen on its own."""

from __future__ import annotations

import os
import traceback

from kivy.app import App
from kivy.base import ExceptionManager
from kivy.core.text import Label as CoreLabel
from kivy.core.text import LabelBase
from kivy.logger import Logger
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.uix.modalview import ModalView

from companion import display, fonts, i18n
from companion.display import NoDisplay
from companion.config import Config, ConfigError
from companion.errors import CompanionError
from companion.store import DataDirInUse, OutOfSequence, StoreBusy, StoreUnwritable, UnreadableGame
from companion.ui import theme

HEADLINES = [  # the first class an error is an instance of picks its headline
    (DataDirInUse, "app.problem_in_use"),
    (StoreBusy, "app.problem_busy"),
    (StoreUnwritable, "app.problem_unwritable"),
    (OutOfSequence, "app.problem_out_of_sequence"),
    (UnreadableGame, "app.problem_unreadable_game"),
    (ConfigError, "app.problem_config"),
    (CompanionError, "app.problem_other"),
]


def headline_key(error: BaseException) -> str:
    return next((key for kind, key in HEADLINES if isinstance(error, kind)), "app.problem_bug")


def detail(error: BaseException, lang: str = "en") -> str:
    """The error's own words in `lang` (the companion's errors say where and what to do)."""
    if isinstance(error, CompanionError):
        return i18n.said(error, lang)
    return f"{type(error).__name__}: {error}"


def window():
    """Kivy's window; `NoDisplay` naming the driver if Kivy could open none (no KMS/DRM
    device, no GPU driver): Kivy itself leaves `Window` None and logs only its own words."""
    from kivy.core.window import Window

    if Window is None:
        driver = os.environ.get("SDL_VIDEODRIVER") or "SDL's default"
        raise NoDisplay(f"no window could be opened on the display ({driver} video driver; "
                        f"{display.problem() or 'see the Kivy lines above'}); {display.FIX}")
    return Window


def install_cjk_font(configured: str = "") -> bool:
    """Make Kivy's default font one that renders Japanese; False if none is found.  A
    configured font that Kivy cannot load is a `ConfigError` naming the key and the file
    (it would otherwise fail again at every label drawn)."""
    regular = fonts.find_cjk_font(configured)
    if regular is None:
        return False
    try:
        LabelBase.register("CJKProbe", str(regular))
        CoreLabel(text="日本", font_name="CJKProbe").get_extents("日本")
    except Exception as exc:  # noqa: BLE001  (SDL_ttf's own words for a damaged font)
        if configured:
            raise ConfigError(f"display.cjk_font: {regular} cannot be loaded as a font ({exc}); "
                              "name another font file, or remove the key") from None
        return False
    bold = fonts.bold_variant(regular)
    LabelBase.register("Roboto", str(regular), fn_bold=str(bold) if bold else None)
    return True


class ProblemPanel(BoxLayout):
    """Headline, the error's detail and one big button."""

    def __init__(self, error: BaseException, lang: str, button: str, on_button,
                 headline: str = "", **kwargs):
        super().__init__(orientation="vertical", padding=16, spacing=12, **kwargs)
        self.error = error
        self.add_widget(_wrapped(i18n.translate(headline or headline_key(error), lang), "22sp",
                                 theme.WARN, bold=True))
        self.add_widget(_wrapped(i18n.translate("app.problem_detail", lang), "18sp", theme.MUTED))
        self.add_widget(_wrapped(detail(error, lang), "18sp", theme.TEXT))
        self.add_widget(Widget())
        self.button = Button(text=i18n.translate(button, lang), font_size="22sp",
                             size_hint=(None, None), size=(220, 64), pos_hint={"center_x": 0.5},
                             background_normal="", background_color=theme.ACCENT)
        self.button.bind(on_release=lambda *_: on_button())
        self.add_widget(self.button)


def _wrapped(text: str, size: str, colour, **kwargs) -> Label:
    """A label as tall as its text wrapped to its width, Japanese broken between words."""
    from companion.ui.widgets import EvenLabel  # here: it loads kv, after the font is installed

    label = EvenLabel(words=text, font_size=size, color=colour, halign="left", size_hint_y=None, **kwargs)
    label.bind(texture_size=lambda w, size: setattr(w, "height", size[1]))
    return label


class ProblemHandler:
    """Kivy's exception manager hands us every exception raised in a touch or clock
    callback: we show it over the screen and the app goes on.  The refused action changed
    nothing (the session adopts a move only after it is on disk)."""

    def __init__(self, app):
        self.app = app
        self.open: ModalView | None = None
        self.shown: list[BaseException] = []  # every problem shown (tests check it is empty)

    def handle_exception(self, error):
        if not isinstance(error, Exception):
            return ExceptionManager.RAISE  # Ctrl-C, SystemExit: really stop
        if not isinstance(error, CompanionError):
            Logger.error("companion: %s", "".join(traceback.format_exception(error)))
        try:
            self.show(error)
        except Exception:  # the message itself cannot be drawn: at least stop cleanly
            Logger.exception("companion: could not show a problem")
            return ExceptionManager.RAISE
        return ExceptionManager.PASS

    def show(self, error: BaseException) -> ModalView:
        self.shown.append(error)
        if self.open is not None:
            self.open.dismiss(animation=False)
        bug = not isinstance(error, CompanionError)
        view = ModalView(size_hint=(0.92, 0.86), auto_dismiss=False,
                         background_color=theme.PANEL)

        def close():
            view.dismiss(animation=False)
            self.open = None
            if bug or isinstance(error, (OutOfSequence, UnreadableGame)):
                self.app.show_home()  # whatever the screen held, the store holds the truth
            else:  # the screen may have stopped half-way through redrawing: redraw it
                getattr(self.app.manager.current_screen, "refresh", lambda: None)()

        view.add_widget(ProblemPanel(error, self.app.lang, "app.home" if bug else "app.ok", close))
        view.open(animation=False)
        self.open = view
        return view


class ProblemApp(App):
    """The app cannot start: say why on the screen until the person taps Try again."""

    def __init__(self, error: BaseException, cfg: Config | None = None, **kwargs):
        super().__init__(**kwargs)
        self.error = error
        self.cfg = cfg or Config()  # the configuration, if it loaded; else the defaults
        self.title = "companion"
        has_cjk = install_cjk_font(self.cfg.display.cjk_font)
        self.lang = i18n.language_from(self.cfg.language) if has_cjk else "en"

    def build(self):
        Window = window()
        if self.cfg.display.fullscreen:
            Window.fullscreen = "auto"
        else:
            Window.size = (self.cfg.display.width, self.cfg.display.height)
        Window.clearcolor = theme.BACKGROUND
        bug = not isinstance(self.error, CompanionError)
        return ProblemPanel(self.error, self.lang, "app.try_again", self.stop,
                            headline="app.problem_bug_at_start" if bug else "")


def show_start_problem(error: BaseException, cfg: Config | None = None) -> None:
    """Show the start-up failure on the screen until the person taps Try again."""
    ProblemApp(error, cfg).run()
