"""The room: who may join the game on the table, and what a phone may do there.

Runs on the game's own thread (the Kivy thread in the app): the server hands every
frame here through its marshal function and sends back what comes out.  A `Link` is
one phone's socket as the room sees it: `send(message)` and `close(message)` may be
called from this thread; the server carries them.

Pairing, as a state machine per link:
    new --hello(device key)--> seated            (a phone that claimed a seat before)
    new --hello(room token)--> choosing --claim(seat)--> seated (+ a device key)
                                        --watch-------> watching (public model only)
A seat is claimed once; it moves to another phone only after `release(seat)` (a tap on
the table: the phone, if it comes back, is told its seat was handed over).  While a
seat's phone is away (`away()`: since when) the table may play that seat (`lend(seat)`)
until the phone comes back, which gets its seat again: the table is never held hostage.  There is no joining by name.  The seat of an input is the link's, never
the message's; each input carries a number greater than the last one applied for
that device, so a replay is refused.  After every change each seated phone is sent its
own seat's display model, and a watcher the public one without offers.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Callable

from companion import i18n
from companion.play.controller import TABLE, Controller, Offer, Text
from companion.play.state import Refused
from companion.seats.claims import Claims, digest

LANGS = ("ja", "en")
MAX_ID = 2**53 - 1  # a message number a phone's JavaScript counts exactly (and SQLite's INTEGER holds)
MAX_STEP = 2**20  # how far past the last applied number the next may be: none is ever used up by a leap


def render(value: Any, lang: str) -> Any:
    """A display model as JSON for a phone, every `Text` in words of `lang`."""
    if isinstance(value, Text):
        return value.render(lambda key, **values: i18n.translate(key, lang, **values))
    if isinstance(value, Offer):
        return {"kind": value.kind, "label": render(value.label, lang), "seat": value.seat,
                "choices": render(list(value.choices), lang)}
    if isinstance(value, dict):
        return {str(k): render(v, lang) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [render(v, lang) for v in value]
    return value


def answer(refusal: Refused, lang: str, **extra) -> dict:
    """A refusal as the phone hears it: the room's own by its code, any other (the game's:
    its controller's or its rules') as "not_now", each in words of `lang`."""
    code = refusal.key.removeprefix("seats.") if refusal.key.startswith("seats.") else "not_now"
    return {"type": "refused", "code": code, "text": render(Text(refusal.key, refusal.params), lang)} | extra


@dataclass(eq=False)
class Link:
    """One phone's socket: where it sits (None: not yet, or watching) and its language."""

    send: Callable[[dict], None]
    close: Callable[[dict], None]
    lang: str = "en"
    seat: int | None = None
    watching: bool = False
    key_hash: str | None = None
    chose: bool = False  # showed a valid room token on this socket
    waiting_key: str | None = None  # the device key it said hello with (tried again when a game opens)

    @property
    def admitted(self) -> bool:
        """It showed a valid room token or device key on this socket (it may stay)."""
        return self.seat is not None or self.watching or self.chose


class Room:
    def __init__(self, claims: Claims, token: Callable[[], str] = lambda: secrets.token_urlsafe(16)):
        self.claims = claims
        self._new_token = token
        self.token: str | None = None
        self._old_tokens: set[str] = set()  # QR codes of earlier games: told apart from a wrong one
        self.controller: Controller | None = None
        self.game_id: int | None = None
        self.links: list[Link] = []
        self.listeners: list[Callable[[], None]] = []  # the table's seats panel
        self.clock = claims.store.clock  # wall-clock seconds: when a phone went away
        self._away: dict[int, float] = {}  # claimed seats with no phone connected: since when
        self.lent: set[int] = set()  # away seats the table plays until their phone is back
        self._handed: set[str] = set()  # key hashes of phones whose seat the table released
        self._acting: list | None = None  # [link, message id, acked] while a phone's input is applied
        self._frames = {"ping": self._on_ping, "hello": self._on_hello, "claim": self._on_claim,
                        "watch": self._on_watch, "lang": self._on_lang, "act": self._on_act}  # each frame's handler

    # the game on the table -------------------------------------------------------

    def attach(self, controller: Controller | None) -> None:
        """Open the room for `controller`'s game (None: close it)."""
        if self.controller is not None and self._changed in self.controller.listeners:
            self.controller.listeners.remove(self._changed)
        self.controller = controller
        if controller is not None:  # first: phones hear of a change before the table redraws
            controller.listeners.insert(0, self._changed)
        self._follow_game()
        self._tell_table()

    @property
    def playing(self) -> Controller:
        """The controller of the game open here (asked only while one is: `game_id`)."""
        assert self.controller is not None, "a room with a game has its controller"
        return self.controller

    def _game(self) -> int | None:
        session = self.controller.session if self.controller is not None else None
        return session.id if session is not None else None

    def _follow_game(self) -> None:
        """A new game on the table is a new room: a fresh token; phones of the old one leave."""
        game = self._game()
        if game == self.game_id and self.token is not None:
            return
        if self.token is not None:
            self._old_tokens.add(self.token)
        self._away, self.lent, self._handed = {}, set(), set()
        self.game_id, self.token = game, self._new_token() if game is not None else None
        for link in list(self.links):
            if link.seat is not None or link.watching or link.chose:
                self._drop(link, Refused("seats.game_over"))
            elif link.waiting_key is not None and game is not None:
                self._retry(link)
        self._tell_table()

    def seats(self) -> list[int]:
        """The seats a phone may claim: every seat the computer does not play."""
        if self.game_id is None:
            return []
        controller = self.playing
        return sorted(set(range(controller.playing.state.seats)) - set(controller.computer_seats))

    def claimed(self) -> dict[int, bool]:
        """Each claimed seat, and whether its phone is connected now."""
        if self.game_id is None:
            return {}
        online = {link.seat for link in self.links if link.seat is not None}
        return {seat: seat in online for seat in self.claims.of_game(self.game_id)}

    def join_url(self, base: str) -> str | None:
        """What the QR holds, or None once every seat is claimed (or no game is open)."""
        if self.game_id is None or set(self.seats()) <= set(self.claimed()):
            return None
        return f"{base}/#room={self.token}"

    def away(self) -> dict[int, float]:
        """Each claimed seat whose phone is not connected now, and since when (`clock`'s seconds)."""
        return dict(self._away)

    def lend(self, seat: int) -> None:
        """The table plays `seat` while its phone is away; the phone gets it back when it returns."""
        if seat in self._away:
            self.lent.add(seat)
            self._tell_table()

    def release(self, seat: int) -> None:
        """The table frees `seat` for another phone; the phone holding it is told and let go
        (and told again, should it come back: its seat was handed over)."""
        if self.game_id is None:
            return
        claim = self.claims.of_game(self.game_id).get(seat)
        if claim is not None and self.claims.release(self.game_id, seat):
            self._handed.add(claim.key_hash)
            self.lent.discard(seat)
            for link in [link for link in self.links if link.seat == seat]:
                self._drop(link, Refused("seats.released"))
            self._tell_table()

    def seat_name(self, seat: int) -> Any:
        return Text("seats.seat_name", {"n": seat + 1, "name": self.playing.names[seat]})

    # frames from a phone -----------------------------------------------------------

    def knows(self, key_hash: str) -> bool:
        """A claim (of any game) is held with this device key's hash."""
        return self.claims.by_hash(key_hash) is not None

    def connect(self, link: Link) -> None:
        self.links.append(link)

    def disconnect(self, link: Link) -> None:
        if link in self.links:
            self.links.remove(link)
            if link.seat is not None:
                self._tell_table()

    def handle(self, link: Link, message: dict) -> None:
        """One frame (already parsed into a dict by the server): its replies are sent on the
        link first, then what the change means for everyone."""
        kind, seated = message.get("type"), (link.seat, link.key_hash)
        try:
            if message.get("lang") in LANGS:
                link.lang = message["lang"]
            handler = self._frames.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise Refused("seats.malformed")
            replies = handler(link, message)
        except Refused as refusal:  # the room's, the controller's or the rules': every refusal is answered
            seq = message.get("id")
            extra = {"id": seq} if isinstance(seq, int) and not isinstance(seq, bool) and 0 < seq <= MAX_ID else {}
            replies = [answer(refusal, link.lang, **extra)]
        for reply in replies:
            link.send(reply)
        if (link.seat, link.key_hash) != seated:
            self._tell_table()

    def _on_ping(self, link, message) -> list[dict]:
        return [{"type": "pong"}]

    def _on_hello(self, link: Link, message: dict) -> list[dict]:
        device = message.get("device")
        if isinstance(device, str):
            link.waiting_key = device
        self._open_game()
        if device is not None:
            return self._resume(link, device)
        return self._choose(link, message.get("room"))

    def _open_game(self) -> int:
        """The open game's id; refused when none is."""
        if self.game_id is None:
            raise Refused("seats.no_game")
        return self.game_id

    def _check_token(self, token) -> None:
        if not isinstance(token, str) or not secrets.compare_digest(
                token.encode("utf-8", "surrogatepass"), (self.token or "").encode()):
            if isinstance(token, str) and token in self._old_tokens:  # a QR of an earlier game: say where the new one is
                raise Refused("seats.room_old")
            raise Refused("seats.room_token")

    def _choose(self, link: Link, token: object) -> list[dict[str, Any]]:
        game_id = self._open_game()
        self._check_token(token)
        link.chose = True
        taken = self.claims.of_game(game_id)
        seats = [{"seat": seat, "name": render(self.seat_name(seat), link.lang), "free": seat not in taken}
                 for seat in self.seats()]
        return [{"type": "seats", "seats": seats}]

    def _resume(self, link: Link, device) -> list[dict]:
        claim = self.claims.by_key(device) if isinstance(device, str) else None
        if claim is None:
            if isinstance(device, str) and digest(device) in self._handed:
                raise Refused("seats.handed_over")
            raise Refused("seats.device_unknown")
        if claim.game_id != self.game_id:
            raise Refused("seats.other_game")
        for other in [other for other in self.links if other is not link and other.key_hash == claim.key_hash]:
            self._drop(other, Refused("seats.replaced"))  # the same phone's older socket
        link.seat, link.key_hash, link.watching = claim.seat, claim.key_hash, False  # a lent seat: the phone's again
        return [self._joined(link, claim.last_seq), self.snapshot(link)]

    def _retry(self, link: Link) -> None:
        """A phone that waited with its key (no game, or another one, on the table) joins now
        if this is its game; else it goes on waiting, told nothing new."""
        try:
            replies = self._resume(link, link.waiting_key)
        except Refused:
            return
        for reply in replies:
            link.send(reply)

    def _on_claim(self, link: Link, message: dict) -> list[dict]:
        game_id = self._open_game()
        self._check_token(message.get("room"))
        seat = message.get("seat")
        if link.seat is not None:
            raise Refused("seats.already_seated")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.seats():
            raise Refused("seats.no_seat")
        key = self.claims.claim(game_id, seat)
        if key is None:
            raise Refused("seats.seat_taken")
        link.seat, link.key_hash, link.watching = seat, digest(key), False
        return [{"type": "claimed", "seat": seat, "device": key}, self._joined(link, 0), self.snapshot(link)]

    def _on_watch(self, link: Link, message: dict) -> list[dict]:
        self._open_game()
        self._check_token(message.get("room"))
        if link.seat is not None:
            raise Refused("seats.already_seated")
        link.watching = True
        return [self._joined(link, 0), self.snapshot(link)]

    def _on_lang(self, link: Link, message: dict) -> list[dict]:
        return [self.snapshot(link)] if link.seat is not None or link.watching else []

    def _on_act(self, link: Link, message: dict) -> list[dict]:
        seq, kind = message.get("id"), message.get("kind")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 < seq <= MAX_ID or not isinstance(kind, str):
            raise Refused("seats.malformed")
        if link.seat is None:
            if link.watching:
                raise Refused("seats.watching_only")
            raise Refused("seats.not_joined")
        assert link.key_hash is not None, "a seated phone showed its key"
        claim = self.claims.by_hash(link.key_hash)
        if claim is not None and seq > claim.last_seq + MAX_STEP:
            raise Refused("seats.out_of_order")
        if not self.claims.advance(link.key_hash, seq):  # used before it is tried: at most once
            raise Refused("seats.replay")
        self._acting = acting = [link, seq, False]
        try:
            self.playing.act(link.seat, kind, message.get("value"))  # a refusal is answered by `handle`
        finally:
            acked, self._acting = acting[2], None
        return [] if acked else [{"type": "done", "id": seq}]

    # what goes out -------------------------------------------------------------------

    def _joined(self, link: Link, last_seq: int) -> dict:
        return {"type": "joined", "seat": link.seat, "last_id": last_seq,
                "name": render(self.seat_name(link.seat), link.lang) if link.seat is not None else None}

    def snapshot(self, link: Link) -> dict:
        """The full display model for the link's seat (a watcher: the public one, no offers)."""
        who = TABLE if link.seat is None else link.seat
        controller = self.playing
        model = controller.display(who)
        if who == TABLE:
            model = model | {"offers": [], "can_undo": False}
        return {"type": "display", "kind": controller.playing.record.kind, "seat": link.seat,
                "model": render(model, link.lang)}

    def _changed(self) -> None:
        """The game changed (it is on disk by now): the phone whose input it was gets its
        model and "done" first, then every other phone its own; the table redraws after."""
        self._follow_game()
        input_now = self._acting
        acting = input_now[0] if input_now and input_now[0] in self.links else None
        if input_now is not None and acting is not None:
            acting.send(self.snapshot(acting))
            acting.send({"type": "done", "id": input_now[1]})
            input_now[2] = True
        for link in self.links:
            if (link.seat is not None or link.watching) and link is not acting:
                link.send(self.snapshot(link))

    def _drop(self, link: Link, refusal: Refused) -> None:
        link.seat = link.key_hash = None
        link.watching = link.chose = False
        link.close(answer(refusal, link.lang))
        if link in self.links:
            self.links.remove(link)

    def _tell_table(self) -> None:
        """The claims changed (or a phone came or went): the game and the panel hear it."""
        claimed = self.claimed()
        self._away = {seat: self._away.get(seat, self.clock()) for seat, online in claimed.items() if not online}
        self.lent &= set(self._away)  # a phone back from away has its seat again
        if self.controller is not None:
            self.controller.hold_remote(frozenset(claimed) - self.lent)
        for listener in list(self.listeners):
            listener()
