"""The real HX711 driver against two emulated chips on one shared clock, with
a share of transfers corrupted on the wire.

Faults (each hits one transfer): a clock pulse stretched to 50-60 µs (chip
survives, spec violated), a pulse stretched past 60 µs (chip powers down
mid-read), or the chip missing 1-3 clock pulses (desynchronised count).
The clock is real perf_counter time plus a virtual offset for waiting, so the
machine's own scheduling stalls happen too; the emulator marks every
transfer it sent under any fault or spec violation.  Ground truth: a reading
the driver accepted must come from a clean, settled transfer, bit for bit.

    python bench/hx711_faults.py --json [--quick]
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import statistics
import sys
import time

from gpiozero.pins.mock import MockFactory

from companion.sensing.hx711 import HX711
from companion.sensing.hx711_emulator import EmulatedHX711, HybridClock

CLOCK, DATA = 5, (6, 13)
FAULTS = ("stretched", "powered_down", "desync")


def inject(chip: EmulatedHX711, kind: str, rng: random.Random) -> None:
    """Arm one fault for the chip's next transfer."""
    pulse = rng.randint(1, 25)
    if kind == "stretched":
        chip.stretch_pulse(pulse, rng.randint(50_001, 60_000))
    elif kind == "powered_down":
        chip.stretch_pulse(pulse, rng.randint(60_001, 2_000_000))
    else:
        chip.miss_pulses(rng.randint(1, 24), rng.randint(1, 3))


def run(reads: int, fault_rate: float, seed: int) -> dict:
    rng = random.Random(seed)
    factory, clock = MockFactory(), HybridClock()
    chips = [EmulatedHX711(CLOCK, data, pin_factory=factory, clock=clock,
                           rate_hz=rate, rng=random.Random(seed + i),
                           signal=lambda channel, gain, t_ns: rng.randint(-0x800000, 0x7FFFFF))
             for i, (data, rate) in enumerate(zip(DATA, (80.0, 79.3)))]
    injected = dict.fromkeys(FAULTS, 0)
    accepted: list[list] = [[] for _ in chips]
    clocking: list[int] = []  # ns per transfer, the driver's Python path alone
    started = time.perf_counter()
    with HX711(CLOCK, DATA, pin_factory=factory, clock_ns=clock, sleep=clock.sleep) as driver:
        for _ in range(reads):
            if rng.random() < fault_rate:
                kind = rng.choice(FAULTS)
                injected[kind] += 1
                inject(rng.choice(chips), kind, rng)
            for mine, reading in zip(accepted, driver.read()):
                mine.append(reading)
            clocking.append(driver.last_transfer_ns)
        wall = time.perf_counter() - started
        stats = dict(transfers=driver.transfers, rejected=driver.bad,
                     rejections=dict(driver.rejections), resets=driver.resets,
                     settle_discarded=driver.settle_discarded,
                     transfer_ns=statistics.median(clocking),
                     conversion_rate_hz=round(driver.conversion_rate_hz, 2))
    return judge(chips, accepted, injected, stats, wall)


def judge(chips, accepted, injected, stats, wall) -> dict:
    """Compare what the driver accepted with what each chip really sent."""
    corrupted_accepted = good = good_accepted = corrupted = 0
    for chip, readings in zip(chips, accepted):
        sent = chip.transfers
        starts = [t.t_ns for t in sent]
        taken = set()
        for reading in readings:
            i = bisect.bisect_left(starts, reading.t_ns)  # the transfer it started
            record = sent[i]
            taken.add(i)
            if not (record.clean and record.settled and record.raw == reading.raw):
                corrupted_accepted += 1
        for i, record in enumerate(sent[:-1]):  # the last one is still pending
            if record.clean and record.settled:
                good += 1
                good_accepted += i in taken
            elif not record.clean:
                corrupted += 1
    transfers = stats["transfers"]
    return {
        "reads": sum(len(r) for r in accepted),
        "transfers": transfers,
        "faults_injected": injected,
        "corrupted_transfers": corrupted,
        "corrupted_rate": round(corrupted / max(1, transfers * len(chips)), 4),
        "corrupted_accepted": corrupted_accepted,
        "good_transfers": good,
        "good_rejected_rate": round(1 - good_accepted / max(1, good), 4),
        "rejected": stats["rejected"],
        "rejections": stats["rejections"],
        "resets": stats["resets"],
        "settle_discarded": stats["settle_discarded"],
        "reads_per_s": round(1e9 / stats["transfer_ns"]),
        "end_to_end_reads_per_s": round(transfers / wall),
        "conversion_rate_hz": stats["conversion_rate_hz"],
        "wall_s": round(wall, 2),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--reads", type=int, default=None)
    parser.add_argument("--fault-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    reads = args.reads or (800 if args.quick else 20_000)
    result = run(reads, args.fault_rate, args.seed)
    result["ok"] = result["corrupted_accepted"] == 0
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
