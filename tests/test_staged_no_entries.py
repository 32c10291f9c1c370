"""`check --staged` and `fmt --check --staged` where git's index holds no data file yet
(a new repository, nothing added): they warned 'data: warning: no entries: the folder
holds no *.ttl file', though data/ holds the entries, none of them staged. The warning
now says what is true: the index holds none, and how many of the folder's are not in it.
On real git repositories."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from gitrepo import git

from anthology_kg.resources import bundled_dir

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

#: The warning of a data/ folder of no *.ttl file (layout.NO_ENTRIES), as said.
EMPTY_FOLDER = (
    "data: warning: no entries: the folder holds no *.ttl file (an empty anthology: "
    "nothing to check)\n"
)


@pytest.fixture
def unstaged(tmp_path: Path, monkeypatch) -> Path:
    """A new git repository whose data/ holds the bundled entries, none added."""
    root = tmp_path / "repo"
    shutil.copytree(bundled_dir() / "data", root / "data")
    git(tmp_path, "init", "-q", str(root))
    monkeypatch.chdir(root)
    return root


def _said(count: int) -> str:
    files = "*.ttl files are" if count > 1 else "*.ttl file is"
    return (
        "data: warning: no entries staged: git's index holds no data/*.ttl file, so --staged "
        f"checks an empty anthology (the folder's {count} {files} not in the index: git add "
        "stages a file)\n"
    )


@pytest.mark.parametrize(
    "command", [("check", "--staged"), ("fmt", "--check", "--staged")], ids=["check", "fmt"]
)
def test_an_index_of_no_data_file_is_said_as_such(unstaged, command):
    count = len(list((unstaged / "data").glob("*.ttl")))
    assert count > 1
    result = run_cli(*command)
    assert result.exit_code == 0, result.output
    assert result.stderr == _said(count)
    # Something else staged (a README), still no entry: the same.
    (unstaged / "README.md").write_text("mine\n", encoding="utf-8")
    git(unstaged, "add", "README.md")
    assert run_cli(*command).stderr == _said(count)


def test_one_file_in_the_folder_is_counted_as_one(unstaged):
    for path in sorted((unstaged / "data").glob("*.ttl"))[1:]:
        path.unlink()
    assert run_cli("check", "--staged").stderr == _said(1)


def test_an_entry_staged_leaves_no_such_warning(unstaged):
    git(unstaged, "add", "data/LIT-168.ttl")
    result = run_cli("check", "--staged")
    assert "no entries" not in result.stderr, result.stderr


def test_an_empty_folder_and_index_keep_the_folder_warning(tmp_path, monkeypatch):
    """Where neither the index nor the folder holds an entry, the folder's warning is
    true as it stands."""
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    git(tmp_path, "init", "-q", str(root))
    monkeypatch.chdir(root)
    for command in (("check", "--staged"), ("fmt", "--check", "--staged"), ("check",)):
        result = run_cli(*command)
        assert (result.exit_code, result.stderr) == (0, EMPTY_FOLDER), command
