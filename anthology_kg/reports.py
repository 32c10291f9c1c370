"""Validation reports as text, JSON, GitHub annotations, JUnit XML and SARIF 2.1.0.

Every writer takes a Report and returns a string; the same report gives the same
bytes. JSON is this object (``schema`` names its version)::

    {"schema": "anthology-kg/validation-report/1", "conforms": bool,
     "counts": {"violations", "warnings", "infos", "waived"},
     "results": [{"severity", "focus", "path", "value", "message", "shape", "rule",
                  "adr", "file", "line", "component", "waived", "waiverReason"}]}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from xml.etree import ElementTree as ET

from . import __version__
from .validation import Report, RuleResult

JSON_SCHEMA_ID = "anthology-kg/validation-report/1"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://w3id.org/anthology-kg"


def _tag(result: RuleResult) -> str:
    return f"[{result.adr or 'integrity'}]"


def _where(result: RuleResult) -> str:
    if result.file is None:
        return "<graph>"
    return f"{result.file}:{result.line}" if result.line else result.file


def text_report(report: Report) -> str:
    """One line per result, ``path:line: severity [ADR-032] message (focus)``, then a summary."""
    lines = []
    for r in report.results:
        detail = ", ".join(part for part in (r.focus, r.path) if part)
        if r.path and r.value is not None:
            detail += f" {r.value}"
        severity = f"{r.severity} (waived: {r.waiver_reason})" if r.waived else r.severity
        lines.append(f"{_where(r)}: {severity} {_tag(r)} {r.message} ({detail})")
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def summary_line(report: Report) -> str:
    """``conforms``/``does not conform`` and the counts, on one line."""
    c = report.counts
    verdict = "conforms" if report.conforms else "does not conform"
    return (
        f"{verdict}: {c['violations']} violation(s), {c['warnings']} warning(s), "
        f"{c['waived']} waived, {len(report.rules)} rule shapes"
    )


def json_report(report: Report) -> str:
    """The documented JSON object (see the module docstring)."""
    document = {
        "schema": JSON_SCHEMA_ID,
        "conforms": report.conforms,
        "counts": report.counts,
        "results": [r.as_dict() for r in report.results],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_report(report: Report) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,title=…::message``."""
    lines = []
    for r in report.counted:
        command = {"Violation": "error", "Warning": "warning"}.get(r.severity, "notice")
        props = []
        if r.file:
            props.append(f"file={_escape_property(r.file)}")
            if r.line:
                props.append(f"line={r.line}")
        props.append(f"title={_escape_property(f'{_tag(r)} {r.shape}')}")
        lines.append(f"::{command} {','.join(props)}::{_escape_data(f'{r.message} ({r.focus})')}")
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def junit_report(report: Report) -> str:
    """JUnit XML: one testcase per rule shape; a violation fails it, warnings go to system-out."""
    suite = ET.Element("testsuite", name="anthology-kg rules")
    failures = 0
    for rule in report.rules:
        mine = [r for r in report.counted if r.shape == rule.name]
        case = ET.SubElement(suite, "testcase", classname=rule.source, name=rule.name)
        violations = [r for r in mine if r.severity == "Violation"]
        if violations:
            failures += 1
            failure = ET.SubElement(
                case, "failure", message=f"{len(violations)} violation(s)", type="Violation"
            )
            failure.text = "\n".join(f"{_where(r)}: {r.message} ({r.focus})" for r in violations)
        others = [r for r in mine if r.severity != "Violation"]
        if others:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(
                f"{_where(r)}: {r.severity} {r.message} ({r.focus})" for r in others
            )
    suite.set("tests", str(len(report.rules)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suites = ET.Element("testsuites", name="anthology-kg", tests=suite.get("tests"))
    suites.set("failures", str(failures))
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def sarif_report(report: Report) -> str:
    """SARIF 2.1.0 with one reporting descriptor per rule shape."""
    level = {"Violation": "error", "Warning": "warning", "Info": "note"}
    rules = [
        {
            "id": rule.name,
            "name": rule.name.split(":")[-1],
            "shortDescription": {"text": rule.label or rule.name},
            "fullDescription": {"text": rule.message or rule.label or rule.name},
            "defaultConfiguration": {"level": level.get(rule.severity, "error")},
            "properties": {"rule": rule.number, "enforces": rule.source},
        }
        for rule in report.rules
    ]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for r in report.results:
        result: dict = {
            "ruleId": r.shape,
            "level": level.get(r.severity, "error"),
            "message": {"text": f"{r.message} ({r.focus})"},
            "properties": {"focus": r.focus, "path": r.path, "value": r.value},
        }
        if r.shape in index:
            result["ruleIndex"] = index[r.shape]
        if r.file:
            location: dict = {"artifactLocation": {"uri": r.file}}
            if r.line:
                location["region"] = {"startLine": r.line}
            result["locations"] = [{"physicalLocation": location}]
        if r.waived:
            result["suppressions"] = [{"kind": "external", "justification": r.waiver_reason}]
        results.append(result)
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "anthology-kg",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


WRITERS: dict[str, Callable[[Report], str]] = {
    "text": text_report,
    "json": json_report,
    "github": github_report,
    "junit": junit_report,
    "sarif": sarif_report,
}
