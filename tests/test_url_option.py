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
