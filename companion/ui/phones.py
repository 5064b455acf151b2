"""The table's phones panel: the table's own Wi-Fi QR first when deploy/hotspot.sh made
one, then the join QR (until every seat has a phone), each seat's phone and whether it is
connected, and "release" to let a seat move to another phone.  A seat whose phone is
gone says since when and offers, each behind a second tap, to play it at the table until
its phone is back ("lend") or to release it for another phone: the table is never held
hostage by a phone that left (issue 42).  The phones button on every game screen warns
meanwhile (`away_label`).  The QR points at
`seats.host` when config.yaml names one, else at this machine's LAN address; while the
server still waits for its port, the panel says so in place of the invitation to scan."""

from __future__ import annotations

import io
import time
from pathlib import Path

from kivy.app import App
from kivy.core.image import Image as CoreImage
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.seats.address import hotspot, lan_address, qr_png
from companion.ui.widgets import Ask

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


ANY_ADDRESS = ("", "0.0.0.0", "::")  # seats.host values that name no one address


def join_base(host: str, port: int) -> str:
    """Where a phone reaches the table: `seats.host` as configured (it is what the server
    listens on), else this machine's LAN address."""
    if host in ANY_ADDRESS:
        host = lan_address()
    elif ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"http://{host}:{port}"


def away_label(room, tr) -> str:
    """The phones button's words while a seat's phone is gone and the table does not play
    it ("電話！", in the warning colour: the panel says whose and since when), else ""."""
    return tr("seats.phones_away") if set(room.away()) - room.lent else ""


class SeatRow(BoxLayout):
    name = StringProperty("")
    state = StringProperty("")
    seat = ObjectProperty(None)
    panel = ObjectProperty(None)
    claimed = ObjectProperty(False)
    away = BooleanProperty(False)  # its phone is gone and the table does not play it (it may)
    detail = StringProperty("")  # since when its phone is gone, or that the table plays it meanwhile


class PhonesPanel(ModalView):
    qr = ObjectProperty(None, allownone=True)  # the join QR's texture; None once every seat is claimed
    message = StringProperty("")
    address = StringProperty("")
    wifi_step = BooleanProperty(False)  # the Wi-Fi QR is shown (before the join QR)

    def __init__(self, server, **kwargs):
        super().__init__(**kwargs)
        self.server = server
        self.wifi = hotspot()
        self.wifi_step = self.wifi is not None
        self.base = join_base(server.host, server.port)
        self._url = None
        self.room.listeners.append(self.refresh)
        self.bind(on_dismiss=lambda *_: self.room.listeners.remove(self.refresh))
        self.refresh()

    @property
    def room(self):
        return self.server.room

    def tr(self, key: str, **values) -> str:
        app = App.get_running_app()
        return app.tr(key, app.lang, **values)

    def refresh(self) -> None:
        room = self.room
        url = room.join_url(self.base)
        if self.wifi_step:
            self.qr = self._texture(self.wifi.qr_png(scale=8))
            self.message = self.tr("seats.wifi_first", ssid=self.wifi.ssid)
        elif url != self._url or self._url is None:
            self._url = url
            self.qr = None if url is None else self._texture(qr_png(url, scale=8))
        self.address = self.base
        if not self.wifi_step:
            self.message = self.server.problem_in(App.get_running_app().lang) or (
                self.tr("seats.scan_to_join") if url else self.tr(
                    "seats.all_claimed" if room.game_id is not None else "seats.no_game_here"))
        rows = self.ids.rows
        rows.clear_widgets()
        claimed, away = room.claimed(), room.away()
        for seat in room.seats():
            name = room.seat_name(seat).render(lambda k, **v: self.tr(k, **v))
            state = ("seat_free" if seat not in claimed else "seat_online" if claimed[seat] else
                     "seat_lent" if seat in room.lent else "seat_gone")
            rows.add_widget(SeatRow(panel=self, seat=seat, claimed=seat in claimed, name=name, detail=self._detail(seat),
                                    state=self.tr(f"seats.{state}"), away=seat in away and seat not in room.lent))

    def _detail(self, seat: int) -> str:
        """Since when a seat's phone is gone; "" while it is connected."""
        since = self.room.away().get(seat)
        if since is None:
            return ""
        return self.tr("seats.seat_away", since=time.strftime("%H:%M", time.localtime(since)),
                       minutes=int((time.time() - since) // 60))

    def to_join(self) -> None:
        self.wifi_step, self._url = False, None
        self.refresh()

    @staticmethod
    def _texture(png: bytes):
        texture = CoreImage(io.BytesIO(png), ext="png").texture
        texture.mag_filter = texture.min_filter = "nearest"
        return texture

    def ask(self, seat: int, what: str) -> None:
        """"lend" or "release" `seat`, once the table says yes (`self.asked`: the question open)."""
        name = self.room.seat_name(seat).render(lambda k, **v: self.tr(k, **v))
        self.asked = Ask(lambda: getattr(self.room, what)(seat), question=self.tr(f"seats.ask_{what}", name=name),
                         yes=self.tr("seats.answer_yes"), no=self.tr("seats.cancel"))
        self.asked.open()
