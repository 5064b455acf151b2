"""The seesaw as one device: the configured weight source, opened with 軍艦将棋's pieces, given
its stored calibration, with the `Seesaw` over it (the source's only reader).

The app shell opens the one device on first use (finding this module as companion/ui/sensor.py
says) and holds it for its sensor badge and the sensor test, which ask it only what any load
cells can answer: `status()` (the source's, once what arrived has been read), `still()`,
`rate_warning()`, `recent()` (a pan's latest readings) and `source` (`virtual`; the sensor
test's finger).  This package's screens take `seesaw` from it.  No Kivy.
"""

from __future__ import annotations

from companion.config import Sensor
from companion.errors import CompanionError
from companion.games.gunkan.pieces import default_table
from companion.games.gunkan.seesaw import SETTLING, Seesaw, virtual_calibration
from companion.sensing.factory import open_source
from companion.sensing.pipeline import Reading
from companion.sensing.source import SourceStatus, WeightSource
from companion.store import Store


class SeesawDevice:
    """One weight source and the Seesaw over it, made together."""

    def __init__(self, sensor: Sensor, store: Store, source: WeightSource | None = None):
        """`source`: one made elsewhere (a test's); else `sensor` names it."""
        self.problem = ""  # why the source could not be opened, for people
        if source is None:
            try:
                source = open_source(sensor, table=default_table())
            except CompanionError as exc:
                self.problem = str(exc)
        self.source = source
        self.seesaw = None if source is None else calibrated_seesaw(source, store, sensor)

    @property
    def virtual(self) -> bool:
        """A simulated seesaw (the screens then offer virtual hands)."""
        return bool(self.source is not None and self.source.virtual)

    def status(self) -> SourceStatus | None:
        """The source's status once the readings that arrived are taken (None: no source)."""
        if self.seesaw is None:
            return None
        self.seesaw.poll()
        return self.seesaw.source.status()

    def still(self) -> bool:
        """No pan settling: what lies on each (or nothing) is at rest."""
        return self.seesaw is not None and all(self.seesaw.pan(c).kind != SETTLING
                                               for c in range(self.seesaw.source.channels))

    def rate_warning(self) -> tuple[float, float] | None:
        """(configured, measured) samples/s when the board does not run at the configured rate."""
        return None if self.seesaw is None else self.seesaw.rate_warning()

    def recent(self, channel: int, after: float) -> list[Reading]:
        """The pan's readings later than `after` (of the last second), oldest first."""
        return [] if self.seesaw is None else self.seesaw.recent(channel, after)

    def close(self) -> None:
        if self.source is not None:
            self.source.close()


def calibrated_seesaw(source: WeightSource, store: Store, sensor: Sensor) -> Seesaw:
    """The seesaw over `source` with the configured stored calibration (`sensor.calibration`,
    else the newest; a simulator without one gets its virtual factory calibration)."""
    calibration = store.calibration(sensor.calibration or None) or store.calibration()
    if calibration is None and source.virtual:
        calibration = virtual_calibration(source)
    try:
        return Seesaw(source, calibration, rate_hz=sensor.wanted_rate)
    except CompanionError:  # a stored calibration that does not fit this sensor
        return Seesaw(source, None, rate_hz=sensor.wanted_rate)


DEVICE = SeesawDevice  # what the shell looks for in a game folder (companion/ui/sensor.py)
