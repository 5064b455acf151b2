"""Open the weight source the configuration names."""

from __future__ import annotations

from collections.abc import Mapping

from companion.config import Sensor
from companion.sensing.classes import PieceClass
from companion.sensing.source import WeightSource


def open_source(sensor: Sensor, source: str | None = None,
                table: Mapping[str, PieceClass] | None = None) -> WeightSource:
    """The configured source (`source` overrides `sensor.source`), ready to poll;
    `table` names the pieces a simulator can be given (piece name -> PieceClass)."""
    kind = source or sensor.source
    if kind == "simulator":
        from companion.sensing.simulator import SimulatedSeesaw

        # `auto`: a simulated board with RATE high; `rate_hz: 10` simulates the common 10/s one
        return SimulatedSeesaw(seed=sensor.simulator.seed, rate_hz=sensor.wanted_rate or 80.0, table=table)
    if kind == "gpio":
        from companion.sensing.gpio_source import GpioSource

        clock = sensor.gpio.clock_pin
        pans = tuple((clock, data) for data in sensor.gpio.data_pins)
        return GpioSource(pans, gain=sensor.gpio.gain)
    if kind == "serial":
        from companion.sensing.serial_link import SerialSource

        return SerialSource(sensor.serial.port, rate=sensor.wanted_rate,
                            baudrate=sensor.serial.baudrate)
    if kind == "replay":
        from companion.sensing.recording import ReplaySource
        from companion.i18n import Words
        from companion.sensing.source import SensorError

        if not sensor.replay.file:
            raise SensorError(Words("sensing.replay_file_missing"))
        return ReplaySource(sensor.replay.file)
    raise ValueError(f"unknown sensor source {kind!r}")
