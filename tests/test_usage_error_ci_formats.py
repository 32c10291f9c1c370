"""A bad option of validate (--fail-on bogus, --engine nope, an option it lacks) is
written in the CI format the command line asks for, as any other input error is
(review48 #2, after 09c9285 and 54295af): said by click before the command runs, it
reached stderr only, and `-o report.json` kept the report of an earlier run, read by a
later step as this run's. stderr (click's usage text) and exit 2 stay."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

BOGUS = "Invalid value for '--fail-on': 'bogus' is not one of"


def test_a_report_file_of_an_earlier_run_is_not_left(anthology):
    assert run_cli("validate", "-o", "report.json").exit_code == 0
    assert json.loads((anthology / "report.json").read_text())["conforms"] is True
    result = run_cli("validate", "-o", "report.json", "--fail-on", "bogus")
    assert result.exit_code == 2 and BOGUS in result.stderr and result.stdout == ""
    report = json.loads((anthology / "report.json").read_text())
    assert report["conforms"] is False and report["results"] == []
    assert report["error"]["message"].startswith(BOGUS)


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        (("--engine", "nope"), "Invalid value for '--engine'"),
        (("--timeout", "-1"), "--timeout"),
        (("--bogus",), "No such option '--bogus'"),
    ],
)
def test_sarif_writes_a_run_whose_execution_failed(anthology, bad, said):
    result = run_cli("validate", "--format", "sarif", "-o", "r.sarif", *bad)
    assert result.exit_code == 2 and said in result.stderr
    (run,) = json.loads((anthology / "r.sarif").read_text())["runs"]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert said in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_github_annotates_it(anthology):
    result = run_cli("validate", "--format", "github", "--fail-on", "bogus")
    assert result.exit_code == 2
    assert result.stdout.startswith("::error title=anthology-kg%3A input error::" + BOGUS)


def test_text_and_check_write_nothing_on_stdout(anthology):
    for args in (("validate", "--fail-on", "bogus"), ("check", "--fail-on", "bogus")):
        result = run_cli(*args)
        assert (result.exit_code, result.stdout) == (2, ""), args
        assert BOGUS in result.stderr
