"""Where phones reach the table: this machine's address on the local network, and the
QR code that holds the join link (segno)."""

from __future__ import annotations

import fcntl
import io
import socket
import struct

import segno

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address (asks the kernel; sends nothing)


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
