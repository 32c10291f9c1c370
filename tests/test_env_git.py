"""The git processes of ``diff`` and ``check --baseline`` in the environments git and CI
give them: a repository whose path is not UTF-8 (or not ASCII under an ASCII locale), a
git hook of a linked worktree (git exports GIT_DIR) with the anthology in a subfolder,
and a repository git refuses ("detected dubious ownership"), said as git says it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest
from conftest import run_cli
from gitrepo import git

from anthology_kg.resources import bundled_dir

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

LABEL = r'rdfs:label "DAPO[^"]*"'


def _git(folder: Path, *args: str) -> str:
    return git(folder, *args).strip()


def _repository(top: Path, anthology: str = "") -> Path:
    """A repository at ``top`` whose folder ``anthology`` holds the bundled anthology's
    data, committed, and then with one label changed (committed too: HEAD~1, HEAD)."""
    root = top / anthology
    shutil.copytree(bundled_dir() / "data", root / "data")
    _git(top.parent, "init", "-q", "-b", "main", os.fsdecode(top))
    _git(top, "add", "-A")
    _git(top, "commit", "-q", "-m", "one")
    _relabel(root)
    _git(top, "commit", "-q", "-am", "two")
    return root


def _relabel(root: Path, new: str = "DAPO 2") -> None:
    path = root / "data" / "LIT-168.ttl"
    text, changed = re.subn(LABEL, f'rdfs:label "{new}"', path.read_text(encoding="utf-8"), count=1)
    assert changed
    path.write_text(text, encoding="utf-8")


def test_a_repository_whose_path_is_not_utf8(tmp_path, monkeypatch):
    root = _repository(tmp_path / os.fsdecode(b"caf\xe9"))
    monkeypatch.chdir(root)
    result = run_cli("diff", "HEAD~1", "HEAD")
    assert result.exit_code == 1, result.stderr
    assert result.stdout.startswith('changed LIT-168 "DAPO 2"')


def test_a_repository_whose_path_the_locale_cannot_encode(tmp_path):
    # Under an ASCII locale without UTF-8 mode, "café" is not ASCII: passed to git as
    # the bytes it came as.
    root = _repository(tmp_path / "café")
    done = subprocess.run(
        [sys.executable, "-m", "anthology_kg", "diff", "HEAD~1", "HEAD"],
        cwd=root,
        capture_output=True,
        env={**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(b'changed LIT-168 "DAPO 2"')


def test_a_hook_of_a_linked_worktree_reads_the_anthology_of_a_subfolder(tmp_path, monkeypatch):
    top = tmp_path / "main"
    _repository(top, "anth")
    worktree = tmp_path / "wt"
    _git(top, "worktree", "add", "-q", str(worktree), "HEAD")
    _relabel(worktree / "anth", "DAPO 3")
    # What git exports to a hook run in the linked worktree (and runs it at its top).
    monkeypatch.setenv("GIT_DIR", _git(worktree, "rev-parse", "--absolute-git-dir"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(top / ".git" / "worktrees" / "wt" / "index.lock"))
    monkeypatch.chdir(worktree)
    result = run_cli("--root", "anth", "diff", "HEAD~1", "HEAD")
    assert result.exit_code == 1, result.stderr
    assert result.stdout.startswith('changed LIT-168 "DAPO 2"')
    checked = run_cli("--root", "anth", "check", "--baseline", "HEAD")
    assert checked.exit_code == 0, checked.stderr
    assert ", 0 fixed," in checked.stdout.splitlines()[-1]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_repository_git_refuses_is_said_as_git_says_it(tmp_path, monkeypatch):
    root = _repository(tmp_path / "theirs")
    for folder, folders, files in os.walk(tmp_path / "theirs"):
        for name in [folder, *(os.path.join(folder, f) for f in folders + files)]:
            os.lchown(name, 1000, 1000)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)  # no safe.directory of the machine's
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.chdir(root)
    # Nor is another repository read in its place, that a hook's GIT_DIR names.
    other = _repository(tmp_path / "other")
    cases = [(), ("GIT_DIR", str(other / ".git"))]
    for variable, args in product(
        cases, (("diff", "HEAD~1", "HEAD"), ("check", "--baseline", "HEAD~1"))
    ):
        if variable:
            monkeypatch.setenv(*variable)
        result = run_cli(*args)
        assert result.exit_code == 2
        assert "detected dubious ownership in repository at" in result.stderr
        assert "git config --global --add safe.directory" in result.stderr
        assert "not a git repository" not in result.stderr
        assert result.stderr.count("\n") == 1


def test_a_repository_only_git_dir_names_is_read(tmp_path, monkeypatch):
    # A work tree whose repository is elsewhere, found through GIT_DIR and GIT_WORK_TREE
    # alone (no .git in the folder: the "bare repository and work tree" setup).
    work = _repository(tmp_path / "work")
    shutil.move(work / ".git", tmp_path / "repository.git")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "repository.git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(work))
    monkeypatch.chdir(work)
    result = run_cli("diff", "HEAD~1", "HEAD")
    assert result.exit_code == 1, result.stderr
    assert result.stdout.startswith('changed LIT-168 "DAPO 2"')
