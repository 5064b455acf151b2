"""A third two-seat game needs no copy of the flow: "hide", a one-ship Battleship on four
cells, gets its start panel, cover, placing behind it, the computer's seat and its
refusals from companion/play/two_seats.py; its controller is the dozen lines below."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from companion.play import registry
from companion.play.controller import TABLE, Offer, Text
from companion.play.session import Session
from companion.play.state import Game, Outcome, Refused, State
from companion.play.two_seats import TwoSeatFlow
from companion.store import Store


@dataclass(frozen=True)
class Hide(State):
    """Each seat hides a ship on one of four cells, then they guess in turn: a hit wins."""

    game = "hide"
    first: int = 0
    ships: tuple = (None, None)
    turn: int = 0
    winner: int | None = None
    seats = 2

    @property
    def phase(self) -> str:
        return "over" if self.winner is not None else "place" if None in self.ships else "guess"

    def to_move(self):
        return None if self.winner is not None else self.turn

    def placers(self):  # the seats still to hide a ship (in turn: this game's rules take no seat)
        return (self.turn,) if self.phase == "place" else ()

    def legal_actions(self):
        kind = {"place": "hide", "guess": "guess"}.get(self.phase)
        return [{"type": kind, "cell": cell} for cell in range(4)] if kind else []

    def apply(self, action):
        if action not in self.legal_actions():
            raise Refused("play.not_now", kind=str(action))
        cell, other = action["cell"], 1 - self.turn
        if action["type"] == "hide":
            return self.evolve(ships=tuple(cell if s == self.turn else self.ships[s] for s in (0, 1)), turn=other)
        return self.evolve(winner=self.turn if self.ships[other] == cell else None, turn=other)

    def outcome(self):
        return None if self.winner is None else Outcome(self.winner, "found")

    def to_json(self):
        return {"first": self.first, "ships": list(self.ships), "turn": self.turn, "winner": self.winner}

    def view(self, seat):
        return {"phase": self.phase, "placed": [s is not None for s in self.ships],
                "ship": None if seat is None else self.ships[seat]}


GAME = Game("hide", {"ja": "かくれんぼ", "en": "Hide"}, {"first": 0, "mode": "referee"},
            lambda o: Hide(first=o["first"], turn=o["first"]),
            lambda d: Hide(d["first"], tuple(d["ships"]), d["turn"], d["winner"]))


class HideController(TwoSeatFlow):  # the whole flow of the game: its stages and its cells
    KIND, OPTIONS = "hide", ("first",)
    SETUP = {"opponent": "2p", "first": 0, "level": "easy"}

    def stage(self):
        if self.choosing:
            return "setup"
        phase, seat = self.session.state.phase, self.session.state.to_move()
        return "place" if self.private is not None else "cover" if phase == "place" and seat in self.at_table else phase

    def offers(self, who):
        stage, seat = self.stage(), self.session and self.session.state.to_move()
        if stage == "place" and who == self.private:
            return [Offer("cell", seat=self.private, choices=range(4))]
        found = self.cover_offers(who) if stage == "cover" else []
        found += [Offer("cell", seat=seat, choices=range(4))] if stage == "guess" and self.mine(who, seat) else []
        return found + ([Offer("start"), Offer("first", choices=(0, 1))] if who == TABLE and stage == "setup" else [])

    def handlers(self):
        return super().handlers() | {"start": lambda who, seat, names: self.start_game(list(names)),
                                     "first": lambda who, seat, first: self.setup.update(first=first),
                                     "cell": self.on_cell}

    def on_cell(self, who, seat, cell):
        self.play_turn([{"type": "hide" if self.stage() == "place" else "guess", "cell": cell}])
        self.private = None  # a hidden ship: the cover again

    def display(self, who):
        return {"stage": self.stage(), "offers": self.offered(who), "view": self.shown().view(None if who == TABLE else who)}

    def thinker(self, seat):
        state, rng = self.session.state, random.Random(seat)
        return lambda: [rng.choice(state.legal_actions())]


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setitem(registry.games(), "hide", GAME)
    with Store.in_dir(tmp_path) as store:
        yield store


def refused(c, who, kind, value=None) -> str:
    with pytest.raises(Refused) as refusal:
        c.act(who, kind, value)
    return refusal.value.key


def test_two_people_set_up_hide_behind_the_cover_play_and_are_refused_the_same_way(store):
    c = HideController.open(store)
    assert c.stage() == "setup" and c.session is None
    c.act(TABLE, "first", 1)
    c.act(TABLE, "start", ["Aki", "Ben"])
    assert c.session.state.first == 1 and c.setup["first"] == 1 and c.names == ["Aki", "Ben"]
    for seat, cell in ((1, 2), (0, 3)):
        assert c.stage() == "cover" and c.holder() == TABLE
        assert refused(c, TABLE, "cell", cell) == "play.not_now"  # nothing before the cover opens
        assert c.display(TABLE)["view"]["ship"] is None  # the table sees no ship
        [cover] = c.offers(TABLE)
        assert cover.label == Text("hide_ui.i_am", {"player": c.names[seat]})
        c.act(TABLE, "open")
        assert c.stage() == "place" and c.holder() == seat
        c.act(seat, "cell", cell)
    assert c.stage() == "guess" and c.session.state.to_move() == 1
    assert refused(c, 0, "cell", 0) == "play.not_yours"  # Ben's turn: Aki's phone is told whose
    c.act(TABLE, "cell", 0)
    c.act(TABLE, "cell", 1)
    c.act(TABLE, "cell", 3)  # Ben finds Aki's ship
    assert c.session.state.outcome() == Outcome(1, "found") and c.stage() == "over"
    assert refused(c, TABLE, "cell", 2) == "play.not_now"
    assert Session.resume(store, c.session.id).state == c.session.state


def test_against_the_computer_its_seat_is_from_the_lineup_and_nobody_hides(store):
    c = HideController.open(store)
    c.setup.update(opponent="cpu")
    c.act(TABLE, "start", ["Aki", "cpu"])
    assert c.computer_seats == {1} and c.at_table == {0} and c.names == ["Aki", Text("hide_ui.cpu")]
    assert c.stage() == "place" and c.holder() == 0  # no cover
    c.act(0, "cell", 1)
    while not c.session.state.is_over():
        turn = c.computer_turn()
        if turn is not None:
            assert c.computer_done(turn, turn.think())
        else:
            c.act(TABLE, "cell", c.session.state.legal_actions()[0]["cell"])
    assert c.session.lineup.opponent == "cpu"
