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


def test_a_shallow_clone_says_so(tmp_path, monkeypatch):
    # actions/checkout's default: one commit of each branch, their merge base not fetched.
    origin = tmp_path / "origin"
    shutil.copytree(FIXTURES / "minimal" / "data", origin / "data")
    git(tmp_path, "init", "-q", "-b", "main", str(origin))
    commit_all(origin, "base")
    git(origin, "checkout", "-q", "-b", "topic")
    (origin / "data" / "note.txt").write_text("topic\n", encoding="utf-8")
    commit_all(origin, "topic")
    git(origin, "checkout", "-q", "main")
    (origin / "data" / "note.txt").write_text("main\n", encoding="utf-8")
    commit_all(origin, "main")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{origin}", "clone")
    monkeypatch.chdir(clone)
    result = run_cli("diff", "origin/main...origin/topic")
    assert result.exit_code == 2
    assert "no common ancestor of 'origin/main'" in result.stderr
    assert "shallow clone" in result.stderr and "fetch-depth: 0" in result.stderr
    assert len(result.stderr.splitlines()) == 1
