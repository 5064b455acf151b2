"""Naval War: the user's own card file (setting `navalwar.deck`) and "count your deck",
through the real screen with touch events."""

from __future__ import annotations

import pytest
from test_navalwar_screen import tiles

from companion import config
import yaml

from companion.games.navalwar.data import default_composition, reduced_counts

BROKEN = "actions:\n  - {type: salvo, calibre: 13, value: 2, count: 4}\n"
SHORT = yaml.safe_dump({"counts": reduced_counts(default_composition(), 8)})  # 3 players' worth


def with_deck(tmp_path, text: str | bytes) -> config.Config:
    deck = tmp_path / "my_deck.yaml"
    deck.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    path = tmp_path / "config.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\nlanguage: ja\nnavalwar:\n  deck: {deck}\n")
    return config.load(path)


@pytest.fixture
def gui_config(request, tmp_path):
    return with_deck(tmp_path, request.param)


def open_navalwar(gui):
    gui.tap(gui.tile("navalwar"))
    assert gui.screen.name == "navalwar"
    return gui.screen


@pytest.mark.parametrize("gui_config", ["counts:\n  smoke: 0\n  salvo-14-2: 0\n"], indirect=True,
                         ids=["no_smoke"])
def test_a_user_deck_without_a_card_type_is_the_new_games_deck(gui, gui_config, tmp_path):
    nw = open_navalwar(gui)
    full = default_composition()
    missing = full.counts["smoke"] + full.counts["salvo-14-2"]
    assert "my_deck.yaml" in nw.ids.deck_info.text and str(full.total_actions - missing) in nw.deck_text
    gui.screenshot("setup_user_deck")
    gui.tap(nw.ids.count_3)
    gui.tap(nw.ids.start)
    comp = nw.session.state.composition
    assert "smoke" not in comp.counts and comp.total_actions == full.total_actions - missing
    view = nw.session.state.view(None)
    assert view["piles"]["draw"] == full.total_actions - missing  # nothing dealt from it yet
    assert f"山札 {view['piles']['draw']}" in nw.piles_text
    gui.screenshot("game_user_deck")
    gui.tap(tiles(nw)["seat:0"])  # the first entry (a game with none is not kept)
    (tmp_path / "my_deck.yaml").unlink()  # a saved game keeps its cards without the file
    gui.restart()
    nw = open_navalwar(gui)
    assert not nw.setting_up and "smoke" not in nw.session.state.composition.counts


@pytest.mark.parametrize("gui_config", [BROKEN], indirect=True, ids=["broken"])
def test_a_broken_deck_file_shows_its_error_and_starts_nothing_with_it(gui, gui_config):
    nw = open_navalwar(gui)
    shown = nw.ids.deck_error.text
    assert "my_deck.yaml" in shown and "actions[0]" in shown and "口径" in shown  # in Japanese now (issue 14)
    assert nw.deck_broken and nw.ids.start.disabled
    gui.screenshot("setup_broken_deck")
    gui.tap(nw.ids.count_9)  # the most names: the message still has its room
    assert nw.ids.deck_error.height >= nw.ids.deck_error.texture_size[1]
    gui.screenshot("setup_broken_deck_9")
    gui.tap(nw.ids.start)
    assert nw.session is None and nw.setting_up


LATIN1 = "counts:\n  smoke: 5\n# deck de Jérôme, revu l'été\n".encode("latin-1")  # é at the end: not CP932


@pytest.mark.parametrize("gui_config", [LATIN1], indirect=True, ids=["latin1"])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_deck_file_from_another_computer_is_named_on_the_form_and_the_game_still_plays(gui, gui_config,
                                                                                         tmp_path, lang):
    """Latin-1 gave 「コンパニオン内部のエラーです」 and Naval War could not open until
    config.yaml was edited (issue 41)."""
    gui.app.lang = lang
    nw = open_navalwar(gui)
    shown = nw.ids.deck_error.text
    assert gui.app.problems.shown == []
    assert f"{tmp_path / 'my_deck.yaml'}:3:" in shown and "navalwar.deck" in shown and "0xE9" in shown
    assert ("UTF-8でもShift-JISでもない" if lang == "ja" else "neither UTF-8 nor Shift-JIS") in shown
    assert nw.deck_broken and nw.ids.start.disabled and not nw.ids.use_packaged.disabled
    gui.screenshot(f"setup_deck_latin1_{lang}")
    gui.tap(nw.ids.use_packaged)
    assert not nw.deck_broken and "my_deck.yaml" in nw.ids.deck_info.text
    gui.screenshot(f"setup_deck_packaged_instead_{lang}")
    gui.tap(nw.ids.count_3)
    gui.tap(nw.ids.start)
    assert nw.session is not None and nw.session.state.composition == default_composition()


@pytest.mark.parametrize("gui_config", [SHORT], indirect=True, ids=["short"])
def test_too_few_cards_for_the_players_says_so_until_fewer_are_chosen(gui, gui_config):
    nw = open_navalwar(gui)
    gui.tap(nw.ids.count_9)
    gui.tap(nw.ids.start)
    assert nw.session is None and "9人で遊ぶには" in nw.ids.deck_error.text  # in Japanese now (issue 14)
    gui.screenshot("too_few_cards_for_9")
    gui.tap(nw.ids.count_3)
    assert not nw.deck_broken
    gui.tap(nw.ids.start)
    assert nw.session is not None and nw.session.state.composition.total_actions < 40


@pytest.mark.parametrize("gui_config", ["counts:\n  smoke: 2\n"], indirect=True, ids=["two_smoke"])
def test_counting_the_deck_finds_a_difference(gui, gui_config):
    nw = open_navalwar(gui)
    gui.tap(nw.ids.count_deck)
    view = nw._popup
    gui.screenshot("count_intro")
    gui.tap(view.ids.count_with_ships)
    assert view.page == "step" and view.counted == view.expected
    gui.screenshot("count_first_step")
    gui.tap(view.ids.count_next)
    assert view.index == 1
    while view.steps[view.index].key != "smoke":  # tapping 25 more "next" proves nothing more
        view.next()
    assert view.expected == 2
    gui.tap(view.ids.count_minus)
    assert view.ids.count_value.text == "1"
    gui.screenshot("count_smoke_one_short")
    while view.steps[view.index].key != "ships:carrier":
        view.next()
    gui.tap(view.ids.count_plus)
    gui.screenshot("count_carriers_one_extra")
    gui.tap(view.ids.count_next)
    assert view.page == "result"
    assert view.diffs == [{"card": "smoke", "expected": 2, "counted": 1},
                          {"card": "ships:carrier", "expected": view.expected, "counted": view.expected + 1}]
    text = view.ids.count_result.text
    assert "煙幕" in text and "1枚足りない" in text and "空母" in text and "1枚多い" in text
    assert "navalwar.deck" in text and "smoke: 1" in text
    gui.screenshot("count_result")
    gui.tap(view.ids.count_recount)  # back to the last step, the count kept
    assert view.page == "step" and view.counted == view.expected + 1
    gui.tap(view.ids.count_next)
    assert view.page == "result" and len(view.diffs) == 2
    gui.tap(view.ids.count_close)
    assert nw._popup is None


@pytest.mark.parametrize("gui_config", ["counts:\n  repair: 3\n"], indirect=True, ids=["en"])
def test_counting_in_english(gui, gui_config):
    gui.app.lang = "en"
    nw = open_navalwar(gui)
    gui.screenshot("setup_en")
    gui.tap(nw.ids.count_deck)
    view = nw._popup
    assert "my_deck.yaml" in view.source
    gui.screenshot("count_intro_en")
    gui.tap(view.ids.count_actions)
    assert all(not s.key.startswith("ships:") for s in view.steps)
    gui.tap(view.ids.count_plus)
    gui.screenshot("count_step_en")
    while not view.last:  # the steps between are tapped through in the Japanese test
        view.next()
    gui.tap(view.ids.count_next)
    first = view.steps[0]
    assert view.diffs == [{"card": first.key, "expected": first.expected, "counted": first.expected + 1}]
    assert f"expected {first.expected}, counted {first.expected + 1} (1 extra)" in view.result
    gui.screenshot("count_result_en")
