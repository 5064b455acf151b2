"""Nim's flow: two people take in turn, at the table or on their phones; a finished game is reviewed."""

from companion.play.controller import TABLE, Controller, Offer, Text
from companion.play.session import Session, unfinished


class NimController(Controller):
    @classmethod
    def open(cls, store, session=None):
        """`session`, else the newest unfinished game, else a new one."""
        if session is None:
            sessions, _ = unfinished(store, {"nim"})
            session = sessions[0] if sessions else Session.start(store, "nim", players=["red", "blue"])
        return cls(session)

    def stage(self):
        return "review" if self.session.state.is_over() else "take"

    def offers(self, who):
        state, found = self.session.state, []
        if state.to_move() is not None and who in (TABLE, state.to_move()):
            found.append(Offer("take", seat=state.to_move(), choices=tuple(a["n"] for a in state.legal_actions())))
        return found + (self.review_offers() if who == TABLE else [])

    def handlers(self):
        return super().handlers() | {"take": lambda who, seat, n: self.play_turn([{"type": "take", "n": n}])}

    def display(self, who):
        heap = self.shown().heap
        return {"heap": heap, "offers": self.offered(who), "status": Text("nim_ui.heap", {"heap": heap})}
