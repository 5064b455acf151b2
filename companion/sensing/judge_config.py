"""The judge's settings (companion/sensing/judge.py): all in seconds and grams, so that they
hold at 10 and 80 samples/s.  docs/judge.md tells what each rule they tune was measured against."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class JudgeConfig:
    """Statistical settings, all in seconds and grams, so they hold at 10 and 80 samples/s."""

    # trailing windows, each spanning at least this, tried shortest first: the shortest is half a period
    # of the slowest ringing a pan shows (5 Hz), since a shorter one can lie on a crest and look level...
    windows_s: tuple[float, ...] = (0.1, 0.16, 0.3, 0.5)
    min_samples: int = 5  # ...and never fewer readings in a window
    noise_prior_g: float = 0.1  # noise per reading assumed until idle pans have been seen
    noise_floor_g: float = 0.03  # never assume a quieter signal than this per reading
    idle_band_g: float = 1.0  # a pan reading within this of zero is idle (for the noise estimate)...
    idle_block_s: float = 0.1  # ...and each block this long (at least min_samples + 3) gives one estimate
    outlier_sigmas: float = 6.0  # residuals beyond this are spikes, left out
    noise_margin_g: float = 0.05  # added around the window's extremes
    fit_z: float = 3.3  # residuals this far above the noise (chi-square, z-score): not a line
    slope_max_g_s: float = 1.5  # a steady drift faster than this is still moving...
    slope_z: float = 0.5  # ...judged this many standard errors on the safe side
    oscillation_sigmas: float = 3.0  # a swing back by more than this is ringing, not drift
    quiet_sigmas: float = 3.0  # the other pan lies still when no reading strays this far from its line...
    quiet_z: float = 1.0  # ...and its residuals are no larger than this (chi-square z-score)...
    quiet_margin_s: float = 0.1  # ...over the ringing window and this long before it
    horizon_s: float = 0.1  # a steady trend must stay inside the band this long
    confidence_z: float = 3.0  # standard errors around the trend's level
    history_s: float = 0.6  # look-back for the press that put the load down...
    press_drop_g: float = 0.3  # ...the signal must have come down this far from its peak...
    press_guard_s: float = 0.3  # ...or the press be this long ago
    touch_rise_g: float = 0.5  # a later rise by this much within press_guard_s, from a load at rest...
    touch_rest_s: float = 0.2  # ...this long (not still rising), is a finger pushing: the same rule
    release_max_s: float = 0.5  # the slowest press, landing to let-go (a rising, cautious one is "pressed")
    blind_interval_s: float = 0.03  # readings further apart than this cannot see a knock's 8-20 Hz ringing...
    blind_settle_s: float = 0.5  # ...so a window must start this long after a load landed on either pan
    confirm_s: float = 0.5  # a pan that changes class without being emptied must keep the new one this long
    sparse_confirm_s: float = 1.6  # readings blind to ringing (and to a hand's tremor) must show a pan's first
    # class this long, unbroken: longer than a finger resting on the piece (simulator's finger_rest: 1.5 s + lift)
    accept_fraction: float = 0.4  # of the free gap to a neighbour, added to a class's spread
    empty_fraction: float = 0.5  # under this share of the lightest class: an empty pan
    reweigh_after_s: float = 0.5  # a still weight fitting no class this long: reweigh
    misfit_after_s: float = 0.25  # ...and after this long a class fitted later is a change (confirm_s)
    rising_window_s: float = 0.5  # over this long after the press's peak (at least half of it)...
    rising_max_g_s: float = 0.4  # ...a rise faster than this, two standard errors sure, is a hand letting go
    tremor_window_s: float = 0.3  # a hand on the piece: its 8-12 Hz tremor, looked for over this long...
    tremor_min_s: float = 0.3  # ...and never over less than this...
    tremor_settled_g: float = 1.0  # ...of readings this close to the level now (after a press's curve)...
    tremor_hz: tuple[float, ...] = (7.5, 10.0, 12.5)  # ...at these frequencies (a 0.3 s window resolves ~3 Hz)...
    tremor_z: float = 7.0  # ...its power this far above the noise's (A^2 n / 4 sigma^2, exponential under noise)...
    tremor_clear_z: float = 4.5  # ...under this power no hand shows; between the two it may (a first class waits)...
    tremor_min_g: float = 0.08  # ...and its amplitude no less than this (the faintest hand's: 0.14 g)...
    tremor_sustain: float = 0.5  # ...and not dying away: the later half's amplitude at least this share of the earlier's
    tremor_ring_z: float = 14.0  # ...a power dying away under this may be a faint hand's, its halves noisy: faint
    tremor_steady_s: float = 0.15  # a hand seen this long without a break: a faint tremor soon after may be it
    tremor_hold_s: float = 0.25  # a hand seen is taken to be there this long after (a faint tremor shows on and off)
    tremor_sure_s: float = 0.5  # a hand seen this long without a break (no ringing lasts so) is taken to stay...
    tremor_stay_s: float = 1.0  # ...while the load stays where it was seen, up to this long after...
    tremor_lift_share: float = 0.02  # ...within this share of it (a resting finger adds 3-15 %: hands.py)
    tremor_clear_s: float = 0.1  # a pan's first class only once no tremor has shown this long (nor a ring
    # hiding a hand's, soon after one: hand_watch.py)
