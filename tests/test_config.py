import os

import pytest
from hypothesis import given, settings, strategies as st

from companion import config, i18n
from companion.config import ConfigError, load, parse


def test_default_file_loads_with_the_simulator():
    cfg = config.load()
    assert cfg.sensor.source == "simulator"
    assert (cfg.display.width, cfg.display.height) == (800, 480)
    assert cfg.path.endswith("config.yaml")


def test_empty_file_means_defaults():
    assert config.parse("", "empty.yaml") == config.Config(path="empty.yaml")


def test_values_are_typed_and_frozen():
    cfg = config.parse("sound:\n  volume: 1\nsensor:\n  gpio:\n    data_pins: [4, 17]\n")
    assert cfg.sound.volume == 1.0 and isinstance(cfg.sound.volume, float)
    assert cfg.sensor.gpio.data_pins == (4, 17)
    with pytest.raises(AttributeError):
        cfg.language = "en"


def test_the_sample_rate_is_the_boards_unless_one_is_asked_for():
    assert config.load().sensor.rate_hz == "auto" and config.load().sensor.wanted_rate is None
    for rate in (10, 80):
        assert config.parse(f"sensor:\n  rate_hz: {rate}\n").sensor.wanted_rate == rate


def test_data_path_defaults_under_home_and_can_be_set(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert config.parse("").data_path == tmp_path / "companion"
    assert config.parse(f"data_dir: {tmp_path}/x\n").data_path == tmp_path / "x"


MALFORMED = [
    # (text, line, key, words the message must contain)
    ("languag: ja\n", 1, "languag", "unknown key"),
    ("display:\n  widht: 800\n", 2, "display.widht", "allowed here: fullscreen"),
    ("language: fr\n", 1, "language", "choose one of: auto, ja, en"),
    ("sound:\n  volume: 1.5\n", 2, "sound.volume", "out of range"),
    ("display:\n  width: wide\n", 2, "display.width", "a whole number"),
    ("display:\n  fullscreen: maybe\n", 2, "display.fullscreen", "true or false"),
    ("sensor:\n  rate_hz: 40\n", 2, "sensor.rate_hz", "choose one of: auto, 10, 80"),
    ("sensor:\n  rate_hz: fast\n", 2, "sensor.rate_hz", "choose one of: auto, 10, 80"),
    ("sensor:\n  rate_hz: [10]\n", 2, "sensor.rate_hz", "a single value (a whole number or text)"),
    ("sensor:\n  gpio:\n    data_pins: 6\n", 3, "sensor.gpio.data_pins", "a list"),
    ("sensor:\n  gpio:\n    data_pins: [1, 2, 3]\n", 3, "sensor.gpio.data_pins", "1 to 2 items"),
    ("sensor:\n  gpio:\n    clock_pin: 99\n", 3, "sensor.gpio.clock_pin", "out of range"),
    ("sensor: serial\n", 1, "sensor", "a section of keys"),
    ("display:\n  width: 800\n  width: 640\n", 3, "display.width", "given twice"),
    ("data_dir: [a, b]\n", 1, "data_dir", "a single value (text)"),
    ("sensor:\n  serial:\n    baudrate: 12345\n", 3, "sensor.serial.baudrate", "choose one"),
    ("- just\n- a list\n", 1, "top level", "a section of keys"),
    ("display:\n  width: 800\n   height: 480\n", 3, "", "not valid YAML"),
    ("language: [\n", 2, "", "not valid YAML"),
    ("language: !!python/name:os.system ja\n", 1, "language", "cannot read this value"),
]


@pytest.mark.parametrize("text,line,key,words", MALFORMED)
def test_mistakes_name_file_line_key_and_what_is_allowed(tmp_path, text, line, key, words):
    path = tmp_path / "my.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        config.load(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}")
    assert key in message and words in message


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        config.load(tmp_path / "nope.yaml")
    bad = tmp_path / "bin.yaml"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="cannot read"):
        config.load(bad)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_loads_or_gives_a_config_error(text):
    try:
        config.parse(text, "fuzz.yaml")
    except ConfigError as exc:
        assert str(exc).startswith("fuzz.yaml")


def test_settings_screen_changes_are_saved_over_the_file(tmp_path):
    main = tmp_path / "c.yaml"
    main.write_text(f"data_dir: {tmp_path}/d\nsound:\n  volume: 0.3\n")
    cfg = config.load(main)
    saved = config.save_settings(cfg, {"language": "en", "sound": {"enabled": False}})
    assert saved == tmp_path / "d" / config.SETTINGS_FILE
    again = config.load(main)
    assert again.language == "en" and again.sound.enabled is False
    assert again.sound.volume == 0.3 and again.path == str(main)
    with pytest.raises(ConfigError, match="sensor.source"):
        config.save_settings(cfg, {"sensor": {"source": "bluetooth"}})
    assert config.load(main) == again


def test_a_broken_settings_file_is_moved_aside_with_a_notice_naming_it(tmp_path):
    main = tmp_path / "c.yaml"
    main.write_text(f"data_dir: {tmp_path}\nlanguage: en\n")
    (tmp_path / config.SETTINGS_FILE).write_text("display:\n  fullscreen: 3\n")
    cfg = config.load(main)
    assert cfg.display.fullscreen is False and cfg.language == "en"  # config.yaml alone
    assert "settings.yaml:2: display.fullscreen" in cfg.notice
    aside = list(tmp_path.glob("settings.yaml.unreadable-*"))
    assert len(aside) == 1 and str(aside[0]) in cfg.notice
    assert aside[0].read_text() == "display:\n  fullscreen: 3\n"  # kept, not lost
    assert config.load(main).notice == ""  # the next start is clean


def test_a_font_that_is_not_a_font_is_refused_naming_the_file_and_key(tmp_path):
    """An empty file, /etc/hostname or /dev/zero as display.cjk_font once gave a blank
    screen and a flood of tracebacks, or "No Japanese font found" naming neither."""
    empty = tmp_path / "empty.ttf"
    empty.write_bytes(b"")
    text = tmp_path / "text.ttf"
    text.write_text("companion\n")
    for path, said in ((empty, "is empty"), (text, "is not a font"), ("/dev/zero", "not a regular file"),
                       (tmp_path, "not a regular file")):
        with pytest.raises(ConfigError) as caught:
            parse(f"display:\n  cjk_font: {path}\n", "c.yaml")
        assert str(caught.value).startswith("c.yaml:2: display.cjk_font: ") and said in str(caught.value)
    missing = tmp_path / "none.ttf"  # not there (yet): the app starts in English and names it
    assert parse(f"display:\n  cjk_font: {missing}\n", "c.yaml").display.cjk_font == str(missing)


def test_a_pin_named_twice_is_refused():
    for text in ("clock_pin: 6\n    data_pins: [6, 13]", "data_pins: [6, 6]"):
        with pytest.raises(ConfigError, match="GPIO 6 is named twice"):
            parse(f"sensor:\n  gpio:\n    {text}\n", "c.yaml")


def test_the_settings_file_cannot_move_the_database(tmp_path):
    """settings.yaml lives in the data directory: a data_dir in it moved the database silently."""
    config = tmp_path / "config.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "settings.yaml").write_text(f"data_dir: {tmp_path / 'elsewhere'}\n")
    cfg = load(config)
    assert cfg.data_path == tmp_path / "data" and "data_dir can be set only" in cfg.notice


@pytest.mark.timeout(10)  # a FIFO as config.yaml hung the start on a black screen
def test_a_fifo_or_device_is_refused_at_once_and_a_fifo_settings_file_set_aside(tmp_path):
    fifo, zero = tmp_path / "fifo.yaml", tmp_path / "zero.yaml"
    os.mkfifo(fifo)
    zero.symlink_to("/dev/zero")
    for path, what in ((fifo, "a named pipe (FIFO)"), (zero, "a device")):
        with pytest.raises(ConfigError) as caught:
            load(path)
        assert str(caught.value).startswith(f"{path}: ")
        assert i18n.said(caught.value, "en") == f"{path}: not a regular file but {what}; name a configuration file"
        assert "ふつうのファイルではなく" in i18n.said(caught.value, "ja")
    main = tmp_path / "config.yaml"
    main.write_text(f"data_dir: {tmp_path / 'data'}\n")
    os.mkfifo((tmp_path / "data").mkdir() or tmp_path / "data" / config.SETTINGS_FILE)
    cfg = load(main)
    assert "named pipe" in cfg.notice and cfg.data_path == tmp_path / "data"  # config.yaml alone


SJIS_CONFIG = "# 日本語のコメント：ふつうの Windows のメモ帳で保存\nlanguage: ja  # 言語\nsound:\n  volume: {volume}\n"


def test_a_shift_jis_config_is_read_and_its_mistakes_named_by_line(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_bytes(SJIS_CONFIG.format(volume=0.3).encode("cp932"))
    cfg = load(path)
    assert cfg.language == "ja" and cfg.sound.volume == 0.3
    path.write_bytes(SJIS_CONFIG.format(volume="大きく").encode("cp932"))
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}:4: sound.volume: ")
    path.write_bytes("language: ja\n# café\n".encode("latin-1"))  # é at a line end: neither UTF-8 nor CP932
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert i18n.said(caught.value, "en") == (f"{path}:2: byte 0xE9 is neither UTF-8 nor Shift-JIS text; "
                                             "save the file as UTF-8")
    assert i18n.said(caught.value, "ja").startswith(f"{path}:2: UTF-8でもShift-JISでもない")
