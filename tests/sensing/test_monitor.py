"""The live monitor prints every channel and the source's counters, refreshing in place."""

import io

from companion.sensing.monitor import format_status, run_monitor
from companion.sensing.pipeline import Pipeline
from companion.sensing.simulator import ManualClock, SimulatedSeesaw


def test_monitor_refreshes_for_a_duration():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=2, clock=clock)
    pipe = Pipeline(rate_hz=80, calibration={"channels": [{"offset": 0, "counts_per_gram": 500.0}] * 2})
    out = io.StringIO()
    run_monitor(sim, pipe, out, duration_s=1.0, interval_s=0.2, clock=clock, sleep=clock.advance)
    text = out.getvalue()
    assert text.count("ch0") == 6 and text.count("ch1") == 6  # t = 0, 0.2, ... 1.0
    assert "\x1b[3F" in text  # moves back over the previous block
    assert "simulator: connected" in text and "Hz" in text


def test_status_lines_before_any_sample():
    sim = SimulatedSeesaw(clock=ManualClock())
    lines = format_status(sim, Pipeline())
    assert lines[0].startswith("ch0") and "no samples" in lines[0] and len(lines) == 3
    assert "未受信" not in lines[0] and "未受信" in format_status(sim, Pipeline(), lang="ja")[0]


def test_a_board_at_another_rate_than_configured_is_warned_about():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=2, rate_hz=10.0, clock=clock)
    for wanted, warned in ((80, True), (10, False), (None, False)):
        out = io.StringIO()
        run_monitor(sim, Pipeline(), out, duration_s=1.6, interval_s=0.2, clock=clock, sleep=clock.advance,
                    wanted_rate=wanted)
        assert ("WARNING: sensor.rate_hz is 80 but the board runs at 10.0/s" in out.getvalue()) is warned
    out = io.StringIO()
    run_monitor(sim, Pipeline(), out, duration_s=1.6, interval_s=0.2, clock=clock, sleep=clock.advance,
                wanted_rate=80, lang="ja")
    assert "sensor.rate_hz は 80 ですが、ボードの実測は毎秒 10.0 回です" in out.getvalue()
