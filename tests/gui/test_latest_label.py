"""LatestLabel: news too long for its panel shows its newest lines whole, never cut."""

from companion.ui.widgets import LatestLabel

VOLLEYS = ["コンピューター： 命中\u00a0B2  はずれ\u00a0B10  はずれ\u00a0C4",
           "あなた： 巡洋艦撃沈\u00a0J4  潜水艦撃沈\u00a0I3  はずれ\u00a0A4  A5  A6",
           "コンピューター： 戦艦撃沈\u00a0F7  はずれ\u00a0H8"]


def shown(gui, lines, height):
    label = LatestLabel(font_size="18sp", size_hint=(None, None), size=(300, height), valign="top")
    label.bind(width=lambda w, width: setattr(w, "text_size", (width - 8, w.height)))
    label.text_size = (292, height)
    label.lines = "\n".join(lines)
    gui.screen.add_widget(label)
    try:
        gui.pump(0.05)
        return label.text, label._label.content_height
    finally:
        gui.screen.remove_widget(label)


def test_the_newest_volleys_that_fit_are_shown_whole(gui):
    text, drawn = shown(gui, VOLLEYS, 400)
    assert text == "\n".join(VOLLEYS)  # room for all
    text, drawn = shown(gui, VOLLEYS, 110)
    assert text and "\n".join(VOLLEYS).endswith(text) and text != "\n".join(VOLLEYS)
    assert text.split("\n")[0] in VOLLEYS and drawn <= 110  # whole volleys, none cut
    text, _ = shown(gui, VOLLEYS, 10)
    assert text == VOLLEYS[-1]  # the newest, even where nothing fits
