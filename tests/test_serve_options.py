"""serve's address options (review3 R8, R9): a port of 0 (one the system picks, which the
server cannot announce) is refused at once, and an IPv6 host is written in brackets in
the endpoint URL it prints."""

from __future__ import annotations

from conftest import run_cli

from anthology_kg.server import endpoint_base


def test_port_0_is_refused_with_exit_2():
    result = run_cli("serve", "--port", "0")
    assert result.exit_code == 2 and "0 is not in the range 1<=x<=65535" in result.stderr


def test_an_ipv6_host_is_bracketed_in_the_endpoint_url():
    assert endpoint_base("::1", 7981) == "http://[::1]:7981"
    assert endpoint_base("127.0.0.1", 7981) == "http://127.0.0.1:7981"
    assert endpoint_base("localhost", 80) == "http://localhost:80"
