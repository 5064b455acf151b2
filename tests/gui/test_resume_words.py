"""Home's Resume rows read in the app's language: a Kuku game keeps its names as typed, and
its default names as they read when it began (「赤」「青」), so English read "赤 v 青"
(issue 29, finding 10)."""

from companion.play.session import Session
from companion.store import Lineup


def test_default_names_kept_in_japanese_read_in_english(gui):
    Session.start(gui.app.store, "kuku", {"mode": "referee"}, players=["赤", "青"], lineup=Lineup("2p"))
    Session.start(gui.app.store, "kuku", {"mode": "referee"}, players=["Red", "Ken"], lineup=Lineup("2p"))
    gui.app.lang = "en"
    gui.app.show_home()
    gui.pump(0.1)
    rows = {row.game_id: row.summary for row in gui.screen.ids.resume.children}
    assert rows[1].split("\n")[1] == "Red v Blue"
    gui.screenshot("resume-en")
    gui.app.lang = "ja"
    gui.screen.refresh()
    rows = {row.game_id: row.summary for row in gui.screen.ids.resume.children}
    assert rows[1].split("\n")[1] == "赤 対 青" and rows[2].split("\n")[1] == "赤 対 Ken"
