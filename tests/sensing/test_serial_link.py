"""SerialSource against a scripted device behind a fake port (no real serial port)."""

import threading
import time

import pytest
import serial

from companion.sensing.serial_link import LinkStats, SerialSource
from companion.sensing.serial_protocol import LineSplitter, crc8, frame
from companion.sensing.source import SensorError

HELLO = "HELLO fw=2.0.0 proto=2 ch=2 rate=10 rates=10,80 gain=128 run=1 reset=power id=AB"


def wait_until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


class FakeDevice:
    """A scripted seesaw: answers commands like the firmware, streams on request."""

    def __init__(self, hello=HELLO, mute=False):
        self.hello = hello
        self.mute = mute  # never answers (not our firmware)
        self.present = True  # False: unplugged
        self.outgoing = bytearray()
        self.commands: list[str] = []
        self.seq = 0
        self.lock = threading.Lock()
        self._splitter = LineSplitter()

    def send(self, data: bytes) -> None:
        with self.lock:
            self.outgoing += data

    def stream(self, *values) -> None:
        self.send(frame("S %d %s" % (self.seq, " ".join(map(str, values))), "\r\n"))
        self.seq = (self.seq + 1) % 65536

    def replug(self) -> None:
        """Power comes back: a fresh boot, sequence numbers from 0."""
        with self.lock:
            self.outgoing.clear()
        self.seq = 0
        self.present = True

    def receive(self, data: bytes) -> None:
        for line in self._splitter.feed(data):
            body = line.partition(b"*")[0].decode()
            self.commands.append(body)
            if self.mute:
                continue
            name, *args = body.split()
            if name == "HELLO":
                self.send(frame(self.hello, "\r\n"))
            elif name == "PING":
                self.send(frame(" ".join(["PONG", *args]), "\r\n"))
            elif name == "RATE" and args == ["20"]:
                self.send(frame("ERR RATE arg", "\r\n"))
            else:
                self.send(frame(" ".join(["OK", name, *args]), "\r\n"))


class FakePort:
    """Enough of a pyserial port to talk to a FakeDevice; logs what the link does."""

    def __init__(self, device: FakeDevice, log: list):
        self.device, self.log = device, log
        self.is_open = False
        self.baudrate = self.timeout = self.write_timeout = None
        self._dtr = None

    @property
    def dtr(self):
        return self._dtr

    @dtr.setter
    def dtr(self, value):
        self.log.append(("dtr", value, self.is_open))
        self._dtr = value

    def open(self):
        if not self.device.present:
            raise serial.SerialException(2, "could not open port: No such file or directory")
        self.log.append(("open",))
        self.is_open = True

    def close(self):
        self.is_open = False

    def _check(self):
        if not self.device.present:
            raise serial.SerialException("device reports readiness to read but returned no data")

    @property
    def in_waiting(self):
        self._check()
        return len(self.device.outgoing)

    def read(self, size=1):
        deadline = time.monotonic() + self.timeout
        while True:
            self._check()
            with self.device.lock:
                if self.device.outgoing:
                    data = bytes(self.device.outgoing[:size])
                    del self.device.outgoing[:size]
                    return data
            if time.monotonic() >= deadline:
                return b""
            time.sleep(0.005)

    def write(self, data):
        self._check()
        self.device.receive(data)
        return len(data)


@pytest.fixture
def device():
    return FakeDevice()


@pytest.fixture
def link(device):
    log = []
    sources = []

    def make(**kw):
        kw.setdefault("backoff", (0.02, 0.1))
        source = SerialSource("fake://seesaw", opener=lambda url: FakePort(device, log), **kw)
        sources.append(source)
        return source

    make.log = log
    yield make
    for source in sources:
        source.close()


def test_handshake_applies_settings_then_streams(device, link):
    source = link(rate=80, gain=64)
    wait_until(lambda: source.status().connected)
    wait_until(lambda: device.commands[-2:] == ["RATE 80", "GAIN 64"])
    assert device.commands[0] == "HELLO"
    for i in range(5):
        device.stream(100 + i, -i)
    samples = []
    wait_until(lambda: samples.extend(source.poll()) or len(samples) == 10)
    assert [(s.channel, s.raw) for s in samples[:4]] == [(0, 100), (1, 0), (0, 101), (1, -1)]
    status = source.status()
    assert status.bad == 0 and status.dropped == 0
    assert status.extra["settings"] == {"rate": 80, "gain": 64, "running": True}
    assert "firmware 2.0.0" in status.detail and "80/s" in status.detail


def test_dtr_is_set_before_the_port_opens(device, link):
    source = link(dtr=False)
    wait_until(lambda: source.status().connected)
    assert link.log[:2] == [("dtr", False, False), ("open",)]


def test_sequence_gaps_and_garbage_are_counted(device, link):
    source = link()
    wait_until(lambda: source.status().connected)
    device.stream(1, 2)
    device.seq += 3
    device.send(b"\x00\xffnoise\r\n" + frame("S 99 1 2", "\r\n").replace(b"99", b"98"))
    device.stream(3, 4)
    wait_until(lambda: source.status().dropped == 3)
    assert source.status().bad == 2
    assert [s.raw for s in source.poll()] == [1, 2, 3, 4]


def test_unplug_then_replug_reconnects_with_a_new_handshake(device, link):
    source = link()
    wait_until(lambda: source.status().connected)
    device.stream(1, 1)
    wait_until(lambda: device.outgoing == bytearray())
    device.present = False
    wait_until(lambda: not source.status().connected)
    wait_until(lambda: "cannot open" in source.status().detail)
    hellos = device.commands.count("HELLO")
    device.replug()
    wait_until(lambda: source.status().connected and source.status().extra["connections"] == 2)
    assert device.commands.count("HELLO") > hellos
    device.stream(7, 8)
    wait_until(lambda: [s.raw for s in source.poll()] == [7, 8])
    assert source.status().dropped == 0


def test_silence_means_a_lost_link(device, link):
    source = link(silence_timeout=0.4)
    wait_until(lambda: source.status().connected)
    device.mute = True  # alive port, dead firmware
    wait_until(lambda: "PING alive" in device.commands)
    wait_until(lambda: not source.status().connected)
    assert "no data" in source.status().extra["last_error"] or "HELLO" in source.status().detail


def test_a_port_without_the_firmware_fails_the_handshake(link):
    source = SerialSource("loop://", handshake_timeout=0.3, backoff=(0.05, 0.1))
    try:
        wait_until(lambda: "no HELLO" in source.status().detail)
        assert not source.status().connected
    finally:
        source.close()


class OldFirmware(FakeDevice):
    """A protocol-1 firmware: CRC-8 lines, and it refuses CRC-32 commands."""

    def send(self, data: bytes) -> None:
        body = data.rstrip().rpartition(b"*")[0]
        super().send(body + b"*%02X\r\n" % crc8(body))

    def receive(self, data: bytes) -> None:
        self.commands.append(data.decode().strip())
        self.send(frame(self.hello, "\r\n"))  # it answers anything with its HELLO


@pytest.mark.parametrize("device", [FakeDevice(hello=HELLO.replace("proto=2", "proto=3")),
                                    OldFirmware(hello=HELLO.replace("proto=2", "proto=1"))],
                         ids=["newer", "protocol 1 (CRC-8)"])
def test_firmware_of_another_protocol_version_is_refused_with_a_clear_message(device):
    source = SerialSource("fake://", opener=lambda url: FakePort(device, []), backoff=(0.05, 0.1))
    try:
        wait_until(lambda: "speaks protocol" in source.status().detail)
        status = source.status()
        assert not status.connected and status.extra["connections"] == 0
        want = device.hello.split("proto=")[1][0]
        assert f"speaks protocol {want}, this companion speaks 2" in status.detail
        assert "firmware/README.md" in status.detail
    finally:
        source.close()


def test_refused_command_is_reported(device, link):
    source = link()
    wait_until(lambda: source.status().connected)
    source.identify()
    source._commands.append(b"RATE 20\n")  # what a confused host could send
    wait_until(lambda: "refused RATE" in source.status().extra["last_error"])
    assert "IDENTIFY" in device.commands


def test_stopped_stream_stays_connected_and_is_restored_after_reconnect(device, link):
    source = link(silence_timeout=0.6)
    wait_until(lambda: source.status().connected)
    source.stop_stream()
    wait_until(lambda: source.status().extra["settings"]["running"] is False)
    wait_until(lambda: device.commands.count("PING alive") >= 2)  # silence answered by PONG
    assert source.status().connected
    device.present = False
    wait_until(lambda: not source.status().connected)
    device.replug()
    wait_until(lambda: source.status().extra["connections"] == 2)
    wait_until(lambda: device.commands[-1] == "STOP")
    source.start_stream()
    wait_until(lambda: source.status().extra["settings"]["running"] is True)


def test_full_queue_counts_dropped_samples(device, link):
    source = link(max_queue=4)
    wait_until(lambda: source.status().connected)
    for i in range(5):
        device.stream(i, i)
    wait_until(lambda: source.status().dropped == 6)
    assert [s.raw for s in source.poll()] == [3, 3, 4, 4]


def test_bad_settings_are_refused():
    with pytest.raises(SensorError, match="10 or 80"):
        SerialSource("loop://", rate=20)
    with pytest.raises(SensorError, match="128, 64 or 32"):
        SerialSource("loop://", gain=100)


def test_close_is_idempotent_and_poll_never_blocks(device, link):
    with link() as source:
        wait_until(lambda: source.status().connected)
    source.close()
    assert source.poll() == []
    assert not source.status().connected


def test_measured_rate():
    stats = LinkStats()
    for i in range(21):
        stats.arrivals.append(10 + i / 80)
    assert stats.rate(10.25) == pytest.approx(80)
    assert stats.rate(20.0) == 0.0


def test_reader_survives_any_error_while_opening_and_keeps_retrying():
    """pyserial's loop:// handler raises KeyError for an unknown logging level: the
    reader reports it and retries with backoff, forever, instead of dying."""
    attempts = []

    def opener(url):
        attempts.append(url)
        return serial.serial_for_url(url, do_not_open=True)

    source = SerialSource("loop://?logging=bogus", opener=opener, backoff=(0.01, 0.04))
    try:
        wait_until(lambda: len(attempts) >= 5)
        status = source.status()
        assert not status.connected and "(KeyError: 'bogus')" in status.detail
        assert "sensor.serial.port" in status.detail
        assert source._thread.is_alive()
    finally:
        source.close()
    assert not source._thread.is_alive()


@pytest.mark.parametrize("where", ["opener", "read"])
def test_reader_recovers_from_an_unexpected_exception(device, where):
    """A bug in the opener or in a port read is a reported, retried failure; once it
    stops happening the link connects as usual."""
    failures = [RuntimeError("boom")] * 3

    class FlakyPort(FakePort):
        def read(self, size=1):
            if failures:
                raise failures.pop()
            return super().read(size)

    def opener(url):
        if where == "opener" and failures:
            raise failures.pop()
        return (FlakyPort if where == "read" else FakePort)(device, [])

    with SerialSource("fake://", opener=opener, backoff=(0.01, 0.02)) as source:
        wait_until(lambda: "boom" in source.status().extra["last_error"])
        wait_until(lambda: source.status().connected)
        assert failures == []


def test_a_fault_and_the_status_read_in_each_language(device, link):
    """A FAULT line and the status a person reads (`companion monitor`, the problem panel)
    come from the catalog in the configured language; a log still reads both."""
    from companion.i18n import said
    from companion.sensing.monitor import format_status
    from companion.sensing.pipeline import Pipeline

    source = link()
    wait_until(lambda: source.status().connected)
    device.send(frame("FAULT 1 missing", "\r\n"))
    wait_until(lambda: "channel 1" in source.status().detail)
    detail = source.status().detail
    assert said(detail, "en") == ("fake://seesaw: firmware 2.0.0, 10/s, gain 128; "
                                  "channel 1: HX711 not answering: check its wiring and 3.3 V supply")
    assert said(detail, "ja").startswith("fake://seesaw：ファームウェア 2.0.0、毎秒 10 回、ゲイン 128／チャンネル 1：HX711 が応答しません")
    assert "HX711 not answering" not in said(detail, "ja")
    assert "HX711 が応答しません" in str(detail) and "HX711 not answering" in str(detail)  # the log's: both
    assert "チャンネル 1：HX711 が応答しません" in format_status(source, Pipeline(), lang="ja")[-1]
    assert said(source.status().extra["last_error"], "ja").startswith("チャンネル 1：")


def test_a_wrong_setting_is_said_in_the_configured_language():
    from companion.i18n import said

    with pytest.raises(SensorError) as refused:
        SerialSource("loop://", rate=20)
    assert said(refused.value, "ja").startswith("シリアル：速度は毎秒 10 回か 80 回です（20 ではなく）")
    assert said(refused.value, "en") == "serial: rate must be 10 or 80 samples/s, not 20; fix the sensor rate setting"
