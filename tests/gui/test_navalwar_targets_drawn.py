"""A target the prompt asks for is drawn (an evening finding, two-player house game: the
prompt said 「目標の艦を艦隊欄でタップ › 16″・2」, but no ship was outlined and only 戻る was
offered).  Ships that join a fleet while a turn is on wait for the screen to be still before
they are drawn (issue 29: nothing moves under a finger): the deal's last ships, entered just
before the first turn, and any taken from the harbour.  A ship that may be named now is drawn
at once."""

from __future__ import annotations

import random
import time

import pytest

from companion.games.navalwar.screen.fleets import ShipChip
from test_navalwar_words import started


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_ship_not_yet_drawn_is_drawn_when_it_is_a_target(gui, lang):
    nw = started(gui, 2, ["Aki", "Ben"], lang)
    session, rng = nw.session, random.Random(4)
    nw.refresh()  # the fleets drawn empty; their ships join while the turns are on
    while True:
        acts = session.state.legal_actions()
        aimed = [a for a in acts if a["type"] == "play" and a["card"].startswith("salvo") and "ship" in a]
        if aimed:
            break
        session.play(rng.choice(acts))
    nw._still.lifted_at = time.monotonic()  # a finger just lifted: the table is not still
    nw.refresh()
    nw.choose(nw.controller.tree().path_of(aimed[0])[0])  # the salvo card: its target next
    gui.pump(0.05)
    assert nw.model["targets"], "the salvo names its target on the fleets"
    outlined = {chip.name for chip in nw.ids.fleets.walk(restrict=True) if isinstance(chip, ShipChip) and chip.step}
    wanted = {s["name"] for f in nw.model["fleets"] for s in f["ships"] if s["id"] in nw.model["targets"]}
    gui.screenshot(f"navalwar-2-joined-target-{lang}")
    assert wanted <= outlined, f"the prompt asks for a target not drawn: {wanted - outlined}"
