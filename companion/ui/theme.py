"""Colours and sizes shared by every screen.  Touch targets are never under 48 px."""

BACKGROUND = (0.09, 0.11, 0.15, 1)
PANEL = (0.15, 0.18, 0.24, 1)
TEXT = (0.95, 0.95, 0.95, 1)
MUTED = (0.65, 0.68, 0.74, 1)
ACCENT = (0.20, 0.55, 0.95, 1)
RED = (0.88, 0.26, 0.26, 1)
BLUE = (0.22, 0.48, 0.92, 1)
HOME = (0.27, 0.32, 0.42, 1)  # the Home button, on every screen
GOLD = (0.98, 0.78, 0.20, 1)
GOOD = (0.30, 0.75, 0.40, 1)
WARN = (0.95, 0.65, 0.15, 1)

TOUCH_MIN = 48  # px: the smallest thing a finger is asked to hit
AIM_MIN = 44  # px: a board cell whose tap only aims, confirmed by a second tap or a button
BAR_HEIGHT = 56  # px: the top bar of every screen
# Text sizes (px), checked on every GUI test's screens (docs/developing.md says why):
TEXT_MIN = 18  # any text: read at arm's length by the player whose turn it is
TABLE_TEXT_MIN = 28  # verdicts, results, prompts, coordinates: read from across the table (~1 m)
