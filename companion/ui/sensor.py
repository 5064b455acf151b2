"""The shell's side of the sensor: the one weighing device, which belongs to the game that weighs.

A game folder whose `device.py` defines `DEVICE` (軍艦将棋's: companion/games/gunkan/device.py)
owns the load cells: it opens the configured source, calibrates and reads it.  The shell names
no game: it looks for that module in the registry's games, as the registry looks for
`rules.GAME`, and holds the one device for the sensor badge on every top bar and the sensor
test, which ask it only what `WeighingDevice` lists.  No Kivy.
"""

from __future__ import annotations

from typing import Callable, Protocol

from companion.config import Config
from companion.play import registry
from companion.sensing.pipeline import Reading
from companion.sensing.source import SourceStatus, WeightSource
from companion.store import Store


class WeighingDevice(Protocol):
    """What the shell asks of the device (`DEVICE(cfg.sensor, store, source)` makes one)."""

    problem: str  # why the source could not be opened, for people ("" while none)

    @property
    def source(self) -> WeightSource | None: ...  # the simulator's pans, for a virtual finger

    @property
    def virtual(self) -> bool: ...  # a simulated seesaw

    def status(self) -> SourceStatus | None: ...  # after reading what arrived; None: no source

    def still(self) -> bool: ...  # every pan at rest

    def rate_warning(self) -> tuple[float, float] | None: ...  # (configured, measured) samples/s

    def recent(self, channel: int, after: float) -> list[Reading]: ...  # a pan's latest readings

    def close(self) -> None: ...


def open_device(cfg: Config, store: Store, source: WeightSource | None = None) -> WeighingDevice | None:
    """The device of the first game (in the registry's order) that has one, or None."""
    for game in registry.games():
        if (device := registry.part(game, "device")) is not None:
            return device.DEVICE(cfg.sensor, store, source)
    return None


def badge(device: WeighingDevice | None, name: str, tr: Callable[[str], str]) -> tuple[str, bool]:
    """The sensor badge's words and whether they are good news: the source's name, and how
    the pans are (connected goes without saying) or that it is not connected."""
    status = None if device is None else device.status()
    if status is None:
        return name, False
    if status.connected:
        return f"{name} · {tr('app.sensor_stable' if device.still() else 'app.sensor_moving')}", True
    return f"{name}: {tr('app.sensor_disconnected')}", False
