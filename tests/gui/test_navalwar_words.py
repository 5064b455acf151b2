"""Naval War's squadrons as words (the evening checks' findings): the squadrons' line breaks
only between its units (「水雷戦隊2（Takahashi）打撃0/4・ Takahashiの次の手番に攻撃」, never
「手番｜に攻撃」), and a squadron's choice button keeps a name with its brackets whole
(「水雷戦隊2（さくら）」, never 「）」 alone on a line)."""

from __future__ import annotations

import random

import pytest

import word_breaks
from layout_check import _lines
from companion.games.navalwar.screen.still import STILL_S
from test_navalwar_screen import deck_for, play_randomly, set_up, tap_choice, tiles

NAMES = ["Aki", "さくら", "Takahashi"]
KANA = ["さくら", "みなと", "はるか", "あおい", "ひなた", "かえで", "つばさ", "すばる", "ゆうき"]


def started(gui, players: int, names: list[str], lang: str, more: dict | None = None):
    """A game set up by touch, before its deal: a short deck, with `more` cards (by key)
    and more squadrons (they come up early)."""
    gui.app.lang = lang
    gui.tap(gui.tile("navalwar"))
    nw = gui.screen
    nw.deck = deck_for(players, draws=40)
    nw.deck["counts"]["destroyer_squadron"] += 6
    for key, n in (more or {}).items():
        nw.deck["counts"][key] += n
    set_up(gui, nw, players, names)
    gui.tap(nw.ids.start)
    if nw.session.state.view(None)["phase"] == "setup":
        nw.session.play({"type": "first", "seat": 0})
    return nw


def whole(label, units: list[str]) -> list[str]:
    """The units of `units` not drawn whole on one of `label`'s lines."""
    lines = [line.replace("\u00a0", " ") for line in _lines(label)]
    return [unit for unit in units if not any(unit in line for line in lines)]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_squadrons_line_breaks_between_its_units(gui, lang):
    names = NAMES[:3]
    nw = started(gui, 3, names, lang)
    session = nw.session
    takahashi = names.index("Takahashi")
    play_randomly(session, random.Random(5), lambda view: view["phase"] == "turn" and any(
        q["owner"] == takahashi and q["strikes_on_turn_of"] == takahashi for q in view["squadrons"]), limit=3000)
    nw.refresh()
    gui.pump(STILL_S + 0.2)
    label = nw.ids.squadrons
    gui.screenshot(f"navalwar-3-squadron-line-{lang}")
    assert len(_lines(label)) > len(nw.model["squadrons"]), "the line fits whole: nothing tested"
    assert not word_breaks.label_faults(label), word_breaks.label_faults(label)
    units = {"ja": ["（Takahashi）", "打撃0/4・", "Takahashiの次の手番に攻撃"],
             "en": ["(Takahashi)", "hits 0/4,", "Takahashi's next turn"]}[lang]
    assert not whole(label, units), (whole(label, units), _lines(label))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_squadron_s_button_keeps_its_owner_s_name_whole(gui, lang):
    nw = started(gui, 9, KANA, lang)
    session = nw.session

    def aimed(view):
        return view["phase"] == "turn" and view["waiting"]["kind"] == "play" and any(
            a.get("squadron") is not None for a in session.state.legal_actions())

    while session.state.view(None)["phase"] == "deal":
        acts = session.state.legal_actions()
        session.play(acts[(len(session.actions) * 7) % len(acts)])
    rng = random.Random(2)
    while not aimed(session.state.view(None)):
        acts = session.state.legal_actions()
        assert acts, (session.state.view(None)["phase"], session.state.view(None)["round"], session.state.view(None)["waiting"])
        plays = [a for a in acts if a["type"] == "play"]
        session.play(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(acts))
    nw.refresh()
    if nw.controller.stage() == "summary":  # a round ended on the way: its scores, then on
        nw.act("continue")
    gui.pump(STILL_S + 0.2)
    salvo = next(a for a in session.state.legal_actions() if a.get("squadron") is not None)
    assert f"card:{salvo['card']}" in tiles(nw), (sorted(tiles(nw)), salvo, nw.controller.tree().path_of(salvo))
    tap_choice(gui, tiles(nw)[f"card:{salvo['card']}"])
    gui.pump(0.2)
    squadron = next(q for q in session.state.view(None)["squadrons"] if q["n"] == salvo["squadron"])
    tile = tiles(nw)[f"squadron:{squadron['n']}"]
    owner = KANA[squadron["owner"]]
    gui.screenshot(f"navalwar-9-squadron-button-{lang}")
    lines = [line.strip() for line in _lines(tile) if line.strip()]
    name = {"ja": f"（{owner}）", "en": f"({owner})"}[lang]
    assert any(name in line for line in lines), lines
    assert not word_breaks.label_faults(tile), word_breaks.label_faults(tile)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_squadron_s_button_keeps_any_name_whole(gui, lang):
    """Any owner's name that fits a tile stays whole with its brackets, on the 9-player panel."""
    from companion.games.navalwar.choices import unit
    from companion.games.navalwar.screen.tiles import ChoiceTile
    from companion.play.controller import Text

    nw = started(gui, 9, KANA, lang)
    grid = nw.ids.choices
    grid.clear_widgets()  # the first player's choices: the tile alone, in view
    gui.layout_checked = False  # test tiles laid over the panel on purpose
    for name in ["さくら", "たかはし", "さくらこ", "ゆうきち", "Takahashi", "Aki Tanaka", "高橋さくら", "やまもと", "やまもとた", "たかはしみ", "ひろゆき", "高橋たろう", "Alexandra", "たかはしけん"]:
        words = Text("navalwar_ui.squadron", {"n": 2, "name": unit(name)}).render(nw.tr)  # as choices.py labels it
        tile = ChoiceTile(words=words, cols=2)
        grid.add_widget(tile)
        gui.pump(0.05)
        tile.texture_update()
        lines = [line.replace("\u00a0", " ").strip() for line in _lines(tile) if line.strip()]
        aside = {"ja": f"（{name}）", "en": f"({name})"}[lang]
        assert any(aside in line for line in lines), (name, lines)
        if name == "やまもとた":
            gui.screenshot(f"navalwar-9-squadron-name-{lang}")
        grid.remove_widget(tile)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_salvo_button_keeps_its_calibre_and_value_on_one_line(gui, lang):
    """Four a row, with nine players (the newcomer trial: 「12.6 / ″・1」)."""
    from companion.games.navalwar.screen.tiles import ChoiceTile
    from companion.play.controller import Text

    nw = started(gui, 9, KANA, lang)
    grid = nw.ids.choices
    grid.clear_widgets()
    gui.layout_checked = False  # test tiles laid over the panel on purpose
    words = [Text("navalwar_ui.salvo_short", {"calibre": c, "value": v}).render(nw.tr)
             for c, v in [("12.6", 1), ("12.6", 2), ("15", 2), ("16", 4)]]
    shown = [ChoiceTile(words=w, cols=4) for w in words]
    for tile in shown:
        grid.add_widget(tile)
    gui.pump(0.1)
    for tile in shown:
        tile.texture_update()
        assert len(_lines(tile)) == 1 and tile.texture_size[0] <= tile.width, (tile.words, _lines(tile), tile.width)
