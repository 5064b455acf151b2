"""Attack on the serial line check: valid protocol lines damaged by class (bench/_line_faults.py,
which runs 10^6 of them) must never be taken for a different valid message."""

import importlib.util
import random
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "_line_faults.py"
spec = importlib.util.spec_from_file_location("_line_faults", BENCH)
line_faults = importlib.util.module_from_spec(spec)
spec.loader.exec_module(line_faults)


@pytest.fixture(scope="module")
def figures():
    return line_faults.figures(20_000, seed=13)


def test_every_damage_class_is_tried_and_none_gets_through(figures):
    assert set(figures) == set(line_faults.CLASSES)
    for kind, stats in figures.items():
        assert stats["tried"] >= 1800, kind
        assert stats["accepted_wrongly"] == 0 and stats["miss_rate"] == 0, kind


def test_the_attack_has_teeth_protocol_1s_crc8_lets_damage_through(figures):
    """The same damage framed with CRC-8 yields wrong messages, wrong samples among
    them: the harness would notice a weak check."""
    crc8 = [stats["compare"]["CRC-8"] for stats in figures.values()]
    assert sum(c["accepted_wrongly"] for c in crc8) >= 3
    assert sum(c["wrong_samples"] for c in crc8) >= 1


@pytest.mark.parametrize("kind", line_faults.CLASSES)
def test_each_damage_changes_the_line_as_its_class_says(kind):
    rng = random.Random(5)
    line, other = b"S 17 12345 -2000*01A44CCA", b"PONG alive*37BB11B8"
    for _ in range(200):
        damaged = line_faults.damage(kind, line, other, rng)
        diff = len(damaged) - len(line)
        if kind.startswith("bit_flip_"):
            flipped = sum(bin(a ^ b).count("1") for a, b in zip(line, damaged))
            assert diff == 0 and flipped == int(kind[-1])
        elif kind in ("byte_deleted", "byte_duplicated", "byte_inserted"):
            assert diff == {"byte_deleted": -1}.get(kind, 1)
        elif kind in ("burst", "byte_replaced", "bytes_swapped"):
            assert diff == 0 and damaged != line
            if kind == "bytes_swapped":
                assert sorted(damaged) == sorted(line)
        elif kind == "truncated":
            assert line.startswith(damaged) and 0 < len(damaged) < len(line)
        else:
            assert damaged[:1] == line[:1] and other.endswith(damaged[-1:])
