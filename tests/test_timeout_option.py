"""--timeout nan is refused by every command that takes --timeout (review3: check took it
as no limit, query said 'above 0', publish did not check): click's FloatRange lets nan
through, since nan < 0 is false."""

from __future__ import annotations

import pytest
from conftest import run_cli

COMMANDS = [
    ("check",),
    ("validate",),
    ("query", "unread"),
    ("sparql", "-"),
    ("publish", "--endpoint", "http://127.0.0.1:9/store"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_timeout_nan_is_exit_2(command):
    result = run_cli(*command, "--timeout", "nan", input="SELECT * {}")
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--timeout': nan is not a number of seconds" in result.stderr
