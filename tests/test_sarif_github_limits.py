"""A SARIF log past GitHub code scanning's limits on a run is said on stderr: the
upload of a run of more than 25,000 results is rejected, and only 5,000 of a run's
results are kept, the gravest first (GitHub Docs, "SARIF support for code scanning",
Validating your SARIF file). `validate --format sarif` of a generated anthology of
25,100 violations wrote all 25,100 results, exit 1, and said nothing. The log itself is
written whole: other readers of SARIF take any size."""

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
    for fmt in ("text", "json", "junit", "github"):
        assert run_cli("validate", "--format", fmt).stderr == "", fmt
    monkeypatch.setattr(reports, "GITHUB_MAX_RESULTS", 1)
    monkeypatch.setattr(reports, "GITHUB_SHOWN_RESULTS", 1)
    assert run_cli("validate", "--format", "sarif").stderr == ""  # within both
