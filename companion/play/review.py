"""The review of a finished game: its log stepped through move by move, free of Kivy.

`Review(session)` rebuilds the state after the first `at` actions (0: the start, `n`:
the end, where it opens).  A renderer draws `state.view(None)`, the table's view of
that moment, so a review never shows more than the table saw then; what the end
reveals (a finished game's view) it shows at the end.
"""

from __future__ import annotations

from companion.play.session import Session
from companion.play.state import Action, State

STEPS = (-1, 1)  # the review offer's choices: ◀ and ▶


class Review:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.states: list[State] = session.history()
        self.at = self.n

    @property
    def n(self) -> int:
        """How many actions the game took."""
        return len(self.states) - 1

    def fits(self, session: Session) -> bool:
        """Whether this review is still of `session` as it stands (no undo since)."""
        return session is self.session and len(session.actions) == self.n

    def step(self, by: int) -> bool:
        """Move `by` actions (kept within the log); False when it did not move."""
        at = max(0, min(self.n, self.at + by))
        moved, self.at = at != self.at, at
        return moved

    @property
    def state(self) -> State:
        """The state after the first `at` actions."""
        return self.states[self.at]

    @property
    def before(self) -> State | None:
        """The state the last shown action was made in (None at the start)."""
        return self.states[self.at - 1] if self.at else None

    @property
    def action(self) -> Action | None:
        """The last action shown (None at the start)."""
        return self.session.actions[self.at - 1] if self.at else None

    @property
    def at_end(self) -> bool:
        return self.at == self.n
