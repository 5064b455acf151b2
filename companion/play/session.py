"""A game being played: its rules state plus its durable action log.

Every action is validated by the rules, then committed to the store, and only
then becomes the current state: what the screen shows is already on disk.
Resuming, undo and review all replay the log.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from companion.play import registry
from companion.play.state import Action, State
from companion.store import GameRecord, Lineup, Store, UnreadableGame


class Session:
    def __init__(self, store: Store, record: GameRecord, actions: list[Action],
                 turn_starts: Iterable[int] | None = None):
        self.store = store
        self.record = record
        self.game = registry.get(record.kind)
        self.actions = list(actions)
        self.revision = record.revision  # the stored game's, as this copy last wrote or read it
        # the first action of each turn (one play_all), ascending; by default a turn per action
        self.turn_starts = [s for s in turn_starts if s < len(self.actions)] if turn_starts is not None \
            else list(range(len(self.actions)))
        self.state: State = self.game.replay(record.options, self.actions)

    @classmethod
    def start(cls, store: Store, kind: str, options: Mapping[str, Any] | None = None,
              players: Iterable[str] = (), scoreboard: str | None = None,
              lineup: Lineup = Lineup()) -> "Session":
        """A new game; `lineup` says who plays (people at the table, unless told otherwise),
        `scoreboard` where its result is counted."""
        full_options = registry.get(kind).options(options)
        registry.get(kind).new_state(full_options)  # refuse bad options before writing
        game_id = store.create_game(kind, full_options, players, scoreboard, lineup)
        return cls(store, store.game(game_id), [])

    @classmethod
    def resume(cls, store: Store, game_id: int) -> "Session":
        """The stored game replayed; `UnreadableGame` if its rows cannot be (then it stays on
        disk untouched for repair)."""
        record = store.game(game_id)  # UnreadableGame if its row fails its check
        actions, turn_starts = store.log(game_id)
        try:
            session = cls(store, record, actions, turn_starts)
            outcome = session.state.outcome()
            if (outcome.to_json() if outcome else None) != record.outcome:
                raise ValueError(f"its stored result {record.outcome} is not the moves' {outcome}")
            return session
        except Exception as exc:  # stored rows are outside input: any failure means damage
            raise UnreadableGame(
                f"game {game_id} ({record.kind}) in {store.path} cannot be replayed "
                f"({type(exc).__name__}: {exc}); it is left out and kept in the database "
                "for repair") from None

    @classmethod
    def latest(cls, store: Store, kind: str) -> "Session | None":
        """The newest unfinished game of `kind` that replays; None when there is none."""
        sessions, _ = unfinished(store, {kind})
        return sessions[0] if sessions else None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def players(self) -> list[str]:
        return self.record.players

    @property
    def lineup(self) -> Lineup:
        return self.record.lineup

    def play(self, action: Action) -> State:
        """Apply, persist, then adopt `action`; an illegal one raises and changes nothing."""
        return self.play_all([action])

    def play_all(self, actions: Iterable[Action]) -> State:
        """Apply, persist in one transaction, then adopt several actions (one turn); if any
        is illegal it raises and nothing changes, in memory or on disk."""
        actions = list(actions)
        after = self.state
        for action in actions:
            after = after.apply(action)
        outcome = after.outcome()
        self.revision = self.store.extend(self.id, len(self.actions), actions,
                                          outcome.to_json() if outcome else None, self.revision)
        if actions:
            self.turn_starts.append(len(self.actions))
        self.actions.extend(actions)
        self.state = after
        return after

    def undo(self, count: int = 1) -> State:
        """Take back the last `count` actions."""
        keep = max(0, len(self.actions) - count)
        before = self.game.replay(self.record.options, self.actions[:keep])
        outcome = before.outcome()
        self.revision = self.store.truncate(self.id, keep, outcome.to_json() if outcome else None,
                                            known=len(self.actions), revision=self.revision)
        del self.actions[keep:]
        self.turn_starts = [s for s in self.turn_starts if s < keep]
        self.state = before
        return before

    def last_turn_start(self) -> int:
        """How many actions stay when the last turn is taken back (0 with none)."""
        return self.turn_starts[-1] if self.turn_starts else 0

    def history(self) -> list[State]:
        """Every state from the start to now, for review."""
        states = [self.game.new_state(self.record.options)]
        for action in self.actions:
            states.append(states[-1].apply(action))
        return states

    def abandon(self) -> None:
        self.store.abandon(self.id)


def unfinished(store: Store, kinds: Collection[str] | None = None) -> tuple[list[Session], list[UnreadableGame]]:
    """The active games (of `kinds`, if given) that replay, newest first, and the
    problems of those that do not, and of every game that fails its check (of any kind
    and status: its stored kind and status may be the damage): one damaged game never
    hides the others."""
    sessions, problems = [], [damaged.error(store.path) for damaged in store.damaged()]
    for record in store.games("active"):
        if kinds is not None and record.kind not in kinds:
            continue
        try:
            sessions.append(Session.resume(store, record.id))
        except UnreadableGame as exc:
            problems.append(exc)
    return sessions, problems


def tally(store: Store, scoreboard: str | None) -> dict[Any, dict[str, int]]:
    """Wins, losses and draws per player over a scoreboard's finished games (None: a game
    counted nowhere, none)."""
    table: dict[Any, dict[str, int]] = {}
    if scoreboard is None:
        return table
    for players, outcome in store.results(scoreboard):
        for seat, player in enumerate(players):
            row = table.setdefault(player, {"win": 0, "loss": 0, "draw": 0})
            winner = outcome["winner"]
            row["draw" if winner is None else "win" if winner == seat else "loss"] += 1
    return table
