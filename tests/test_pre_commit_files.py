"""What each pre-commit hook runs on: pre-commit runs a hook when a staged path matches
its ``files`` pattern (``re.search``). ``check`` reads the data, the ontology and own
shapes, the waivers and the configuration (fail-on, select, ignore, root), so a change
to any of them runs it (hunt19: a change of anthology-kg.toml or pyproject.toml alone
ran no check); ``fmt --check`` reads the data files only."""

import re

import pytest
import yaml
from conftest import REPO

HOOKS = {
    hook["id"]: hook
    for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
}


@pytest.mark.parametrize(
    ("hook", "path", "runs"),
    [
        ("anthology-kg-check", "data/LIT-168.ttl", True),
        ("anthology-kg-check", "ontology/shapes/own.ttl", True),
        ("anthology-kg-check", "waivers.ttl", True),
        ("anthology-kg-check", "anthology-kg.toml", True),
        ("anthology-kg-check", "pyproject.toml", True),
        ("anthology-kg-check", "README.md", False),
        ("anthology-kg-check", "sub/pyproject.toml", False),
        ("anthology-kg-fmt", "data/LIT-168.ttl", True),
        ("anthology-kg-fmt", "anthology-kg.toml", False),
    ],
)
def test_a_hook_runs_on_the_files_it_reads(hook, path, runs):
    assert bool(re.search(HOOKS[hook]["files"], path)) is runs


@pytest.mark.parametrize(
    ("hook", "path", "runs"),
    [
        ("anthology-kg-check", "anthology/data/LIT-168.ttl", True),
        ("anthology-kg-check", "anthology/data/2024/LIT-168.ttl", True),
        ("anthology-kg-check", "anthology/ontology/shapes/own.ttl", True),
        ("anthology-kg-check", "anthology/waivers.ttl", True),
        ("anthology-kg-check", "a/b/data/LIT-168.ttl", True),
        ("anthology-kg-check", "anthology/data/notes.md", False),
        ("anthology-kg-check", "anthology/mydata/LIT-168.ttl", False),
        ("anthology-kg-check", "anthology/my-waivers.ttl", False),
        ("anthology-kg-fmt", "anthology/data/LIT-168.ttl", True),
        ("anthology-kg-fmt", "anthology/ontology/shapes/own.ttl", False),
    ],
)
def test_a_hook_runs_on_the_files_of_an_anthology_under_another_root(hook, path, runs):
    """``root = "anthology"`` in anthology-kg.toml (or pyproject.toml), which pre-commit
    reads from the top of the repository as check does: the anthology's files are staged
    as anthology/data/…, which a pattern anchored at data/ never matched (the hooks said
    "(no files to check) Skipped" while check failed). The pattern cannot read root, so
    it takes the anthology's folders at any depth."""
    assert bool(re.search(HOOKS[hook]["files"], path)) is runs
