"""Naval War's evening checks (musts.py) on frames made by hand: with the cards, every fleet's
card must be drawn and every ship of the fleet shown under them; the player to move named."""

from types import SimpleNamespace

import musts
from drawn import Drawn, Frame

NAMES = ["Aki", "Ben", "Chie", "Dai"]
SHIPS = {0: ["Kongo", "Roma"], 1: ["Iowa"], 2: ["Fuso"], 3: ["Texas", "Mutsu"]}


def screen(seat: int = 1):
    fleets = [{"ships": [{"name": n} for n in SHIPS[s]]} for s in range(4)]
    state = SimpleNamespace(view=lambda _who: {"waiting": None, "seat": seat, "fleets": fleets})
    session = SimpleNamespace(id="g", revision=0, actions=[], players=NAMES, state=state)
    return SimpleNamespace(session=session, setting_up=False)


def card(i: int) -> Drawn:  # a card's name line: pressable, no face of its own
    return Drawn(NAMES[i], (10 + 150 * (i % 3), 400 - 60 * (i // 3), 130 + 150 * (i % 3), 420 - 60 * (i // 3)),
                 pressable=True, button=100 + i)


def below(seat: int, ships) -> list[Drawn]:  # the fleet shown whole: header "name points", its chips
    return [Drawn(f"{NAMES[seat]} 0", (10, 240, 60, 262), pressable=True, button=200)] + [
        Drawn(name, (10 + 150 * i, 200, 150 + 150 * i, 230), pressable=True, button=300 + i)
        for i, name in enumerate(ships)]


def check(items) -> dict:
    return musts.navalwar(screen())(Frame(items, [], False))


def test_every_card_and_every_ship_below_drawn_is_no_fault():
    assert check([card(i) for i in range(4)] + below(3, SHIPS[3])) == {"to_move": [], "items": []}


def test_a_fleet_whose_card_is_not_drawn_is_a_fault():
    faults = check([card(i) for i in range(3)] + below(0, SHIPS[0]))
    assert faults["items"] and "Dai" in faults["items"][0]
    assert not faults["to_move"]  # Ben, to move, is named on his card


def test_a_ship_of_the_fleet_shown_not_drawn_is_a_fault():
    faults = check([card(i) for i in range(4)] + below(3, ["Texas"]))
    assert faults["items"] == [f"Dai's fleet holds ['Mutsu'], not drawn (header {below(3, [])[0]})"]


def test_the_player_to_move_named_nowhere_is_a_fault():
    faults = check([card(i) for i in (0, 2, 3)] + below(0, SHIPS[0]))
    assert faults["to_move"] == ["Ben is to move but that name is drawn nowhere"]
