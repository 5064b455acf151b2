"""The table's phones panel says where phones reach the table (issue 29, small faults): the
QR showed this machine's LAN address even when config.yaml's `seats.host` named the one
the server listens on; and while the port is busy the panel says so, in the app's language
(the notice was English only)."""

from __future__ import annotations

import socket

import pytest

from companion import i18n
from tests.seats.browser import free_port

HOST_PORT, BUSY_PORT = free_port(), free_port()


def open_panel(gui):
    from kivy.core.window import Window
    from companion.ui.phones import PhonesPanel

    gui.tap(gui.tile("uttt"))
    gui.wait_until(lambda: gui.app.seats is not None, what="the phones' server")
    gui.tap(gui.screen.ids.phones)
    gui.pump(0.2)
    return next(w for w in Window.children if isinstance(w, PhonesPanel))


@pytest.mark.parametrize("gui_config", [f"seats:\n  host: localhost\n  port: {HOST_PORT}\n"], indirect=True,
                         ids=["host"])
def test_the_qr_points_at_the_configured_host(gui):
    panel = open_panel(gui)
    assert panel.address == f"http://localhost:{HOST_PORT}"
    assert panel._url.startswith(f"http://localhost:{HOST_PORT}/") and panel.qr is not None
    gui.screenshot("phones-configured-host")


def test_an_ipv6_host_is_bracketed_and_any_address_is_the_lan_one():
    from companion.seats.address import lan_address
    from companion.ui.phones import join_base

    assert join_base("fd00::7", 8765) == "http://[fd00::7]:8765"
    assert join_base("companion.local", 80) == "http://companion.local:80"
    assert join_base("", 8765) == join_base("0.0.0.0", 8765) == f"http://{lan_address()}:8765"


@pytest.fixture
def busy():
    with socket.socket() as holder:  # another program on the phones' port
        holder.bind(("127.0.0.1", BUSY_PORT))
        holder.listen()
        yield


@pytest.mark.parametrize("gui_config", [f"seats:\n  host: 127.0.0.1\n  port: {BUSY_PORT}\n"], indirect=True,
                         ids=["busy"])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_busy_port_is_said_on_the_panel_in_the_apps_language(busy, gui, lang):
    gui.app.lang = lang
    panel = open_panel(gui)
    where = f"127.0.0.1:{BUSY_PORT}"
    said = i18n.translate("seats.waiting", lang, where=where, why=i18n.translate("seats.port_busy", lang), s="2")
    assert panel.message == said
    assert ("ポートを別のプログラムが使用中" if lang == "ja" else "another program uses the port") in said
    gui.screenshot(f"phones-port-busy-{lang}")
