"""Naval War: every kind of action card entered by touch, as the table enters it (issue 29:
every README claim exercised as the user gets it; the README says "every card, carriers,
smoke, minefields, squadrons, air strikes"; air strikes by touch: test_navalwar_screen.py).  The game is played at random between the
touches (the session, as earlier entries would have), then each card's entry is tapped on
the choice panel and the fleets."""

from __future__ import annotations

import random

from companion.games.navalwar.screen.still import STILL_S
from test_navalwar_screen import deck_for, enter, nw, set_up  # noqa: F401  (nw: the fixture)

KINDS = ("salvo", "additional_ship", "additional_damage", "torpedo_boat", "submarine", "minefield",
         "minesweeper", "repair", "smoke", "destroyer_squadron")
ROUNDS_LIMIT = 3000


def kind_of(action: dict) -> str | None:
    card = action.get("card") if action.get("type") == "play" else None
    return card and card.split("-")[0]


def test_every_card_kind_is_entered_by_touch(gui, nw):
    deck = deck_for(4, draws=40)
    deck["counts"].update({"additional_damage-1": 4, "additional_damage-2": 2, "repair": 3, "minesweeper": 3})
    set_up(gui, nw, 4, ["Aki", "Ben", "Chie", "Dai"])
    nw.deck = deck
    gui.tap(nw.ids.start)
    session, rng = nw.session, random.Random(29)
    if session.state.view(None)["phase"] == "setup":
        session.play({"type": "first", "seat": 0})
    left = set(KINDS)
    for _ in range(ROUNDS_LIMIT):
        if not left:
            break
        acts = session.state.legal_actions()
        wanted = [a for a in acts if kind_of(a) in left]
        if wanted:
            nw.refresh()
            gui.pump(0.05)
            if nw.model["stage"] == "summary":  # a round ended between the touches: its scores seen
                nw.act("continue")
                gui.pump(0.05)
        if wanted and nw.model["stage"] == "play":
            action = rng.choice(wanted)
            gui.pump(STILL_S + 0.1)  # a ship that joined between the touches is drawn once the table is still
            enter(gui, nw, action)  # by touch: the choice buttons, a target on its fleet
            assert action in session.actions[-3:], (action, session.actions[-3:])
            left.discard(kind_of(action))
            continue
        if session.state.is_over():
            break
        session.play(rng.choice(acts))
    assert not left, f"never offered: {sorted(left)}"
    nw.refresh()
    gui.screenshot("navalwar-every-card")
