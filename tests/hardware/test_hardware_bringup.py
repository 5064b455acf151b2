"""hardware/bringup.md can be followed as written: every `companion` command it gives is one the
CLI takes, in an order where each relies only on what came before; its config snippets load;
the files, flags and numbers it names are the project's."""

import re
from pathlib import Path

import pytest

from companion import cli, config, doctor, terminal

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "hardware" / "bringup.md").read_text(encoding="utf-8")


def commands() -> list[str]:
    return [line.split("$ ", 1)[1].split("  #")[0].strip() for line in PAGE.splitlines() if "$ " in line]


def test_every_companion_command_is_one_the_cli_takes(monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(doctor, "run_doctor", lambda *a: ran.append(("doctor",)) or 0)
    monkeypatch.setattr(terminal, "monitor", lambda *a: ran.append(("monitor", *a[1:])) or 0)
    monkeypatch.setattr(terminal, "calibrate", lambda *a: ran.append(("calibrate", *a[1:])) or 0)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"data_dir: {tmp_path}\n")
    ours = [c.split()[1:] for c in commands() if c.startswith("c ")]
    assert [args[0] for args in ours] == ["doctor", "monitor", "calibrate", "monitor"]  # checks before calibrating
    for args in ours:
        assert cli.main(["--config", str(cfg), *args]) == 0, args
    assert ("calibrate", None, None, "table", 50.0) in ran


def test_the_short_form_runs_as_the_app_with_its_config():
    short = next(c for c in commands() if c.startswith("c() {"))
    assert "sudo -u companion -H" in short and "--config /etc/companion/config.yaml" in short
    deploy = (ROOT / "deploy" / "README.md").read_text(encoding="utf-8")
    assert "/opt/companion/.venv/bin/companion --config /etc/companion/config.yaml" in deploy
    order = commands()
    assert order.index("sudo systemctl stop companion") < order.index("c doctor")  # one reader of the seesaw
    assert order.index("c calibrate --mass 50 --name table") < order.index("sudo systemctl start companion")


@pytest.mark.parametrize("block", re.findall(r"```yaml\n(.*?)```", PAGE, re.S))
def test_its_config_snippets_load(block):
    cfg = config.parse(block, "bringup.md")
    assert cfg.sensor.source == "serial" and cfg.sensor.serial.port == "/dev/ttyACM0"


def test_the_files_flags_and_firmware_it_names_exist():
    assert "sudo deploy/install-appliance.sh --sensor serial" in PAGE
    usage = (ROOT / "deploy" / "install-appliance.sh").read_text()
    assert "--sensor simulator|gpio|serial" in usage
    assert re.search(r"^RATE_PIN = ", (ROOT / "firmware" / "seesaw" / "config.py").read_text(), re.M)
    mpremote = "mpremote connect /dev/ttyACM0 cp -r firmware/seesaw : + cp firmware/boot.py firmware/main.py : + reset"
    assert mpremote in PAGE and mpremote in (ROOT / "firmware" / "README.md").read_text(encoding="utf-8")
    assert "one short flash a second" in (ROOT / "firmware" / "README.md").read_text(encoding="utf-8")


def test_the_counts_it_expects_are_a_1_kg_cell_at_gain_128():
    """1 mV/V at full scale (1000 g), input range ±0.5·AVDD/128 over 2^23 counts: ratiometric."""
    counts_per_gram = 1e-3 * 128 * 2 ** 23 / (0.5 * 1000)
    assert f"about ±{round(counts_per_gram, -1):,.0f} for a 1 kg cell" in PAGE  # 2,147
    low, high = 0.85 * counts_per_gram, 1.15 * counts_per_gram
    assert f"±{round(low, -2):,.0f}–{round(high, -2):,.0f}" in PAGE


def test_the_venv_package_is_installed_before_a_venv_is_made():
    """Some 64-bit Raspberry Pi OS images lack python3-venv: a blank card must get it first."""
    order = commands()
    installs = next(i for i, c in enumerate(order) if "apt-get install" in c and "python3-venv" in c)
    venvs = [i for i, c in enumerate(order) if "-m venv" in c]
    assert venvs and installs < min(venvs)
    assert "any 64-bit *Raspberry Pi OS*" in PAGE


def test_the_overload_stop_is_set_at_a_load_the_named_cell_survives():
    """The stop takes over at the load it is set with; a quarter turn of the BOM's M3 stop screw
    (ISO 261 coarse pitch 0.5 mm) is 0.125 mm of bend, whose load assembly.md says it cannot know."""
    import csv
    with (ROOT / "hardware" / "bom.csv").open(newline="", encoding="utf-8") as f:
        parts = {r["part"] for r in csv.DictReader(f)}
    assert "Load cell 1 kg straight bar" in parts and "Screws M3 x 12 (socket head)" in parts
    assembly = (ROOT / "hardware" / "assembly.md").read_text(encoding="utf-8")
    stops = assembly.split("7. **Overload stops**", 1)[1].split("8. **Feet**", 1)[0]
    load = float(re.search(r"put \*\*([\d.]+) kg\*\* on the pan", stops).group(1))
    assert 1.0 < load < 1.2  # 1 kg bars survive 120-150 %: the stop takes over before the low end
    assert f"with {load:g} kg on each pan in turn" in PAGE and "then a quarter turn back" not in PAGE + assembly
    quarter = 0.5 / 4
    assert f"a quarter turn\n   lowers the stop {quarter:g} mm" in stops
    for delta, said in re.findall(r"let ([\d.]+) kg \(at \*δ\* = ([\d.]+) mm\)", stops):
        assert float(delta) == round(1 + quarter / float(said), 1)
