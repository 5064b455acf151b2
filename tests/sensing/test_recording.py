"""Recorded streams: the file format, `companion record`, the replay source, and the shipped recordings."""

import dataclasses
import gzip
import json
import os
from pathlib import Path

import pytest

from companion import config as config_module
from companion.config import ReplaySettings, Sensor
from companion.sensing.factory import open_source
from companion.sensing.judge import BALANCED, LEFT, RIGHT
from companion.sensing.recording import Recorder, RecordingSource, ReplaySource, read_recording
from companion.games.gunkan.seesaw import Seesaw
from companion.sensing.simulator import ManualClock, SimulatedSeesaw
from companion.sensing.source import Sample, SensorError

DATA = Path(__file__).parent / "data"
SHIPPED = sorted(DATA.glob("*.jsonl.gz"))


def write(path, samples, events=(), calibration=None):
    with Recorder(path, source="simulator", rate_hz=80.0, calibration=calibration) as rec:
        rec.samples(samples)
        for t, name, data in events:
            rec.event(t, name, **data)


@pytest.mark.parametrize("name", ["r.jsonl", "r.jsonl.gz"])
def test_round_trip_keeps_samples_events_and_calibration(tmp_path, name):
    samples = [Sample(1.0, 0, 123), Sample(1.0125, 1, -8388608, True), Sample(1.025, 0, 8388607)]
    cal = {"channels": [{"offset": 1.5, "counts_per_gram": 400.0}, {"offset": -2.0, "counts_per_gram": -380.0}]}
    write(tmp_path / name, samples, [(1.01, "placed", {"pan": 0, "piece": "carrier"})], cal)
    rec = read_recording(tmp_path / name)
    assert rec.samples == samples and rec.calibration == cal and rec.rate_hz == 80.0
    assert rec.events == [{"t": 1.01, "event": "placed", "pan": 0, "piece": "carrier"}]


def test_a_damaged_file_is_refused_naming_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    write(path, [Sample(0.0, 0, 1)])
    path.write_text(path.read_text() + '[0.1, 0, "x"]\n')
    with pytest.raises(SensorError, match=r"bad.jsonl:3:"):
        read_recording(path)
    path.write_text('{"format": "something else"}\n')
    with pytest.raises(SensorError, match=r"bad.jsonl:1:.*header"):
        read_recording(path)
    path.write_text(json.dumps({"format": "companion-recording", "version": 1, "rate_hz": 80, "channels": 2})
                    + "\n[0.0, 5, 1]\n")
    with pytest.raises(SensorError, match=r":2: .*channel 5"):
        read_recording(path)
    (tmp_path / "cut.jsonl.gz").write_bytes(gzip.compress(b'{"format"')[:12])
    with pytest.raises(SensorError, match="cut.jsonl.gz"):
        read_recording(tmp_path / "cut.jsonl.gz")


def test_replay_keeps_the_recorded_timing(tmp_path):
    samples = [Sample(100.0 + i / 80, i % 2, i) for i in range(160)]  # 1 s of two channels
    write(tmp_path / "r.jsonl", samples)
    clock = ManualClock(5.0)
    replay = ReplaySource(tmp_path / "r.jsonl", clock=clock)
    assert replay.poll() == [Sample(5.0, 0, 0)]
    clock.advance(0.5)
    got = replay.poll()
    assert [s.raw for s in got] == list(range(1, 41))
    assert all(abs(s.t - (5.0 + s.raw / 80)) < 1e-9 for s in got)
    clock.advance(10.0)
    assert len(replay.poll()) == 119 and replay.status().extra["finished"]
    assert replay.poll() == [] and replay.status().connected
    fast = ReplaySource(tmp_path / "r.jsonl", clock=ManualClock(0.0), speed=4.0)
    fast.clock.advance(0.25)
    assert len(fast.poll()) == 81


def test_a_recording_source_passes_samples_on_and_saves_them(tmp_path):
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=4, clock=clock)
    with RecordingSource(sim, Recorder(tmp_path / "r.jsonl.gz", source="simulator", rate_hz=80)) as src:
        seen = []
        for _ in range(10):
            clock.advance(0.1)
            seen += src.poll()
    assert read_recording(tmp_path / "r.jsonl.gz").samples == [Sample(round(s.t, 6), s.channel, s.raw, s.saturated)
                                                                for s in seen]


def test_the_replay_source_is_configurable(tmp_path):
    write(tmp_path / "r.jsonl", [Sample(0.0, 0, 1)])
    with open_source(Sensor(source="replay", replay=ReplaySettings(file=str(tmp_path / "r.jsonl")))) as src:
        assert isinstance(src, ReplaySource) and src.status().source == "replay"
    with pytest.raises(SensorError, match="sensor.replay.file"):
        open_source(Sensor(source="replay"))
    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"sensor:\n  source: replay\n  replay:\n    file: {tmp_path / 'r.jsonl'}\n")
    assert config_module.load(cfg).sensor.replay.file == str(tmp_path / "r.jsonl")


def test_companion_record_saves_the_stream_and_tapped_events(tmp_path):
    from companion import terminal

    cfg = dataclasses.replace(config_module.load(None, with_settings=False), data_dir=str(tmp_path / "data"))
    read_end, write_end = os.pipe()
    os.write(write_end, b"p L carrier\nv left\nr\nlooks fine\n")
    os.close(write_end)
    ticks = iter(range(100_000))
    out = tmp_path / "out.txt"
    with os.fdopen(read_end) as lines, open(out, "w") as shown:
        assert terminal.record(cfg, "simulator", None, str(tmp_path / "rec.jsonl.gz"), 1.0, note="test",
                               out=shown, lines=lines, clock=lambda: next(ticks) * 0.05, sleep=lambda s: None) == 0
    rec = read_recording(tmp_path / "rec.jsonl.gz")
    assert [e["event"] for e in rec.events] == ["placed", "verdict", "reset", "note"]
    assert rec.events[0]["pan"] == 0 and rec.events[0]["piece"] == "carrier"
    assert rec.header["source"] == "simulator" and rec.header["note"] == "test"
    assert "samples saved" in out.read_text()


def recorded_weighings(path):
    """Replay a shipped recording through the app's Seesaw on a manual clock, the way the
    Gunkan screen polls it; yield (truth pieces, the verdict) per weighing."""
    clock = ManualClock(0.0)
    source = ReplaySource(path, clock=clock)
    events = sorted(source.events(), key=lambda e: e["t"])
    seesaw = Seesaw(source, source.recording.calibration, rate_hz=source.recording.rate_hz)
    weighings = []
    for e in events:
        if e["event"] == "reset":
            weighings.append({"scenario": e["scenario"], "t": e["t"], "placed": [], "recorded": None})
        elif e["event"] == "placed":
            weighings[-1]["placed"].append(e)
        elif e["event"] == "verdict":
            weighings[-1]["recorded"] = e
    for w, nxt in zip(weighings, weighings[1:] + [None]):
        while clock() < w["t"]:
            clock.advance(0.05)
            seesaw.poll()
        seesaw.reset()
        end = nxt["t"] if nxt else w["t"] + 15.0  # the bench waits as long (at 10/s a first class holds 5.2 s)
        last = max(p["t"] for p in w["placed"])
        verdict = None
        while clock() < end and verdict is None:
            clock.advance(1 / 80)
            seesaw.poll()
            if clock() > last:
                if w["scenario"] == "battle":
                    v = seesaw.battle()
                    verdict = v if v.final else None
                else:
                    state = seesaw.identify(w["placed"][0]["pan"])
                    verdict = state if state.kind == "class" else None
        yield w, verdict


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_recordings_replay_to_the_true_verdicts(path):
    """The format's test data (made by `bench/judge.py --record`): every weighing judged again from the
    file alone gives the true answer and the one recorded."""
    assert len(SHIPPED) >= 3
    count = 0
    for weighing, verdict in recorded_weighings(path):
        count += 1
        assert verdict is not None, weighing
        seesaw_judge = Seesaw(ReplaySource(path), None).judge
        pieces = {p["pan"]: p["piece"] for p in weighing["placed"]}
        if weighing["scenario"] == "battle":
            a, b = seesaw_judge.group_of(0, pieces[0]), seesaw_judge.group_of(1, pieces[1])
            truth = BALANCED if a.overlaps(b) else (LEFT if a.low > b.high else RIGHT)
            assert (verdict.kind, verdict.left, verdict.right) == (truth, a.name, b.name)
            assert verdict.kind == weighing["recorded"]["kind"]
        else:
            (pan, piece), = pieces.items()
            assert verdict.group.name == seesaw_judge.group_of(pan, piece).name == weighing["recorded"]["group"]
    assert count == 3


@pytest.mark.timeout(30)
def test_a_recording_is_read_through_the_file_guard(tmp_path):
    """A gzip bomb stops at 64 MB decompressed, a line of 100 KB is no recording, a FIFO
    is refused unread (each named by file, and line where it has one)."""
    bomb = tmp_path / "bomb.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as out:  # 100 MB of newlines, 100 KB on disk
        for _ in range(100):
            out.write(b"\n" * (1 << 20))
    with pytest.raises(SensorError, match=r"bomb.jsonl.gz: .*larger than 64 MB"):
        read_recording(bomb)
    long = tmp_path / "long.jsonl"
    write(long, [Sample(0.0, 0, 1)])
    long.write_text(long.read_text() + "[" + "0," * 50_000 + "0]\n")
    with pytest.raises(SensorError, match=r"long.jsonl:3: .*longer than 64 KB"):
        read_recording(long)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(SensorError, match=r"fifo.jsonl: .*named pipe"):
        read_recording(fifo)
