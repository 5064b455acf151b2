"""The seesaw device the app shell holds: the source opened with Gunkan's pieces, the stored
calibration given, its status read through the seesaw (the source's only reader), on a
manual clock."""

from companion.config import ReplaySettings, Sensor
from companion.games.gunkan.device import SeesawDevice
from companion.games.gunkan.pieces import default_table
from companion.games.gunkan.seesaw import virtual_calibration
from companion.sensing.simulator import ManualClock, SimulatedSeesaw
from companion.store import Store
from companion.ui.sensor import badge, open_device


def simulated(seed=3):
    clock = ManualClock(0.0)
    return clock, SimulatedSeesaw(seed=seed, clock=clock, table=default_table())


def watch(device, clock, seconds):
    for _ in range(round(seconds / 0.05)):
        clock.advance(0.05)
        device.status()


def test_a_simulator_without_a_stored_calibration_gets_its_virtual_one(tmp_path):
    clock, sim = simulated()
    device = SeesawDevice(Sensor(), Store.in_dir(tmp_path), sim)
    assert device.virtual and device.problem == ""
    assert device.seesaw.calibrated and device.seesaw.calibration == virtual_calibration(sim)


def test_the_configured_stored_calibration_is_used_else_the_newest(tmp_path):
    store = Store.in_dir(tmp_path)
    _, sim = simulated()
    scales = virtual_calibration(sim)
    store.save_calibration("old", {**scales, "known_g": 50.0})
    store.save_calibration("new", {**scales, "known_g": 100.0})
    assert SeesawDevice(Sensor(), store, simulated()[1]).seesaw.calibration["known_g"] == 100.0
    chosen = SeesawDevice(Sensor(calibration="old"), store, simulated()[1])
    assert chosen.seesaw.calibration["known_g"] == 50.0


def test_status_takes_what_arrived_and_still_follows_the_pans(tmp_path):
    clock, sim = simulated()
    device = SeesawDevice(Sensor(), Store.in_dir(tmp_path), sim)
    watch(device, clock, 1.0)
    assert device.status().connected and device.still()
    assert abs(device.recent(0, 0.0)[-1].grams) < 1.0
    latest = device.recent(0, 0.0)[-1].t
    sim.place(0, grams=20.0)
    clock.advance(0.05)
    device.status()
    assert device.recent(0, latest) and not device.still()  # the hand's press: settling
    watch(device, clock, 2.0)
    assert device.still() and abs(device.recent(0, 0.0)[-1].grams - 20.0) < 1.0
    assert device.rate_warning() is None


def test_a_source_that_cannot_open_is_a_problem_said_not_an_error(tmp_path):
    device = SeesawDevice(Sensor(source="replay", replay=ReplaySettings(file="")), Store.in_dir(tmp_path))
    assert "sensor.replay.file" in device.problem
    assert device.source is None and device.seesaw is None and not device.virtual
    assert device.status() is None and not device.still() and device.recent(0, 0.0) == []
    assert device.rate_warning() is None
    device.close()  # nothing to close


def test_closing_the_device_closes_its_source(tmp_path):
    _, sim = simulated()
    SeesawDevice(Sensor(), Store.in_dir(tmp_path), sim).close()
    assert not sim.status().connected


def test_the_shell_finds_the_device_in_the_game_that_weighs(tmp_path):
    from companion.config import Config

    clock, sim = simulated()
    device = open_device(Config(), Store.in_dir(tmp_path), sim)
    assert isinstance(device, SeesawDevice) and device.source is sim


def test_the_badge_says_how_the_pans_are_or_that_nothing_is_connected(tmp_path):
    tr = {"app.sensor_stable": "stable", "app.sensor_moving": "settling",
          "app.sensor_disconnected": "not connected"}.get
    clock, sim = simulated()
    device = SeesawDevice(Sensor(), Store.in_dir(tmp_path), sim)
    watch(device, clock, 1.0)
    assert badge(device, "Simulator", tr) == ("Simulator · stable", True)
    sim.place(1, grams=20.0)
    watch(device, clock, 0.05)
    assert badge(device, "Simulator", tr) == ("Simulator · settling", True)
    sim.close()
    assert badge(device, "Simulator", tr) == ("Simulator: not connected", False)
    assert badge(None, "Simulator", tr) == ("Simulator", False)
    broken = SeesawDevice(Sensor(source="replay"), Store.in_dir(tmp_path / "b"))
    assert badge(broken, "Replay", tr) == ("Replay", False)
