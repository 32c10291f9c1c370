"""A store's URL that is not an absolute http(s) URL is refused before any request (exit
2), for every option naming one (review3: 'publish --endpoint notaurl' said the store
may now hold a mix of the graphs it never sent)."""

from __future__ import annotations

import pytest
from conftest import run_cli

CASES = [
    ("publish", "--endpoint", "notaurl"),
    ("publish", "--update", "ftp://example.org/update"),
    ("query", "unread", "--endpoint", "localhost:7878/query"),
    ("validate", "--endpoint", "http:///query"),
    ("sparql", "-", "--endpoint", "example.org/sparql"),
]


@pytest.mark.parametrize("command", CASES, ids=" ".join)
def test_a_url_that_is_no_http_url_is_exit_2_before_any_request(command):
    result = run_cli(*command, input="SELECT * {}")
    assert result.exit_code == 2, result.output
    assert f"{command[-1]!r} is not an http:// or https:// URL" in result.stderr
    assert "may now hold" not in result.stderr


MALFORMED = [
    ("query", "unread", "--endpoint", "http://127.0.0.1:99999/q", "port out of range 0-65535"),
    ("publish", "--endpoint", "http://[::1/store", "invalid IPv6 URL"),
    ("publish", "--update", "https://[::1/update", "invalid IPv6 URL"),
    ("validate", "--endpoint", "http://127.0.0.1:x/q", "port could not be cast to integer"),
    ("sparql", "-", "--endpoint", "http://:80/q", "no host"),
]


@pytest.mark.parametrize("command", MALFORMED, ids=lambda c: " ".join(c[:-1]))
def test_a_malformed_url_is_a_usage_error_naming_the_option_and_why(command):
    """hunt1 F1: a port out of range or not a number, a broken IPv6 bracket, no host were
    a ValueError traceback (exit 1), or a misleading error from the HTTP client later."""
    *args, why = command
    result = run_cli(*args, input="SELECT * {}")
    assert result.exit_code == 2, result.output
    said = f"Invalid value for '{args[-2]}': {args[-1]!r} is not an http:// or https:// URL"
    assert f"{said} ({why}" in result.stderr, result.stderr


@pytest.mark.parametrize("url", ["http://127.0.0.1:0/q", "http://[::1]:0/q"])
def test_a_store_is_named_with_its_port_0_and_its_ipv6_brackets(url):
    """hunt1 F1: ``http://127.0.0.1:0/q`` was reported as ``http://127.0.0.1/q``, and
    ``http://[::1]:0/q`` as ``http://::1/q``. (Port 0 is never listened on.)"""
    result = run_cli("query", "unread", "--endpoint", url, "--method", "get")
    assert result.exit_code == 2, result.output
    assert f"GET {url}: cannot connect" in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("url", "printed"),
    [
        ("http://user:secret@127.0.0.1:0/q?token=t", "http://127.0.0.1:0/q"),
        ("https://[::1]:8080/store?x", "https://[::1]:8080/store"),
        ("http://user:secret@host:x/q?token=t#f", "http://host:x/q"),
        ("http://user:secret@[::1/q", "http://[::1/q"),
    ],
)
def test_shown_keeps_the_port_and_brackets_and_never_a_secret(url, printed):
    from anthology_kg.endpoint import shown

    assert shown(url) == printed
