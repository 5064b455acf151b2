"""Who may hold a connection to the phones' server, counted on the server's loop.

Two counts, each taken the moment something arrives and before anything is awaited (so
200 sockets opened at once are counted one by one), and given back when it ends:

- TCP connections (`Connections`): at most `total`, and at most `per_address` from one
  address (an IPv6 network's /64 counts as one address: a laptop has many of them there).
  Over that, the connection is closed at once.  aiohttp's keepalive timeout closes one
  that has not sent a whole request by then (a half-open request holds nothing for long).
- WebSockets (`Gate`): a socket that showed a device key the table knows before its
  handshake comes in through its own door (`keyed`), which keyless sockets cannot fill;
  keyless ones share `keyless` places, at most `per_address` from one address, and must
  show a valid room token within the server's hello time or be closed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
from collections import Counter


def address_of(peer) -> str:
    """The address counted for a peer (`transport.get_extra_info("peername")`): IPv4 as it
    is, IPv6 by its /64; "?" when unknown (a Unix socket in tests)."""
    host = peer[0] if isinstance(peer, tuple) and peer else None
    try:
        ip = ipaddress.ip_address(host.split("%")[0]) if isinstance(host, str) else None
    except ValueError:
        return "?"
    if ip is None:
        return "?"
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


class Pool:
    """`size` places, at most `per` for one owner (None: no such limit)."""

    def __init__(self, size: int, per: int | None = None):
        self.size, self.per = size, per
        self.held: Counter = Counter()
        self.peak = self.peak_per = 0  # the most ever held, in all and by one owner (benchmarks read them)

    def __len__(self) -> int:
        return sum(self.held.values())

    def take(self, owner: str) -> bool:
        if len(self) >= self.size or (self.per is not None and self.held[owner] >= self.per):
            return False
        self.held[owner] += 1
        self.peak, self.peak_per = max(self.peak, len(self)), max(self.peak_per, self.held[owner])
        return True

    def give(self, owner: str) -> None:
        self.held[owner] -= 1
        if self.held[owner] <= 0:
            del self.held[owner]


class Gate:
    """The WebSocket places: `admit(address, key_hash)` takes one (True) or refuses (False);
    `leave` gives it back.  A key's place is counted per key (a phone's new socket and its
    old one, briefly), a keyless one per address."""

    def __init__(self, keyless: int = 24, keyless_per_address: int = 6, keyed: int = 24, per_key: int = 2):
        self.keyless = Pool(keyless, keyless_per_address)
        self.keyed = Pool(keyed, per_key)

    def admit(self, address: str, key_hash: str | None) -> bool:
        return self.keyed.take(key_hash) if key_hash is not None else self.keyless.take(address)

    def leave(self, address: str, key_hash: str | None) -> None:
        (self.keyed if key_hash is not None else self.keyless).give(key_hash if key_hash is not None else address)


def open_files_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Connections:
    """The TCP connections of an aiohttp `web.Server`, capped (see the module's docstring):
    by default a quarter of the process's open-files limit (1,024 under the service's
    LimitNOFILE=4096; the store, Kivy and the sensor keep the rest), at most 1,024."""

    def __init__(self, total: int | None = None, per_address: int = 32):
        self.pool = Pool(total or min(1024, open_files_limit() // 4), per_address)
        self._owner: dict = {}  # handler -> the address it was counted under
        self.refused = 0

    def watch(self, server) -> None:
        """Count every connection `server` (aiohttp's `web.Server`) is told of."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler, transport) -> None:
            made(handler, transport)
            address = address_of(transport.get_extra_info("peername"))
            if not self.pool.take(address):
                self.refused += 1
                asyncio.get_running_loop().call_soon(transport.abort)  # once aiohttp's handler has started
                return
            self._owner[handler] = address

        def connection_lost(handler, exc=None) -> None:
            if handler in self._owner:
                self.pool.give(self._owner.pop(handler))
            lost(handler, exc)

        server.connection_made, server.connection_lost = connection_made, connection_lost
