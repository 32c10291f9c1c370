"""Two results that the text report tells apart by their path and value are told apart
in every format (hunt19 #9): the GitHub annotations and SARIF messages said only the
focus, so the bundled anthology's two AK006 results read as one notice twice, and SARIF
gives each result a partial fingerprint of its own, so that GitHub's code scanning
(which keys an alert by rule and by a hash of the line's text) does not fold them."""

from __future__ import annotations

import json
import re
import shutil
from xml.etree import ElementTree as ET

import pytest
from conftest import run_cli

from anthology_kg.reports import FINGERPRINT_KEY, sarif_report
from anthology_kg.resources import bundled_dir
from anthology_kg.validation import Report, RuleResult

RULE6 = "ak:notStated/ak:unknownProperty"
TOLD_APART = [
    f"(ARXIV-2409.19256, {RULE6} ak:algorithm)",
    f"(ARXIV-2409.19256, {RULE6} ak:baseline)",
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    """The bundled anthology's report in text, github, sarif and junit (an Info fails
    junit's testcase with --fail-on info)."""
    root = tmp_path_factory.mktemp("told-apart")
    shutil.copytree(bundled_dir() / "data", root / "data")
    found = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        for fmt in ("text", "github", "sarif", "junit"):
            result = run_cli("-q", "validate", "--format", fmt, "--fail-on", "info")
            assert result.exit_code == 1, result.output
            found[fmt] = result.stdout
    return found


def test_text_tells_the_two_rule_6_results_apart(outputs):
    lines = [line for line in outputs["text"].splitlines() if " AK006 " in line]
    assert [line[line.rindex(" (") + 1 :] for line in lines] == TOLD_APART


def test_github_annotations_say_what_the_text_says(outputs):
    lines = [line for line in outputs["github"].splitlines() if "title=AK006 " in line]
    assert [line[line.rindex(" (") + 1 :] for line in lines] == TOLD_APART
    text = [line for line in outputs["text"].splitlines() if re.match(r"data/\S+: AK", line)]
    annotations = [line for line in outputs["github"].splitlines() if line.startswith("::")]
    # Each annotation's message ends with its text line's parenthesis.
    assert [a[a.rindex(" (") :] for a in annotations] == [t[t.rindex(" (") :] for t in text]


def test_sarif_messages_and_fingerprints_tell_the_results_apart(outputs):
    results = json.loads(outputs["sarif"])["runs"][0]["results"]
    rule6 = [r for r in results if r["ruleId"] == "AK006"]
    assert [r["message"]["text"][r["message"]["text"].rindex(" (") + 1 :] for r in rule6] == (
        TOLD_APART
    )
    prints = [r["partialFingerprints"][FINGERPRINT_KEY] for r in results]
    assert len(set(prints)) == len(results)
    assert all(re.fullmatch(r"[0-9a-f]{32}:1", p) for p in prints)


def test_junit_lines_tell_the_results_apart(outputs):
    suite = ET.fromstring(outputs["junit"])
    (case,) = [c for c in suite.iter("testcase") if c.get("name") == "aks:Rule6PairNotStated"]
    failure = case.find("failure")
    assert failure is not None and failure.text is not None
    assert [line[line.rindex(" (") + 1 :] for line in failure.text.splitlines()] == TOLD_APART


def _result(**changes) -> RuleResult:
    fields = dict(
        severity="Violation",
        focus="LIT-300",
        path="ak:restsOn",
        value=None,
        message="Integrity rule 7: a reproducibility claim rests on no codebase",
        shape="aks:Rule7",
        rule=7,
        adr=None,
        file="data/LIT-300.ttl",
        line=5,
        column=1,
    )
    fields.update(changes)
    return RuleResult(**fields)  # type: ignore[arg-type]


def test_a_fingerprint_is_the_result_s_not_its_line_s_and_counts_alike_results():
    prints = [
        r["partialFingerprints"][FINGERPRINT_KEY]
        for r in json.loads(sarif_report(Report([_result(), _result(), _result(line=9)])))["runs"][
            0
        ]["results"]
    ]
    first = prints[0].split(":")[0]
    # Two alike results are :1 and :2; the same result at another line hashes alike.
    assert prints == [f"{first}:1", f"{first}:2", f"{first}:3"]
    other = json.loads(sarif_report(Report([_result(value="a")])))["runs"][0]["results"]
    assert other[0]["partialFingerprints"][FINGERPRINT_KEY].split(":")[0] != first


def test_no_result_has_github_s_own_fingerprint(outputs):
    # primaryLocationLineHash is computed by GitHub's upload from the line's text: a value
    # of ours under that key would be reported as inconsistent with it.
    for result in json.loads(outputs["sarif"])["runs"][0]["results"]:
        assert set(result["partialFingerprints"]) == {FINGERPRINT_KEY}


def test_the_fingerprints_are_the_same_from_run_to_run(outputs, tmp_path, monkeypatch):
    shutil.copytree(bundled_dir() / "data", tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    again = run_cli("-q", "validate", "--format", "sarif", "--fail-on", "info").stdout
    assert again == outputs["sarif"]
