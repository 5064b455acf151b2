"""Where phones reach the table: this machine's address on the local network, the
hotspot deploy/hotspot.sh made (if it is up), and the QR codes (segno) for both."""

from __future__ import annotations

import fcntl
import io
import socket
import struct
import subprocess
from dataclasses import dataclass

import segno
import segno.helpers

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address (asks the kernel; sends nothing)
HOTSPOT = "companion-hotspot"  # the NetworkManager connection deploy/hotspot.sh makes


def lan_address() -> str:
    """The first IPv4 address of an interface other than loopback; 127.0.0.1 when none."""
    for _, name in sorted(socket.if_nameindex()):
        if name == "lo":
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # down, or no IPv4 address
                continue
        address = socket.inet_ntoa(packed[20:24])
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def qr_png(text: str, scale: int = 6) -> bytes:
    """`text` as a QR code (PNG, dark on white with the quiet zone), for the table's screen."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


@dataclass(frozen=True)
class Hotspot:
    ssid: str
    password: str

    def qr_png(self, scale: int = 6) -> bytes:
        """The Wi-Fi QR code phones' cameras understand (WIFI:T:WPA;S:…;P:…;;)."""
        out = io.BytesIO()
        segno.helpers.make_wifi(ssid=self.ssid, password=self.password, security="WPA").save(
            out, kind="png", scale=scale, border=4)
        return out.getvalue()


def hotspot(timeout: float = 2.0) -> Hotspot | None:
    """The table's own hotspot while it is up (asked of NetworkManager's nmcli), else None."""
    try:
        answer = subprocess.run(
            ["nmcli", "--show-secrets", "--terse", "--get-values",
             "GENERAL.STATE,802-11-wireless.ssid,802-11-wireless-security.psk", "connection", "show", HOTSPOT],
            capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = answer.stdout.splitlines()
    if answer.returncode != 0 or len(lines) < 3 or lines[0] != "activated":
        return None
    return Hotspot(lines[1], lines[2])
