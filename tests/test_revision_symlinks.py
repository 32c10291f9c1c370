"""A data file committed as a symbolic link is what it points at, in a revision as on
disk (where loading follows it): a clean tree is no change to `diff` nor to
`check --baseline REV` (git states used to skip links, so the entry looked added). A
link git cannot follow within the revision (out of the repository, dangling, a loop)
is exit 2 naming REV:data/X.ttl; a working tree's data file is read as loading reads
it (a FIFO is refused, not waited on)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import test_diff
from conftest import run_cli

from anthology_kg.revisions import resolve_states

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
repo = test_diff.repo
LIT = "data/LIT-168.ttl"


def link_to_shared(root):
    """Move LIT-168.ttl to shared/ and leave a relative link to it in data/."""
    (root / "shared").mkdir()
    (root / LIT).rename(root / "shared" / "LIT-168.ttl")
    os.symlink("../shared/LIT-168.ttl", root / LIT)


def test_a_clean_tree_with_a_linked_data_file_is_no_change(repo):
    link_to_shared(repo)
    test_diff.commit_all(repo, "LIT-168 kept in shared/, linked from data/")
    result = run_cli("diff")
    assert result.exit_code == 0, result.output
    assert result.stdout == "no change to the graph from HEAD to working tree\n"
    old, new = resolve_states(repo)
    assert old.files == new.files
    baseline = run_cli("check", "--baseline", "HEAD")
    assert baseline.exit_code == 0, baseline.output
    assert " 0 fixed," in baseline.stdout.splitlines()[-1]


def test_a_change_through_the_link_is_seen_in_both_states(repo):
    link_to_shared(repo)
    test_diff.commit_all(repo, "linked")
    test_diff.give_practice(repo, "shared/LIT-168.ttl")
    code, doc = test_diff.diff_json()
    assert code == 1
    assert [(e["identifier"], e["status"]) for e in doc["entries"]] == [("LIT-168", "changed")]
    test_diff.commit_all(repo, "a practice")
    code, doc = test_diff.diff_json("HEAD~1", "HEAD")
    assert [(e["identifier"], e["status"]) for e in doc["entries"]] == [("LIT-168", "changed")]
    assert run_cli("diff").exit_code == 0


def test_a_link_out_of_the_repository_is_refused_by_name(repo, tmp_path):
    outside = tmp_path / "outside.ttl"
    (repo / LIT).rename(outside)
    os.symlink(outside, repo / LIT)
    test_diff.commit_all(repo, "a link out of the repository")
    result = run_cli("diff")
    assert result.exit_code == 2
    assert result.stderr == (
        f"HEAD:{LIT}: cannot read: a symbolic link out of the repository, whose target git "
        f"does not record (to {outside})\n"
    )


@pytest.mark.parametrize("kind", ["dangling", "loop"])
def test_a_link_git_cannot_follow_is_named(repo, kind):
    if kind == "dangling":
        os.symlink("nowhere.ttl", repo / "data" / "X-1.ttl")
        said = "no such file (a dangling symlink?)"
    else:
        os.symlink("X-2.ttl", repo / "data" / "X-1.ttl")
        os.symlink("X-1.ttl", repo / "data" / "X-2.ttl")
        said = "a symlink loop"
    test_diff.commit_all(repo, kind)
    result = run_cli("diff", "HEAD~1", "HEAD")
    assert result.exit_code == 2
    assert result.stderr == f"HEAD:data/X-1.ttl: cannot read: {said}\n"


def test_a_fifo_in_the_working_tree_is_refused_not_waited_on(repo):
    os.mkfifo(repo / "data" / "X-1.ttl")
    done = subprocess.run(
        [sys.executable, "-m", "anthology_kg", "diff"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "data/X-1.ttl: cannot read: not a regular file (a FIFO, socket or device)\n"
    )


def test_a_link_named_in_bytes_that_are_not_utf8_is_followed(repo):
    """git lists names as bytes: a link's name is given back to cat-file as it came."""
    link_to_shared(repo)
    os.rename(repo / LIT, os.fsencode(repo / "data") + b"/LIT-168-\xff.ttl")
    test_diff.commit_all(repo, "a link named in Latin-1")
    result = run_cli("diff")
    assert result.exit_code == 0, result.output
    assert result.stdout == "no change to the graph from HEAD to working tree\n"
