"""The firmware on the real MicroPython rp2 build on an emulated RP2040 (tests/firmware/rp2040/):

- boot_to_hello_s: emulated seconds from power-up to the first HELLO line, and the
  wall seconds it took here (boot_to_hello_wall_s);
- clock_high_us / clock_low_us: [min, max] over every SCK pulse both HX711 models saw,
  against the 2 us high / 2 us low the PIO program is written for;
- values_matched: streamed values that equal a value the models shifted out settled,
  in order, and values_streamed (they must be equal);
- longest_gap_ms: the longest time between two sample lines at 80/s (12.5 ms ideal);
- emulated_s_per_wall_s: emulated seconds per wall second while streaming at 80/s, and
  per CPU second of the emulator's process (_cpu_s: what a quiet machine would show;
  wall figures count the machine's load, and this one is shared).
- boot_to_hello_cpu_s: the emulator process's CPU seconds up to HELLO (Node's start-up
  and JIT warm-up included).

Usage: python bench/firmware_rp2040.py [--json] [--seconds S]   (S emulated, at 80/s)
Needs Node.js and `make tests/firmware/rp2040/node_modules/.installed`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "firmware" / "rp2040"))

import emulated_pico  # noqa: E402
from emulated_pico import EmulatedPico  # noqa: E402

from companion.sensing.serial_protocol import Hello, Reply, SampleLine  # noqa: E402


def measure(seconds: float) -> dict:
    why = emulated_pico.available()
    if why:
        raise SystemExit(f"firmware_rp2040: {why}")
    with tempfile.TemporaryDirectory() as tmp:
        flash = emulated_pico.installed_flash(Path(tmp))
        wall = time.monotonic()
        with EmulatedPico(flash) as pico:
            pico.run_until(lambda p: p.messages(Hello), 5, 0.01)
            boot_wall, boot_cpu = time.monotonic() - wall, pico.cpu_s
            boot_t = next(line.t for line in pico.lines if isinstance(line.msg, Hello))
            since = pico.t
            pico.command("RATE", 80)
            pico.run_until(lambda p: Reply(True, "RATE", "80") in p.messages(Reply, since), 2, 0.01)
            pico.run(0.5)  # settling
            start, wall, cpu = pico.t, time.monotonic(), pico.cpu_s
            pico.run(seconds)
            speed = (pico.t - start) / (time.monotonic() - wall)
            speed_cpu = (pico.t - start) / (pico.cpu_s - cpu)
            times = [line.t for line in pico.lines if isinstance(line.msg, SampleLine) and line.t >= start]
            streamed = pico.streamed(since)
            pulses = [c["pulses"] for c in pico.stats()["chips"]]
    return {
        "boot_to_hello_s": round(boot_t, 3),
        "boot_to_hello_wall_s": round(boot_wall, 2),
        "boot_to_hello_cpu_s": round(boot_cpu, 2),
        "clock_high_us": [round(min(p["highMin"] for p in pulses) / 1000, 3),
                          round(max(p["highMax"] for p in pulses) / 1000, 3)],
        "clock_low_us": [round(min(p["lowMin"] for p in pulses) / 1000, 3),
                         round(max(p["lowMax"] for p in pulses) / 1000, 3)],
        "pulses": sum(p["count"] for p in pulses),
        "values_streamed": len(streamed),
        "values_matched": sum(matched for _, _, matched in streamed),
        "samples_at_80": len(times),
        "longest_gap_ms": round(max(b - a for a, b in zip(times, times[1:])) * 1000, 2),
        "emulated_s_per_wall_s": round(speed, 3),
        "emulated_s_per_cpu_s": round(speed_cpu, 3),
        "seconds_at_80": seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seconds", type=float, default=3.0, help="emulated seconds streamed at 80/s")
    args = parser.parse_args()
    result = measure(args.seconds)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    if result["values_matched"] != result["values_streamed"]:
        raise SystemExit("some streamed values were never shifted out by the chips")


if __name__ == "__main__":
    main()
