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
DEAL = [{"ship": ship} for fleet in FLEETS for ship in fleet]
FIRST_TURN = [
    {"play": "submarine", "ship": "ship-lutzow"}, {"die": 5},  # sunk
    "no_red", {"drew": "hidden"},
    "no_red", "no_red", "no_red",
]
TURNS = [
    {"drew": "hidden"}, {"play": "salvo-16-3", "ship": "ship-rodney"},  # seat 1
    {"drew": "torpedo_boat"}, {"play": "torpedo_boat", "ship": "ship-iowa"}, {"die": 2},  # seat 2: survives
    {"drew": "hidden"}, {"discard": "smoke"},  # seat 3
    "air_strike", {"strike": "ship-roma"}, {"die": 1},  # seat 0: sunk
]
SCRIPT = [{"first": FIRST}, *DEAL, *FIRST_TURN, *TURNS]
