"""The real HX711 driver against two emulated chips on one shared clock, with
a share of transfers corrupted on the wire, at every gain and channel
(A/128, A/64, B/32).

Faults (each hits one transfer): a clock pulse stretched to 50-60 µs (chip
survives, spec violated), a pulse stretched past 60 µs (chip powers down
mid-read), or the chip missing or counting extra clock pulses so that its
count leaves the datasheet's 25-27 (it stays mid-transfer, or a 28th edge is a
communication error).  The clock is real perf_counter time plus a virtual
offset for waiting, so the machine's own scheduling stalls happen too; the
emulator marks every transfer it sent under any fault or spec violation.
Ground truth: a reading the driver accepted must come from a clean, settled
transfer, bit for bit: `corrupted_accepted` must be 0 at every gain.

`wire_blind` runs, per gain, the one fault the wire cannot show: a pulse more
or fewer that lands on another valid count (25-27), so the chip completes and
converts another channel or gain.  Only a shifted bit of 0 gives it away; its
`corrupted_accepted` is reported, not required to be 0 (docs/hx711.md).

`--load N` runs the same with N competing processes spinning on the CPU (default 2 per
core), so the driver's thread is preempted mid-transfer as on a busy Pi: a stalled clock
high, a stall between two gain pulses, a late return to a chip that has been ready for a
while.  `corrupted_accepted` must be 0 there too.

    python bench/hx711_faults.py --json [--quick] [--load [N]]
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import sys
import time

from gpiozero.pins.mock import MockFactory

from companion.sensing.hx711 import DATA_BITS, HX711, PULSES
from companion.sensing.hx711_emulator import EmulatedHX711, HybridClock

CLOCK, DATA = 5, (6, 13)
FAULTS = ("stretched", "powered_down", "missed", "extra")
LOW, HIGH = min(PULSES.values()), max(PULSES.values())


def inject(chip: EmulatedHX711, kind: str, pulses: int, rng: random.Random) -> None:
    """Arm one fault for the chip's next transfer of `pulses` clock pulses."""
    if kind == "stretched":
        chip.stretch_pulse(rng.randint(1, pulses), rng.randint(50_001, 60_000))
    elif kind == "powered_down":
        chip.stretch_pulse(rng.randint(1, pulses), rng.randint(60_001, 2_000_000))
    elif kind == "missed":  # leaves fewer than 25 edges
        chip.miss_pulses(rng.randint(1, DATA_BITS - 2), pulses - LOW + 1 + rng.randint(0, 2))
    elif kind == "extra":  # leaves more than 27
        chip.extra_pulses(rng.randint(1, pulses), HIGH + 1 - pulses + rng.randint(0, 2))
    else:  # "blind": one pulse more or fewer, onto another valid count
        shifts = [d for d in (-1, 1, -2, 2) if LOW <= pulses + d <= HIGH]
        shift = rng.choice(shifts)
        if shift < 0:
            chip.miss_pulses(rng.randint(1, DATA_BITS), -shift)
        else:
            chip.extra_pulses(rng.randint(1, pulses), shift)


def run(reads: int, fault_rate: float, seed: int, setting=("A", 128), faults=FAULTS) -> dict:
    rng = random.Random(seed)
    pulses = PULSES[setting]
    factory, clock = MockFactory(), HybridClock()
    chips = [EmulatedHX711(CLOCK, data, pin_factory=factory, clock=clock,
                           rate_hz=rate, rng=random.Random(seed + i),
                           signal=lambda channel, gain, t_ns: rng.randint(-0x800000, 0x7FFFFF))
             for i, (data, rate) in enumerate(zip(DATA, (80.0, 79.3)))]
    injected = dict.fromkeys(faults, 0)
    accepted: list[list] = [[] for _ in chips]
    clocking: list[int] = []  # ns per transfer, the driver's Python path alone
    started = time.perf_counter()
    with HX711(CLOCK, DATA, channel=setting[0], gain=setting[1], pin_factory=factory,
               clock_ns=clock, sleep=clock.sleep) as driver:
        for _ in range(reads):
            if rng.random() < fault_rate:
                kind = rng.choice(faults)
                injected[kind] += 1
                inject(rng.choice(chips), kind, pulses, rng)
            for mine, reading in zip(accepted, driver.read()):
                mine.append(reading)
            clocking.append(driver.last_transfer_ns)
        wall = time.perf_counter() - started
        stats = dict(transfers=driver.transfers, rejected=driver.bad,
                     rejections=dict(driver.rejections), resets=driver.resets,
                     settle_discarded=driver.settle_discarded,
                     transfer_ns=statistics.median(clocking),
                     clock_high_us=driver.clock_high_us(),
                     conversion_rate_hz=round(driver.conversion_rate_hz, 2))
    return judge(chips, accepted, injected, stats, wall)


def judge(chips, accepted, injected, stats, wall) -> dict:
    """Compare what the driver accepted with what each chip really sent."""
    corrupted_accepted = good = good_accepted = corrupted = 0
    first = None  # the first corrupted reading accepted, for whoever looks into it
    for number, (chip, readings) in enumerate(zip(chips, accepted)):
        sent = chip.transfers
        starts = [t.t_ns for t in sent]
        taken = set()
        for reading in readings:
            i = bisect.bisect_left(starts, reading.t_ns)  # the transfer it started
            record = sent[i]
            taken.add(i)
            if not (record.clean and record.settled and record.raw == reading.raw):
                corrupted_accepted += 1
                first = first or {"chip": number, "read": readings.index(reading), "raw": reading.raw,
                                  "sent": record.raw, "clean": record.clean, "settled": record.settled,
                                  "note": record.note, "setting": list(record.setting),
                                  "before": [(t.raw, t.clean, t.settled, t.note) for t in sent[max(0, i - 3):i]]}
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
        **({"first_corrupted_accepted": first} if first else {}),
        "good_transfers": good,
        "good_rejected_rate": round(1 - good_accepted / max(1, good), 4),
        "rejected": stats["rejected"],
        "rejections": stats["rejections"],
        "resets": stats["resets"],
        "settle_discarded": stats["settle_discarded"],
        "reads_per_s": round(1e9 / stats["transfer_ns"]),
        "end_to_end_reads_per_s": round(transfers / wall),
        "conversion_rate_hz": stats["conversion_rate_hz"],
        "clock_high_us": stats["clock_high_us"],
        "wall_s": round(wall, 2),
    }


def _spin(stop) -> None:
    while not stop.is_set():
        sum(range(10_000))


@contextlib.contextmanager
def competing(processes: int):
    """`processes` others spinning on the CPU while the block runs (none for 0)."""
    context = multiprocessing.get_context("forkserver")  # never fork(): threads may run here
    stop = context.Event()
    spinners = [context.Process(target=_spin, args=(stop,), daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        stop.set()
        for spinner in spinners:
            spinner.join(5)
            if spinner.is_alive():
                spinner.terminate()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a small smoke run")
    parser.add_argument("--reads", type=int, default=None, help="reads per gain")
    parser.add_argument("--fault-rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=int, nargs="?", const=2 * (os.cpu_count() or 1), default=0,
                        help="competing CPU-bound processes (default with --load: 2 per core)")
    args = parser.parse_args(argv)
    reads = args.reads or (600 if args.quick else 8_000)
    gains, blind = {}, {}
    with competing(args.load):
        load = os.getloadavg()[0]
        for setting in PULSES:
            name = f"{setting[0]}/{setting[1]}"
            gains[name] = run(reads, args.fault_rate, args.seed, setting)
            seen = run(max(200, reads // 4), args.fault_rate, args.seed, setting, faults=("blind",))
            blind[name] = {key: seen[key] for key in ("reads", "faults_injected", "corrupted_transfers",
                                                      "corrupted_accepted", "rejected", "rejections")}
        load = max(load, os.getloadavg()[0])
    result = {"competing_processes": args.load, "load_average_1min": round(load, 1), "gains": gains, "corrupted_accepted": {name: g["corrupted_accepted"] for name, g in gains.items()},
              "wire_blind": blind}
    result["ok"] = not any(result["corrupted_accepted"].values())
    if args.json:
        print(json.dumps(result))
    else:
        for name, g in gains.items():
            print(f"{name}:")
            for key, value in g.items():
                print(f"{key:>24}: {value}")
        print(f"{'corrupted_accepted':>24}: {result['corrupted_accepted']}")
        print(f"{'wire_blind':>24}: {blind}")
        print(f"{'ok':>24}: {result['ok']}")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
