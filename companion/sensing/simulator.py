"""A simulated two-pan seesaw: the weight source for laptops, the UI's virtual pieces and tests.

Each pan sits on a load cell behind an HX711.  The model, in grams before the
ADC, is the sum of the loads on the pan, each with the force of the hand that
put it down or took it off (companion/sensing/hands.py: press, release, ringing,
touch) and the cell's creep (`creep` x mass with time constant `creep_tau_s`),
plus a fraction (`crosstalk`) of every transient of the other pan.  Each pan rings at
its own frequency, from its cell's stiffness and what it carries
(companion/sensing/mechanics.py, `Realism.pan_ringing`; the `PESSIMISTIC` preset keeps
the hand families' 5-12 Hz instead).  The HX711 turns that force into readings as its
digital filter does, each a sinc⁴ average over the four conversion periods before it
(companion/sensing/conversion.py, `Realism.conversion`); a slow bounded zero drift,
white noise and occasional spikes (corrupt reads) come on top.  Grams
become counts through a per-channel offset and counts/gram, so tare and
calibration matter.  Everything random comes from the seed: the same seed and
the same calls give the same samples, however often `poll()` is called.
Time comes from an injected clock; `poll()` computes samples up to `clock()`.

Hands come in families (`hands.FAMILIES`, and `hands.LINGERING` outside the default
mix); `Realism.families` says which are drawn and `Realism.hard` draws the hard end of
every range (the benchmarks' stress set).  A table bump or sway (`bump()`) shakes both
pans at once; `move_zero` moves a pan's zero for good.  Just over 400 lines: one seesaw's
signal, load by load through the chip to the counts, behind one WeightSource (the hands,
the filter, the pans' mechanics and the ranges drawn are in their own modules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import numpy as np

from companion.sensing import mechanics
from companion.sensing.classes import PieceClass, resolve
from companion.sensing.conversion import ORDER, Conversion
from companion.sensing.hands import EVERY_FAMILY, Bump, Sway, Transient, lift, press
from companion.sensing.realism import PARTS, PESSIMISTIC, PRESETS, QUIET, Realism  # noqa: F401 (the presets, here too)
from companion.sensing.source import Clock, Sample, SourceStatus, WeightSource, monotonic

ADC_MAX = (1 << 23) - 1
ADC_MIN = -(1 << 23)
_BLOCK = 4096  # samples per seeded noise block (so poll timing never changes the noise)
_MAX_BACKLOG_S = 10.0  # a clock jump longer than this skips samples (counted as dropped)


class ManualClock:
    """A clock that moves only when told to: for tests and benchmarks."""

    def __init__(self, t: float = 0.0):
        self.t = float(t)

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t


@dataclass
class _Load:
    id: int
    channel: int
    label: str
    mass_g: float
    placed_at: float
    put: Transient
    creep: float
    creep_tau_s: float
    crosstalk: float
    removed_at: float | None = None
    take: Transient | None = None

    def end(self) -> float:
        """When this load no longer affects any sample."""
        if self.removed_at is None:
            return math.inf
        return self.removed_at + max(self.taken.duration_s, 3.0 * self.creep_tau_s)

    @property
    def taken(self) -> Transient:
        """How it was taken off (asked only once it was: `removed_at`)."""
        assert self.take is not None, "`remove` gives a removed load its take"
        return self.take


def _uniform(rng: np.random.Generator, span: tuple[float, float]) -> float:
    return float(rng.uniform(span[0], span[1]))


@dataclass
class _Channel:
    offset: int
    counts_per_gram: float
    period_s: float
    t0: float
    drift_period_s: float
    drift_phase: float
    deflection_mm: float  # the cell's at capacity (mechanics.py): its stiffness
    conversion: Conversion
    # (start, seconds, grams): `SimulatedSeesaw.move_zero`
    zero_moves: list[tuple[float, float, float]] = field(default_factory=list)
    next_index: int = 0
    block_index: int = -1
    block: dict[str, np.ndarray] = field(default_factory=dict)


class SimulatedSeesaw(WeightSource):
    """A deterministic, physically modelled two-pan seesaw (channel 0 = left, 1 = right).

    `place(pan, piece)` or `place(pan, grams=...)` puts a load down at the
    clock's current time (or `at`), `remove(pan)` takes the last one off.
    `realism` may be replaced between placements; noise and spikes follow it
    for samples computed afterwards.
    """

    name = "simulator"
    virtual = True
    channels = 2

    def __init__(
        self,
        seed: int = 1,
        rate_hz: float = 80.0,
        clock: Clock = monotonic,
        realism: Realism = Realism(),
        table: Mapping[str, PieceClass] | None = None,
        offsets: tuple[int, int] | None = None,
        counts_per_gram: tuple[float, float] | None = None,
    ):
        self.seed = int(seed)
        self.rate_hz = float(rate_hz)
        self.clock = clock
        self.realism = realism
        self.table = dict(table or {})
        self._loads: list[_Load] = []
        self._bumps: list[Bump | Sway] = []
        self._placements = 0
        self._spikes = 0
        self._dropped = 0
        self._closed = False
        rng = np.random.default_rng([self.seed, 0xC0FFEE])
        start = clock()
        self._chan: list[_Channel] = []
        for c in range(self.channels):
            rate = self.rate_hz * (1.0 + rng.uniform(-1, 1) * realism.rate_error)
            offset = int(rng.integers(-300_000, 300_000)) if offsets is None else int(offsets[c])
            scale = float(rng.uniform(380.0, 900.0)) if counts_per_gram is None else float(counts_per_gram[c])
            t0 = start + rng.uniform(0.0, 1.0 / rate)
            self._chan.append(_Channel(
                offset=offset, counts_per_gram=scale, period_s=1.0 / rate, t0=t0,
                drift_period_s=_uniform(rng, realism.drift_period_s),
                drift_phase=float(rng.uniform(0.0, 2 * np.pi)), deflection_mm=0.0,
                conversion=Conversion(t0, 1.0 / rate)))
        for ch in self._chan:  # drawn after the rest, so a seed keeps its offsets, scales and clocks
            ch.deflection_mm = _uniform(rng, mechanics.DEFLECTION_MM)

    # -- loads -----------------------------------------------------------------

    @staticmethod
    def _pan(pan: int | str) -> int:
        key = str(pan).lower()
        if key in ("0", "l", "left"):
            return 0
        if key in ("1", "r", "right"):
            return 1
        raise ValueError(f"unknown pan {pan!r}: use 0/'L'/'left' or 1/'R'/'right'")

    def _rng(self) -> np.random.Generator:
        self._placements += 1
        return np.random.default_rng([self.seed, 0xBEEF, self._placements])

    def draw_transient(self, rng: np.random.Generator, lifting: bool = False) -> Transient:
        """A random hand transient within `realism` (a lift is always a plain one)."""
        r = self.realism
        if not lifting and (r.families != ("press",) or r.hard):
            name = r.families[int(rng.integers(len(r.families)))]
            return EVERY_FAMILY[name].draw(rng, name, r.hard, *(() if r.tremor_g is None else (r.tremor_g,)))
        return Transient(
            overshoot=0.0 if lifting else float(rng.uniform(0.0, r.overshoot_max)),
            rise_s=_uniform(rng, r.lift_s if lifting else r.rise_s),
            release_s=_uniform(rng, r.release_s),
            ring=float(rng.uniform(0.0, r.ring_max)),
            ring_hz=_uniform(rng, r.ring_hz),
            ring_decay_s=_uniform(rng, r.ring_decay_s))

    def place(self, pan: int | str, piece: str | None = None, *, grams: float | None = None,
              at: float | None = None, transient: Transient | None = None) -> int:
        """Put a piece (a table name or a stack like "submarine+counterweight") or a
        mass on a pan; returns the load's id.  A named piece weighs a seeded
        random amount within its class's spread."""
        channel = self._pan(pan)
        rng = self._rng()
        if (piece is None) == (grams is None):
            raise ValueError("place() needs either a piece name or grams, not both")
        if piece is not None:
            cls = resolve(piece, self.table)
            grams = cls.mass_g + float(rng.uniform(-1.0, 1.0)) * cls.spread_g
        assert grams is not None, "given, or the piece's (checked above)"
        r = self.realism
        put = transient if transient is not None else self.draw_transient(rng)
        hz = self.pan_hz(channel, float(grams))
        load = _Load(
            id=self._placements, channel=channel, label=piece or f"{grams:g} g", mass_g=float(grams),
            placed_at=self.clock() if at is None else float(at),
            put=replace(put, ring_hz=hz) if r.pan_ringing else put,
            creep=float(rng.uniform(0.0, r.creep_max)), creep_tau_s=_uniform(rng, r.creep_tau_s),
            crosstalk=float(rng.uniform(0.0, r.crosstalk_max)))
        self._loads.append(load)
        self._changed()
        family = EVERY_FAMILY.get(load.put.family)
        knock = family.draw_bump(rng, r.hard, load.put) if family is not None else None
        sway = family.draw_sway(rng, r.hard, load.put) if family is not None else None
        if sway is not None:
            self.bump(replace(sway, at=load.placed_at + sway.at))
        if knock is not None:
            share = (1.0, 0.0) if channel == 0 else (0.0, 1.0)
            self.bump(replace(knock, at=load.placed_at + load.put.first_release_s + knock.at, share=share,
                              hz=hz if r.pan_ringing else knock.hz)  # a knocked pan rings at its own frequency
                      if knock.own else replace(knock, at=load.placed_at + load.put.letgo_s + knock.at))
        return load.id

    def bump(self, knock: Bump | Sway) -> None:
        """Knock the table, or sway it (both pans feel it)."""
        self._bumps.append(knock)
        self._changed()

    def _changed(self) -> None:
        """A load or knock came or went: the chips' kept past of the signal may be out of date."""
        for ch in self._chan:
            ch.conversion.forget()

    def remove(self, pan: int | str, load_id: int | None = None, *, at: float | None = None,
               transient: Transient | None = None) -> None:
        """Take a load (the last one put down, unless `load_id`) off a pan."""
        channel = self._pan(pan)
        present = [ld for ld in self._loads if ld.channel == channel and ld.removed_at is None
                   and (load_id is None or ld.id == load_id)]
        if not present:
            raise ValueError(f"nothing to remove from pan {channel}")
        load = present[-1]
        rng = self._rng()
        load.removed_at = self.clock() if at is None else float(at)
        take = transient if transient is not None else self.draw_transient(rng, lifting=True)
        if self.realism.pan_ringing:  # the pan rings with what stays on it
            take = replace(take, ring_hz=self.pan_hz(channel))
        load.take = take
        self._changed()

    def pan_hz(self, pan: int | str, adding_g: float = 0.0) -> float:
        """The frequency a pan rings at with what lies on it now, plus `adding_g` (mechanics.py)."""
        channel = self._pan(pan)
        on = sum(ld.mass_g for ld in self._loads if ld.channel == channel and ld.removed_at is None)
        return mechanics.ring_hz(max(0.0, on + adding_g), self._chan[channel].deflection_mm)

    def clear(self, at: float | None = None) -> None:
        """Take everything off both pans."""
        for load in [ld for ld in self._loads if ld.removed_at is None]:
            self.remove(load.channel, load.id, at=at)

    def hand(self, load_id: int) -> tuple[float, Transient]:
        """(time the hand last let go, its transient) of a load: the truth, for benchmarks."""
        load = next(ld for ld in self._loads if ld.id == load_id)
        return load.placed_at + load.put.letgo_s, load.put

    def loads(self, pan: int | str) -> list[tuple[int, str, float]]:
        """(id, label, grams) of what lies on a pan now: the truth, for tests and oracles."""
        channel = self._pan(pan)
        return [(ld.id, ld.label, ld.mass_g) for ld in self._loads
                if ld.channel == channel and ld.removed_at is None]

    # -- signal ----------------------------------------------------------------

    def ideal_grams(self, channel: int, t: np.ndarray) -> np.ndarray:
        """The noiseless force on a pan at times `t` (grams), crosstalk included."""
        t = np.asarray(t, dtype=float)
        total = np.zeros_like(t)
        if not len(t):
            return total
        first, last = float(t[0]), float(t[-1])
        for knock in self._bumps:
            if last >= knock.at and first <= knock.end():
                total += knock.grams_at(channel, t)
        for ld in self._loads:
            if last < ld.placed_at:
                continue
            own = ld.channel == channel
            if own:
                total += self._creep(ld, t)
            if ld.removed_at is not None and first >= ld.removed_at + ld.taken.duration_s:
                continue  # gone, but for its creep
            settled = first >= ld.placed_at + ld.put.duration_s
            if settled and (ld.removed_at is None or last < ld.removed_at):
                if own:
                    total += ld.mass_g  # resting, transient over
                continue
            if not own and not ld.crosstalk:
                continue
            force = press(t - ld.placed_at, ld.mass_g, ld.put)
            static = np.where(t >= ld.placed_at, ld.mass_g, 0.0)
            if ld.removed_at is not None:
                on = t < ld.removed_at
                force = np.where(on, force, lift(t - ld.removed_at, ld.mass_g, ld.taken))
                static = np.where(on, static, 0.0)
            total += force if own else ld.crosstalk * (force - static)
        return total

    def read_grams(self, channel: int, t: np.ndarray) -> np.ndarray:
        """The noiseless readings a pan's chip would give at times `t`: `ideal_grams` through its
        conversion (the same, with `Realism.conversion` off), drift aside.  For oracles: what a
        judge could at best see."""
        if not self.realism.conversion:
            return self.ideal_grams(channel, t)
        return self._chan[channel].conversion.at(lambda fine: self.ideal_grams(channel, fine), t)

    @staticmethod
    def _creep(ld: _Load, t: np.ndarray) -> np.ndarray | float:
        """The cell's slow creep under a load, and its recovery once the load is gone."""
        if not ld.creep:
            return 0.0
        full = ld.creep * ld.mass_g
        on_for = np.maximum(t - ld.placed_at, 0.0)
        if ld.removed_at is not None:
            held = full * (1.0 - math.exp(-(ld.removed_at - ld.placed_at) / ld.creep_tau_s))
            after = np.maximum(t - ld.removed_at, 0.0)
            return np.where(t < ld.removed_at, full * (1.0 - np.exp(-on_for / ld.creep_tau_s)),
                            held * np.exp(-after / ld.creep_tau_s))
        return full * (1.0 - np.exp(-on_for / ld.creep_tau_s))

    def move_zero(self, pan: int | str, grams: float, start: float, over_s: float) -> None:
        """A pan's zero moves by `grams`, evenly over `over_s` from `start`, and stays there (a cell
        warming up, its mount settling): the bench's drift under a parked piece (issue 44)."""
        self._chan[self._pan(pan)].zero_moves.append((float(start), max(float(over_s), 1e-9), float(grams)))

    def _drift_g(self, ch: _Channel, t: np.ndarray) -> np.ndarray:
        drift = self.realism.drift_g * np.sin(2 * np.pi * t / ch.drift_period_s + ch.drift_phase)
        for start, over_s, grams in ch.zero_moves:
            drift = drift + grams * np.clip((t - start) / over_s, 0.0, 1.0)
        return drift

    def _noise_block(self, channel: int, block: int) -> dict[str, np.ndarray]:
        ch = self._chan[channel]
        if ch.block_index != block:
            rng = np.random.default_rng([self.seed, channel, block])
            ch.block = {"z": rng.standard_normal(_BLOCK), "spike": rng.random(_BLOCK),
                        "size": rng.random(_BLOCK), "sign": rng.random(_BLOCK)}
            ch.block_index = block
        return ch.block

    def _noise(self, channel: int, k0: int, k1: int) -> dict[str, np.ndarray]:
        parts: dict[str, list[np.ndarray]] = {"z": [], "spike": [], "size": [], "sign": []}
        k = k0
        while k < k1:
            block, start = divmod(k, _BLOCK)
            stop = min(_BLOCK, start + (k1 - k))
            data = self._noise_block(channel, block)
            for key in parts:
                parts[key].append(data[key][start:stop])
            k += stop - start
        return {key: np.concatenate(val) if val else np.zeros(0) for key, val in parts.items()}

    def _samples(self, channel: int, now: float) -> list[Sample]:
        ch = self._chan[channel]
        k_end = math.floor((now - ch.t0) / ch.period_s) + 1
        backlog = int(_MAX_BACKLOG_S / ch.period_s)
        if k_end - ch.next_index > backlog:
            self._dropped += k_end - backlog - ch.next_index
            ch.next_index = k_end - backlog
        k0, k1 = ch.next_index, k_end
        if k1 <= k0:
            return []
        ch.next_index = k1
        t = ch.t0 + np.arange(k0, k1) * ch.period_s
        noise = self._noise(channel, k0, k1)
        if self.realism.conversion:
            force = ch.conversion.readings(lambda fine: self.ideal_grams(channel, fine), k0, k1)
        else:
            force = self.ideal_grams(channel, t)
        grams = force + self._drift_g(ch, t) + self.realism.noise_g * noise["z"]
        counts = ch.offset + ch.counts_per_gram * grams
        spikes = noise["spike"] < self.realism.spike_rate
        if spikes.any():
            # corrupt reads: a shifted or garbled word, from a gram to the whole range
            size = 10.0 ** (noise["size"] * 4.0) * np.where(noise["sign"] < 0.5, -1.0, 1.0)
            counts = np.where(spikes, counts + size * abs(ch.counts_per_gram), counts)
            self._spikes += int(spikes.sum())
        raw = np.rint(counts)
        saturated = (raw > ADC_MAX) | (raw < ADC_MIN)
        raw = np.clip(raw, ADC_MIN, ADC_MAX).astype(np.int64)
        return [Sample(float(ti), channel, int(ri), bool(si)) for ti, ri, si in zip(t, raw, saturated)]

    # -- WeightSource ----------------------------------------------------------

    def poll(self) -> list[Sample]:
        if self._closed:
            return []
        now = self.clock()
        samples = [s for c in range(self.channels) for s in self._samples(c, now)]
        samples.sort(key=lambda s: (s.t, s.channel))
        # the oldest moment a coming reading still averages (the filter looks back ORDER periods)
        horizon = min(ch.t0 + (ch.next_index - ORDER) * ch.period_s for ch in self._chan)
        self._loads = [ld for ld in self._loads if ld.end() >= horizon]
        self._bumps = [b for b in self._bumps if b.end() >= horizon]
        return samples

    def status(self) -> SourceStatus:
        return SourceStatus(
            source="simulator", connected=not self._closed, rate_hz=self.rate_hz,
            dropped=self._dropped, detail=f"simulated seesaw, seed {self.seed}",
            extra={"spikes": self._spikes,
                   "pans": [[label for _, label, _ in self.loads(c)] for c in range(self.channels)]})

    def close(self) -> None:
        self._closed = True

    def with_realism(self, **changes: Any) -> Realism:
        """Set and return a changed copy of `realism` (e.g. `noise_g=0.08`)."""
        self.realism = replace(self.realism, **changes)
        return self.realism
