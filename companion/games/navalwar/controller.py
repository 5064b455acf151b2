"""The flow of a ネイバルウォー Naval War game (docs/rules.md §navalwar), free of Kivy.

The companion tracks a physical card game: people tell it what happened, one choice
at a time (action -> card -> target -> die), and it offers only the rules' legal
actions (`choices.ChoiceTree`).  Stages:
- setup: the start form (players, target score, who rolls the dice, the names; the deck in play);
- count: "count your deck" (`counting.DeckCount`) over the start form;
- play: an entry is awaited: which seat enters it (`actor()`: the player to move, the
  player dealt to, nobody for who plays first) and which step of it has been chosen;
- summary: a round has just ended; its scores are shown once, until Next round;
- over: the game's scores, until New game.

Who may act: TABLE for every seat (the whole table plays at the shared screen), a
seat's own phone only for the entries that are that seat's (`actor()`).  What each
sender has chosen so far, and the last entry it made, is kept per sender (its `Pad`).

Undo (the table's): every entry is an undo point; Undo takes back the last one.
Dice: with the game's option `dice` "table" a die is entered from the real die, or rolled
by the companion on request (the "random" offer, which also picks the first player); with
"companion" the controller rolls every die the entry calls for at once and commits it with
that entry, so Undo takes back the card with its roll (never the roll alone: no re-roll).
There is no computer player.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.errors import CompanionError
from companion.games.navalwar import display, shortcuts
from companion.games.navalwar.choices import ChoiceTree, Labeller, entered, plain
from companion.games.navalwar.counting import DeckCount
from companion.games.navalwar.data import Composition, load_composition
from companion.games.navalwar.rules import DICE, composition_of
from companion.play.controller import TABLE, Controller, Offer, Refused, Text, Who, refusal
from companion.play.session import Session
from companion.store import Store, UnreadableGame

KIND = SCOREBOARD = "navalwar"
PLAYERS = tuple(range(2, 10))  # 2 as a house game
RECENT_GAMES = 5  # the deal lists the ships of this many games before first


# The places the controller reads an action itself (the rules spell them: moves.py).
def _roll(action) -> int:
    return action["value"]


def _is_roll(action) -> bool:
    return action["type"] == "die"


def _dealt(action) -> str | None:
    """The ship id of a ship card dealt or taken from the harbour, else None."""
    return action["ship"] if action["type"] == "deal" else None


@dataclass
class Pad:
    """One sender's entry in progress: the steps chosen (at position `at`), its last entry."""

    prefix: list = field(default_factory=list)
    last: Text | None = None
    at: tuple | None = None


class NavalWarController(Controller):
    def __init__(self, store: Store, session: Session | None, deck_path: str | None = None, rng=None):
        super().__init__(session)
        self.store = store
        self.deck_path = deck_path  # the setting navalwar.deck (None: the packaged cards)
        self.deck: dict | None = None  # a `deck` option set by hand (tests), over the file
        self.packaged = False  # the table plays with the packaged cards while the file is mended
        self.rng = rng or random.Random()
        self.setup = {"players": 4, "target": 100, "dice": "table"}
        self.start_error: Text | None = None
        self.counting: DeckCount | None = None
        self.pads: dict[Who, Pad] = {}
        self._tree: tuple | None = None  # (position, ChoiceTree)
        self._view: tuple | None = None  # (position, public view)
        self._recent: tuple | None = None  # (game, ships dealt recently)
        self.banner: tuple | None = None  # (position, Text): what the die just entered did
        self._adopt(session)

    @classmethod
    def open(cls, store: Store, session: Session | None = None, deck_path: str | None = None,
             rng: random.Random | None = None):
        """`session`, else the newest unfinished game, else the start form."""
        if session is None:
            session = Session.latest(store, KIND)
        return cls(store, session, deck_path, rng)

    def _adopt(self, session: Session | None) -> None:
        self.session = session
        self.pads.clear()
        self.banner = None
        self.seen_round = self.view()["round"] if session else 0

    # what the table shows ----------------------------------------------------------

    def position(self) -> tuple | None:
        """Which game, after how many entries (what the caches and the pads are kept for)."""
        return (self.session.id, len(self.session.actions)) if self.session else None

    def view(self) -> dict:
        """The public view (kept while the position stays: every display reads it often)."""
        position = self.position()
        if self._view is None or self._view[0] != position:
            self._view = (position, self.session.state.view(None))
        return self._view[1]

    @property
    def names(self) -> list[str]:
        return list(self.session.players) if self.session else []

    def waiting(self) -> dict | None:
        return self.view()["waiting"]

    @property
    def companion_rolls(self) -> bool:
        """Whether the companion rolls this game's dice (its option; an older game has none: the table)."""
        return self.session.state.data["options"].get("dice") == "companion"

    def actor(self) -> int | None:
        """The seat whose entry is awaited (None: the table's, e.g. who plays first)."""
        waiting = self.waiting()
        if waiting is None or waiting["kind"] == "first":
            return None
        return waiting["seat"] if waiting["kind"] in ("deal", "harbour") else self.view()["seat"]

    def mine(self, who: Who) -> bool:
        return who == TABLE or (who == self.actor() and who is not None)

    def pad(self, who: Who) -> Pad:
        """`who`'s pad; the steps it chose are dropped once the game has moved on."""
        pad = self.pads.setdefault(who, Pad())
        if pad.at != self.position():
            pad.prefix, pad.at = [], self.position()
        return pad

    def tree(self) -> ChoiceTree:
        """The legal actions as choice panels, with the entries of several actions made as
        one (`shortcuts`; their actions a tuple), kept while the position stays."""
        position = self.position()
        if self._tree is None or self._tree[0] != position:
            state = self.session.state
            actions = state.legal_actions()
            extras = shortcuts.extras(state, self._paths)
            self._tree = (position, ChoiceTree([a for _, a in extras] + actions,  # the shortcuts first
                                               [p for p, _ in extras] + self._paths(state, actions)))
        return self._tree[1]

    def _paths(self, state, actions: list) -> list:
        catalogue = {s.id: s.to_json() for s in state.composition.ships}
        view = self.view() if state is self.session.state else state.view(None)
        return Labeller(view, self.names, catalogue).paths(actions)

    def shown_prefix(self, who: Who) -> list[str]:
        """The steps `who` has chosen, extended through every step with a single choice."""
        return self.tree().descend(self.pad(who).prefix)

    # stages ------------------------------------------------------------------------

    def stage(self) -> str:
        if self.session is None:
            return "setup" if self.counting is None else "count"
        view = self.view()
        if view["phase"] == "over":
            return "over"
        return "summary" if view["round"] > self.seen_round else "play"

    def changed(self) -> None:
        if self.session is not None:  # an undo back into an earlier round shows its end again
            self.seen_round = min(self.seen_round, self.view()["round"])
        super().changed()

    # offers ------------------------------------------------------------------------

    def offers(self, who: Who) -> list[Offer]:
        stage = self.stage()
        if stage in ("setup", "count"):
            return (self._setup_offers() if stage == "setup" else self._count_offers()) if who == TABLE else []
        if who != TABLE and who not in range(self.session.state.seats):
            return []
        if stage == "over":
            return [Offer("new", Text("navalwar_ui.new_game"))] + self.review_offers() if who == TABLE else []
        if stage == "summary":
            return [Offer("continue", Text("navalwar_ui.next_round"))] if who == TABLE else []
        found = []
        if self.mine(who):
            seat, tree = self.actor(), self.tree()
            found += [Offer("choose", seat=seat, choices=tuple(c.id for c in tree.choices(self.shown_prefix(who)))),
                      Offer("enter", seat=seat)]  # any legal action, whole (a phone's list, a test)
            kind = self.waiting()["kind"]
            if self.pad(who).prefix or (kind == "strike" and who == TABLE):  # a target: back to the turn's choice
                found.append(Offer("back", Text("navalwar_ui.back"), seat))
            if kind in ("die", "first"):
                found.append(Offer("random", Text("navalwar_ui.roll" if kind == "die" else "navalwar_ui.pick_random"),
                                   seat))
        if who == TABLE and self.undo_points():
            found.append(Offer("undo", Text("app.undo")))
        return found

    def _setup_offers(self) -> list[Offer]:
        found = [Offer("players", choices=PLAYERS), Offer("target"), Offer("dice", choices=DICE),
                 Offer("start", Text("navalwar_ui.start")),
                 Offer("start_first")]
        try:
            self.composition()
        except CompanionError:  # nothing to count against until the file is fixed; the packaged cards play
            return found + ([Offer("packaged", Text("navalwar_ui.use_packaged"))] if self.deck is None else [])
        return found + [Offer("count", Text("navalwar_ui.count_open"))]

    def _count_offers(self) -> list[Offer]:
        page = self.counting.page
        found = [Offer("count_close", Text("navalwar_ui.close"))]
        if page == "intro":
            found.append(Offer("count_begin", choices=(False, True)))
        if page == "step":
            found += [Offer("count_change", choices=(-1, 1)), Offer("count_next")]
        if page != "intro":
            found.append(Offer("count_back", Text("navalwar_ui.back")))
        return found

    # the start form ------------------------------------------------------------------

    def deck_option(self) -> dict | None:
        """A new game's `deck` option: the one set by hand, else the file in the setting
        `navalwar.deck` (in full, so a saved game never depends on the file again), else None
        (the packaged composition, also if chosen over a broken file): `CompanionError` if broken."""
        if self.deck is not None:
            return self.deck
        return load_composition(self.deck_path).to_json() if self.deck_path and not self.packaged else None

    def composition(self) -> Composition:
        """The cards a new game would use (what "count your deck" walks through, on the
        renderer's own page); raises `CompanionError` for a broken file."""
        return composition_of({"deck": self.deck_option()})

    def deck_line(self) -> tuple[Text, bool]:
        """What the start form says of the cards in play, and whether they are broken."""
        if self.start_error is not None:
            return self.start_error, True
        try:
            comp = self.composition()
        except CompanionError as err:
            return Text("navalwar_ui.deck_error", {"error": refusal(err)}), True
        if self.deck is None and self.deck_path:
            name = str(self.deck_path).replace("\\", "/").rsplit("/", 1)[-1]
            key = "navalwar_ui.deck_instead" if self.packaged else "navalwar_ui.deck_user"
            return Text(key, {"path": name, "actions": comp.total_actions, "ships": len(comp.ships)}), False
        return Text("navalwar_ui.deck_packaged"), False

    def on_packaged(self, who: Who, seat, value) -> None:
        self.packaged, self.start_error = True, None

    def on_players(self, who: Who, seat, n: int) -> None:
        self.setup["players"], self.start_error = n, None

    def on_target(self, who: Who, seat, target) -> None:
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise Refused("navalwar.error.target")
        self.setup["target"], self.start_error = target, None

    def on_dice(self, who: Who, seat, dice: str) -> None:
        self.setup["dice"] = dice

    def on_start(self, who: Who, seat, names) -> None:
        """A new game as the form describes, with one name per player (as typed or the
        defaults); a deck that changed since, or too few cards, is said on the form."""
        n = self.setup["players"]
        if not (isinstance(names, (list, tuple)) and len(names) == n
                and all(isinstance(name, str) and name.strip() for name in names)):
            raise Refused("navalwar_ui.names_needed")
        try:
            options = {"players": n, "target": self.setup["target"], "deck": self.deck_option(),
                       "dice": self.setup["dice"]}
            session = Session.start(self.store, KIND, options, players=[name.strip() for name in names],
                                    scoreboard=SCOREBOARD)
        except CompanionError as err:
            self.start_error = Text("navalwar_ui.cannot_start", {"error": refusal(err)})
            return
        self.start_error = None
        self._adopt(session)

    def on_start_first(self, who: Who, seat, value) -> None:
        """Start, and the first player chosen on the form in the same tap (value: `names`
        and `first`, a seat); that choice is the game's first entry, Undo takes it back."""
        if not (isinstance(value, dict) and value.get("first") in range(self.setup["players"])):
            raise Refused("play.not_now", kind="start_first")
        self.on_start(who, seat, value.get("names"))
        if self.session is not None:
            first = value["first"]
            self._play(who, {"type": "first", "seat": first}, plain(self.names[first]))

    def on_count(self, who: Who, seat, value) -> None:
        self.counting = DeckCount(self.composition())

    def on_new(self, who: Who, seat, value) -> None:
        self._adopt(None)

    def on_continue(self, who: Who, seat, value) -> None:
        self.seen_round, self.banner = self.view()["round"], None  # the last die's outcome stays with its round

    # entering actions ----------------------------------------------------------------

    def handlers(self) -> dict:
        counting = {"count_begin": lambda who, seat, ships: self.counting.begin(ships),  # the deck count's steps
                    "count_change": lambda who, seat, delta: self.counting.change(delta),
                    "count_next": lambda who, seat, value: self.counting.next(),
                    "count_back": lambda who, seat, value: self.counting.previous(),
                    "count_close": lambda who, seat, value: setattr(self, "counting", None)}
        return super().handlers() | counting | {
            "players": self.on_players, "target": self.on_target, "dice": self.on_dice, "start": self.on_start,
            "start_first": self.on_start_first, "count": self.on_count, "new": self.on_new, "packaged": self.on_packaged,
            "continue": self.on_continue, "choose": self.on_choose, "enter": self.on_enter,
            "back": self.on_back, "random": self.on_random}

    def on_choose(self, who: Who, seat, step: str) -> None:
        """A choice: one step deeper, or the action it enters."""
        pad, tree = self.pad(who), self.tree()
        prefix = self.shown_prefix(who)
        choice = next(c for c in tree.choices(prefix) if c.id == step)
        if choice.action is None:
            pad.prefix = prefix + [step]
        else:
            self._play(who, choice.action, entered(tree.labels(prefix + [step])))

    def on_enter(self, who: Who, seat, action) -> None:
        if action not in self.session.state.legal_actions():
            raise Refused("play.not_now", kind="enter")
        self._play(who, action, entered(self.tree().labels(self.tree().path_of(action))))

    def on_back(self, who: Who, seat, value) -> None:
        """One step back: a step chosen, or (an air strike's target awaited) the entry that asked for it."""
        pad = self.pad(who)
        pad.prefix.pop() if pad.prefix else self.on_undo(who, seat, value)

    def on_random(self, who: Who, seat, value) -> None:
        """The companion rolls the die (or picks the first player) at random."""
        action = self.rng.choice(self.session.state.legal_actions())
        label = (Text("navalwar_ui.rolled", {"n": _roll(action)}) if self.waiting()["kind"] == "die"
                 else plain(self.names[action["seat"]]))
        self._play(who, action, label)

    def _play(self, who: Who, action, label: Text) -> None:
        """One entry: an action, or a tuple of them (a shortcut), with the dice it calls for
        when the companion rolls them, committed and taken back as one."""
        actions = list(action) if isinstance(action, tuple) else [action]
        rolled = [(self.waiting(), actions[0])] if self.waiting()["kind"] == "die" else []
        if self.companion_rolls:
            rolled += shortcuts.rolls(self.session.state, actions, self.rng)
        self.play_turn(actions)  # one turn: undone as one
        self.banner = None
        if rolled:  # the last die's outcome, large
            waiting, die = rolled[-1]
            self.banner = (self.position(), display.die_outcome(self, waiting, _roll(die)))
        self.pad(who).last = Text("navalwar_ui.last", {"text": label})

    def undo_points(self) -> list[int]:
        """Back to the last turn's start (the companion's roll goes with what called for it)."""
        actions = self.session.actions if self.session else []
        if not actions:
            return []
        back = self.session.last_turn_start()
        if back == len(actions) - 1:  # one action: perhaps a game stored before turns were
            while self.companion_rolls and back > 0 and _is_roll(actions[back]):
                back -= 1
        return [back]

    def on_undo(self, who: Who, seat, value) -> None:
        super().on_undo(who, seat, value)
        self.banner = None
        for pad in self.pads.values():
            pad.prefix, pad.last = [], None

    def recent_ships(self) -> list[str]:
        """Ship ids dealt in this game and the last few before it, the latest first (kept per round)."""
        key = (self.session.id, self.view()["round"])
        if self._recent is None or self._recent[0] != key:
            games = [g.id for g in self.store.games(kind=KIND)
                     if g.id != self.session.id][:RECENT_GAMES]
            found: list[str] = []
            for actions in [self.session.actions, *filter(None, map(self._readable_actions, games))]:
                found += [ship for ship in map(_dealt, reversed(actions)) if ship and ship not in found]
            self._recent = (key, found)
        return self._recent[1]

    def _readable_actions(self, game_id: int) -> list:
        """A game's actions; [] for one whose moves fail their check (it is reported elsewhere)."""
        try:
            return self.store.actions(game_id)
        except UnreadableGame:
            return []

    # display -------------------------------------------------------------------------

    def display(self, who: Who) -> dict:
        return display.model(self, who)
