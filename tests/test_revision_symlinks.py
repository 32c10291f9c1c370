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


def link_the_folder(root, folder="data", to="real"):
    """Move ``folder`` to ``to`` and leave a relative link to it in its place."""
    (root / to).parent.mkdir(parents=True, exist_ok=True)
    (root / folder).rename(root / to)
    os.symlink(os.path.relpath(root / to, (root / folder).parent), root / folder)


def test_a_data_folder_that_is_a_link_is_followed_within_the_revision(repo):
    """hunt20 #7: `ln -s real data`, committed (git records a link, 120000 blob → real):
    diff and check --baseline said 'HEAD: no data/*.ttl in this revision: not an
    anthology', exit 2, while check, fmt and site read it."""
    link_the_folder(repo)
    test_diff.commit_all(repo, "data/ kept in real/, linked")
    result = run_cli("diff")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout == "no change to the graph from HEAD to working tree\n"
    old, new = resolve_states(repo)
    assert old.files == new.files and old.data_files()
    baseline = run_cli("check", "--baseline", "HEAD")
    assert baseline.exit_code == 0, baseline.output
    assert " 0 fixed," in baseline.stdout.splitlines()[-1]
    test_diff.give_practice(repo, "real/LIT-168.ttl")
    test_diff.commit_all(repo, "a practice")
    code, doc = test_diff.diff_json("HEAD~1", "HEAD")
    assert [(e["identifier"], e["status"]) for e in doc["entries"]] == [("LIT-168", "changed")]


def test_a_data_file_linked_within_a_linked_folder_is_followed(repo):
    link_to_shared(repo)
    link_the_folder(repo)  # (the link within it, ../shared/LIT-168.ttl, read from real/)
    test_diff.commit_all(repo, "both linked")
    old, new = resolve_states(repo)
    assert old.files == new.files and LIT in old.files


def test_a_shapes_folder_under_a_linked_folder_is_followed(repo):
    (repo / "ontology" / "shapes").mkdir(parents=True)
    shape = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n<urn:x:S> a sh:NodeShape .\n"
    (repo / "ontology" / "shapes" / "own.ttl").write_text(shape, encoding="utf-8")
    link_the_folder(repo, "ontology", "rules")
    test_diff.commit_all(repo, "ontology linked")
    old, new = resolve_states(repo)
    assert old.files == new.files and "ontology/shapes/own.ttl" in old.files


def test_a_data_folder_linked_out_of_the_repository_is_refused_by_name(repo, tmp_path):
    outside = tmp_path / "outside"
    (repo / "data").rename(outside)
    os.symlink(outside, repo / "data")
    test_diff.commit_all(repo, "a folder link out of the repository")
    result = run_cli("diff")
    assert result.exit_code == 2
    assert result.stderr == (
        "HEAD:data: cannot read: a symbolic link out of the repository, whose target git "
        f"does not record (to {outside})\n"
    )


def test_a_dangling_data_folder_link_is_refused_by_name(repo, tmp_path):
    (repo / "data").rename(tmp_path / "data")
    os.symlink("nowhere", repo / "data")
    test_diff.commit_all(repo, "dangling")
    os.unlink(repo / "data")  # (the working tree an anthology again, to be found)
    (tmp_path / "data").rename(repo / "data")
    result = run_cli("diff", "HEAD~1", "HEAD")
    assert result.exit_code == 2
    assert result.stderr == "HEAD:data: cannot read: no such file (a dangling symlink?)\n"
