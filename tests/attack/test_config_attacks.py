"""Hostile configuration files (bench/_config_faults.py) and fuzzed ones: each loads as
documented or is refused with a ConfigError naming the file, line and key."""

import random

import pytest
import yaml
from hypothesis import given, settings, strategies as st

import _config_faults as faults
from companion import config
from companion.config import ConfigError


@pytest.mark.parametrize("name", sorted(faults.CASES))
def test_hostile_config(tmp_path, name):
    make, _ = faults.CASES[name]
    path = tmp_path / "config.yaml"
    path.write_bytes(make(random.Random(name), 1))
    assert faults.check(name, path) is None


def test_there_are_at_least_thirty_classes():
    assert len(faults.CASES) >= 30


def test_a_huge_file_is_refused_without_being_parsed(tmp_path):
    path = tmp_path / "config.yaml"
    with path.open("wb") as out:  # 50 MB, sparse: refused by its size, in no time
        out.truncate(50 * 1024 * 1024)
    with pytest.raises(ConfigError, match="larger than 64 KB"):
        config.load(path)


KEYS = ["display", "width", "volume", "sound", "sensor", "gpio", "data_pins", "language",
        "data_dir", "seed", "simulator", "enabled", "x"]
scalars = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.text(max_size=20) | st.sampled_from(["ja", ".nan", "\x00", "~", "800"]))
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
                         max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(documents)
def test_any_yaml_document_loads_checked_or_is_refused_naming_the_file(document):
    text = yaml.safe_dump(document, allow_unicode=True)
    try:
        cfg = config.parse(text, "fuzz.yaml")
    except ConfigError as exc:
        assert str(exc).startswith("fuzz.yaml")
        return
    assert 0.0 <= cfg.sound.volume <= 1.0  # what loads is within the schema's rules
    assert 320 <= cfg.display.width <= 7680 and "\x00" not in cfg.data_dir


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_load_or_are_refused_naming_the_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "config.yaml"
    path.write_bytes(data)
    try:
        config.load(path, with_settings=False)
    except ConfigError as exc:
        assert str(exc).startswith(str(path))
