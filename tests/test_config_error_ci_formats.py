"""A broken configuration file (anthology-kg.toml, or [tool.anthology-kg] in
pyproject.toml) under ``validate --format github``, ``sarif`` or ``junit`` is written in
that format too, at its file and line, as cec7354 writes the other input errors: the file
is read before the command line is parsed, and its error was said on stderr only, so a
workflow got no annotation and no SARIF file to upload. stderr and exit 2 stay."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import run_cli

#: (file, its text, the line of the error, stderr's message after "file:line: ")
BROKEN = {
    "not TOML": ("anthology-kg.toml", 'fail-on = "warning"\nbase = \n', 2, "not TOML: "),
    "a value refused": (
        "pyproject.toml",
        '[project]\nname = "mine"\n\n[tool.anthology-kg]\nfail-on = "warnin"\n',
        5,
        "fail-on is one of none, info, warning, violation",
    ),
    "a folder missing": ("anthology-kg.toml", 'root = "missing"\n', 1, "root: Directory "),
}


@pytest.fixture(params=sorted(BROKEN))
def broken(request, anthology):
    """The bundled anthology with a broken configuration: (file, line, stderr)."""
    name, text, line, message = BROKEN[request.param]
    (anthology / name).write_text(text, encoding="utf-8")
    said = run_cli("validate")
    assert (said.exit_code, said.stdout) == (2, ""), said.output
    assert said.stderr.startswith(f"{name}:{line}: {message}"), said.stderr
    return name, line, said.stderr


def test_github_annotates_the_configuration_file(broken):
    name, line, stderr = broken
    result = run_cli("validate", "--format", "github")
    assert result.exit_code == 2 and result.stderr == stderr
    message = stderr.removeprefix(f"{name}:{line}: ").rstrip("\n")
    assert result.stdout == (
        f"::error file={name},line={line},title=anthology-kg%3A input error::{message}\n"
    )


@pytest.mark.parametrize("how", [("--format", "sarif", "-o", "out.json"), ("-o", "a.sarif")])
def test_sarif_writes_a_run_whose_execution_failed(broken, anthology, how):
    """--format sarif, or the format -o's extension implies."""
    name, line, stderr = broken
    result = run_cli("validate", *how)
    assert result.exit_code == 2 and result.stderr == stderr and result.stdout == ""
    document = json.loads((anthology / how[-1]).read_text(encoding="utf-8"))
    (run,) = document["runs"]
    assert run["results"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error"
    assert stderr == f"{name}:{line}: {notification['message']['text']}\n"
    assert notification["locations"] == [
        {"physicalLocation": {"artifactLocation": {"uri": name}, "region": {"startLine": line}}}
    ]


def test_junit_has_an_error_element(broken):
    name, line, stderr = broken
    result = run_cli("validate", "--format", "junit")
    assert result.exit_code == 2 and result.stderr == stderr
    suites = ET.fromstring(result.stdout)
    assert (suites.get("errors"), suites.get("failures")) == ("1", "0")
    ((error,),) = suites[0]
    assert error.tag == "error" and error.get("type") == "input error"
    assert error.text == stderr.rstrip("\n")


def test_the_format_a_readable_configuration_sets(anthology):
    """A configuration whose only fault is a folder that is not there still chooses
    validate's format ([format] validate = "github")."""
    (anthology / "anthology-kg.toml").write_text(
        'root = "missing"\n\n[format]\nvalidate = "github"\n', encoding="utf-8"
    )
    result = run_cli("validate")
    assert result.exit_code == 2
    assert result.stdout.startswith("::error file=anthology-kg.toml,line=1,title=")


def test_the_other_formats_and_commands_write_nothing(broken):
    """(JSON writes the error too: test_input_error_json.)"""
    _, _, stderr = broken
    for args in (("validate", "--format", "text"), ("check",), ("query", "unread")):
        result = run_cli(*args)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", stderr), args


def test_an_environment_base_refused_before_validate_runs(anthology, monkeypatch):
    """A bad ANTHOLOGY_KG_BASE is said before the command runs too: an error of no file."""
    monkeypatch.setenv("ANTHOLOGY_KG_BASE", "not-an-iri")
    result = run_cli("validate", "--format", "github")
    assert result.exit_code == 2
    assert result.stdout.startswith("::error title=anthology-kg%3A input error::ANTHOLOGY_KG_BASE")
    assert result.stderr.startswith("anthology-kg: ANTHOLOGY_KG_BASE 'not-an-iri' ")
