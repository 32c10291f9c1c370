"""``--timeout inf`` (or any number of seconds past what a thread can wait) to a store is
no limit, for publish as for a query sent by form (hunt1 F12: 'OverflowError: timestamp
out of range for platform time_t' traceback, exit 1)."""

from __future__ import annotations

import pytest
from conftest import run_cli
from stores import recording_store

NO_ROWS = b'{"head": {"vars": ["entry"]}, "results": {"bindings": []}}'


@pytest.mark.parametrize("seconds", ["inf", "1e300"])
def test_publish_with_no_time_limit(seconds):
    with recording_store(status=204) as (url, seen):
        result = run_cli("publish", "--add", "--endpoint", f"{url}/store", "--timeout", seconds)
    assert result.exit_code == 0, result.output
    assert len(seen) == 3 and result.stdout.count("added to <") == 3, result.stdout


@pytest.mark.parametrize("seconds", ["inf", "1e300"])
def test_a_query_by_form_with_no_time_limit(seconds):
    with recording_store(body=NO_ROWS) as (url, seen):
        result = run_cli(
            "query", "unread", "--endpoint", f"{url}/q", "--method", "form", "--timeout", seconds,
            "--graph", "urn:test:g",  # the probe of that graph, then the query
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert seen == ["POST /q", "POST /q"] and "(0 rows)" in result.stdout, result.stdout
