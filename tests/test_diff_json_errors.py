"""``diff --format json`` writes an input error as JSON too, an object holding ``error``
as validate's JSON report does (fixK's note): with a broken anthology-kg.toml,
``validate --format json`` wrote its error object and ``diff --format json`` (or ``-o
x.json``) nothing on stdout, leaving -o's file an earlier run's diff; a bad revision
the same. The other formats of diff (text, markdown, the patch) are for people or
patch tools and carry none: stderr says it, exit 2, as ever."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import run_cli
from test_diff import change_takeaway, repo  # noqa: F401

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

BROKEN = '[format]\nvalidate = "json"\nbroken\n'
SAID = "not TOML: Expected '=' after a key in a key/value pair (column 7)"
ERROR = {"message": SAID, "file": "anthology-kg.toml", "line": 3}


def _keys(document: dict) -> list[str]:
    return list(document)


def test_a_configuration_error_is_written_as_diffs_json(repo):  # noqa: F811
    change_takeaway(repo)
    real = json.loads(run_cli("diff", "--format", "json").stdout)
    (repo / "anthology-kg.toml").write_text(BROKEN, encoding="utf-8")
    result = run_cli("diff", "--format", "json")
    assert (result.exit_code, result.stderr) == (2, f"anthology-kg.toml:3: {SAID}\n")
    document = json.loads(result.stdout)
    assert _keys(document) == [*_keys(real), "error"]
    assert document == {
        "schema": "anthology-kg/diff/1",
        "old": None,
        "new": None,
        "equal": False,
        "counts": dict.fromkeys(real["counts"], 0),
        "ruleFiles": [],
        "entries": [],
        "error": ERROR,
    }
    # The same error object as validate's JSON report carries.
    validated = json.loads(run_cli("validate", "--format", "json").stdout)
    assert validated["error"] == document["error"]


def test_an_earlier_diff_in_the_output_file_is_replaced(repo):  # noqa: F811
    change_takeaway(repo)
    written = repo / "changes.json"
    assert run_cli("diff", "-o", str(written)).exit_code == 1
    assert json.loads(written.read_text(encoding="utf-8"))["equal"] is False
    (repo / "anthology-kg.toml").write_text(BROKEN, encoding="utf-8")
    result = run_cli("diff", "-o", str(written))
    assert (result.exit_code, result.stdout) == (2, "")
    assert json.loads(written.read_text(encoding="utf-8"))["error"] == ERROR


def test_a_query_diffs_error_is_written_as_its_json(repo):  # noqa: F811
    real = json.loads(run_cli("diff", "--query", "unread", "--format", "json").stdout)
    (repo / "anthology-kg.toml").write_text(BROKEN, encoding="utf-8")
    result = run_cli("diff", "--query", "unread", "--format", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert _keys(document) == [*_keys(real), "error"]
    assert document == {
        "schema": "anthology-kg/query-diff/1",
        "query": "unread",
        "old": None,
        "new": None,
        "equal": False,
        "variables": [],
        "appeared": [],
        "disappeared": [],
        "error": ERROR,
    }


def test_the_diffs_own_input_errors_are_written_too(repo):  # noqa: F811
    result = run_cli("diff", "nosuch", "--format", "json")
    message = f"unknown revision 'nosuch' (not a commit of the repository {repo})"
    assert (result.exit_code, result.stderr) == (2, f"anthology-kg: {message}\n")
    error = json.loads(result.stdout)["error"]
    assert error == {"message": message, "file": None, "line": None}
    result = run_cli("diff", "--format", "json", "--param", "x=1")
    assert json.loads(result.stdout)["error"]["message"] == "--param needs --query"
    result = run_cli("diff", "--format", "json", "--exit-zero=3")  # click's usage error
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["message"] == (
        "Option '--exit-zero' does not take a value."
    )


@pytest.mark.parametrize("fmt", ["text", "markdown", "nquads"])
def test_the_other_formats_write_no_error(repo, fmt):  # noqa: F811
    (repo / "anthology-kg.toml").write_text(BROKEN, encoding="utf-8")
    result = run_cli("diff", "--format", fmt)
    assert (result.exit_code, result.stdout) == (2, "")
    assert run_cli("diff", "nosuch", "--format", fmt).stdout == ""
