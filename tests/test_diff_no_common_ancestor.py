"""`diff A...B` of two histories with no common ancestor: exit 2, the message naming each
revision as the user typed it and the commit it resolved to."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, run_cli
from test_diff import commit_all, git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_the_message_names_the_revisions_as_typed_and_their_commits(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "minimal" / "data", root / "data")
    git(tmp_path, "init", "-q", "-b", "main", str(root))
    commit_all(root, "one history")
    git(root, "checkout", "-q", "--orphan", "lone")
    commit_all(root, "another, unrelated")
    main, lone = (git(root, "rev-parse", name).strip() for name in ("main", "lone"))
    monkeypatch.chdir(root)
    result = run_cli("diff", "main...lone")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"anthology-kg: no common ancestor of 'main' ({main[:12]}) and 'lone' ({lone[:12]})\n"
    )
