"""`companion monitor` and `companion calibrate` on the simulated seesaw."""

import io

import pytest

from companion import config
from companion.cli import main
from companion.store import Store


def make_config(tmp_path, rate="auto", language="auto"):
    path = tmp_path / "c.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\nlanguage: {language}\n"
                    f"sensor:\n  rate_hz: {rate}\n  simulator:\n    seed: 3\n")
    return path


@pytest.mark.parametrize("language,said,unsaid", [
    ("ja", ["50 g の分銅を皿 0 だけに載せてください。", "保存しました：'club'"], ["Put the", "saved as"]),
    ("en", ["Put the 50 g mass on pan 0 only.", "saved as 'club'"], ["分銅", "保存"]),
])
def test_calibrate_speaks_the_configured_language_only(tmp_path, capsys, language, said, unsaid):
    path = make_config(tmp_path, language=language)
    assert main(["--config", str(path), "calibrate", "--name", "club", "--mass", "50"]) == 0
    out = capsys.readouterr().out
    assert all(words in out for words in said) and not any(words in out for words in unsaid), out


@pytest.mark.parametrize("language,said", [("ja", "sensor.replay.file が空です"), ("en", "sensor.replay.file is empty")])
def test_a_sensor_error_is_said_in_the_configured_language(tmp_path, capsys, language, said):
    path = make_config(tmp_path, language=language)
    assert main(["--config", str(path), "monitor", "--source", "replay", "--seconds", "0.1"]) == 2
    err = capsys.readouterr().err
    assert said in err and " / " not in err, err


@pytest.mark.parametrize("rate", [10, "auto"])
def test_calibrate_walks_both_pans_and_saves_to_store_and_settings(tmp_path, capsys, rate):
    path = make_config(tmp_path, rate)
    assert main(["--config", str(path), "calibrate", "--name", "club", "--mass", "50"]) == 0
    out = capsys.readouterr().out
    assert "50 g" in out and "saved as 'club'" in out
    cfg = config.load(path)
    assert cfg.sensor.calibration == "club"
    with Store.in_dir(cfg.data_path) as store:
        saved = store.calibration("club")
    assert saved["known_g"] == 50
    for channel in saved["channels"]:
        assert 300 < abs(channel["counts_per_gram"]) < 1000  # the simulator's scale range


def test_monitor_prints_each_pan_in_grams_after_calibration(tmp_path, capsys):
    path = make_config(tmp_path)
    main(["--config", str(path), "calibrate", "--name", "x"])
    capsys.readouterr()
    from companion import terminal

    out = io.StringIO()
    assert terminal.monitor(config.load(path), None, None, 0.6, out=out) == 0
    text = out.getvalue()
    assert "ch0" in text and "ch1" in text and " g " in text and "simulator: connected" in text
    last_ch0 = [line for line in text.split("\x1b[2K") if line.startswith("ch0")][-1]
    assert abs(float(last_ch0.split()[3])) < 1.0  # empty pan reads about 0 g
