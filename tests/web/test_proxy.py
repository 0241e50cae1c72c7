"""How a request reached the hall: X-Forwarded-* headers are believed from trusted proxies only."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.web.proxy import Proxies, address_key, parse_networks

PROXY = "127.0.0.1"
CLIENT = "127.0.0.9"


def scope(peer: str | None, scheme: str = "http", **headers: str) -> dict[str, Any]:
    """An HTTP scope from ``peer``; ``x_forwarded_for="..."`` becomes ``x-forwarded-for``."""
    return {
        "type": "http",
        "scheme": scheme,
        "client": (peer, 50000) if peer else None,
        "headers": [
            (name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()
        ],
    }


def test_networks_are_addresses_or_ranges_and_a_bad_one_is_named():
    networks = parse_networks(["127.0.0.1", " 127.0.1.0/24 ", "::1"])
    assert [str(n) for n in networks] == ["127.0.0.1/32", "127.0.1.0/24", "::1/128"]
    with pytest.raises(ValueError, match="'proxy.example' is not an IP address or network"):
        parse_networks(["127.0.0.1", "proxy.example"])


def test_a_range_is_trusted_for_each_of_its_addresses_and_nothing_else():
    proxies = Proxies(["127.0.1.0/24"])
    assert proxies.trusts("127.0.1.200")
    assert not proxies.trusts("127.0.2.1")
    assert not proxies.trusts("not an address")
    assert not proxies.trusts(None)


def test_forwarded_headers_from_an_untrusted_peer_are_ignored():
    proxies = Proxies([PROXY])
    forged = scope(
        CLIENT,
        host="hall.test",
        x_forwarded_for="127.0.0.50",
        x_forwarded_proto="https",
        x_forwarded_host="elsewhere.test",
    )
    assert proxies.client(forged) == CLIENT
    assert not proxies.https(forged)
    assert proxies.host(forged) == "hall.test"


def test_behind_a_trusted_proxy_the_client_is_the_first_untrusted_hop():
    proxies = Proxies([PROXY, "127.0.1.0/24"])
    # The client may prepend anything; the hops the proxies added are read from the right.
    request = scope(PROXY, x_forwarded_for=f"127.0.0.66, {CLIENT}, 127.0.1.5")
    assert proxies.client(request) == CLIENT


def test_a_trusted_proxy_without_a_usable_hop_is_the_client_itself():
    proxies = Proxies([PROXY])
    assert proxies.client(scope(PROXY)) == PROXY
    assert proxies.client(scope(PROXY, x_forwarded_for="")) == PROXY
    assert proxies.client(scope(PROXY, x_forwarded_for="garbage")) == PROXY
    assert proxies.client(scope(None)) == "unknown"


def test_scheme_and_host_come_from_the_nearest_trusted_proxy():
    proxies = Proxies([PROXY])
    request = scope(
        PROXY,
        host="127.0.0.1:8000",
        x_forwarded_proto="http, HTTPS",
        x_forwarded_host="a.test, hall.test",
    )
    assert proxies.https(request)
    assert proxies.host(request) == "hall.test"
    plain = scope(PROXY, host="127.0.0.1:8000", x_forwarded_proto="http")
    assert not proxies.https(plain)
    assert proxies.host(plain) == "127.0.0.1:8000"


def test_without_proxy_headers_the_connection_itself_says_the_scheme():
    proxies = Proxies()
    assert proxies.https(scope(CLIENT, scheme="https"))
    assert proxies.https(scope(CLIENT, scheme="wss"))
    assert not proxies.https(scope(CLIENT, scheme="ws"))
    assert proxies.host(scope(CLIENT)) is None


def test_rate_limits_count_an_ipv6_client_by_its_64_and_a_mapped_ipv4_as_ipv4():
    assert address_key("fd00:1:2:3:4:5:6:7") == "fd00:1:2:3::/64"
    assert address_key("fd00:1:2:3:ffff::1") == address_key("fd00:1:2:3::9")
    assert address_key("::ffff:127.0.0.9") == "127.0.0.9"
    assert address_key(CLIENT) == CLIENT
    assert address_key("unknown") == "unknown"
