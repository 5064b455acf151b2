"""HX711 facts and the decoding of one read, independent of how the bits are clocked.

After its 24 data bits the HX711 takes 1 to 3 extra SCK pulses that choose the
input and gain of the NEXT conversion; the first of them pulls DOUT high, and
DOUT stays high until the next conversion is ready.  So DOUT must read 1 during
every extra pulse and once more after the last one (the "after" bit).  A 0
there means the chip and the clock are out of step (or DOUT is shorted low):
the reading is garbage.  A chip that missed a pulse and showed a 1 by chance
instead stays mid-transfer and never signals the next conversion: seesaw.app
only counts a read once DOUT falls again (docs/protocol.md, FAULT).
"""

GAIN_PULSES = {128: 1, 32: 2, 64: 3}  # 128, 64: input A; 32: input B
READY_TIMEOUT_MS = 500  # > 4 conversions at 10/s: no data-ready by then = missing chip
DESYNC_HOLDOFF_MS = 100  # wait after resetting an out-of-step chip
SETTLE_READS = 5  # conversions dropped after a reset or a change of rate or gain (and a read
# pending at the change: app.settle_all):
# the one in flight used the old setting, then the datasheet's 4-conversion settling
RESET_US = 100  # SCK high > 60 us powers the chip down; low again restarts it


def decode(word, pulses):
    """(signed counts, in_step) from a read: 24 data bits, then one check bit per
    extra pulse and the "after" bit, each of which must be 1."""
    mask = (1 << (pulses + 1)) - 1
    in_step = (word & mask) == mask
    data = (word >> (pulses + 1)) & 0xFFFFFF
    if data & 0x800000:
        data -= 0x1000000
    return data, in_step
