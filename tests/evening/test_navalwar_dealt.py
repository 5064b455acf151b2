"""Issue 43's finding 6 as a group met it, through the evening player's checks: three players,
P3 dealt Andrea Doria, Caio Duilio, Conte di Cavour, Ark Royal and California by touches on the
deal's catalogue; then every ship the state holds for the fleet shown must be drawn (musts.py;
three players have a card per fleet, the one to move's ships under them), once P3's card is
tapped."""

import random

import musts
from player import Player


P3 = ["Andrea Doria", "Caio Duilio", "Conte di Cavour", "Ark Royal", "California"]


def test_every_dealt_ship_is_drawn(gui, request):
    from player import known_checks
    player = Player(gui, random.Random(43), known_checks(request.node), "fixed")
    player.open_game("navalwar")
    nw = gui.screen
    player.press("3")
    player.press(player.tr("navalwar_ui.start"))
    player.press("P1", near=(640, 300))  # the first player, on the panel (P1's card says it too)
    player.musts = musts.navalwar(nw)
    with player.evening():
        others = iter(name for name in sorted(player.frame().texts()) if name not in P3)
        while nw.session.state.view(None)["waiting"]["kind"] == "deal":
            seat = nw.session.state.view(None)["waiting"]["seat"]
            frame = player.frame()
            name = next(s for s in P3 if frame.find(s)) if seat == 2 else next(
                s for s in others if frame.find(s))
            player.touch(frame.one(name), frame)
        assert [s["name"] for s in nw.session.state.view(None)["fleets"][2]["ships"]] == P3
        player.look()
        player.press("P3")  # P3's card: its ships under the cards, as a person looks for the fifth
        assert player.frame().find("California", pressable=False), player.frame().texts()
        gui.screenshot("dealt-p3")
