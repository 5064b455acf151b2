"""The hardware layer on a Raspberry Pi Pico (RP2040) running MicroPython.

Each HX711 gets its own PIO state machine, so SCK pulses are exactly 2 us high
and 2 us low whatever the interpreter is doing (the chip powers down if SCK
stays high over 60 us, which an interrupt in a bit-banged loop can cause).
"""

import binascii
import select
import sys
import time

import machine
import rp2
from machine import Pin

from seesaw import config, hx711, keepalive


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT)
def hx711_read():
    # The CPU puts (extra pulses - 1) once DOUT is low, then gets one word:
    # 24 data bits, MSB first, the DOUT level at each extra pulse, and DOUT once
    # more with SCK low after the last pulse (seesaw.hx711.decode).
    pull()              .side(0)
    mov(x, osr)         .side(0)
    set(y, 23)          .side(0)
    label("data")
    nop()               .side(1)
    in_(pins, 1)        .side(1)      # DOUT valid 0.1 us after SCK rises
    jmp(y_dec, "data")  .side(0) [1]
    label("extra")
    nop()               .side(1)
    in_(pins, 1)        .side(1)      # must read 1: the chip is in step
    jmp(x_dec, "extra") .side(0) [1]
    in_(pins, 1)        .side(0)      # and stays high after the gain pulses
    push()              .side(0)


class Chip:
    """One HX711 on its own DOUT and SCK pins, clocked by PIO state machine `sm_id`."""

    def __init__(self, sm_id, dout, sck):
        self.sm_id = sm_id
        self.sck = sck
        self.dout = Pin(dout, Pin.IN, Pin.PULL_UP)  # a missing chip reads "not ready"
        self.start()

    def start(self):
        self.sm = rp2.StateMachine(self.sm_id, hx711_read, freq=config.PIO_FREQ,
                                   sideset_base=Pin(self.sck), in_base=self.dout)
        self.sm.active(1)

    def ready(self):
        return self.dout.value() == 0

    def read(self, pulses):
        self.sm.put(pulses - 1)
        deadline = time.ticks_add(time.ticks_ms(), 5)  # a read takes ~110 us
        while self.sm.rx_fifo() == 0:
            if time.ticks_diff(deadline, time.ticks_ms()) < 0:
                self.reset()
                return 0  # check bits 0: reported as out of step
        return self.sm.get()

    def reset(self):
        """Hold SCK high > 60 us (power down), then low: the chip restarts."""
        self.sm.active(0)
        sck = Pin(self.sck, Pin.OUT, value=1)
        time.sleep_us(hx711.RESET_US)
        sck.value(0)
        self.start()


class PicoHardware:
    """The `hal` of seesaw.app on a Pico."""

    def __init__(self):
        self.chips = [Chip(i, dout, sck) for i, (dout, sck) in enumerate(config.CHIPS)]
        self.channels = len(self.chips)
        self._rate_pin = None
        self.rates = (10,)
        if config.RATE_PIN is not None:
            self._rate_pin = Pin(config.RATE_PIN, Pin.OUT, value=0)
            self.rates = (10, 80)
        self._led = Pin("LED", Pin.OUT, value=1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        cause = machine.reset_cause()
        self.reset_cause = {machine.PWRON_RESET: "power",
                            machine.WDT_RESET: "wdt"}.get(cause, "other")
        self.board_id = binascii.hexlify(machine.unique_id()).decode().upper()
        self._wdt = keepalive.watchdog()

    ticks_ms = staticmethod(time.ticks_ms)
    ticks_diff = staticmethod(time.ticks_diff)
    ticks_add = staticmethod(time.ticks_add)
    sleep_ms = staticmethod(time.sleep_ms)

    def is_ready(self, ch):
        return self.chips[ch].ready()

    def read_raw(self, ch, pulses):
        return self.chips[ch].read(pulses)

    def reset_chip(self, ch):
        self.chips[ch].reset()

    def set_rate(self, hz):
        if self._rate_pin is not None:
            self._rate_pin.value(1 if hz == 80 else 0)

    def led(self, on):
        self._led.value(1 if on else 0)

    def feed_watchdog(self):
        self._wdt.feed()

    def read_input(self):
        data = b""
        while len(data) < 64 and self._poll.poll(0):
            byte = sys.stdin.buffer.read(1)
            if not byte:  # readable but empty (end of input): nothing more now
                break
            data += byte
        return data

    def write(self, data):
        sys.stdout.buffer.write(data)
