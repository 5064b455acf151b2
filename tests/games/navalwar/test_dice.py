"""Naval War with the dice rolled by the companion (the start form's choice, the game's
option `dice`): each die the game awaits is rolled at once and committed with the
entry that called for it, Undo takes both back (a resumed game too), the banner says
the roll on the table and the phones, and an older game without the option is "at the table"."""

import random
import sqlite3
import sys
from pathlib import Path

import pytest

from companion.games.navalwar.controller import NavalWarController
from companion.migrations import action_crc
from companion.play.controller import TABLE, Refused
from companion.store import FILENAME, Store

from .test_controller import SHORT, Step, play_out, store, words  # noqa: F401 (store: the fixture)

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
from _navalwar_round import SCRIPT  # noqa: E402

FLEETS = [["ship-yamato", "ship-hood", "ship-akagi", "ship-nelson", "ship-warspite"],
          ["ship-iowa", "ship-bismarck", "ship-roma", "ship-kongo", "ship-enterprise"],
          ["ship-texas", "ship-hyuga", "ship-lutzow", "ship-repulse", "ship-scheer"]]


class Rolls:
    """An rng whose dice come from a list, to know each roll in advance."""

    def __init__(self, *values):
        self.values = list(values)

    def choice(self, options):
        assert all(o["type"] == "die" for o in options), "only a die is rolled"
        return {"type": "die", "value": self.values.pop(0)}


class NoDieStep(Step):
    """A step after which the game never awaits a die (the companion rolled it)."""

    def __call__(self, who, kind, value=None):
        super().__call__(who, kind, value)
        waiting = self.c.waiting() if self.c.session else None
        assert not (waiting and waiting["kind"] == "die"), "a die is never left to enter"
        assert not any(ch.startswith("die:") for o in self.c.offers(TABLE) for ch in (o.choices or ()) if isinstance(ch, str))


def start(store, dice="companion", players=3, rng=None, target=100, deck=None):
    c = NavalWarController.open(store, rng=rng or random.Random(5))
    c.deck = deck
    step = NoDieStep(c) if dice == "companion" else Step(c)
    assert c.setup["dice"] == "table", "the form starts with the dice at the table"
    step(TABLE, "players", players)
    step(TABLE, "target", target)
    if dice != "table":
        step(TABLE, "dice", dice)
    step(TABLE, "start", [f"P{n + 1}" for n in range(players)])
    return c, step


def dealt(c, step):
    """Who plays first and the deal are still entered (chances, not dice), then nobody has red."""
    assert c.waiting()["kind"] == "first" and "random" in {o.kind for o in c.offers(TABLE)}
    step(TABLE, "enter", {"type": "first", "seat": 2})
    for seat, ships in enumerate(FLEETS):
        for ship in ships:
            assert c.waiting()["kind"] == "deal"
            step(seat, "enter", {"type": "deal", "ship": ship})
    step(TABLE, "choose", "no_red_rest")
    assert c.view()["phase"] == "turn" and c.view()["seat"] == 2 and c.waiting()["kind"] == "draw"


def test_the_form_offers_who_rolls_and_the_game_keeps_it(store):
    c, step = start(store, "table")
    assert [o.choices for o in c.offers(TABLE) if o.kind == "dice"] == []  # the form's, gone with it
    assert store.game(c.session.id).options["dice"] == "table" and not c.companion_rolls
    c = NavalWarController(store, None)  # a new game's form
    step = Step(c)
    assert [o.choices for o in c.offers(TABLE) if o.kind == "dice"] == [("table", "companion")]
    with pytest.raises(Refused):
        c.act(TABLE, "dice", "phone")
    step(TABLE, "dice", "companion")
    assert c.display(TABLE)["setup"]["dice"] == "companion"
    step(TABLE, "start", ["A", "B", "C", "D"])
    assert store.game(c.session.id).options["dice"] == "companion" and c.companion_rolls


@pytest.mark.parametrize("roll, sunk", [(5, True), (2, False)])
def test_a_card_and_the_companions_roll_are_one_entry_undone_together(store, roll, sunk):
    c, step = start(store, rng=Rolls(roll))
    dealt(c, step)
    step(TABLE, "enter", {"type": "draw", "card": "submarine"})  # red: played at once
    before = len(c.session.actions)
    step(2, "enter", {"type": "play", "card": "submarine", "ship": "ship-iowa"})
    assert c.session.actions[before:] == [{"type": "play", "card": "submarine", "ship": "ship-iowa"},
                                          {"type": "die", "value": roll}]
    assert ("ship-iowa" not in {s["id"] for s in c.view()["fleets"][1]["ships"]}) == sunk
    banner = c.display(TABLE)["banner"]
    result = "Iowa 撃沈！" if sunk else "Iowa は無事"
    assert words(banner["text"]) == f"潜水艦：出目 {roll}\n→ {result}" and banner["sunk"] == sunk
    assert all(c.display(seat)["banner"] == banner for seat in range(3)), "the phones see it too"
    assert words(c.display(2)["last"]).startswith("入力済み：")
    step(TABLE, "undo")
    assert len(c.session.actions) == before and c.waiting()["kind"] == "red", "the card and its roll, together"
    assert c.display(TABLE)["banner"] is None


@pytest.mark.parametrize("turns_stored", [True, False], ids=["turns", "older-rows"])
def test_a_resumed_game_undoes_the_roll_with_its_card(store, tmp_path, turns_stored):
    c, step = start(store, rng=Rolls(6))
    dealt(c, step)
    salvo = len(c.session.actions)
    step(TABLE, "choose", "card:salvo-14-2")  # a black card drawn and a salvo played: one entry
    step(TABLE, "choose", "ship:ship-iowa")
    step(TABLE, "enter", {"type": "choose", "turn": "draw"})  # Aki, with a carrier, draws
    step(TABLE, "enter", {"type": "draw", "card": "torpedo_boat"})
    before = len(c.session.actions)
    step(TABLE, "enter", {"type": "play", "card": "torpedo_boat", "ship": "ship-texas"})
    assert c.session.actions[-1] == {"type": "die", "value": 6}
    store.close()
    if not turns_stored:  # as a game saved before the store kept turns (migration 5) reads
        db = sqlite3.connect(tmp_path / FILENAME)
        rows = db.execute("SELECT game_id, seq, action FROM actions").fetchall()
        db.executemany("UPDATE actions SET entry = NULL, crc = ? WHERE game_id = ? AND seq = ?",
                       [(action_crc(g, s, None, a), g, s) for g, s, a in rows])  # as migration 5 sealed them
        db.commit()
        db.close()
    again = Store.in_dir(tmp_path)
    try:
        resumed = NavalWarController.open(again)  # only what the store kept
        assert resumed.companion_rolls
        NoDieStep(resumed)(TABLE, "undo")
        assert len(resumed.session.actions) == before, "never the roll alone: no re-roll"
        NoDieStep(resumed)(TABLE, "undo")
        assert len(resumed.session.actions) == before - 1  # the entry before: one action
        NoDieStep(resumed)(TABLE, "undo")
        NoDieStep(resumed)(TABLE, "undo")
        # the salvo's entry (the card drawn and played) goes back whole when its turn was kept
        assert len(resumed.session.actions) == (salvo if turns_stored else before - 3)
    finally:
        again.close()


def test_an_older_game_without_the_option_rolls_at_the_table(store):
    game = store.create_game("navalwar", {"players": 3, "target": 100, "deck": None},  # as saved before
                             ["A", "B", "C"], "navalwar")
    c = NavalWarController.open(store)
    assert c.session.id == game and not c.companion_rolls
    step = Step(c)
    dealt(c, step)
    step(TABLE, "enter", {"type": "draw", "card": "submarine"})
    step(2, "enter", {"type": "play", "card": "submarine", "ship": "ship-iowa"})
    assert c.waiting()["kind"] == "die" and "random" in {o.kind for o in c.offers(TABLE)}


@pytest.mark.parametrize("seed", [2, 4])
def test_whole_games_with_the_companions_dice(store, seed):
    c, step = start(store, rng=random.Random(seed), target=1, deck=SHORT)
    play_out(c, step, random.Random(seed), phones=True)  # the table enters some too, and undoes
    assert c.stage() == "over"
    assert any(a["type"] == "die" for a in c.session.actions)


@pytest.mark.parametrize("rolls", [(5, 2, 1), (1, 6, 2), (6, 6, 6), (1, 1, 1)])
def test_the_benchs_round_plays_whatever_the_companion_rolls(store, rolls):
    """bench/navalwar_taps.py --dice companion: the script without its dice, each roll
    sinking or sparing its target (5+ for the submarine, 6 the torpedo boat, 1 the air strike)."""
    c = NavalWarController.open(store, rng=Rolls(*rolls))
    step = NoDieStep(c)
    step(TABLE, "dice", "companion")
    step(TABLE, "start", ["P1", "P2", "P3", "P4"])
    for action in (a for a in SCRIPT if a["type"] != "die"):
        step(TABLE, "enter", action)
    assert [a["value"] for a in c.session.actions if a["type"] == "die"] == list(rolls)
