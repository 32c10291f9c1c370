"""An input error (a Turtle syntax error, exit 2) under ``validate --format github``,
``sarif`` or ``junit`` is written in that format too (hunt21 #9): GitHub got no
annotation at the file, and ``--format sarif -o anthology.sarif`` wrote no file, so the
workflow's upload step failed as well. stderr's message and exit 2 stay."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import ENGINES, run_cli

LINE = 9  # of data/SOTA-154.ttl: its rdfs:label
FILE = "data/SOTA-154.ttl"


@pytest.fixture
def broken(anthology):
    path = anthology / FILE
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[LINE - 1].lstrip().startswith("rdfs:label")
    lines[LINE - 1] = lines[LINE - 1].rstrip("\n") + " foo\n"
    path.write_text("".join(lines), encoding="utf-8")
    said = run_cli("validate")
    assert said.exit_code == 2 and said.stdout == ""
    assert said.stderr.startswith(f"{FILE}:{LINE}: Turtle syntax error: ")
    return said.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_github_annotates_the_file_and_line(broken, engine):
    result = run_cli("validate", "--format", "github", "--engine", engine)
    assert result.exit_code == 2 and result.stderr == broken
    message = broken.removeprefix(f"{FILE}:{LINE}: ").rstrip("\n")
    assert result.stdout == (
        f"::error file={FILE},line={LINE},title=anthology-kg%3A input error::{message}\n"
    )


def test_sarif_writes_a_run_whose_execution_failed(broken, anthology):
    result = run_cli("validate", "--format", "sarif", "-o", "anthology.sarif")
    assert result.exit_code == 2 and result.stderr == broken and result.stdout == ""
    document = json.loads((anthology / "anthology.sarif").read_text(encoding="utf-8"))
    assert document["version"] == "2.1.0"
    (run,) = document["runs"]
    assert run["tool"]["driver"]["name"] == "anthology-kg" and run["results"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error"
    assert broken.endswith(f": {notification['message']['text']}\n")
    assert notification["message"]["text"].startswith("Turtle syntax error: ")
    assert notification["locations"] == [
        {"physicalLocation": {"artifactLocation": {"uri": FILE}, "region": {"startLine": LINE}}}
    ]


def test_junit_has_an_error_element(broken):
    result = run_cli("validate", "--format", "junit")
    assert result.exit_code == 2 and result.stderr == broken
    suites = ET.fromstring(result.stdout)
    assert (suites.get("errors"), suites.get("failures")) == ("1", "0")
    (suite,) = suites
    assert (suite.get("tests"), suite.get("errors")) == ("1", "1")
    (case,) = suite
    (error,) = case
    assert error.tag == "error" and error.get("type") == "input error"
    assert error.text == broken.rstrip("\n")


def test_an_error_without_a_file_has_no_location(anthology):
    """An unknown --baseline revision (outside a git work tree): an input error of no
    file (at the anthology's folder)."""
    result = run_cli("validate", "--format", "github", "--baseline", "no-such-revision")
    assert result.exit_code == 2
    assert result.stdout.startswith("::error title=anthology-kg%3A input error::")
    document = json.loads(
        run_cli("validate", "--format", "sarif", "--baseline", "no-such-revision").stdout
    )
    (notification,) = document["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert "locations" not in notification


def test_the_text_format_writes_nothing(broken):
    """(JSON writes the error too: test_input_error_json.)"""
    result = run_cli("validate", "--format", "text")
    assert result.exit_code == 2 and result.stderr == broken and result.stdout == ""
