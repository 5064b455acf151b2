"""A game is its folder (issue 45): a folder made at run time on `companion.games`'s path is
found as one in companion/games/ is.  One that is not a game yet (no rules, a rules module
that does not import or has no GAME, no screen) is left out with one line in the log, never
a crash; the home screen's tiles, the phones' pages and the words go on without it."""

import logging
import shutil
from pathlib import Path

import pytest

from companion import i18n
from companion.play import registry
from companion.ui import tiles
from tests.conftest import forget_games

NIM = Path(__file__).resolve().parent / "data" / "nim"  # a whole game, in its folder
GAMES = {"battleship", "gunkan", "kuku", "navalwar", "uttt"}


def make(root: Path, name: str, files: dict[str, str]) -> Path:
    folder = root / name
    for path, text in {"__init__.py": "", **files}.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder


def said(caplog, folder: Path) -> list[str]:
    return [record.getMessage() for record in caplog.records if str(folder) in record.getMessage()]


MISNAMED = (NIM / "rules.py").read_text(encoding="utf-8").replace('Game("nim"', 'Game("chess"')


@pytest.mark.parametrize("files,why", [
    ({}, "no rules.py (whose GAME, a companion.play.state.Game, makes it a game)"),
    ({"screen/__init__.py": "", "screen/screen.py": "", "phone.js": "renderers.nim = () => {};\n"}, "no rules.py"),
    ({"rules.py": "import no_such_module\n"}, "rules.py does not import: No module named 'no_such_module'"),
    ({"rules.py": "def half(:\n"}, "rules.py does not import: SyntaxError: "),
    ({"rules.py": "raise RuntimeError('half written')\n"}, "rules.py does not import: RuntimeError: half written"),
    ({"rules.py": "GAME = None\n"}, "rules.py defines no GAME (a companion.play.state.Game)"),
    ({"rules.py": MISNAMED}, "rules.py's GAME is named 'chess'; name it 'nim', as its folder"),
], ids=["empty", "no-rules", "missing-import", "syntax-error", "raises", "no-game", "misnamed"])
def test_a_folder_that_is_not_a_game_yet_is_left_out_with_one_line_in_the_log(game_folders, caplog, files, why):
    folder = make(game_folders, "nim", files)
    with caplog.at_level(logging.WARNING):
        assert "nim" in registry.folders()
        assert set(registry.games()) == GAMES and {t.kind for t in tiles.tiles()} == GAMES
        assert set(registry.phone_pages()) == GAMES
        assert i18n.translate("app.title", "en") == "Game Companion"
        registry.games(), tiles.tiles()  # asked again: said once
    lines = said(caplog, folder)
    assert len(lines) == 1 and lines[0].startswith(f"{folder}: skipped, not a game yet: {why}"), lines


def test_a_half_written_locale_leaves_its_words_out_with_one_line_in_the_log(game_folders, caplog):
    folder = make(game_folders, "nim", {"locale.yaml": 'nim:\n  title: {ja: "ニム", en: [\n'})
    with caplog.at_level(logging.WARNING):
        assert i18n.translate("app.title", "ja") == "ゲームコンパニオン" and "nim" not in i18n.domains()
        assert {t.kind for t in tiles.tiles()} == GAMES
    assert [line.split(": ")[:2] for line in said(caplog, folder / "locale.yaml")] == [[str(folder / "locale.yaml"),
                                                                                       "not YAML"]]


def test_an_empty_folder_has_no_screen_rather_than_an_error(game_folders):
    make(game_folders, "nim", {})
    assert registry.screen_module("nim") is None
    assert registry.screen_module("uttt") == "companion.games.uttt.screen.screen"


def test_a_game_without_a_screen_yet_is_played_but_has_no_tile(game_folders, caplog):
    folder = game_folders / "nim"
    shutil.copytree(NIM, folder, ignore=shutil.ignore_patterns("screen", "__pycache__"))
    with caplog.at_level(logging.WARNING):
        assert set(registry.games()) == GAMES | {"nim"} and registry.screen_module("nim") is None
        assert {t.kind for t in tiles.tiles()} == GAMES and tiles.tile("nim") is None
    assert said(caplog, folder) == [f"{folder}: no tile: no screen/screen.py (its table screen) yet"]
    assert registry.get("nim").replay({}, [{"type": "take", "n": 3}] * 2 + [{"type": "take", "n": 1}]).is_over()


def test_a_game_folder_made_at_run_time_keeps_the_conformance_suites_contract(game_folders):
    from tests.play.test_conformance import test_random_playout_keeps_the_contract as playout

    shutil.copytree(NIM, game_folders / "nim")
    forget_games()  # the suite's module, imported just now, asked for the games before
    for seed in range(3):
        playout("nim", {}, seed)


def test_the_command_line_goes_on_beside_unfinished_game_folders(game_folders, tmp_path, capsys):
    from companion.cli import main
    from tests.test_terminal import make_config

    make(game_folders, "chess", {})
    make(game_folders, "go", {"rules.py": "import no_such_module\n", "locale.yaml": "go: {title: [\n"})
    path = make_config(tmp_path, language="ja")
    assert main(["--config", str(path), "calibrate", "--name", "club", "--mass", "50"]) == 0
    assert "保存しました：'club'" in capsys.readouterr().out
    assert set(registry.games()) == GAMES


def test_companion_doctor_asks_each_game_for_its_rows_and_a_failing_one_is_a_row(game_folders):
    import io

    from companion import doctor

    make(game_folders, "nim", {"doctor.py": "def checks():\n    raise OSError('no heap here')\n"})
    shutil.copy(NIM / "rules.py", game_folders / "nim")
    shutil.copy(NIM / "locale.yaml", game_folders / "nim")
    out = io.StringIO()
    assert doctor.run_doctor(None, out=out) == 0
    rows = out.getvalue().splitlines()
    assert any(row.startswith("UTTT search") for row in rows)
    assert [row.split()[:2] for row in rows if row.startswith("nim")] == [["nim", "--"]]
    assert f"{game_folders / 'nim' / 'doctor.py'}: OSError: no heap here" in out.getvalue()
