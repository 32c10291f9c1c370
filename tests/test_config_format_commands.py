"""A configuration's ``[format]`` key that names a command whose --format the file does
not set says so: ``diff = "json"`` said "format: no command 'diff'", and diff is a
command (hunt22); its --format, with --query or not, is given on the command line."""

from __future__ import annotations

import pytest
from conftest import run_cli

SETTABLE = "the file sets the --format of validate, query, sparql, export, stats, rules, queries"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("diff", f"format: diff's --format is given on the command line only ({SETTABLE})"),
        ("check", f"format: check has no --format ({SETTABLE})"),
        ("fmt", f"format: fmt has no --format ({SETTABLE})"),
        ("validat", "format: no command 'validat'; did you mean 'validate'?"),
    ],
)
@pytest.mark.parametrize("file", ["anthology-kg.toml", "pyproject.toml"])
def test_a_format_the_file_cannot_set_is_named_as_such(tmp_path, monkeypatch, command, said, file):
    table = "[tool.anthology-kg.format]" if file == "pyproject.toml" else "[format]"
    (tmp_path / file).write_text(f'{table}\n{command} = "json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("queries")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{file}:2: {said}\n"


def test_a_format_the_file_sets_is_taken(tmp_path, monkeypatch):
    (tmp_path / "anthology-kg.toml").write_text('[format]\nqueries = "json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("queries")
    assert result.exit_code == 0 and result.stdout.startswith(("[", "{")), result.stdout
