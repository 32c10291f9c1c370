"""A SARIF log past GitHub code scanning's limits on a run is said on stderr: the
upload of a run of more than 25,000 results is rejected, and only 5,000 of a run's
results are kept, the gravest first (GitHub Docs, "SARIF support for code scanning",
Validating your SARIF file). `validate --format sarif` of a generated anthology of
25,100 violations wrote all 25,100 results, exit 1, and said nothing. The log itself is
written whole: other readers of SARIF take any size. Likewise `validate --format github`
says which annotations GitHub leaves out: past the first 10 of each kind a step writes."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, run_cli

from anthology_kg import reports
from anthology_kg.reports import sarif_limit_warning

REJECTED = (
    "the SARIF log holds {:,} results: GitHub's code scanning rejects the upload of a run "
    "of more than 25,000 (--select or --ignore report fewer rules)"
)
KEPT = (
    "the SARIF log holds {:,} results: GitHub's code scanning keeps only 5,000 of a run's "
    "results, the gravest first"
)


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (0, None),
        (5_000, None),
        (5_001, KEPT.format(5_001)),
        (25_000, KEPT.format(25_000)),
        (25_001, REJECTED.format(25_001)),
        (100_000, REJECTED.format(100_000)),
    ],
)
def test_the_limits_are_githubs(count, said):
    assert sarif_limit_warning(count) == said


@pytest.fixture
def rule9(monkeypatch):
    """rule9-bad (one result) as the working anthology."""
    monkeypatch.chdir(FIXTURES / "rules" / "rule9-bad")


def test_validate_says_a_log_githubs_upload_rejects(rule9, monkeypatch, tmp_path):
    monkeypatch.setattr(reports, "GITHUB_MAX_RESULTS", 0)
    monkeypatch.setattr(reports, "GITHUB_SHOWN_RESULTS", 0)
    result = run_cli("validate", "--format", "sarif")
    said = "anthology-kg: warning: " + REJECTED.replace("25,000", "0").format(1) + "\n"
    assert (result.exit_code, result.stderr) == (1, said)
    assert len(json.loads(result.stdout)["runs"][0]["results"]) == 1  # written whole
    written = tmp_path / "r.sarif"
    result = run_cli("-q", "validate", "-o", str(written))  # -q: a warning is no note
    assert (result.exit_code, result.stderr, result.stdout) == (1, said, "")


def test_validate_says_a_log_github_shows_in_part(rule9, monkeypatch):
    monkeypatch.setattr(reports, "GITHUB_SHOWN_RESULTS", 0)
    result = run_cli("validate", "--format", "sarif")
    said = "anthology-kg: warning: " + KEPT.replace("5,000", "0").format(1) + "\n"
    assert (result.exit_code, result.stderr) == (1, said)


def test_only_sarif_is_said_to_pass_githubs_limits(rule9, monkeypatch):
    monkeypatch.setattr(reports, "GITHUB_MAX_RESULTS", 0)
    monkeypatch.setattr(reports, "GITHUB_SHOWN_RESULTS", 0)
    for fmt in ("text", "json", "junit", "github"):  # (rule9-bad: one annotation)
        assert run_cli("validate", "--format", fmt).stderr == "", fmt
    monkeypatch.setattr(reports, "GITHUB_MAX_RESULTS", 1)
    monkeypatch.setattr(reports, "GITHUB_SHOWN_RESULTS", 1)
    assert run_cli("validate", "--format", "sarif").stderr == ""  # within both


# --- workflow annotations: GitHub shows the first 10 of each kind a step writes ----------


def generated(tmp_path, monkeypatch, violations: int):
    """A generated anthology of 40 entries with ``violations`` violations, as the working
    anthology."""
    made = run_cli("generate", "--entries", "40", "--violations", str(violations), "-o", "g")
    assert made.exit_code == 0, made.stderr
    monkeypatch.chdir(tmp_path / "g")


def test_validate_says_annotations_github_does_not_show(tmp_path, monkeypatch):
    """`validate --format github` of 15 violations wrote 15 ::error commands, exit 1, and
    said nothing of the 5 GitHub leaves out (actions/toolkit's problem-matchers.md,
    Limitations: 10 error, 10 warning and 10 notice annotations per step, 50 per job)."""
    monkeypatch.chdir(tmp_path)
    generated(tmp_path, monkeypatch, 15)
    result = run_cli("validate", "--format", "github")
    assert result.exit_code == 1
    assert [line[:8] for line in result.stdout.splitlines()[:-1]] == ["::error "] * 15
    assert result.stderr == (
        "anthology-kg: warning: 15 error annotations: GitHub shows the first 10 of each "
        "kind a step writes (50 of a job's); the step's log lists every one\n"
    )
    assert run_cli("validate", "--format", "sarif").stderr == ""  # within its limits


def test_ten_annotations_of_a_kind_are_all_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    generated(tmp_path, monkeypatch, 10)
    result = run_cli("validate", "--format", "github")
    assert (result.exit_code, result.stderr) == (1, "")
    assert len(result.stdout.splitlines()) == 11  # the ten and the summary line


def test_each_kind_past_the_limit_is_named():
    from dataclasses import replace

    from anthology_kg.fast import load_fast
    from anthology_kg.reports import github_limit_warning
    from anthology_kg.validation import Report, validate

    [result] = validate(load_fast(FIXTURES / "rules" / "rule9-bad")).results
    kinds = [("Violation", 12), ("Warning", 3), ("Info", 11)]
    results = [replace(result, severity=s) for s, n in kinds for _ in range(n)]
    assert github_limit_warning(Report(results=results)) == (
        "12 error and 11 notice annotations: GitHub shows the first 10 of each kind a step "
        "writes (50 of a job's); the step's log lists every one"
    )
