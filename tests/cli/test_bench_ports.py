"""``free_port``: the port it names can be listened on at once."""

from __future__ import annotations

import socket

from dominohall.cli.bench.ports import free_port


def test_the_port_named_can_be_listened_on() -> None:
    port = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))  # (raises if something held it)
        server.listen()
        assert server.getsockname() == ("127.0.0.1", port)
