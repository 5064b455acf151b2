"""`companion doctor` and the command line."""

import io
import sys
import time

from companion.cli import main
from companion.doctor import run_doctor


def test_doctor_reports_each_check_and_passes_on_the_default_config(capsys):
    out = io.StringIO()
    assert run_doctor(None, out=out) == 0
    text = out.getvalue()
    for row in ("Python", "Kivy", "display", "config", "CJK font", "data directory",
                "GPIO", "serial ports"):
        assert row in text


def test_doctor_fails_on_a_broken_config_with_the_same_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("sensor:\n  source: wifi\n")
    out = io.StringIO()
    assert run_doctor(str(bad), out=out) == 2
    assert f"{bad}:2: sensor.source" in capsys.readouterr().err
    assert "--" in out.getvalue().splitlines()[3]  # the config row is marked as failing


def test_the_app_refuses_a_broken_config_before_opening_a_window(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("display:\n  width: wide\n")
    assert main(["--config", str(bad)]) == 2
    assert f"{bad}:2: display.width: expected a whole number" in capsys.readouterr().err


def test_without_a_display_the_app_says_so_instead_of_waiting_unseen(tmp_path, capsys, monkeypatch):
    from companion import cli

    assert cli.display_missing({}, dri=str(tmp_path)) == sys.platform.startswith("linux")
    assert not cli.display_missing({"DISPLAY": ":0"}, dri=str(tmp_path))
    (tmp_path / "card0").touch()  # the Pi's console: SDL draws through KMS
    assert not cli.display_missing({}, dri=str(tmp_path))
    monkeypatch.setattr(cli.display, "problem", lambda environ=None, dri=None: "no display found: no /dev/dri/card*")
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    started = time.monotonic()
    assert cli.main(["--config", str(config)]) == cli.display.EXIT_NO_DISPLAY  # the unit does not restart on it
    assert "no display found: no /dev/dri/card*" in capsys.readouterr().err
    assert time.monotonic() - started < 5  # COMPANION_DISPLAY_WAIT_S=0 (conftest): no wait for the device


def test_doctor_loads_the_configured_font_and_names_the_key(tmp_path, capsys):
    """`companion doctor` said "CJK font ok" for an empty font file."""
    empty = tmp_path / "empty.ttf"
    empty.write_bytes(b"")
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\ndisplay:\n  cjk_font: {empty}\n")
    out = io.StringIO()
    assert run_doctor(str(config), out=out) == 2
    assert f"display.cjk_font: {empty} is empty" in capsys.readouterr().err


def test_an_internal_error_at_every_start_leaves_one_crash_file(tmp_path, monkeypatch):
    """A start that crashed again and again (every systemd restart) left a new
    companion-crash-*.txt in the temporary directory each time."""
    from companion import cli

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    paths = {cli._save_traceback(RuntimeError(f"try {n}")) for n in range(3)}
    assert paths == {str(tmp_path / cli.CRASH_FILE)} and list(tmp_path.iterdir()) == [tmp_path / cli.CRASH_FILE]
    assert "try 2" in (tmp_path / cli.CRASH_FILE).read_text()


def test_doctor_on_a_32_bit_os_says_in_one_line_that_a_64_bit_one_is_needed(monkeypatch):
    monkeypatch.setattr("platform.machine", lambda: "armv7l")
    out = io.StringIO()
    run_doctor(None, out=out)
    lines = [line for line in out.getvalue().splitlines() if "64-bit OS" in line]
    assert len(lines) == 1 and lines[0].startswith("machine") and "--" in lines[0] and "armv7l" in lines[0]


def test_doctor_on_a_64_bit_kernel_under_a_32_bit_os_says_so_too(monkeypatch):
    monkeypatch.setattr("platform.machine", lambda: "aarch64")
    monkeypatch.setattr("sys.maxsize", 2**31 - 1)
    out = io.StringIO()
    run_doctor(None, out=out)
    assert "aarch64, 32-bit: the companion needs a 64-bit OS" in out.getvalue()
