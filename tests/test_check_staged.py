"""`check --staged`: what the next commit holds, on real git repositories (hunt21 #5).

The pre-commit hook ran `check` on the working tree: pre-commit sets unstaged changes
to tracked files aside, not untracked files, so a commit referring to an untracked
data file passed (and broke main), and an untracked draft with an error failed every
commit. The hook now runs `check --staged`, which reads git's index."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, edit, run_cli
from gitrepo import GIT_ENV, git

from anthology_kg.resources import bundled_dir

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SWEEP = "data/SWEEP-backlog.ttl"
TALLIED = "ak:tallied id:ARXIV-2409.19256 ."
#: What rule 9 says of the sweep's tally once it counts a reference the commit lacks.
DANGLING = (
    f"{SWEEP}:18:5: AK009 Violation [integrity] Integrity rule 9: points at something the"
    " record does not have (id:SWEEP-backlog-ARXIV-2409.19256, ak:tallied id:ARXIV-2501.00001)"
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch) -> Path:
    """A git repository holding a copy of the bundled anthology, committed; the working
    directory is the repository (as for a hook)."""
    root = tmp_path / "repo"
    shutil.copytree(bundled_dir() / "data", root / "data")
    git(tmp_path, "init", "-q", str(root))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "the bundled anthology")
    monkeypatch.chdir(root)
    return root


def add_reference(root: Path) -> None:
    """What `new reference` leaves: an untracked data file, ARXIV-2501.00001."""
    text = (root / "data" / "ARXIV-2409.19256.ttl").read_text(encoding="utf-8")
    (root / "data" / "ARXIV-2501.00001.ttl").write_text(
        text.replace("2409.19256", "2501.00001"), encoding="utf-8"
    )


def tally_the_new_reference(root: Path) -> None:
    """The sweep counts ARXIV-2501.00001, and the change is staged."""
    edit(root, SWEEP, TALLIED, "ak:tallied id:ARXIV-2501.00001 .")
    git(root, "add", SWEEP)


def test_a_staged_change_referring_to_an_untracked_file_fails(repo):
    add_reference(repo)
    tally_the_new_reference(repo)
    assert run_cli("check").exit_code == 0  # the working tree holds the reference
    result = run_cli("check", "--staged")
    assert result.exit_code == 1, result.output
    assert DANGLING in result.stdout.splitlines(), result.stdout
    git(repo, "add", "data/ARXIV-2501.00001.ttl")
    assert run_cli("check", "--staged").exit_code == 0


def test_an_untracked_draft_with_an_error_is_not_read(repo):
    (repo / "data" / "LIT-999.ttl").write_text("this is not turtle\n", encoding="utf-8")
    assert run_cli("check").exit_code == 2
    result = run_cli("check", "--staged")
    assert result.exit_code == 0, result.output


def test_a_staged_file_with_an_error_is_named_as_staged(repo):
    (repo / "data" / "LIT-999.ttl").write_text("this is not turtle\n", encoding="utf-8")
    git(repo, "add", "data/LIT-999.ttl")
    (repo / "data" / "LIT-999.ttl").unlink()  # (the index is read, not the work tree)
    result = run_cli("check", "--staged")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("staged:data/LIT-999.ttl:1: Turtle syntax error:"), (
        result.stderr
    )


def test_the_staged_version_of_a_file_is_read_not_the_working_trees(repo):
    add_reference(repo)
    git(repo, "add", "data/ARXIV-2501.00001.ttl")
    tally_the_new_reference(repo)
    (repo / "data" / "ARXIV-2501.00001.ttl").unlink()  # an unstaged deletion
    assert run_cli("check").exit_code == 1
    assert run_cli("check", "--staged").exit_code == 0
    git(repo, "rm", "-q", "--cached", "data/ARXIV-2501.00001.ttl")  # staged, kept on disk
    add_reference(repo)
    assert run_cli("check").exit_code == 0
    result = run_cli("check", "--staged")
    assert result.exit_code == 1 and DANGLING in result.stdout.splitlines(), result.output


def test_a_layout_warning_names_the_file_as_the_work_tree_does(repo):
    add_reference(repo)
    (repo / "data" / "ARXIV-2501.00001.ttl").rename(repo / "data" / "new.ttl")
    git(repo, "add", "data/new.ttl")
    result = run_cli("check", "--staged")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("data/new.ttl:12: warning: the file is named 'new' but"), (
        result.stderr
    )


def test_an_anthology_in_a_folder_of_the_repository(repo):
    anthology = repo / "anthology"
    anthology.mkdir()
    git(repo, "mv", "data", "anthology/data")
    git(repo, "commit", "-q", "-m", "moved")
    add_reference(anthology)
    tally_the_new_reference(anthology)
    result = run_cli("--root", str(anthology), "check", "--staged")
    assert result.exit_code == 1, result.output
    assert f"anthology/{DANGLING}" in result.stdout.splitlines(), result.stdout


def test_outside_a_repository_staged_is_an_input_error(tmp_path, monkeypatch):
    shutil.copytree(bundled_dir() / "data", tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    result = run_cli("check", "--staged")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"anthology-kg: --staged reads git's index, and {tmp_path.resolve()} is in no git"
        " repository: check without --staged\n"
    )


def test_unmerged_paths_are_an_input_error_naming_them(repo):
    git(repo, "checkout", "-q", "-b", "other")
    edit(repo, SWEEP, TALLIED, "ak:tallied id:ARXIV-2409.19256, id:LIT-168 .")
    git(repo, "commit", "-q", "-am", "other")
    git(repo, "checkout", "-q", "-")
    edit(repo, SWEEP, TALLIED, "ak:tallied id:SOTA-154 .")
    git(repo, "commit", "-q", "-am", "this")
    merged = subprocess.run(
        ["git", "merge", "-q", "other"],
        capture_output=True,
        env={**os.environ, **GIT_ENV},
        check=False,
    )
    assert merged.returncode == 1  # a conflict
    result = run_cli("check", "--staged")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "anthology-kg: cannot read what is staged: unmerged paths (data/SWEEP-backlog.ttl):"
        " resolve them and git add them\n"
    )


def _install_hook(repo: Path) -> None:
    """A git pre-commit hook running the hook's entry (this checkout's tool)."""
    entry = HOOKS["anthology-kg-check"]["entry"].removeprefix("anthology-kg ")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text(
        f"#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} -m anthology_kg {entry}\n",
        encoding="utf-8",
    )
    hook.chmod(0o755)


def _commit(repo: Path, *args: str) -> subprocess.CompletedProcess:
    """``git commit``: what the hook prints is on its stderr (git's hooks write there)."""
    return subprocess.run(
        ["git", "commit", "-q", "-m", "change", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        check=False,
    )


HOOKS = {
    hook["id"]: hook
    for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
}


def test_the_hook_checks_what_is_staged():
    assert HOOKS["anthology-kg-check"]["entry"] == "anthology-kg check --staged"


def test_a_commit_whose_hook_checks_the_index_refuses_what_breaks_the_rules(repo):
    """As git runs the hook: `git commit` (the index), `git commit -a` and `git commit
    PATH` (a temporary index, named by GIT_INDEX_FILE): each refused when what it would
    record breaks rule 9, whatever the working tree holds."""
    _install_hook(repo)
    add_reference(repo)
    tally_the_new_reference(repo)
    refused = _commit(repo)
    assert refused.returncode == 1 and DANGLING in refused.stderr.splitlines(), refused.stderr
    git(repo, "reset", "-q")
    refused = _commit(repo, "-a")  # the untracked reference is not committed by -a
    assert refused.returncode == 1 and DANGLING in refused.stderr.splitlines(), refused.stderr
    refused = _commit(repo, SWEEP)
    assert refused.returncode == 1 and DANGLING in refused.stderr.splitlines(), refused.stderr
    git(repo, "add", "data/ARXIV-2501.00001.ttl")
    made = _commit(repo, "-a")
    assert made.returncode == 0, made.stdout + made.stderr
    # An unstaged break of a committed file stays out of the next commit, and its check.
    edit(repo, SWEEP, "ak:tallied id:ARXIV-2501.00001 .", "ak:tallied id:ARXIV-2599.00001 .")
    (repo / "data" / "NOTE-9.ttl").write_text("not turtle\n", encoding="utf-8")
    (repo / "README.md").write_text("An anthology\n", encoding="utf-8")
    git(repo, "add", "README.md")
    made = _commit(repo)
    assert made.returncode == 0, made.stdout + made.stderr


def unformat(root: Path, relative: str = "data/LIT-168.ttl") -> None:
    """Two blank lines at the end: not the canonical style (fmt removes them)."""
    with (root / relative).open("a", encoding="utf-8") as file:
        file.write("\n\n")


def test_fmt_checks_the_staged_style_not_the_working_trees(repo):
    """The fmt hook: an untracked draft in another style failed every commit; now the
    staged files are checked, named as the work tree names them."""
    add_reference(repo)
    unformat(repo, "data/ARXIV-2501.00001.ttl")  # untracked
    unformat(repo)  # tracked, the change not staged
    assert run_cli("fmt", "--check").exit_code == 1
    result = run_cli("fmt", "--check", "--staged")
    assert result.exit_code == 0, result.output
    assert result.stdout == "0 of 8 file(s) would change\n" and result.stderr == "", result.output
    git(repo, "add", "data/LIT-168.ttl")
    (repo / "data" / "LIT-168.ttl").write_text(
        git(repo, "show", "HEAD:data/LIT-168.ttl"), encoding="utf-8"
    )  # mended in the work tree, not in the index
    assert run_cli("fmt", "--check").exit_code == 1  # (the untracked draft)
    result = run_cli("fmt", "--check", "--staged")
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(
        "would reformat data/LIT-168.ttl\n--- a/data/LIT-168.ttl\n+++ b/data/LIT-168.ttl\n"
    ), result.stdout
    assert result.stdout.endswith("\n1 of 8 file(s) would change\n"), result.stdout


def test_fmt_staged_rewrites_nothing(repo):
    result = run_cli("fmt", "--staged")
    assert result.exit_code == 2
    assert (
        result.stderr == "anthology-kg: --staged rewrites nothing: give it with --check or --diff\n"
    )


def test_the_fmt_hook_checks_what_is_staged():
    assert HOOKS["anthology-kg-fmt"]["entry"] == "anthology-kg fmt --check --staged"
