"""``diff``'s options of a query (--param, --timeout, --allow-service: their help says
"With --query") are refused without --query, exit 2 before any state is read, where
--timeout and --allow-service were silently ignored (hunt22)."""

from __future__ import annotations

import shutil

import pytest
from conftest import run_cli
from test_diff import repo  # noqa: F401

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--param", "x=1"], "--param"),
        (["--timeout", "5"], "--timeout"),
        (["--timeout", "0"], "--timeout"),
        (["--allow-service"], "--allow-service"),
    ],
)
def test_a_query_option_without_query_is_refused(repo, args, option):  # noqa: F811
    result = run_cli("diff", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"anthology-kg: {option} needs --query\n"
    # Refused before the states are read: a bad revision is not what is said.
    result = run_cli("diff", "no-such-revision", *args)
    assert result.stderr == f"anthology-kg: {option} needs --query\n"


def test_with_query_they_apply(repo):  # noqa: F811
    result = run_cli("diff", "--query", "confounders", "--timeout", "5", "--allow-service")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("0 row(s) appeared, 0 disappeared\n"), result.stdout
