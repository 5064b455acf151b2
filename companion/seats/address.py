"""Where phones reach the table: this machine's address on the local network, the
names and addresses a phone's request may carry in its Host header, the hotspot
deploy/hotspot.sh made (if it is up), and the QR codes (segno) for both."""

from __future__ import annotations

import fcntl
import io
import ipaddress
import socket
import struct
import subprocess
from dataclasses import dataclass

import segno
import segno.helpers

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address (asks the kernel; sends nothing)
HOTSPOT = "companion-hotspot"  # the NetworkManager connection deploy/hotspot.sh makes


LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
IF_INET6 = "/proc/net/if_inet6"  # Linux: every interface's IPv6 addresses, one a line


def ipv4_addresses() -> list[str]:
    """Each interface's IPv4 address (loopback's too), in the interfaces' order."""
    found = []
    for _, name in sorted(socket.if_nameindex()):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # down, or no IPv4 address
                continue
        found.append(socket.inet_ntoa(packed[20:24]))
    return found


def ipv6_addresses() -> list[str]:
    """Each interface's IPv6 address (none where the kernel has no IPv6)."""
    try:
        with open(IF_INET6) as lines:
            return [str(ipaddress.IPv6Address(int(line.split()[0], 16))) for line in lines if line.strip()]
    except OSError:
        return []


def lan_address() -> str:
    """The first IPv4 address of an interface other than loopback (what the QR shows);
    127.0.0.1 when none."""
    return next((a for a in ipv4_addresses() if not a.startswith("127.")), "127.0.0.1")


def local_hosts() -> frozenset[str]:
    """The host names a request to this machine may carry (lower case, IPv6 without
    brackets): loopback, every address of every interface, and the machine's own name
    (also as NAME.local, as mDNS announces it).  Any other name is a page elsewhere
    pointing its own name at this machine (DNS rebinding)."""
    name = socket.gethostname().lower()
    return LOOPBACK | {name, f"{name}.local"} | set(ipv4_addresses()) | set(ipv6_addresses())


def host_name(host: str) -> str:
    """The name in a Host header, without its port and (IPv6) brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


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
