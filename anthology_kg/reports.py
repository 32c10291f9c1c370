"""Validation reports as text, JSON, GitHub annotations, JUnit XML and SARIF 2.1.0.

Every writer takes a Report and returns a string; the same report gives the same
bytes. JSON is this object (``schema`` names its version)::

    {"schema": "anthology-kg/validation-report/1", "conforms": bool,
     "counts": {"violations", "warnings", "infos", "waived"[, "otherSeverities"]},
     "results": [{"code", "severity", "focus", "path", "value", "message", "shape", "rule",
                  "adr", "file", "line", "column", "component", "waived", "waiverReason"}]
     [, "error": {"message", "file", "line"}]}

``error`` is there only where the run stopped on an input error (exit 2: a Turtle syntax
error, a broken configuration file): ``conforms`` is then false, with no result counted.

``file``, ``line`` and ``column`` (1-based) point at the triple that breaks the rule
(its predicate, or its object in an object list); where no single triple is at fault
(a missing property), at the focus entry's subject. ``code`` is the rule's stable code
(``AK002``; see rules.rule_code). A result of a severity other than SHACL's three has
that IRI as its ``severity``, and counts as a violation (``rules.graded``): in
``violations`` and, by IRI, in ``otherSeverities`` (only when there is one).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree as ET

import pyoxigraph as ox

from . import __version__
from .config import closest, did_you_mean, suggested
from .errors import (
    AnthologyError,
    clipped,
    display_path,
    printable_characters,
    printable_lines,
)
from .layout import printable
from .rules import (
    SEVERITIES,
    WAIVER_CODE,
    WAIVER_SHAPE,
    graded,
    matches_code,
    preferred_message,
)
from .shacl.vocabulary import RDFS
from .validation import Report, RuleResult, failing_severities, own_shape_names

JSON_SCHEMA_ID = "anthology-kg/validation-report/1"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://w3id.org/anthology-kg"


#: How text reports mark results compared to a baseline (new ones are unmarked).
_BASELINE_WORDS = {"unchanged": "existing", "absent": "fixed"}


def _tag(result: RuleResult) -> str:
    """Who the result's rule answers to: its decision record, the record's integrity (a
    numbered rule of none, or the waivers), or the anthology's own shapes."""
    if result.adr is None and result.rule is None and result.shape != WAIVER_SHAPE:
        return "[own shape]"
    return f"[{result.adr or 'integrity'}]"


def _where(result: RuleResult) -> str:
    if result.file is None:
        return "<graph>"
    if not result.line:
        return result.file
    return f"{result.file}:{result.line}" + (f":{result.column}" if result.column else "")


def _detail(result: RuleResult) -> str:
    """What tells the result apart from another of its rule and focus, every format's
    parenthesis after the message: ``focus, path value`` (``LIT-168, ak:category
    ak:method``), or ``focus, value V`` for a node shape's value other than its focus."""
    detail = ", ".join(part for part in (result.focus, result.path) if part)
    value = result.shown_value or result.value
    if result.path and value is not None:
        detail += f" {value}"
    elif value is not None and result.value != (result.node or result.focus):
        detail += f", value {value}"  # a node shape's value that is not its focus
    return detail


_SEVERITY_COLOURS = {"Violation": "red", "Warning": "yellow", "Info": "blue"}


def text_report(report: Report, color: bool = False) -> str:
    """One line per result, ``path:line:col: CODE severity [ADR-032] message (focus)``, as
    linters print them, then a summary; with ``color``, ANSI styles (click.style) on the
    place, the code, the severity and the verdict. Line ends and other control
    characters of the data are shown escaped (``\\n``, ``\\x1b``: layout.printable)."""

    def style(text: str, **styles) -> str:
        if not color:
            return text
        import click  # only for colour: a library caller's plain report loads no click

        return click.style(text, **styles)

    lines = []
    for r in report.results:
        severity = style(r.severity, fg=_SEVERITY_COLOURS[graded(r.severity)], bold=True)
        if r.waived:
            severity = f"{r.severity} (waived: {printable(str(r.waiver_reason))})"
        if r.baseline in _BASELINE_WORDS:
            severity += f" ({_BASELINE_WORDS[r.baseline]})"
        # Data is shown escaped (layout.printable), the styles added after.
        lines.append(
            f"{style(printable(_where(r)), bold=True)}: {style(printable(r.code), bold=True)} "
            f"{severity} {printable(f'{_tag(r)} {r.message} ({_detail(r)})')}"
        )
    summary = summary_line(report)
    lines.append(style(summary, fg="green" if report.conforms else "red") if color else summary)
    return "\n".join(lines) + "\n"


def select_results(
    report: Report, select: Sequence[str] = (), ignore: Sequence[str] = ()
) -> Report:
    """The report with only the results (and rules) named by ``select`` (all when empty)
    and none named by ``ignore``: codes, code prefixes or shape names (rules.matches_code).
    A pattern that names nothing selects nothing: ``check_codes`` refuses such a typo
    first. A bare string is a TypeError (it would be read one character a pattern)."""
    for patterns in (select, ignore):
        if isinstance(patterns, str):
            raise TypeError(f"select and ignore are sequences of patterns, not {patterns!r}")

    def kept(code: str, shape: str) -> bool:
        if select and not matches_code(code, shape, select):
            return False
        return not (ignore and matches_code(code, shape, ignore))

    return replace(
        report,
        results=[r for r in report.results if kept(r.code, r.shape)],
        rules=[rule for rule in report.rules if kept(rule.code, rule.name)],
    )


def check_codes(
    report: Report, patterns: Sequence[str], option: str, path: Path | None = None
) -> None:
    """An AnthologyError (about ``path``, the configuration file, when it set them) for
    the first of ``patterns`` (``option``'s) that names no rule of ``report``'s
    validation nor a shape of its own: such a typo would select nothing and pass."""
    named = [(rule.code, rule.name) for rule in report.rules]
    named += [(WAIVER_CODE, WAIVER_SHAPE)] + [(r.code, r.shape) for r in report.results]
    for pattern in patterns:
        if any(matches_code(code, shape, [pattern]) for code, shape in named):
            continue
        # A shape with no rule number (and no result) is known by its IRI, as its
        # results would be.
        shapes = report.engine.rules.shapes_view if report.engine is not None else ()
        if any(isinstance(s, ox.NamedNode) and s.value == pattern.strip() for s, _, _ in shapes):
            continue
        # A blank-node shape of one's own, by the name its results would have.
        if report.engine is not None and pattern.strip() in own_shape_names(
            report.engine.rules.shapes_view
        ):
            continue
        choices = [WAIVER_CODE] + [rule.code for rule in report.rules]
        choices += [rule.name for rule in report.rules]
        choices += [rule.name.split(":")[-1] for rule in report.rules]
        hint = did_you_mean(pattern, dict.fromkeys(choices))
        if not hint:  # a prefixed name, as a shapes file writes it: my:LitHasAuthors
            hint = suggested(_iris_by_local_name(pattern.strip(), shapes))
        raise AnthologyError(
            f"{option}: {clipped(pattern)} names no rule{hint}"
            " (`anthology-kg rules` lists their codes and shapes)",
            path,
        )


def _iris_by_local_name(name: str, shapes: Iterable[tuple[object, object, object]]) -> list[str]:
    """The IRIs of the shapes graph's named subjects (what --select takes by IRI) whose
    local name (after the last ``#`` or ``/``) is closest to that of the prefixed name
    ``name``; none for a name that is no prefixed name."""
    prefix, colon, local = name.partition(":")
    if not colon or not local or local.startswith("//") or not prefix.isidentifier():
        return []
    by_local: dict[str, list[str]] = {}
    for subject in dict.fromkeys(s for s, _, _ in shapes if isinstance(s, ox.NamedNode)):
        iri = subject.value
        by_local.setdefault(re.split(r"[#/]", iri)[-1], []).append(iri)
    return [iri for close in closest(local, by_local) for iri in sorted(by_local[close])]


def summary_line(report: Report) -> str:
    """``conforms``/``does not conform`` and the counts, on one line."""
    c = report.counts
    verdict = "conforms" if report.conforms else "does not conform"
    # Info results are shown only when there are some: on the bundled anthology they
    # are the stated unknowns a rule accepted, which a passing check must not hide.
    infos = f"{c['infos']} info(s), " if c["infos"] else ""
    baseline = f", {c['existing']} existing, {c['fixed']} fixed" if "existing" in c else ""
    others = ", ".join(f"{n} {iri}" for iri, n in report.other_severities.items())
    return (
        f"{verdict}: {c['violations']} violation(s){f' ({others})' if others else ''}, "
        f"{c['warnings']} warning(s), "
        f"{c['waived']} waived{baseline}, {infos}{len(report.rules)} rule shapes"
    )


def json_report(report: Report) -> str:
    """The documented JSON object (see the module docstring)."""
    document = {
        "schema": JSON_SCHEMA_ID,
        "conforms": report.conforms,
        "counts": report.counts
        | ({"otherSeverities": report.other_severities} if report.other_severities else {}),
        "results": [_json_result(r) for r in report.results],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def error_object(error: AnthologyError) -> dict:
    """``error`` as a JSON document of the tool carries it (its ``error``): the message
    stderr says and its file (named as results name theirs) and line, null for an error
    of no file."""
    file = error.path if error.path is not None and os.path.isfile(error.path) else None
    return {
        "message": printable_characters(error.message),
        "file": printable_characters(display_path(file)) if file is not None else None,
        "line": error.line if file is not None else None,
    }


def json_error(error: AnthologyError) -> str:
    """An input error as the JSON report: nothing validated (``conforms`` false, no
    result) and ``error`` (``error_object``). A consumer reads why where it reads the
    report, and a file written with -o is not left holding an earlier run's."""
    document = {
        "schema": JSON_SCHEMA_ID,
        "conforms": False,
        "counts": Report(results=[]).counts,
        "results": [],
        "error": error_object(error),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _json_result(result: RuleResult) -> dict:
    """``result.as_dict()``, its file's name with the characters JSON in UTF-8 cannot
    carry escaped (``printable_characters``: a name that is not UTF-8 holds lone
    surrogates); nothing else of it changed, as JSON is data, not a log line."""
    item = result.as_dict()
    if result.file:
        item["file"] = printable_characters(result.file)
    return item


def _escape_data(text: str) -> str:
    """Text of a workflow command: ``%``, CR and LF percent-encoded (GitHub decodes them
    into the annotation), every other control character escaped as the text report shows
    it (``\\x1b``: layout.printable), so that no escape sequence reaches the CI log."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _work_tree_top(folder: str) -> str | None:
    """The top folder of the git work tree holding ``folder`` (an absolute path): the
    nearest one holding a ``.git`` (a folder, or the file of a linked work tree); None
    outside any."""
    while True:
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _repository_paths() -> Callable[[str], str]:
    """A function giving a result's file (named as the text report names it: from the
    working directory) as GitHub reads a path: from the top of the git work tree holding
    it, symbolic links resolved (GitHub's SARIF support: a path is relative to the root
    of the repository, and a result in a file reached through a symlink is not shown);
    the name unchanged outside a work tree. The tops found are kept for the one report."""
    tops: dict[str, str | None] = {}

    def in_repository(file: str) -> str:
        real = os.path.realpath(file)
        folder = os.path.dirname(real)
        if folder not in tops:
            tops[folder] = _work_tree_top(folder)
        top = tops[folder]
        return Path(os.path.relpath(real, top)).as_posix() if top is not None else file

    return in_repository


def _annotation(result: RuleResult) -> str:
    """The workflow command that annotates ``result``: error, warning or notice."""
    return {"Violation": "error", "Warning": "warning"}.get(graded(result.severity), "notice")


#: GitHub shows the first this many annotations of each kind (error, warning, notice) a
#: step writes, and of a job's steps together GITHUB_JOB_ANNOTATIONS (actions/toolkit,
#: docs/problem-matchers.md, Limitations; GitHub's REST API, check runs: "GitHub Actions
#: are limited to 10 warning annotations and 10 error annotations per step").
GITHUB_STEP_ANNOTATIONS = 10
GITHUB_JOB_ANNOTATIONS = 50


def github_limit_warning(report: Report) -> str | None:
    """What of ``github_report(report)`` GitHub does not show: the annotations of each
    kind past the first ``GITHUB_STEP_ANNOTATIONS``; None when none is."""
    kinds = Counter(_annotation(r) for r in report.counted)
    past = [
        f"{kinds[kind]:,} {kind}"
        for kind in ("error", "warning", "notice")
        if kinds[kind] > GITHUB_STEP_ANNOTATIONS
    ]
    if not past:
        return None
    return (
        f"{' and '.join(past)} annotations: GitHub shows the first "
        f"{GITHUB_STEP_ANNOTATIONS} of each kind a step writes ({GITHUB_JOB_ANNOTATIONS} of "
        "a job's); the step's log lists every one"
    )


def github_report(report: Report, summary: bool = True) -> str:
    """GitHub Actions workflow commands: ``::error file=…,line=…,title=…::message``, data
    text escaped as ``_escape_data`` says, a file named from the top of its git work tree
    (as GitHub reads ``file=``; ``_repository_paths``); then, with ``summary``, the
    summary line, which the run's log shows as written."""
    in_repository = _repository_paths()
    lines = []
    for r in report.counted:
        command = _annotation(r)
        props = []
        if r.file:
            props.append(f"file={_escape_property(in_repository(r.file))}")
            if r.line:
                props.append(f"line={r.line}")
            if r.column:
                props.append(f"col={r.column}")
        props.append(f"title={_escape_property(f'{r.code} {_tag(r)} {r.shape}')}")
        text = _escape_data(f"{r.message} ({_detail(r)})")
        lines.append(f"::{command} {','.join(props)}::{text}")
    if summary:
        lines.append(summary_line(report))
    return "".join(f"{line}\n" for line in lines)


def junit_report(report: Report, fail_on: str = "violation") -> str:
    """JUnit XML: one testcase per rule shape, and one per other shape a result names
    (a shape of the anthology's own, classname ``own shape``; the waivers',
    ``aks:WaiverNotExpired``). A counted result of a severity ``fail_on`` fails on
    (failing_severities) fails its testcase, so that the file fails exactly when the
    exit code does; the other counted results go to system-out. Text from the data is
    shown as the text report shows it (control characters escaped, layout.printable),
    which also keeps out every character XML 1.0 cannot carry (export_writers.NOT_XML):
    the report is well-formed whatever the data."""
    failing = failing_severities(fail_on)
    cases = [(rule.source, rule.name) for rule in report.rules]
    named = {name for _, name in cases}
    for r in report.results:
        if r.shape not in named:
            named.add(r.shape)
            cases.append((_tag(r)[1:-1], r.shape))
    suite = ET.Element("testsuite", name="anthology-kg rules")
    failures = 0
    for classname, name in cases:
        mine = [r for r in report.counted if r.shape == name]
        case = ET.SubElement(
            suite, "testcase", classname=printable(classname), name=printable(name)
        )
        failed = [r for r in mine if graded(r.severity) in failing]
        if failed:
            failures += 1
            counts = {s: sum(graded(r.severity) == s for r in failed) for s in failing}
            found = [s for s in failing if counts[s]]
            failure = ET.SubElement(
                case,
                "failure",
                message=", ".join(f"{counts[s]} {s.lower()}(s)" for s in found),
                type=found[0],  # the gravest
            )
            failure.text = "\n".join(
                printable(f"{_where(r)}: {r.code} {r.severity} {r.message} ({_detail(r)})")
                for r in failed
            )
        others = [r for r in mine if graded(r.severity) not in failing]
        if others:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(
                printable(f"{_where(r)}: {r.code} {r.severity} {r.message} ({_detail(r)})")
                for r in others
            )
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    suites = ET.Element("testsuites", name="anthology-kg", tests=str(len(cases)))
    suites.set("failures", str(failures))
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def _uri(file: str) -> str:
    """``file`` as a relative URI reference: its bytes (a name that is not UTF-8 too)
    percent-encoded but for ``/`` and unreserved characters."""
    return quote(os.fsencode(file))


def _in_file(uri: str, line: int | None, column: int | None = None) -> dict:
    """A SARIF physical location in the file ``uri``, at ``line`` and ``column``; for no
    line, at the file's first line. SARIF lets a region be left out for the whole file
    (2.1.0, 3.29.4), but GitHub's code scanning requires ``region.startLine`` ("SARIF
    support for code scanning", physicalLocation object), and its upload action computes
    a result's fingerprint (``primaryLocationLineHash``, the one code scanning uses to
    follow an alert from run to run) only for a location with a line: it hashes the
    first line for an alert about a whole file, as this location says."""
    region: dict = {"startLine": line or 1}
    if line and column:
        region["startColumn"] = column
    return {"artifactLocation": {"uri": uri}, "region": region}


def _sarif_location(
    result: RuleResult, report: Report, in_repository: Callable[[str], str]
) -> dict:
    """The result's SARIF location: its file, line and column (``_in_file``). A result
    no line of a file holds (about a term of the ontology, say; every result of a store
    validated at --endpoint) is located, with a message saying so, at the waivers file's
    first line for the waivers' results and at the anthology's data folder for the
    others: a folder, which has no lines, with no region (the whole folder, SARIF 2.1.0,
    3.29.4). GitHub's code scanning refuses a whole SARIF file in which one result has
    no location."""
    if result.file:
        uri = _uri(in_repository(result.file))
        located: dict = {"physicalLocation": _in_file(uri, result.line, result.column)}
        if not result.line:
            located["message"] = {"text": "no line of the file holds this result: shown at line 1"}
        return located
    engine = report.engine
    waivers = engine.rules.waivers_file if engine is not None else None
    if result.shape == WAIVER_SHAPE and waivers is not None:
        physical = _in_file(_uri(in_repository(display_path(waivers))), None)
        where = "the waivers file, shown at its line 1"
    else:
        data = (engine.root if engine is not None else Path.cwd()) / "data"
        physical = {"artifactLocation": {"uri": _uri(in_repository(display_path(data))) + "/"}}
        where = "the anthology's data folder"
    return {
        "physicalLocation": physical,
        "message": {"text": f"no line of a file holds this result: located at {where}"},
    }


#: The SARIF level of each SHACL severity (another IRI's is a Violation's: rules.graded).
_LEVELS = {"Violation": "error", "Warning": "warning", "Info": "note"}

#: The key of a SARIF result's own partial fingerprint (``partialFingerprints``).
FINGERPRINT_KEY = "anthologyKgResult/v1"


def _fingerprint(result: RuleResult) -> str:
    """A hash of what the result is about, its rule, shape, focus, path and value, and
    not its line: the same result in another run, a line moved, hashes alike."""
    parts = (result.code, result.shape, result.focus, result.path, result.node, result.value)
    text = "\x00".join("" if part is None else part for part in parts)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


#: How a rule's help ends (``_help``): how to accept an exception to it; the waivers' own
#: rule has none, its results are mended in waivers.ttl.
_EXCEPTION = (
    "a waiver in waivers.ttl accepts an exception for one entry, with a reason and an expiry date."
)
_WAIVER_MENDED = "mend the waiver in waivers.ttl, or remove it."

#: The waivers' own rule (``WAIVER_CODE``), which no shape of the rules graph states:
#: its short and full descriptions (validation._apply_waivers checks it).
_WAIVER_RULE = (
    "A waiver is complete and in force",
    "A waiver of waivers.ttl names the focus entry, the rule, a reason and an expiry date, "
    "one of each; the rule it names is there, and its expiry date has not passed",
)


def _help(
    code: str, description: str, shapes: Sequence[str], source: str, act: str = _EXCEPTION
) -> dict:
    """A rule's help, which GitHub's code scanning requires (``help.text``) and shows
    beside the rule's results: what the rule checks, the shapes that check it and whom it
    answers to (``source``: a decision record, ``integrity``, ``own shape``), how to
    report it alone (the code quoted as a shell reads it: a blank-node shape's name may
    hold a blank), and ``act``."""
    who = {
        "integrity": "for the record's integrity",
        "own shape": "a shape of the anthology's own",
    }.get(source, f"enforcing {source}")
    return {
        "text": f"{description}\n\nChecked by {', '.join(shapes)}, {who}. "
        f"`anthology-kg validate --select {shlex.quote(code)}` reports this rule alone; {act}"
    }


def _unlisted_rules(report: Report, results: Iterable[RuleResult], listed: set[str]) -> list:
    """A reporting descriptor for each code of ``results`` that no rule of the validation
    has (``listed``: their codes): the waivers' ``WAIVER_CODE`` and each shape of one's
    own that states neither a rule number nor ``ak:enforces`` (its code its name), in
    code order, so that every result's ruleId names a rule of the log: GitHub's code
    scanning shows a rule's descriptions and help beside its alerts. An own shape is
    described by its ``rdfs:label`` where it has one (of several, as ``sh:message``:
    ``preferred_message``)."""
    by_code: dict[str, list[RuleResult]] = {}
    for r in results:
        if r.code not in listed:
            by_code.setdefault(r.code, []).append(r)
    descriptors = []
    for code in sorted(by_code):
        mine = by_code[code]
        gravest = min(SEVERITIES.index(graded(r.severity)) for r in mine)
        if code == WAIVER_CODE:
            (short, full), source, act = _WAIVER_RULE, "integrity", _WAIVER_MENDED
        else:
            label = _shape_label(report, code)
            short = label or f"The anthology's own shape {code}"
            full = f"The anthology's own shape {code}" + (f": {label}" if label else "")
            source, act = "own shape", _EXCEPTION
        shapes = sorted({r.shape for r in mine})
        name = re.split("[:/#]", shapes[0])[-1] or code
        level = _LEVELS[SEVERITIES[gravest]]
        descriptors.append(_descriptor(code, name, short, full, level, None, source, shapes, act))
    return descriptors


#: GitHub's code scanning limits a rule's name to 255 characters and each of its short
#: and full descriptions to 1024 ("SARIF support for code scanning", reportingDescriptor).
_NAME_LIMIT = 255
_DESCRIPTION_LIMIT = 1024


def _at_most(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` - 1 characters and an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _descriptor(
    code: str,
    name: str,
    short: str,
    full: str,
    level: str,
    number: int | None,
    source: str,
    shapes: list[str],
    act: str = _EXCEPTION,
) -> dict:
    """A rule's reporting descriptor: its name and descriptions within GitHub's limits
    (``_at_most``; the help, which has none, keeps the full description whole)."""
    return {
        "id": code,
        "name": _at_most(name, _NAME_LIMIT),
        "shortDescription": {"text": _at_most(short, _DESCRIPTION_LIMIT)},
        "fullDescription": {"text": _at_most(full, _DESCRIPTION_LIMIT)},
        "help": _help(code, full, shapes, source, act),
        "defaultConfiguration": {"level": level},
        "properties": {"rule": number, "enforces": source, "shapes": shapes},
    }


def _shape_label(report: Report, name: str) -> str | None:
    """The ``rdfs:label`` of the named shape ``name`` (an IRI) in the report's shapes
    graph; None for a shape with none, of a blank node, or of no engine."""
    if report.engine is None:
        return None
    try:
        node = ox.NamedNode(name)
    except ValueError:  # a blank-node shape's name (its label or hash)
        return None
    label = preferred_message(report.engine.rules.shapes_view.objects(node, RDFS.label))
    return printable_characters(label.value) if label is not None else None


#: GitHub's code scanning rejects a SARIF file one of whose runs holds more results than
#: this, and keeps only the first of them by severity ("SARIF support for code
#: scanning", Validating your SARIF file: results per run, maximum and truncation).
GITHUB_MAX_RESULTS = 25_000
GITHUB_SHOWN_RESULTS = 5_000


def sarif_results(report: Report) -> list[RuleResult]:
    """The results a SARIF log of ``report`` holds: all but those a baseline had and the
    files no longer have (``sarif_report``)."""
    return [r for r in report.results if r.baseline != "absent"]


def limit_warning(fmt: str, report: Report) -> str | None:
    """What GitHub does not take or show of ``report`` written in ``fmt`` (its code
    scanning of a SARIF log, its annotations of workflow commands); None for all of it
    or another format."""
    if fmt == "sarif":
        return sarif_limit_warning(len(sarif_results(report)))
    if fmt == "github":
        return github_limit_warning(report)
    return None


def sarif_limit_warning(count: int) -> str | None:
    """What a SARIF log of ``count`` results meets of GitHub's code scanning limits on a
    run: the whole upload rejected past ``GITHUB_MAX_RESULTS``, only the gravest
    ``GITHUB_SHOWN_RESULTS`` kept past that; None within both."""
    if count > GITHUB_MAX_RESULTS:
        return (
            f"the SARIF log holds {count:,} results: GitHub's code scanning rejects the "
            f"upload of a run of more than {GITHUB_MAX_RESULTS:,} (--select or --ignore "
            "report fewer rules)"
        )
    if count > GITHUB_SHOWN_RESULTS:
        return (
            f"the SARIF log holds {count:,} results: GitHub's code scanning keeps only "
            f"{GITHUB_SHOWN_RESULTS:,} of a run's results, the gravest first"
        )
    return None


def sarif_report(report: Report) -> str:
    """SARIF 2.1.0 with one reporting descriptor per rule code (``AK002``); the shapes
    that encode a rule are listed in its descriptor, each result names its shape.
    Every result has a location (``_sarif_location``), its file named from the top of
    its git work tree (``_repository_paths``). Against a baseline, a result is
    ``new`` or ``unchanged``; a fixed (``absent``) one is left out: GitHub's code
    scanning reads no ``baselineState`` and would raise an alert at a line of the
    current files. Each result has a partial fingerprint of its own
    (``FINGERPRINT_KEY``: ``_fingerprint``, then ``:n`` for the n-th result of that
    hash): code scanning folds results whose fingerprints are the same, and the one it
    computes (``primaryLocationLineHash``, from the line's text) is the same for two
    results of one rule at one line."""
    level = _LEVELS
    by_code: dict[str, list] = {}
    for rule in report.rules:
        by_code.setdefault(rule.code, []).append(rule)
    rules = []
    for code, shapes in by_code.items():
        first = shapes[0]
        labels = [rule.label or rule.name for rule in shapes]
        description = "; ".join(labels) if len(shapes) > 1 else first.message or labels[0]
        # (the local name: of aks:Rule2… or of an own shape's whole IRI)
        name = re.split("[:/#]", first.name)[-1] if len(shapes) == 1 else f"Rule{first.number}"
        rules.append(
            _descriptor(
                code,
                name,
                labels[0],
                description,
                level[graded(first.severity)],
                first.number,
                first.source,
                [rule.name for rule in shapes],
            )
        )
    shown = sarif_results(report)
    rules += _unlisted_rules(report, shown, set(by_code))
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    in_repository = _repository_paths()
    results = []
    hashes: Counter[str] = Counter()
    for r in shown:
        identity = _fingerprint(r)
        hashes[identity] += 1
        result: dict = {
            "ruleId": r.code,
            "level": level[graded(r.severity)],
            "message": {"text": f"{r.message} ({_detail(r)})"},
            "partialFingerprints": {FINGERPRINT_KEY: f"{identity}:{hashes[identity]}"},
            "properties": {"shape": r.shape, "focus": r.focus, "path": r.path, "value": r.value},
        }
        result["ruleIndex"] = index[r.code]
        result["locations"] = [_sarif_location(r, report, in_repository)]
        if r.waived:
            result["suppressions"] = [{"kind": "external", "justification": r.waiver_reason}]
        if r.baseline:
            result["baselineState"] = r.baseline
        results.append(result)
    return _sarif_document(rules, results)


def _sarif_document(rules: list[dict], results: list[dict], **more: object) -> str:
    """A SARIF 2.1.0 log of one run of anthology-kg: its rules, its results and the
    run's ``more`` properties (its invocations)."""
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
                **more,
                # Columns count code points, as the text report's do (SARIF's default
                # is UTF-16 code units: a character past U+FFFF is two of them).
                "columnKind": "unicodeCodePoints",
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


def _error_place(error: AnthologyError) -> tuple[str | None, int | None]:
    """The file of an input error as GitHub reads a path (``_repository_paths``), and
    its line; (None, None) for an error of no file (of a folder, an option, a revision)."""
    if error.path is None or not os.path.isfile(error.path):
        return None, None
    return _repository_paths()(display_path(error.path)), error.line


def github_error(error: AnthologyError) -> str:
    """An input error as a GitHub workflow command: ``::error file=…,line=…,title=…::``
    and the message, so that the run shows it at the file as it shows a result."""
    file, line = _error_place(error)
    props = []
    if file is not None:
        props.append(f"file={_escape_property(file)}")
        if line is not None:
            props.append(f"line={line}")
    props.append(f"title={_escape_property('anthology-kg: input error')}")
    return f"::error {','.join(props)}::{_escape_data(error.message)}\n"


def sarif_error(error: AnthologyError) -> str:
    """An input error as a SARIF 2.1.0 log: a run of no results whose invocation did not
    succeed (``executionSuccessful`` false, exit code 2) and carries the error as a
    tool execution notification of level ``error`` at its file and line (SARIF 3.20.14,
    3.20.21, 3.58): a log to upload where a workflow expects one, which says the
    results are not all there."""
    notification: dict = {"level": "error", "message": {"text": printable_lines(error.message)}}
    file, line = _error_place(error)
    if file is not None:
        notification["locations"] = [{"physicalLocation": _in_file(_uri(file), line)}]
    invocation = {
        "executionSuccessful": False,
        "exitCode": 2,
        "toolExecutionNotifications": [notification],
    }
    return _sarif_document([], [], invocations=[invocation])


def junit_error(error: AnthologyError) -> str:
    """An input error as JUnit XML: one testcase holding an ``error`` element (not a
    ``failure``: the rules could not be run), its text the message stderr shows."""
    suites = ET.Element("testsuites", name="anthology-kg", tests="1", failures="0", errors="1")
    suite = ET.SubElement(
        suites, "testsuite", name="anthology-kg rules", tests="1", failures="0", errors="1"
    )
    case = ET.SubElement(suite, "testcase", classname="anthology-kg", name="input")
    element = ET.SubElement(
        case, "error", message=printable(error.message.split("\n")[0]), type="input error"
    )
    element.text = str(error)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


#: An input error in a CI format or the JSON report: what a workflow or a program reads
#: where it expects a report.
ERROR_WRITERS: dict[str, Callable[[AnthologyError], str]] = {
    "github": github_error,
    "json": json_error,
    "junit": junit_error,
    "sarif": sarif_error,
}
