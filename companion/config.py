"""config.yaml: its schema, loading, and errors that name the file, line and key.

The schema is the frozen dataclasses below.  A field's metadata may restrict it
(`choices`, `min`, `max`).  Every key is optional; unknown keys, wrong types and
out-of-range values are refused with a message a person can act on.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from companion import fonts, i18n, userfile
from companion.errors import CompanionError
from companion.files import write_atomic

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "config.yaml"


class ConfigError(CompanionError):
    """A mistake in a configuration file: says file, line, key and what is allowed."""


def _opt(default, **rules):
    return field(default=default, metadata=rules)


@dataclass(frozen=True)
class Display:
    fullscreen: bool = False
    on_screen_keyboard: bool = False
    width: int = _opt(800, min=320, max=7680)
    height: int = _opt(480, min=240, max=4320)
    cjk_font: str = _opt("", font=True)


@dataclass(frozen=True)
class Sound:
    enabled: bool = True
    volume: float = _opt(0.7, min=0.0, max=1.0)


@dataclass(frozen=True)
class SimulatorSettings:
    seed: int = _opt(1, min=0)


@dataclass(frozen=True)
class GpioSettings:
    clock_pin: int = _opt(5, min=0, max=53)
    data_pins: tuple[int, ...] = _opt((6, 13), min=0, max=53, length=(1, 2))
    gain: int = _opt(128, choices=(128, 64))

    def conflict(self) -> str | None:
        """Why these pins cannot all be wired at once (one pin named twice), else None."""
        pins = [self.clock_pin, *self.data_pins]
        twice = sorted({pin for pin in pins if pins.count(pin) > 1})
        return f"GPIO {', '.join(map(str, twice))} is named twice (clock_pin and data_pins " \
            "must be different pins)" if twice else None


@dataclass(frozen=True)
class SerialSettings:
    port: str = "/dev/ttyACM0"
    baudrate: int = _opt(115200, choices=(9600, 57600, 115200, 230400, 460800, 921600))


@dataclass(frozen=True)
class ReplaySettings:
    file: str = ""  # a recording made by `companion record`


@dataclass(frozen=True)
class Sensor:
    source: str = _opt("simulator", choices=("simulator", "gpio", "serial", "replay"))
    rate_hz: int | str = _opt("auto", choices=("auto", 10, 80))  # auto: the rate the board runs at
    calibration: str = ""  # the stored calibration to use; empty: the newest
    simulator: SimulatorSettings = SimulatorSettings()
    gpio: GpioSettings = GpioSettings()
    serial: SerialSettings = SerialSettings()
    replay: ReplaySettings = ReplaySettings()

    @property
    def wanted_rate(self) -> int | None:
        """The configured samples/s, or None for `auto` (use what the board measures)."""
        return self.rate_hz if isinstance(self.rate_hz, int) else None  # (checked: "auto", 10 or 80)


@dataclass(frozen=True)
class NavalWar:
    deck: str = ""  # a YAML file overriding the card composition (old copies are often incomplete)


@dataclass(frozen=True)
class Seats:
    enabled: bool = True  # the phones' server (companion/seats): players join from their phones
    host: str = ""  # where it listens: "" every address of this machine (IPv6 too), or one address or name
    port: int = _opt(8765, min=1024, max=65535)


@dataclass(frozen=True)
class Config:
    display: Display = Display()
    language: str = _opt("auto", choices=("auto", "ja", "en"))
    sound: Sound = Sound()
    data_dir: str = _opt("", directory=True, config_only=True)
    sensor: Sensor = Sensor()
    navalwar: NavalWar = NavalWar()
    seats: Seats = Seats()
    path: str = ""  # the file this came from (not a key in the file)
    notice: str = ""  # what went wrong with the saved settings, for the screen (not a key)

    @property
    def data_path(self) -> Path:
        if self.data_dir:
            return Path(self.data_dir).expanduser()
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        return Path(base) / "companion"


INTERNAL = ("path", "notice")  # Config fields that are not keys in a file
SETTINGS_FILE = "settings.yaml"  # in the data directory: what the settings screen changed
MAX_BYTES = 64 * 1024  # a configuration is a few hundred bytes; refuse a huge file unread
CONFIG = userfile.Kind("files.what_config", MAX_BYTES)
SETTINGS = userfile.Kind("files.what_settings", MAX_BYTES)


def load(path: str | os.PathLike | None = None, with_settings: bool = True) -> Config:
    """Read and check a configuration file (default: the repository's config.yaml),
    then the settings the settings screen saved in the data directory, if any.
    A settings file that does not load is moved aside (`notice` says where) and the
    configuration file alone is used: a power cut while saving never stops the start."""
    path = Path(path) if path else DEFAULT_PATH
    cfg = parse(_read(path, CONFIG), str(path))
    settings = cfg.data_path / SETTINGS_FILE
    if not with_settings or not os.path.exists(settings):  # (an unreadable dir: not there)
        return cfg
    try:
        return parse(_read(settings, SETTINGS), str(settings), base=cfg)
    except ConfigError as exc:
        return dataclasses.replace(cfg, notice=_set_aside(settings, exc))


def _set_aside(settings: Path, problem: ConfigError) -> str:
    target = settings.with_name(f"{settings.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
    said = i18n.said(problem, "en")  # (for the log)
    try:
        settings.rename(target)
    except OSError as exc:
        return f"{said}; it could not be moved aside ({exc.strerror}), so it was ignored"
    return f"{said}; it was moved to {target} and the settings from {settings.parent} " \
           "were not used (set them again on the settings screen)"


def save_settings(cfg: Config, changes: dict) -> Path:
    """Write `changes` ({"sound": {"enabled": False}, ...}) over the saved settings, atomically."""
    path = cfg.data_path / SETTINGS_FILE
    try:
        saved = userfile.load_yaml(path, SETTINGS) if path.exists() else {}
    except userfile.FileRefused:
        saved = {}  # unreadable: the new settings replace it
    merged = _merge(saved if isinstance(saved, dict) else {}, changes)
    parse(yaml.safe_dump(merged), str(path), base=cfg)  # refuse what would not load
    try:
        write_atomic(path, yaml.safe_dump(merged, allow_unicode=True))
    except OSError as exc:
        raise ConfigError(f"{path}: the settings could not be saved ({exc.strerror}); the old "
                          "ones are unchanged. Is the disk full or read-only?") from None
    return path


def _merge(old: dict, new: dict) -> dict:
    out = dict(old)
    for key, value in new.items():
        old_value = out.get(key)
        out[key] = (_merge(old_value if isinstance(old_value, dict) else {}, value)
                    if isinstance(value, dict) else value)
    return out


def _read(path: Path, kind: userfile.Kind) -> str:
    """The file's text, through the guard of every file a person hands the app (a regular
    file of at most 64 KB, UTF-8 with or without a byte-order mark, or Shift-JIS)."""
    try:
        return userfile.read_text(path, kind)
    except userfile.FileRefused as exc:
        raise ConfigError(*exc.args) from None


def parse(text: str, filename: str = "<config>", base: Config | None = None) -> Config:
    """Check `text`; keys it sets replace those of `base` (default: the defaults)."""
    base = base or Config()
    kind = SETTINGS if Path(filename).name == SETTINGS_FILE else CONFIG
    try:
        node = userfile.compose_yaml(text, filename, kind)  # nesting bounded, no key twice
    except userfile.FileRefused as exc:
        raise ConfigError(*exc.args) from None
    if node is None:
        return dataclasses.replace(base, path=base.path or filename)
    return dataclasses.replace(_build(base, node, filename, ""), path=base.path or filename)


def _where(filename: str, node: yaml.Node, key: str) -> str:
    return f"{filename}:{node.start_mark.line + 1}: {key or 'top level'}"


def _build(base, node: yaml.Node, filename: str, prefix: str):
    cls = type(base)
    if not isinstance(node, yaml.MappingNode):
        raise ConfigError(f"{_where(filename, node, prefix)}: expected a section of keys")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name not in INTERNAL}
    hints = typing.get_type_hints(cls)
    values = {}
    for key_node, value_node in node.value:
        key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else "(a list as a key)"
        dotted = f"{prefix}.{key}" if prefix else key
        if key not in fields:
            raise ConfigError(
                f"{_where(filename, key_node, dotted)}: unknown key; "
                f"allowed here: {', '.join(fields)}"
            )
        if fields[key].metadata.get("config_only") and Path(filename).name == SETTINGS_FILE:
            raise ConfigError(f"{_where(filename, key_node, dotted)}: {key} can be set only in "
                              "the configuration file (the settings live in the data directory)")
        values[key] = _value(hints[key], fields[key].metadata, value_node, filename, dotted,
                             getattr(base, key))
    built = dataclasses.replace(base, **values)
    conflict = getattr(built, "conflict", lambda: None)()
    if conflict:
        raise ConfigError(f"{_where(filename, node, prefix)}: {conflict}")
    return built


def _value(hint, rules, node: yaml.Node, filename: str, key: str, base=None):
    if dataclasses.is_dataclass(hint):
        return _build(base, node, filename, key)
    where = _where(filename, node, key)
    if typing.get_origin(hint) is tuple:
        if not isinstance(node, yaml.SequenceNode):
            raise ConfigError(f"{where}: expected a list like [6, 13]")
        low, high = rules.get("length", (0, 1 << 30))
        if not low <= len(node.value) <= high:
            raise ConfigError(f"{where}: expected {low} to {high} items, got {len(node.value)}")
        item = typing.get_args(hint)[0]
        return tuple(_value(item, rules, child, filename, key) for child in node.value)
    kinds = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    expected = " or ".join(map(_kind, kinds))
    if not isinstance(node, yaml.ScalarNode):
        raise ConfigError(f"{where}: expected a single value ({expected})")
    try:
        value = yaml.SafeLoader("").construct_object(node)
    except yaml.YAMLError as exc:
        why = exc.problem if isinstance(exc, yaml.MarkedYAMLError) else exc
        raise ConfigError(f"{where}: cannot read this value ({why})") from None
    except (ValueError, OverflowError):  # e.g. a date such as 2025-13-45
        raise ConfigError(f"{where}: expected {expected}, got {_short(node.value)}") from None
    if hint is float and type(value) is int:
        value = float(value) if abs(value) < 1e300 else math.inf
    if hint is str and value is None:
        value = ""
    if type(value) not in kinds:
        raise ConfigError(f"{where}: expected {expected}, got {_short(node.value)}")
    if type(value) is float and not math.isfinite(value):
        span = f" from {rules['min']} to {rules['max']}" if "min" in rules and "max" in rules else ""
        raise ConfigError(f"{where}: expected a finite number{span}, got {_short(node.value)}")
    if type(value) is str and any(ord(c) < 32 for c in value):
        raise ConfigError(f"{where}: control characters (such as NUL) are not allowed here")
    place = os.path.expanduser(value) if rules.get("directory") and value else ""
    if place and os.path.exists(place) and not os.path.isdir(place):
        raise ConfigError(f"{where}: {value} is a file, not a directory; point {key} at a "
                          "directory (it is created if missing)")
    if rules.get("font") and value and os.path.exists(os.path.expanduser(value)):
        problem = fonts.font_problem(os.path.expanduser(value))  # (one not there yet: English)
        if problem:
            raise ConfigError(f"{where}: {value} {problem}; name a TrueType/OpenType font file "
                              "(fc-list :lang=ja shows the installed ones), or remove the key")
    if "choices" in rules and value not in rules["choices"]:
        allowed = ", ".join(str(c) for c in rules["choices"])
        raise ConfigError(f"{where}: {value!r} is not allowed; choose one of: {allowed}")
    if "min" in rules and value < rules["min"] or "max" in rules and value > rules["max"]:
        raise ConfigError(
            f"{where}: {value} is out of range "
            f"({rules.get('min', '-∞')} to {rules.get('max', '∞')})"
        )
    return value


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else f"{text[:20]}…({len(text)} characters)")


def _kind(hint) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text"}[hint]
