"""Hostile configuration files, by class: each must load as stated or be refused with a
ConfigError naming the file (and, where the file has one, the line and key).

`CASES` maps a class to (make, expect): `make(rng, scale)` returns the file's bytes;
`expect` is a callable checking an accepted Config (None: the file must be refused,
or a (line, key) pair the refusal must name).  `check(name, path)` runs one file
through `config.load`; `figures(count, seed)` runs every class `count` times (at a
larger `scale`, e.g. the 50 MB file) and returns {class: {tried, accepted_wrongly}}.
Used by tests/attack/test_config_attacks.py and bench/faults.py.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from companion import config
from companion.config import ConfigError

BOM = b"\xef\xbb\xbf"


def _text(text: str):
    return lambda rng, scale: text.encode()


def _nested(open_: str, close: str):
    def make(rng, scale):
        depth = rng.randint(2_000, 2_000 + 8_000 * scale)
        return f"display: {open_ * depth}1{close * depth}\n".encode()
    return make


def _deep_mapping(rng, scale):
    depth = rng.randint(300, 350)  # as deep as fits in the size limit
    return ("".join(f"{' ' * i}k{i}:\n" for i in range(depth)) + " " * depth + "x\n").encode()


def _digits(key: str, section: str = "display"):
    def make(rng, scale):
        number = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789")
                                                  for _ in range(rng.randint(4_300, min(60_000, 5_000 * scale))))
        return f"{section}:\n  {key}: {number}\n".encode()
    return make


def _huge(rng, scale):
    """A file far over the size limit (50 MB at scale 50): a scalar repeated."""
    size = config.MAX_BYTES + 1 + rng.randint(0, max(1, scale) * 1_000_000)
    return (b"data_dir: " + b"x" * size + b"\n")


def _long_list(rng, scale):
    items = 20_000 * max(1, scale)  # 10**6 at scale 50
    return ("sensor:\n  gpio:\n    data_pins: [" + ", ".join(["6"] * items) + "]\n").encode()


def _alias_bomb(rng, scale):
    """Ten levels of nine aliases each (10**9 leaves if expanded), inside a known key."""
    levels = ["&a [" + ", ".join(["1"] * 9) + "]"]
    for level in range(1, 10):
        prev, name = chr(ord("a") + level - 1), chr(ord("a") + level)
        levels.append(f"&{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return ("sensor:\n  gpio:\n    data_pins: [6, [" + ", ".join(levels) + "]]\n").encode()


def _random_bytes(rng, scale):
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 400)))


def _data_dir_file(rng, scale):
    target = Path(tempfile.mkdtemp(prefix="attack-")) / "not-a-dir"
    target.write_text("I am a file")
    return f"data_dir: {target}\n".encode()


def _is_default(cfg) -> bool:
    return cfg.display == config.Display() and cfg.sensor == config.Sensor()


REFUSED = None
CASES = {
    # class: (make(rng, scale) -> bytes, expect)
    "deep_list": (_nested("[", "]"), REFUSED),
    "deep_flow_mapping": (_nested("{a: ", "}"), REFUSED),
    "deep_block_mapping": (_deep_mapping, REFUSED),
    "int_5000_digits": (_digits("width"), (2, "display.width")),
    "float_5000_digits": (_digits("volume", "sound"), (2, "sound.volume")),
    "nul_in_data_dir": (_text('data_dir: "/tmp/a\\0b"\n'), (1, "data_dir")),
    "control_char_in_text": (_text('display:\n  cjk_font: "a\\x07b"\n'), (2, "display.cjk_font")),
    "raw_nul_byte": (_text("display: {}\nlanguage: ja\x00\n"), (2, "")),
    "data_dir_is_a_file": (_data_dir_file, (1, "data_dir")),
    "volume_nan": (_text("sound:\n  volume: .nan\n"), (2, "sound.volume")),
    "volume_inf": (_text("sound:\n  volume: .inf\n"), (2, "sound.volume")),
    "volume_minus_inf": (_text("sound:\n  volume: -.inf\n"), (2, "sound.volume")),
    "volume_1e400": (_text("sound:\n  volume: 1e400\n"), (2, "sound.volume")),
    "empty_file": (_text(""), _is_default),
    "only_comments": (_text("# nothing here\n\n"), _is_default),
    "bom_then_keys": (lambda rng, s: BOM + b"language: en\n", lambda c: c.language == "en"),
    "bom_only": (lambda rng, s: BOM, _is_default),
    "over_size_limit": (_huge, REFUSED),
    "million_item_list": (_long_list, REFUSED),
    "alias_bomb": (_alias_bomb, (3, "sensor.gpio.data_pins")),
    "unknown_key": (_text("languag: ja\n"), (1, "languag")),
    "internal_field_path": (_text("path: /etc/passwd\n"), (1, "path")),
    "internal_field_notice": (_text("notice: hi\n"), (1, "notice")),
    "bool_for_int": (_text("display:\n  width: true\n"), (2, "display.width")),
    "int_for_bool": (_text("display:\n  fullscreen: 1\n"), (2, "display.fullscreen")),
    "float_for_int": (_text("display:\n  width: 800.0\n"), (2, "display.width")),
    "out_of_range": (_text("display:\n  height: 100000\n"), (2, "display.height")),
    "negative_seed": (_text("sensor:\n  simulator:\n    seed: -1\n"), (3, "sensor.simulator.seed")),
    "duplicate_key": (_text("language: ja\nlanguage: en\n"), (2, "language")),
    "tab_indent": (_text("display:\n\twidth: 800\n"), REFUSED),
    "invalid_utf8": (lambda rng, s: b"language: \xff\xfe\n", REFUSED),
    "shift_jis_file": (lambda rng, s: "# 言語：英語\nlanguage: en  # 英語\n".encode("cp932"),
                       lambda c: c.language == "en"),
    "latin1_file": (lambda rng, s: "language: en\n# réglé à la main\n".encode("latin-1"), (2, "")),
    "twice_nested": (_text("sound:\n  volume: 0.3\n  enabled: true\n  volume: 0.5\n"), (4, "sound.volume")),
    "utf16_file": (lambda rng, s: "language: ja\n".encode("utf-16"), REFUSED),
    "mapping_as_key": (_text("? [a, b]\n: 1\n"), (1, "a list as a key")),
    "python_tag": (_text("language: !!python/object/apply:os.system [ls]\n"), (1, "language")),
    "custom_tag": (_text("language: !shout ja\n"), (1, "language")),
    "top_level_scalar": (_text("just words\n"), (1, "top level")),
    "top_level_list": (_text("- a\n- b\n"), (1, "top level")),
    "two_documents": (_text("language: ja\n---\nlanguage: en\n"), REFUSED),
    "pins_wrong_length": (_text("sensor:\n  gpio:\n    data_pins: []\n"), (3, "sensor.gpio.data_pins")),
    "pins_text_item": (_text("sensor:\n  gpio:\n    data_pins: [6, x]\n"), (3, "sensor.gpio.data_pins")),
    "merge_key": (_text("base: &b {width: 9}\ndisplay:\n  <<: *b\n"), (1, "base")),
    "integer_key": (_text("1: x\n"), (1, "1")),
    "random_bytes": (_random_bytes, "either"),
}


def check(name: str, path: Path) -> str | None:
    """None if `config.load(path)` behaved as class `name` must; else what went wrong."""
    expect = CASES[name][1]
    try:
        cfg = config.load(path, with_settings=False)
    except ConfigError as exc:
        message = str(exc)
        if not message.startswith(str(path)):
            return f"the message does not start with the file name: {message[:120]}"
        if callable(expect):
            return f"refused a file that must load: {message[:200]}"
        if isinstance(expect, tuple):
            line, key = expect
            if not message.startswith(f"{path}:{line}") or key not in message:
                return f"the message does not name line {line} and key {key}: {message[:200]}"
        return None
    except Exception as exc:  # anything else is a crash a person would see
        return f"crashed: {type(exc).__name__}: {str(exc)[:200]}"
    if callable(expect):
        return None if expect(cfg) else "loaded with the wrong values"
    return None if expect == "either" else "accepted a file that must be refused"


def figures(count: int, seed: int, scale: int = 1) -> dict:
    """{class: {tried, accepted_wrongly, [first_failure]}} over `count` files per class."""
    rng = random.Random(seed)
    out = {}
    with tempfile.TemporaryDirectory(prefix="config-faults-") as tmp:
        path = Path(tmp) / "config.yaml"
        for name, (make, _) in CASES.items():
            tried = wrong = 0
            first = None
            for _ in range(count):
                path.write_bytes(make(rng, scale))
                problem = check(name, path)
                tried += 1
                if problem:
                    wrong += 1
                    first = first or problem
            out[name] = {"tried": tried, "accepted_wrongly": wrong}
            if first:
                out[name]["first_failure"] = first
    return out
