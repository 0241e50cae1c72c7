"""How a request reached the hall: the client's address, scheme and host, through trusted proxies only.

A reverse proxy in front of the hall tells it who the client is (``X-Forwarded-For``) and how the
client spoke to it (``X-Forwarded-Proto``, ``X-Forwarded-Host``). Anyone can send those headers, so
they are read only when the connection comes from an address listed in ``--trusted-proxy``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import Scope

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(values: Iterable[str]) -> list[Network]:
    """Addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``); raises ValueError naming a bad one."""
    networks: list[Network] = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return networks


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")  # type: ignore[no-any-return]
    return None


class Proxies:
    """The trusted proxies, and what a request's scope says once they are taken into account."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.networks = parse_networks(trusted)

    def trusts(self, address: str | None) -> bool:
        ip = _address(address) if address else None
        return ip is not None and any(ip in net for net in self.networks)

    def _peer(self, scope: Scope) -> str | None:
        client = scope.get("client")
        return client[0] if client else None

    def _forwarded(self, scope: Scope, name: bytes) -> str | None:
        """The nearest proxy's value of an X-Forwarded-* header, when the peer is a trusted proxy."""
        if not self.trusts(self._peer(scope)):
            return None
        value = _header(scope, name)
        if not value:
            return None
        return value.split(",")[-1].strip() or None

    def client(self, scope: Scope) -> str:
        """The client's address: the peer, or behind trusted proxies the first untrusted hop."""
        peer = self._peer(scope) or "unknown"
        if not self.trusts(peer):
            return peer
        hops = [h.strip() for h in (_header(scope, b"x-forwarded-for") or "").split(",")]
        for hop in reversed([h for h in hops if h]):
            if not self.trusts(hop):
                return hop if _address(hop) is not None else peer
        return peer

    def https(self, scope: Scope) -> bool:
        proto = self._forwarded(scope, b"x-forwarded-proto")
        if proto is not None:
            return proto.lower() == "https"
        return scope.get("scheme") in ("https", "wss")

    def host(self, scope: Scope) -> str | None:
        """The host (and port) the client asked for."""
        return self._forwarded(scope, b"x-forwarded-host") or _header(scope, b"host")


def address_key(address: str) -> str:
    """An address as rate limits count it: IPv6 by its /64 (one household or server gets a /64)."""
    ip = _address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return address
