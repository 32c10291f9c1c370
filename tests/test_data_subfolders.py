"""Data files in sub-folders of ``data/`` are not read: every command that warns of a
``data/X.TTL`` (``check``, ``validate``, ``fmt``, ``export``) says so once, at the first
such file, with their number, on stderr and with the exit code the rules give."""

from __future__ import annotations

import pytest
from conftest import rules_fixture_copy, run_cli

WARNING = (
    "data/d0/e0/LIT-002.ttl: warning: not read: data files are read from data/ itself, "
    "not from its sub-folders (3 *.ttl files in them, this one first)\n"
)


@pytest.fixture
def root(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule9-bad")
    monkeypatch.chdir(root)  # files are shown relative to it
    return root


def _nest(root, relative: str) -> None:
    path = root / "data" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("not Turtle, and not read", "utf-8")


@pytest.mark.parametrize(
    "command",
    [("check",), ("validate", "--format", "json"), ("fmt", "--check"), ("export",)],
)
def test_data_files_in_sub_folders_are_named_once_with_their_number(root, command):
    expected = run_cli(*command)
    for relative in ("d1/LIT-004.ttl", "d0/e0/LIT-002.ttl", "d0/e1/LIT-003.ttl"):
        _nest(root, relative)
    _nest(root, ".git/LIT-005.ttl")  # hidden: not the anthology's
    _nest(root, "d2/notes.md")
    result = run_cli(*command)
    assert result.exit_code == expected.exit_code, result.output
    assert result.stdout == expected.stdout
    assert result.stderr == expected.stderr + WARNING


def test_one_file_in_a_sub_folder_and_folders_without_any(root):
    _nest(root, "old/README.md")
    assert run_cli("check").stderr == ""
    _nest(root, "old/LIT-009.ttl")
    assert run_cli("check").stderr == (
        "data/old/LIT-009.ttl: warning: not read: data files are read from data/ itself, "
        "not from its sub-folders (the only *.ttl file in them)\n"
    )
