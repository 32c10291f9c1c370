"""A severity other than SHACL's three (``sh:severity ex:Blocker``, SHACL 3.6.2 allows any
IRI) is named as written and counts as a violation, in every format alike; an IRI that
merely ends in ``#Violation`` is such another severity (hunt11 finding 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import own_shapes, run_cli

SHAPES = """@prefix ex: <http://ex.org/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
ex:S a sh:NodeShape ; sh:targetClass ex:T ;
  sh:property [ sh:path ex:name ; sh:minCount 1 ; sh:severity ex:Blocker ] ,
    [ sh:path ex:x ; sh:minCount 1 ; sh:severity <http://my.org/sev#Violation> ] .
"""


@pytest.fixture
def custom(tmp_path: Path) -> tuple[str, ...]:
    return own_shapes(tmp_path, SHAPES, "<http://ex.org/a> a <http://ex.org/T> .\n")


@pytest.mark.parametrize(("fail_on", "code"), [("none", 0), ("info", 1), ("warning", 1)])
def test_a_custom_severity_fails_as_a_violation_does(custom, fail_on, code):
    assert run_cli(*custom, "--fail-on", fail_on).exit_code == code


def test_every_format_counts_a_custom_severity_as_a_violation(custom):
    text = run_cli(*custom)
    assert text.exit_code == 1
    assert "http://ex.org/Blocker [own shape] fails sh:minCount" in text.stdout
    assert (
        "does not conform: 2 violation(s) (1 http://ex.org/Blocker, "
        "1 http://my.org/sev#Violation), 0 warning(s)" in text.stdout
    )
    reports = {}
    for engine in ("fast", "reference"):
        found = run_cli(*custom, "--engine", engine, "--format", "json")
        assert found.exit_code == 1
        reports[engine] = json.loads(found.stdout)
    assert reports["fast"] == reports["reference"]
    report = reports["fast"]
    assert report["conforms"] is False and report["counts"]["violations"] == 2
    assert report["counts"]["otherSeverities"] == {
        "http://ex.org/Blocker": 1,
        "http://my.org/sev#Violation": 1,
    }
    assert sorted(r["severity"] for r in report["results"]) == [
        "http://ex.org/Blocker",
        "http://my.org/sev#Violation",
    ]
    junit = run_cli(*custom, "--format", "junit").stdout
    assert 'failures="1"' in junit and 'message="2 violation(s)" type="Violation"' in junit
    sarif = json.loads(run_cli(*custom, "--format", "sarif").stdout)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["error", "error"]
    github = run_cli(*custom, "--format", "github").stdout
    assert github.count("::error ") == 2
