"""diff --query compares the answers' RDF terms, not the words it shows (hunt19 #3): an
IRI changed to a string that reads alike is a change (exit 1), an entry that lost its
identifier still answers its IRI (exit 0)."""

from __future__ import annotations

import shutil

import pytest
import test_diff
from conftest import run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
repo = test_diff.repo
COMPARISON = "data/COMPARISON-es-baselines.ttl"


def test_an_iri_changed_to_a_string_that_reads_alike_is_a_change(repo):
    test_diff.edit(
        repo, COMPARISON, "ak:checkpointsFrom id:SOTA-154 ;", 'ak:checkpointsFrom "SOTA-154" ;'
    )
    result = run_cli("diff", "--query", "confounders")
    assert result.exit_code == 1, result.output
    assert result.stdout.endswith("1 row(s) appeared, 1 disappeared\n")
    # The rows would read alike: the cell that differs is shown as Turtle terms.
    signs = [(line[0], line.split()[5]) for line in result.stdout.splitlines()[1:-1]]
    assert signs == [("+", '"SOTA-154"'), ("-", "id:SOTA-154")]
    code, doc = test_diff.diff_json("--query", "confounders")
    assert code == 1
    (appeared,), (disappeared,) = doc["appeared"], doc["disappeared"]
    assert {k for k in appeared if appeared[k] != disappeared[k]} == {"checkpoints"}
    assert appeared["arm"] == "id:COMPARISON-es-baselines-grpo"


def test_an_answer_shown_otherwise_is_the_same_answer(repo):
    (repo / "data" / "SOTA-154.ttl").unlink()  # its IRI now shows as id:SOTA-154
    result = run_cli("diff", "--query", "confounders")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("0 row(s) appeared, 0 disappeared\n")


def test_rows_that_read_alike_only_in_part_keep_their_other_words(repo):
    test_diff.edit(
        repo,
        "data/QUESTION-baselines-on-verl.ttl",
        "ak:addressedIn id:ARXIV-2409.19256 ;",
        'ak:addressedIn "ARXIV-2409.19256" ;',
    )
    code, doc = test_diff.diff_json("--query", "open-questions")
    assert code == 1
    assert len(doc["appeared"]) == len(doc["disappeared"]) == 2  # one row per arm
    for appeared, disappeared in zip(doc["appeared"], doc["disappeared"], strict=True):
        assert {k for k in appeared if appeared[k] != disappeared[k]} == {"address"}
        assert (appeared["address"], disappeared["address"]) == (
            '"ARXIV-2409.19256"',
            "id:ARXIV-2409.19256",
        )
        assert appeared["question"] == "QUESTION-baselines-on-verl"  # words where alike
