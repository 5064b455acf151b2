"""The scripted first go-round of a 4-player Naval War game (bench/navalwar_taps.py).

Seat 1 plays first.  The deal (20 ships), the first turn (seat 1 plays a submarine from
the hand and refills; the others have no red card), then one normal turn each: a salvo
after a black card, a red torpedo boat drawn and played, a discard, an air strike.
"""

FIRST = 1
FLEETS = [
    ["ship-akagi", "ship-yamato", "ship-nagato", "ship-hood", "ship-ise"],
    ["ship-bismarck", "ship-iowa", "ship-fuso", "ship-roma", "ship-kongo"],
    ["ship-hiei", "ship-texas", "ship-lutzow", "ship-scheer", "ship-repulse"],
    ["ship-rodney", "ship-warspite", "ship-haruna", "ship-missouri", "ship-nelson"],
]
NO_RED = {"type": "no_red"}
DEAL = [{"type": "deal", "ship": ship} for fleet in FLEETS for ship in fleet]
FIRST_TURN = [
    {"type": "play", "card": "submarine", "ship": "ship-lutzow"}, {"type": "die", "value": 5},  # sunk
    NO_RED, {"type": "draw", "card": "hidden"},
    NO_RED, NO_RED, NO_RED,
]
TURNS = [
    {"type": "draw", "card": "hidden"},
    {"type": "play", "card": "salvo-16-3", "ship": "ship-rodney"},  # seat 1
    {"type": "draw", "card": "torpedo_boat"},
    {"type": "play", "card": "torpedo_boat", "ship": "ship-iowa"}, {"type": "die", "value": 2},  # seat 2: survives
    {"type": "draw", "card": "hidden"}, {"type": "discard", "card": "smoke"},  # seat 3
    {"type": "choose", "turn": "air_strike"},
    {"type": "strike", "ship": "ship-roma"}, {"type": "die", "value": 1},  # seat 0: sunk
]
SCRIPT = [{"type": "first", "seat": FIRST}, *DEAL, *FIRST_TURN, *TURNS]
