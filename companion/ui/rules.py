"""The Rules screen: each game's rules page (companion/rules_pages.py reads it from the game's
folder or docs/rules.md and docs/rules.ja.md), in the app's language, a tab per game that has
one, its words `<game>.tab`; opened from Home or from a game screen's Rules button, which it
returns to."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion import rules_pages
from companion.ui import theme
from companion.ui.tiles import tiles

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

STYLE = {"title": ("24sp", True, theme.GOLD), "heading": ("22sp", True, theme.TEXT),
         "para": ("20sp", False, theme.TEXT), "item": ("20sp", False, theme.TEXT),
         "row": ("18sp", False, theme.TEXT)}


class RulesScreen(Screen):
    kind = StringProperty("")  # the game whose page is shown ("": the first tab's)
    back_to = StringProperty("")  # the game screen it was opened from ("" from Home)
    shown = StringProperty("")  # "kind:lang" of the page drawn

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.tab_buttons: dict = {}
        self.blocks: list = []

    def show(self, kind: str, back_to: str = "") -> None:
        self.kind, self.back_to = kind, back_to
        self.draw()

    def on_pre_enter(self, *_):
        self.draw()

    def draw(self) -> None:
        app = App.get_running_app()
        kinds = [tile.kind for tile in tiles() if rules_pages.has(tile.kind, app.lang)]
        self.kind = self.kind if self.kind in kinds else next(iter(kinds), "")
        self._draw_tabs(app, kinds)
        if not self.kind or self.shown == f"{self.kind}:{app.lang}":
            return
        self.shown = f"{self.kind}:{app.lang}"
        self._to_the_top()
        page = self.ids.page
        page.clear_widgets()
        self.blocks = rules_pages.page(self.kind, app.lang)
        for block in self.blocks:
            size, bold, colour = STYLE[block.kind]
            page.add_widget(Factory.RulesBlock(words=block.text, font_size=size, bold=bold, color=colour))

    def _to_the_top(self) -> None:
        """The page's top, its scroll still: a flick's momentum (the scroll's own place, which the
        new page's height is then measured against) would open the next page mid-way."""
        effect = self.ids.scroll.effect_y
        effect.velocity = 0
        effect.value = effect.max
        self.ids.scroll.scroll_y = 1

    def _draw_tabs(self, app, kinds: list[str]) -> None:
        row = self.ids.tabs
        row.clear_widgets()
        self.tab_buttons = {}
        for kind in kinds:
            button = Factory.ChoiceButton(text=app.tr(f"{kind}.tab", app.lang), font_size="18sp",
                                          group="rules_tabs", state="down" if kind == self.kind else "normal")
            button.bind(on_release=lambda _, k=kind: self.show(k, self.back_to))
            row.add_widget(button)
            self.tab_buttons[kind] = button
        if self.back_to:
            back = Factory.BigButton(text=app.tr("app.rules_back", app.lang), font_size="18sp",
                                     background_color=theme.ACCENT)
            back.bind(on_release=lambda *_: app.show_screen(self.back_to))
            row.add_widget(back)
            self.tab_buttons["back"] = back
        for button in row.children:  # its words on one line, at the least (a BigButton's wrap 8 px in)
            button.size_hint_min_x = max(theme.TOUCH_MIN, CoreLabel(
                text=button.text, font_size=button.font_size, font_name=button.font_name).get_extents(button.text)[0] + 10)
        row.wanted = sum(b.size_hint_min_x for b in row.children) + row.spacing * (len(row.children) - 1) + 8
