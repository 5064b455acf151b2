"""Live per-channel readings for `companion monitor`: raw counts, grams, stable flag,
rate and the source's error counters (on the GPIO path also its clock-high times),
refreshed in place; a warning when the board does not run at the configured rate."""

from __future__ import annotations

import time
from typing import Callable, TextIO

from companion.i18n import said, translate
from companion.sensing.pipeline import Pipeline, rate_differs
from companion.sensing.source import Clock, WeightSource, monotonic


def format_status(source: WeightSource, pipeline: Pipeline, wanted_rate: float | None = None,
                  lang: str = "en") -> list[str]:
    """The monitor's lines: one per channel, then the source's counters (and a warning
    when `wanted_rate`, the configured samples/s, is not the measured one), its words in `lang`."""
    lines = []
    for ch in pipeline.channels:
        r = ch.latest
        if r is None:
            lines.append(f"ch{ch.channel}  ({translate('sensing.no_samples', lang)})")
            continue
        flags = ",".join(sorted(r.flags)) or "-"
        lines.append(f"ch{ch.channel}  raw {r.raw:>9d}  {r.grams:>9.2f} g  "
                     f"{'STABLE' if r.stable else 'moving'}  {ch.rate_hz:5.1f} Hz  flags {flags}")
    st = source.status()
    state = "connected" if st.connected else "DISCONNECTED"
    lines.append(f"{st.source}: {state}  bad {st.bad}  dropped {st.dropped}  {said(st.detail, lang)}")
    for high in st.extra.get("clock_high_us", []):  # the GPIO path: how long its clock pulses stay high
        if high["transfers"]:
            lines.append(f"clock high ({high['path']}): median {high['median']:.1f} µs, max {high['max']:.1f} µs, "
                         f"{high['over_50']} of {high['transfers']} transfers over 50 µs")
    measured = pipeline.measured_rate_hz
    if rate_differs(wanted_rate, measured):
        lines.append("WARNING: " + translate("sensing.rate_mismatch", lang, wanted=wanted_rate, measured=measured,
                                             rounded=round(measured)))
    return lines


def run_monitor(source: WeightSource, pipeline: Pipeline, out: TextIO, duration_s: float | None = None,
                interval_s: float = 0.2, clock: Clock = monotonic,
                sleep: Callable[[float], None] = time.sleep, wanted_rate: float | None = None,
                lang: str = "en") -> None:
    """Poll `source` through `pipeline` and print its readings every `interval_s`,
    overwriting the previous block, until `duration_s` has passed (forever if None;
    Ctrl-C stops it)."""
    start = clock()
    shown = 0
    try:
        while True:
            pipeline.feed(source.poll())
            lines = format_status(source, pipeline, wanted_rate, lang)
            if shown:
                out.write(f"\x1b[{shown}F")  # back to the first line of the previous block
            out.write("".join(f"\x1b[2K{line}\n" for line in lines))
            out.flush()
            shown = len(lines)
            if duration_s is not None and clock() - start >= duration_s:
                return
            sleep(interval_s)
    except KeyboardInterrupt:
        return
