"""The configured source is the one opened."""

import pytest

from companion import config
from companion.sensing.factory import open_source
from companion.sensing.source import SensorError


def test_default_config_opens_the_deterministic_simulator():
    cfg = config.parse("sensor:\n  rate_hz: 10\n  simulator:\n    seed: 7\n")
    with open_source(cfg.sensor) as source:
        assert source.name == "simulator" and source.seed == 7 and source.rate_hz == 10
        assert source.status().connected


def test_gpio_without_gpio_hardware_is_a_clear_error():
    cfg = config.parse("sensor:\n  source: gpio\n")
    with pytest.raises(SensorError):
        open_source(cfg.sensor)


def test_serial_opens_a_pyserial_url_and_reports_not_connected_yet():
    cfg = config.parse("sensor:\n  source: serial\n  serial:\n    port: 'loop://'\n")
    source = open_source(cfg.sensor)
    try:
        assert source.name == "serial"
        assert source.status().source == "serial"
    finally:
        source.close()
        source.close()  # idempotent
