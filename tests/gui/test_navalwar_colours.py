"""Naval War's seat colours against the targets' gold (an evening finding: P4's colour was
theme.GOLD, so on P4's turn their fleet was outlined like a target).  Colours are compared
in CIELAB (ΔE76), as seen and as red-green colour-blind eyes see them (Machado et al. 2009,
full deuteranopia and protanopia), and against the dark background for legibility."""

from __future__ import annotations

import itertools

import pytest

from companion.games.navalwar.screen.chart import SEAT_COLOURS
from companion.ui import theme

DEUTAN = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
PROTAN = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))


def linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def encoded(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def seen(rgba, eyes=None) -> tuple:
    """The colour as `eyes` (a simulation matrix, None: typical) see it."""
    if eyes is None:
        return tuple(rgba[:3])
    rgb = [linear(c) for c in rgba[:3]]
    return tuple(encoded(sum(m * v for m, v in zip(row, rgb))) for row in eyes)


def lab(rgb) -> tuple:
    r, g, b = map(linear, rgb)
    x, y, z = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    f = lambda t: t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116  # noqa: E731
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def apart(a, b, eyes=None) -> float:
    return sum((p - q) ** 2 for p, q in zip(lab(seen(a, eyes)), lab(seen(b, eyes)))) ** 0.5


def contrast(a, b) -> float:
    lum = lambda c: sum(k * linear(v) for k, v in zip((0.2126, 0.7152, 0.0722), c[:3]))  # noqa: E731
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("eyes", [None, DEUTAN, PROTAN], ids=["typical", "deuteranopia", "protanopia"])
def test_no_seat_colour_looks_like_the_targets_gold(eyes):
    near = min((apart(colour, theme.GOLD, eyes), seat + 1) for seat, colour in enumerate(SEAT_COLOURS))
    assert near[0] >= 15, f"P{near[1]}'s colour is ΔE {near[0]:.1f} from the targets' gold"


def test_the_nine_seat_colours_are_told_apart_and_legible():
    assert len(set(SEAT_COLOURS)) == 9
    for (i, a), (j, b) in itertools.combinations(enumerate(SEAT_COLOURS), 2):
        assert apart(a, b) >= 20, f"P{i + 1} and P{j + 1}: ΔE {apart(a, b):.1f}"
    for seat, colour in enumerate(SEAT_COLOURS):  # names in their colour on the panel
        assert contrast(colour, theme.PANEL) >= 3.5, f"P{seat + 1}: contrast {contrast(colour, theme.PANEL):.1f}"
        assert apart(colour, theme.TEXT) >= 15, f"P{seat + 1} looks like the white of a fleet shown below"


@pytest.mark.parametrize("count, lang", [(4, "ja"), (4, "en"), (9, "ja"), (9, "en")])
def test_p4_s_turn_is_not_outlined_like_a_target(gui, count, lang):
    import random

    from companion.games.navalwar.screen.still import STILL_S
    from test_navalwar_screen import play_randomly
    from test_navalwar_screen_follow import start

    gui.app.lang = lang
    nw = start(gui, count)
    play_randomly(nw.session, random.Random(count), lambda view: view["phase"] == "turn" and view["seat"] == 3)
    nw.refresh()
    gui.pump(STILL_S + 0.2)
    gui.screenshot(f"navalwar-{count}-{lang}-p4-turn")
    strip = nw.ids.many.ids.focus
    assert strip.below and strip.is_turn and not strip.step
    assert tuple(strip.colour) != tuple(theme.GOLD), "P4's fleet is outlined in the targets' gold"
