"""`companion monitor` and `companion calibrate` on the simulated seesaw."""

import io

import pytest

from companion import config
from companion.cli import main
from companion.store import Store


def make_config(tmp_path, rate="auto"):
    path = tmp_path / "c.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\nsensor:\n  rate_hz: {rate}\n  simulator:\n    seed: 3\n")
    return path


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
