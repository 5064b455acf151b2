"""SerialSource: the seesaw firmware's samples over a serial port (docs/protocol.md).

A reader thread opens the port, shakes hands (HELLO), applies the wanted rate
and gain, then turns checksummed sample lines into `Sample`s.  When the device
disappears (USB unplugged, port gone, silence) it closes the port and retries
with exponential backoff; a new connection always starts with a new handshake.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

import serial

from companion.i18n import Words
from companion.sensing.serial_protocol import (
    GAINS, PROTOCOL_VERSION, RATES, RAW_MAX, RAW_MIN, SEQ_MODULO, Fault, Hello,
    LineError, LineSplitter, Message, Reply, SampleLine, encode_command, parse_line, seq_gap)
from companion.sensing.source import Clock, Sample, SampleQueue, SensorError, SourceStatus, WeightSource, monotonic

log = logging.getLogger(__name__)

READ_TIMEOUT = 0.05  # seconds a read waits; bounds how quickly close() is noticed
HELLO_RETRY = 0.5  # seconds between HELLO commands while waiting for the answer
RATE_WINDOW = 2.0  # seconds of sample lines the measured rate averages over

FAULT_TEXT = {  # a FAULT line's code: its words (companion/locale/sensing.yaml)
    "missing": "sensing.serial_fault_missing",
    "desync": "sensing.serial_fault_desync",
}


def fault_words(channel: int, code: str) -> Words:
    return Words("sensing.serial_channel_fault", channel=channel, fault=Words(FAULT_TEXT[code]))


class LinkLost(Exception):
    """The connection must be dropped and opened again; the message (`Words`) says why."""


@dataclass
class LinkStats:
    """Counters that survive reconnections."""

    bad: int = 0  # lines rejected: checksum, framing, grammar, too long
    dropped: int = 0  # sequence gaps + samples pushed out of a full queue
    restarts: int = 0  # sequence numbering restarted without a HELLO
    connections: int = 0  # successful handshakes
    last_error: str = ""  # Words, for a person
    arrivals: deque[float] = field(default_factory=lambda: deque(maxlen=2048))  # sample-line times

    def rate(self, now: float) -> float:
        """Sample lines per second over the last RATE_WINDOW seconds (0 when idle)."""
        while self.arrivals and now - self.arrivals[0] > RATE_WINDOW:
            self.arrivals.popleft()
        if len(self.arrivals) < 2 or self.arrivals[-1] == self.arrivals[0]:
            return 0.0
        return (len(self.arrivals) - 1) / (self.arrivals[-1] - self.arrivals[0])


class DeviceSession:
    """Protocol state of one connection: bytes in, samples out, counters kept.  No I/O."""

    def __init__(self, stats: LinkStats) -> None:
        self.stats = stats
        self.splitter = LineSplitter()
        self.hello: Hello | None = None
        self.hellos = 0  # HELLO lines seen: each one (re)starts the session
        self.settings: dict[str, int | bool] = {}  # rate, gain, running as the device last reported
        self.faults: dict[int, str] = {}
        self.last_rx: float | None = None  # time of the last valid line
        self._expected: int | None = None
        self._first_line = True  # opening mid-line leaves a fragment: not counted

    def feed(self, data: bytes, now: float) -> list[Sample]:
        samples: list[Sample] = []
        for line in self.splitter.feed(data):
            first, self._first_line = self._first_line, False
            if line == b"":
                continue
            try:
                if line is None:
                    raise LineError("toolong", b"")
                msg = parse_line(line, self.hello.channels if self.hello else None)
            except LineError:
                if not first:
                    self.stats.bad += 1
                continue
            self.last_rx = now
            self._handle(msg, now, samples)
        return samples

    def _handle(self, msg: Message, now: float, samples: list[Sample]) -> None:
        if isinstance(msg, SampleLine):
            self._sample(msg, now, samples)
        elif isinstance(msg, Hello):
            self.hello = msg
            self.hellos += 1
            self._expected = None
            self.faults.clear()  # the device re-sends the faults still present
            self.settings = {"rate": msg.rate, "gain": msg.gain, "running": msg.running}
        elif isinstance(msg, Fault):
            if msg.code == "ok":
                self.faults.pop(msg.channel, None)
            else:
                self.faults[msg.channel] = msg.code
                self.stats.last_error = fault_words(msg.channel, msg.code)
        elif isinstance(msg, Reply):
            self._reply(msg)

    def _reply(self, msg: Reply) -> None:
        if not msg.ok:
            self.stats.last_error = Words("sensing.serial_refused", command=msg.command, detail=msg.detail)
        elif msg.command in ("RATE", "GAIN") and msg.detail.isdigit():
            self.settings[msg.command.lower()] = int(msg.detail)
        elif msg.command in ("START", "STOP"):
            self.settings["running"] = msg.command == "START"

    def _sample(self, msg: SampleLine, now: float, samples: list[Sample]) -> None:
        if self.hello is None:
            return  # streamed before our handshake: channel count unknown yet
        if self._expected is not None:
            gap = seq_gap(self._expected, msg.seq)
            if gap is None:
                self.stats.restarts += 1
            else:
                self.stats.dropped += gap
        self._expected = (msg.seq + 1) % SEQ_MODULO
        self.stats.arrivals.append(now)
        for channel, raw in enumerate(msg.values):
            if raw is not None:
                samples.append(Sample(now, channel, raw, raw in (RAW_MIN, RAW_MAX)))


def open_unconfigured(url: str) -> serial.Serial:
    """The port object, not yet opened (pyserial URL or device path)."""
    return serial.serial_for_url(url, do_not_open=True)


def _close_quietly(port: serial.Serial) -> None:
    try:
        port.close()
    except (serial.SerialException, OSError):
        pass  # the device is already gone


class SerialSource(WeightSource):
    """Weight samples from the seesaw firmware on a serial port or pyserial URL.

    `rate` (10/80) and `gain` (128/64/32), when given, are sent after every
    handshake.  `dtr` is set before the port opens, so opening never toggles it:
    MicroPython only sends over USB while DTR is asserted (the Pico does not
    reset on DTR); pass False for boards that reset on DTR.
    """

    name = "serial"

    def __init__(self, port: str, *, rate: int | None = None, gain: int | None = None,
                 baudrate: int = 115200, dtr: bool = True, clock: Clock = monotonic,
                 handshake_timeout: float = 2.0, silence_timeout: float = 3.0,
                 backoff: tuple[float, float] = (0.25, 4.0), max_queue: int = 10_000,
                 opener: Callable[[str], serial.Serial] = open_unconfigured):
        if rate is not None and rate not in RATES:
            raise SensorError(Words("sensing.serial_bad_rate", rate=repr(rate)))
        if gain is not None and gain not in GAINS:
            raise SensorError(Words("sensing.serial_bad_gain", gain=repr(gain)))
        if baudrate == 1200:
            raise SensorError(Words("sensing.serial_1200_baud"))
        self.port = port
        self._rate, self._gain = rate, gain
        self._streaming = True
        self._baudrate, self._dtr, self._clock, self._opener = baudrate, dtr, clock, opener
        self._handshake_timeout, self._silence_timeout = handshake_timeout, silence_timeout
        self._backoff = backoff
        self._stats = LinkStats()
        self._session: DeviceSession | None = None
        self._connected = False
        self._queue = SampleQueue(max_queue)
        self._commands: deque[bytes] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"serial-{port}", daemon=True)
        self._thread.start()

    # -- WeightSource ----------------------------------------------------------

    def poll(self) -> list[Sample]:
        with self._lock:
            return self._queue.drain()

    def status(self) -> SourceStatus:
        with self._lock:
            stats, session = self._stats, self._session
            hello = session.hello if session else None
            faults = dict(session.faults) if session else {}
            settings = dict(session.settings) if session else {}
            connected = self._connected
            rate = stats.rate(self._clock()) if connected else 0.0
            detail: str
            if connected and hello:
                detail = Words("sensing.serial_connected", port=self.port, firmware=hello.firmware,
                               rate=settings.get("rate"), gain=settings.get("gain"))
                for c, f in sorted(faults.items()):
                    detail = Words("sensing.serial_and", first=detail, then=fault_words(c, f))
            else:
                detail = stats.last_error or Words("sensing.serial_connecting", port=self.port)
            return SourceStatus(
                source="serial", connected=connected, rate_hz=rate, bad=stats.bad,
                dropped=stats.dropped, detail=detail,
                extra={"port": self.port, "firmware": hello.firmware if hello else None,
                       "board": hello.fields.get("id") if hello else None,
                       "settings": settings, "faults": faults,
                       "connections": stats.connections, "restarts": stats.restarts,
                       "last_error": stats.last_error})

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    # -- commands ----------------------------------------------------------------

    def set_rate(self, rate: int) -> None:
        """Ask for 10 or 80 samples/s (needs the RATE pin wired; see firmware/README.md)."""
        if rate not in RATES:
            raise SensorError(Words("sensing.serial_bad_rate", rate=repr(rate)))
        self._rate = rate
        self._commands.append(encode_command("RATE", rate))

    def stop_stream(self) -> None:
        """Ask the device to stop sending samples (it stays connected)."""
        self._streaming = False
        self._commands.append(encode_command("STOP"))

    def start_stream(self) -> None:
        """Ask the device to send samples again (the default)."""
        self._streaming = True
        self._commands.append(encode_command("START"))

    def identify(self) -> None:
        """Make the device's LED flicker for 5 s."""
        self._commands.append(encode_command("IDENTIFY"))

    # -- reader thread -------------------------------------------------------------

    def _run(self) -> None:
        """Connect, serve, and after any failure retry with backoff, until closed.

        Nothing escapes this loop: an unexpected exception (a bug, a pyserial URL
        handler raising KeyError) is reported in the status and retried like a
        lost link, so the reader never dies while the source is open."""
        delay = self._backoff[0]
        while not self._stop.is_set():
            handshakes = self._stats.connections
            try:
                self._connect_and_serve()
            except Exception as e:
                log.exception("serial link on %s", self.port)
                self._lost(Words("sensing.serial_unexpected", port=self.port, error=repr(e)))
            if self._stats.connections > handshakes:
                delay = self._backoff[0]
            self._stop.wait(delay)
            delay = min(delay * 2, self._backoff[1])
        with self._lock:
            self._connected = False

    def _connect_and_serve(self) -> None:
        try:
            port = self._open()
        except (serial.SerialException, OSError, ValueError) as e:
            self._lost(Words("sensing.serial_cannot_open", port=self.port, error=str(e)))
            return
        except Exception as e:  # e.g. a pyserial URL handler's KeyError for a bad option
            log.exception("opening serial port %s", self.port)
            self._lost(Words("sensing.serial_bad_port", port=self.port, error=f"{type(e).__name__}: {e}"))
            return
        try:
            self._serve(port)
        except (serial.SerialException, OSError) as e:
            self._lost(Words("sensing.serial_lost", port=self.port, error=str(e)))
        except LinkLost as e:
            self._lost(Words("sensing.serial_port_said", port=self.port, why=e.args[0]))
        finally:
            _close_quietly(port)

    def _open(self) -> serial.Serial:
        port = self._opener(self.port)
        port.baudrate = self._baudrate
        port.timeout = READ_TIMEOUT
        port.write_timeout = 1.0
        port.dtr = self._dtr  # before open(): no DTR edge, so no reset on open
        port.open()
        return port

    def _lost(self, why: Words) -> None:
        with self._lock:
            self._connected = False
            self._stats.last_error = why

    def _serve(self, port: serial.Serial) -> None:
        """Handshake, then read until stopped; raises when the link is lost."""
        session = DeviceSession(self._stats)
        with self._lock:
            self._session = session
        start = self._clock()
        next_hello, pinged, hellos = start, False, 0
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = self._clock()
            with self._lock:
                self._push(session.feed(data, now) if data else [])
            if session.hello is None:
                if now - start > self._handshake_timeout:
                    raise LinkLost(Words("sensing.serial_no_hello", s=self._handshake_timeout))
                if now >= next_hello:
                    port.write(encode_command("HELLO"))
                    next_hello = now + HELLO_RETRY
                continue
            if session.hellos != hellos:
                hellos = session.hellos
                self._handshake(session.hello)
            assert session.last_rx is not None, "set by the line that brought the HELLO"
            silent = now - session.last_rx
            if silent > self._silence_timeout:
                raise LinkLost(Words("sensing.serial_silent", s=silent))
            if silent > self._silence_timeout / 2 and not pinged:
                port.write(encode_command("PING", "alive"))
            pinged = silent > self._silence_timeout / 2
            while self._commands:
                port.write(self._commands.popleft())

    def _handshake(self, hello: Hello) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            raise LinkLost(Words("sensing.serial_protocol", firmware=hello.firmware, theirs=hello.protocol,
                                 ours=PROTOCOL_VERSION))
        self._commands.clear()  # the wanted settings are re-sent below
        if self._rate is not None and self._rate != hello.rate:
            self._commands.append(encode_command("RATE", self._rate))
        if self._gain is not None and self._gain != hello.gain:
            self._commands.append(encode_command("GAIN", self._gain))
        if hello.running != self._streaming:
            self._commands.append(encode_command("START" if self._streaming else "STOP"))
        with self._lock:
            self.channels = hello.channels
            self._stats.connections += 1
            self._connected = True

    def _push(self, samples: list[Sample]) -> None:
        self._stats.dropped += self._queue.push(samples)
