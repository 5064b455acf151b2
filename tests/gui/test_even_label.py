"""EvenLabel: a Japanese message broken between phrases, in lines of about one width."""

import budoux
import pytest

from companion.ui.widgets import EvenLabel

SENTENCES = [
    "その駒は相手の番です。駒を選んでから、相手の皿に載せてください。",
    "コンパニオンの出目で進めます。サイコロを振る人はいません。",
    "左の皿：静止 21.98 g　右の皿：空。もう一度載せてください。",
]


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("width", [260, 340, 480])
def test_lines_break_between_phrases_and_are_even(gui, sentence, width):
    label = EvenLabel(font_size="28sp", size_hint=(None, None), size=(width, 300))
    label.words = sentence
    gui.screen.add_widget(label)
    try:
        gui.pump(0.05)
        lines = label.text.split("\n")
        assert "".join(lines).replace(" ", "") == sentence.replace(" ", "")
        measure = label._label.get_extents  # the label's own font, as drawn
        phrases = budoux.load_default_japanese_parser().parse(sentence.replace(" ", ""))
        ends, at = {}, 0
        for phrase in phrases:  # where a line may end: after a phrase, or inside one too wide alone
            at += len(phrase)
            ends[at] = True
            for inside in range(at - len(phrase) + 1, at):
                ends.setdefault(inside, measure(phrase)[0] > width)
        at = 0
        for line in lines[:-1]:
            at += len(line.replace(" ", ""))
            assert ends.get(at), f"{line!r} ends inside a phrase"
        widths = [measure(line)[0] for line in lines]
        assert max(widths) <= width
        if len(lines) > 1:  # no tail left alone: the last line is not far shorter than the widest
            assert widths[-1] >= 0.3 * max(widths), lines
    finally:
        gui.screen.remove_widget(label)


@pytest.mark.parametrize("words", ["みなと: Musashi (3/9)\n← 射撃 16″・3打撃", "Dai: Lutzow (2/3)\n← 射撃 14″・2打撃"])
def test_a_kanji_word_is_never_parted_where_budoux_parts_it(gui, words):
    """BudouX parses 「射撃」 as 射|撃 (the newcomer trial read 「← 射 / 撃 16″・3打撃」 on Naval
    War's additional-damage buttons, 150 px wide)."""
    assert budoux.load_default_japanese_parser().parse("← 射撃")[0].endswith("射")  # the model's split, still
    label = EvenLabel(font_size="18sp", size_hint=(None, None), size=(140, 300))
    label.words = words
    gui.screen.add_widget(label)
    try:
        gui.pump(0.05)
        assert "射撃" in label.text.replace(" ", ""), label.text
        assert not any(line.endswith("射") for line in label.text.split("\n")), label.text
    finally:
        gui.screen.remove_widget(label)


@pytest.mark.parametrize("width", [100, 120, 140])
@pytest.mark.parametrize("words", ["← 射撃 15″・2打撃", "← 射撃 16″・2打撃", "修理：12.6″・1打撃"])
def test_nothing_that_never_begins_a_line_begins_one(gui, words, width):
    """The re-trial read 「← 射撃 15 / ″・2打撃」 on an additional-damage button: BudouX parts
    15|″, and an inch mark, a closing bracket or a 、 never begins a line (禁則)."""
    label = EvenLabel(font_size="18sp", size_hint=(None, None), size=(width, 300))
    label.words = words
    gui.screen.add_widget(label)
    try:
        gui.pump(0.05)
        assert not any(line[:1] in "″′)）」、。・" for line in label.text.split("\n")), label.text
    finally:
        gui.screen.remove_widget(label)
