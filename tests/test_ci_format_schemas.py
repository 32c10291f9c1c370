"""What ``validate`` writes for CI, checked against the formats' own definitions rather
than against what the writers meant: every SARIF log against the OASIS SARIF 2.1.0 JSON
schema and GitHub code scanning's documented requirements on top of it, every JUnit
report against the Jenkins xUnit plugin's JUnit schema, every GitHub annotation read back
by a port of the Actions runner's own workflow-command parser. The schemas, their
sources, versions and licences: tests/fixtures/schemas/README.md."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import FIXTURES, own_shapes, run_cli, waiver_text

from anthology_kg.errors import printable
from anthology_kg.resources import bundled_dir

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
etree = pytest.importorskip("lxml.etree", reason="lxml is not installed")

SCHEMAS = FIXTURES / "schemas"

# --- the scenarios: every kind of run validate writes a CI report of -------------------

#: Own shapes of every severity: a named shape's sh:Violation, a nested blank node's
#: sh:Warning, a blank-node shape's sh:Info, and a severity SHACL ranks nowhere.
OWN_SHAPES = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ex: <http://ex.org/shapes/> .
ex:HasTwoLabels a sh:NodeShape ; sh:targetNode <http://ex.org/a> ;
    sh:property [ sh:path rdfs:label ; sh:minCount 2 ] .
ex:HasSeeAlso a sh:NodeShape ; sh:targetNode <http://ex.org/a> ;
    sh:property [ sh:path rdfs:seeAlso ; sh:minCount 1 ; sh:severity sh:Warning ] .
[] a sh:NodeShape ; sh:targetNode <http://ex.org/a> ; rdfs:label "has a comment" ;
    sh:property [ sh:path rdfs:comment ; sh:minCount 1 ; sh:severity sh:Info ] .
ex:Blocks a sh:NodeShape ; sh:targetNode <http://ex.org/a> ;
    sh:property [ sh:path rdfs:isDefinedBy ; sh:minCount 1 ;
                  sh:severity <http://ex.org/severity#Blocker> ] .
"""
OWN_DATA = '<http://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "a" .\n'

#: Text that workflow commands, JSON, XML and terminals each read specially.
ODD = "odd %25 100% a:b, c=d :: ::error::x\\r\\n\\u001b[31m <x>&amp;"


def _copy(source: Path, root: Path) -> Path:
    shutil.copytree(source, root, ignore=shutil.ignore_patterns(".git"))
    return root


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def bundled(tmp: Path) -> tuple[tuple[str, ...], int]:
    """The bundled anthology: Info results only (the stated unknowns), exit 0."""
    _copy(bundled_dir() / "data", tmp / "b" / "data")
    return ("--root", "b", "validate"), 0


def numbered_rules(tmp: Path) -> tuple[tuple[str, ...], int]:
    """A warning (rule 4's LIT-001) and a violation (rule 2's, as LIT-002) of the
    bundled rules."""
    root = _copy(FIXTURES / "rules" / "rule4-bad", tmp / "r")
    practice = (FIXTURES / "rules" / "rule2-bad" / "data" / "LIT-001.ttl").read_text("utf-8")
    (root / "data" / "LIT-002.ttl").write_text(practice.replace("LIT-001", "LIT-002"), "utf-8")
    return ("--root", "r", "validate"), 1


def own_shape_results(tmp: Path) -> tuple[tuple[str, ...], int]:
    """The results of shapes of one's own, of every severity."""
    return own_shapes(tmp / "own", OWN_SHAPES, OWN_DATA), 1


#: A shape of one's own that enforces a decision record (so a rule of the log as the
#: numbered rules are), its IRI's local name, label and message past GitHub's limits.
LONG_SHAPE = f"""@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ak: <https://w3id.org/anthology-kg/ns#> .
<http://ex.org/shapes/{"Long" * 80}> a sh:NodeShape ; sh:targetNode <http://ex.org/a> ;
    ak:enforces <http://ex.org/ADR-900> ;
    rdfs:label "{"A label of a shape, " * 60}" ;
    sh:message "{"A message of a shape, " * 60}" ;
    sh:property [ sh:path rdfs:seeAlso ; sh:minCount 1 ] .
"""


def long_texts(tmp: Path) -> tuple[tuple[str, ...], int]:
    """A rule whose name and descriptions would pass GitHub's limits."""
    return own_shapes(tmp / "own", LONG_SHAPE, OWN_DATA), 1


def waived(tmp: Path) -> tuple[tuple[str, ...], int]:
    """Rule 9's one violation, waived by a waiver in force: exit 0."""
    root = _copy(FIXTURES / "rules" / "rule9-bad", tmp / "w")
    (root / "waivers.ttl").write_text(waiver_text('"2999-12-31"^^xsd:date'), encoding="utf-8")
    return ("--root", "w", "validate"), 0


def expired_waiver(tmp: Path) -> tuple[tuple[str, ...], int]:
    """Rule 9's violation and the waivers' own AK000 of the waiver that expired."""
    root = _copy(FIXTURES / "rules" / "rule9-bad", tmp / "w")
    (root / "waivers.ttl").write_text(waiver_text('"2000-01-01"^^xsd:date'), encoding="utf-8")
    return ("--root", "w", "validate"), 1


def baseline(tmp: Path) -> tuple[tuple[str, ...], int]:
    """Against a baseline folder: an unchanged result (LIT-001's), a new one (LIT-002's)
    and a fixed one (LIT-003's, left out of SARIF)."""
    old = _copy(FIXTURES / "minimal", tmp / "old")
    entry = (old / "data" / "LIT-001.ttl").read_text(encoding="utf-8")
    (old / "data" / "LIT-003.ttl").write_text(entry.replace("LIT-001", "LIT-003"), "utf-8")
    new = _copy(FIXTURES / "minimal", tmp / "new")
    changed = entry.replace("LIT-001", "LIT-002").replace("ak:method", "ak:evaluation")
    (new / "data" / "LIT-002.ttl").write_text(changed, encoding="utf-8")
    return ("--root", "new", "validate", "--baseline", "old"), 1


def no_results(tmp: Path) -> tuple[tuple[str, ...], int]:
    _copy(FIXTURES / "rules" / "rule1-good", tmp / "g")
    return ("--root", "g", "validate"), 0


def odd_text(tmp: Path) -> tuple[tuple[str, ...], int]:
    """A violation whose value, focus and file name hold what the formats escape."""
    root = _copy(FIXTURES / "minimal", tmp / "m")
    entry = root / "data" / "LIT-001.ttl"
    _replace(entry, 'dcterms:identifier "LIT-001"', f'dcterms:identifier "{ODD}"')
    entry.rename(root / "data" / "LIT-001 %41,b:c=d\x1b.ttl")
    return ("--root", "m", "validate"), 1


#: A shape of one's own whose target no data file writes: its result is held by no line.
NOWHERE_SHAPE = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<urn:x:Nowhere> a sh:NodeShape ; sh:targetNode <urn:x:nothing> ;
    sh:property [ sh:path rdfs:label ; sh:minCount 1 ] .
"""
#: Two blank waivers alike, expired: which statement is which, no line says.
TWIN_WAIVER = """
[] a ak:Waiver ; ak:waives <LIT-001> ; ak:rule aks:Rule9NoDanglingReference ;
    rdfs:comment "old" ; ak:expires "2000-01-01"^^xsd:date .
"""


def unplaced(tmp: Path) -> tuple[tuple[str, ...], int]:
    """Results no line of a file holds: an own shape's of a node no data file writes
    (located at the data folder) and two blank waivers' alike (at the waivers file)."""
    root = _copy(FIXTURES / "rules" / "rule9-bad", tmp / "u")
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "nowhere.ttl").write_text(NOWHERE_SHAPE, encoding="utf-8")
    prefixes = waiver_text("0").split("\n\n")[0]
    (root / "waivers.ttl").write_text(prefixes + TWIN_WAIVER * 2, encoding="utf-8")
    return ("--root", "u", "validate"), 1


def input_error(tmp: Path) -> tuple[tuple[str, ...], int]:
    """A Turtle syntax error (exit 2), in a file whose name needs escaping."""
    root = _copy(FIXTURES / "minimal", tmp / "m")
    entry = root / "data" / "LIT-001.ttl"
    _replace(entry, "ak:unread .", "ak:unread")
    entry.rename(root / "data" / "LIT-001 %41,b:c.ttl")
    return ("--root", "m", "validate"), 2


def configuration_error(tmp: Path) -> tuple[tuple[str, ...], int]:
    """A broken anthology-kg.toml, read before the command line (54295af): exit 2."""
    _copy(FIXTURES / "minimal", tmp / "m")
    (tmp / "anthology-kg.toml").write_text('root = "m"\nbase = \n', encoding="utf-8")
    return ("validate",), 2


SCENARIOS: dict[str, Callable[[Path], tuple[tuple[str, ...], int]]] = {
    "bundled": bundled,
    "numbered rules": numbered_rules,
    "own shapes": own_shape_results,
    "long texts": long_texts,
    "waived": waived,
    "expired waiver": expired_waiver,
    "baseline": baseline,
    "no results": no_results,
    "unplaced": unplaced,
    "odd text": odd_text,
    "input error": input_error,
    "configuration error": configuration_error,
}


@pytest.fixture(params=list(SCENARIOS))
def scenario(request, tmp_path, monkeypatch):
    """(the validate arguments before --format, the exit code), with the scenario's
    anthology in the working directory."""
    monkeypatch.chdir(tmp_path)
    return SCENARIOS[request.param](tmp_path)


def written(scenario, fmt: str) -> str:
    args, exit_code = scenario
    result = run_cli(*args, "--format", fmt)
    assert result.exit_code == exit_code, result.output
    return result.stdout


# --- SARIF ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_schema():
    """The OASIS schema as it declares itself: JSON Schema draft 4."""
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


#: An artifact URI as the writer makes it (reports._uri) and GitHub wants it: a relative
#: reference of path characters, every other byte percent-encoded (RFC 3986 4.2, 3.3).
RELATIVE_PATH = re.compile(r"(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-F]{2})+")

#: GitHub's limits on a SARIF upload, past which "the SARIF file is rejected" (GitHub
#: Docs, "SARIF support for code scanning", Validating your SARIF file).
MAX_RESULTS_PER_RUN = 25_000
MAX_RULES_PER_RUN = 25_000
MAX_RUNS = 20


def github_uri(uri: str) -> None:
    """GitHub Docs, SARIF support, physicalLocation object: artifactLocation.uri is
    required, "a relative path from the root of the GitHub repository"; an absolute URI
    is converted against a source root (Specifying the root for source files), and
    codeql-action's upload (src/upload-lib.ts, validateSarifFileSchema) reports a value
    that is not a valid uri-reference."""
    assert uri and RELATIVE_PATH.fullmatch(uri), uri
    parts = urlsplit(uri)
    assert not parts.scheme and not parts.netloc and not uri.startswith("/"), uri


def github_location(location: dict) -> None:
    """GitHub Docs, SARIF support, location and physicalLocation objects: a file's
    region.startLine is required (and codeql-action's upload computes the fingerprint
    code scanning follows an alert by only for a location with one, src/fingerprints.ts);
    the region's numbers are positive (SARIF 2.1.0, 3.30.5, 3.30.6). Only a folder (a
    URI ending in '/'), which has no lines, has no region: the whole folder (SARIF
    2.1.0, 3.29.4), and a message says why."""
    physical = location["physicalLocation"]
    uri = physical["artifactLocation"]["uri"]
    github_uri(uri)
    region = physical.get("region")
    if uri.endswith("/"):
        assert region is None and location["message"]["text"].strip(), location
    else:
        assert isinstance(region["startLine"], int) and region["startLine"] >= 1, location
        if "startColumn" in region:
            assert isinstance(region["startColumn"], int) and region["startColumn"] >= 1
    if "message" in location:
        assert location["message"]["text"].strip()


def check_for_github(log: dict) -> None:
    """GitHub code scanning's documented requirements that the schema does not enforce
    (GitHub Docs, "SARIF support for code scanning", Supported SARIF output file
    properties: "You must supply an explicit value for any property marked as required.
    The empty string is not supported for required properties")."""
    # sarifLog object: $schema, version 2.1.0 and runs are required.
    assert log["$schema"].endswith("sarif-2.1.0.json") and log["version"] == "2.1.0"
    assert 1 <= len(log["runs"]) <= MAX_RUNS
    for run in log["runs"]:
        # run object: tool.driver and results[] are required; toolComponent object: name
        # and rules[] are required.
        driver = run["tool"]["driver"]
        assert driver["name"].strip() and isinstance(driver["rules"], list)
        assert isinstance(run["results"], list)
        assert len(run["results"]) <= MAX_RESULTS_PER_RUN
        assert len(driver["rules"]) <= MAX_RULES_PER_RUN
        ids = [rule["id"] for rule in driver["rules"]]
        # reportingDescriptor object: id required and "a unique identifier for the rule".
        assert len(ids) == len(set(ids)) and all(i.strip() for i in ids), ids
        for rule in driver["rules"]:
            # name optional, "Limited to 255 characters"; shortDescription.text and
            # fullDescription.text required, "Limited to 1024 characters";
            # defaultConfiguration.level one of note, warning, error.
            if "name" in rule:
                assert 0 < len(rule["name"].strip()) <= 255, rule
            for key in ("shortDescription", "fullDescription"):
                assert 0 < len(rule[key]["text"].strip()) <= 1024, (key, rule)
            level = rule.get("defaultConfiguration", {}).get("level", "warning")
            assert level in {"note", "warning", "error"}, rule
            # help.text required: "Documentation for the rule using text format", shown
            # next to its results (and rule GH2012 of the Microsoft SARIF validator the
            # page points to: "does not provide a 'help' object").
            assert rule["help"]["text"].strip(), rule
        fingerprints = []
        for result in run["results"]:
            # result object: level filters by severity (SARIF's four, none unused here);
            # message.text required; locations[] required, "up to a maximum of 10", and
            # "At least one location is required for code scanning to display a result".
            assert result["level"] in {"note", "warning", "error"}, result
            assert result["message"]["text"].strip(), result
            # ruleId: "The unique identifier of the rule (reportingDescriptor.id)"; the
            # rules are "where you store details of the rules that are run", whose
            # required properties above are what code scanning shows of a result's rule
            # (Understanding rules and results).
            assert result["ruleId"] in ids, result
            assert 1 <= len(result["locations"]) <= 10, result
            for location in result["locations"]:
                github_location(location)
            # partialFingerprints: required; code scanning folds results whose
            # fingerprints are alike, so no two results of a run share one.
            assert result["partialFingerprints"], result
            fingerprints.append(tuple(sorted(result["partialFingerprints"].items())))
            # GitHub's baseline is its own (Providing data to track code scanning alerts
            # across runs): an "absent" result would be an alert at a line of the files.
            assert result.get("baselineState", "new") in {"new", "unchanged"}, result
        assert len(fingerprints) == len(set(fingerprints))
        for invocation in run.get("invocations", []):
            for notification in invocation.get("toolExecutionNotifications", []):
                assert notification["message"]["text"].strip()
                for location in notification.get("locations", []):
                    github_location(location)


def check_rule_references(log: dict) -> None:
    """SARIF 2.1.0, 3.27.6: ruleIndex is the index of the rule's reportingDescriptor in
    the driver's rules, and is absent where there is none."""
    for run in log["runs"]:
        ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
        for result in run["results"]:
            if "ruleIndex" in result:
                assert ids[result["ruleIndex"]] == result["ruleId"], result
            else:
                assert result["ruleId"] not in ids, result


def test_every_sarif_log_is_valid_sarif_2_1_0(scenario, sarif_schema):
    text = written(scenario, "sarif")
    log = json.loads(text)
    errors = [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in sarif_schema.iter_errors(log)
    ]
    assert errors == []
    check_rule_references(log)


def test_every_sarif_log_meets_github_code_scanning_requirements(scenario):
    check_for_github(json.loads(written(scenario, "sarif")))


def test_the_sarif_of_each_kind_of_run_says_what_it_is(tmp_path, monkeypatch):
    """The scenarios do give what they are named for (else the two tests above check
    less than they seem to)."""
    monkeypatch.chdir(tmp_path)

    def run_of(name: str) -> dict:
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        monkeypatch.chdir(folder)
        return json.loads(written(SCENARIOS[name](folder), "sarif"))["runs"][0]

    levels = {r["level"] for r in run_of("numbered rules")["results"]}
    assert levels == {"error", "warning"}
    own = run_of("own shapes")["results"]
    assert sorted(r["level"] for r in own) == ["error", "error", "note", "warning"]
    [result] = run_of("waived")["results"]
    assert result["suppressions"][0]["kind"] == "external"
    assert {r["ruleId"] for r in run_of("expired waiver")["results"]} == {"AK000", "AK009"}
    states = sorted(r["baselineState"] for r in run_of("baseline")["results"])
    assert states == ["new", "unchanged"]
    assert run_of("no results")["results"] == []
    places = {
        (
            result["ruleId"],
            json.dumps(result["locations"][0]["physicalLocation"], sort_keys=True),
            result["locations"][0].get("message", {}).get("text"),
        )
        for result in run_of("unplaced")["results"]
    }
    unheld = "no line of a file holds this result: located at"
    assert places == {
        (
            "AK009",
            '{"artifactLocation": {"uri": "u/data/LIT-001.ttl"}, '
            '"region": {"startColumn": 36, "startLine": 9}}',
            None,
        ),
        (
            "AK000",  # both waivers'
            '{"artifactLocation": {"uri": "u/waivers.ttl"}, "region": {"startLine": 1}}',
            f"{unheld} the waivers file, shown at its line 1",
        ),
        (
            "urn:x:Nowhere",
            '{"artifactLocation": {"uri": "u/data/"}}',
            f"{unheld} the anthology's data folder",
        ),
    }
    for name in ("input error", "configuration error"):
        [invocation] = run_of(name)["invocations"]
        assert invocation["executionSuccessful"] is False
        [notification] = invocation["toolExecutionNotifications"]
        assert notification["level"] == "error" and notification["locations"]


def test_a_rules_help_says_what_it_checks_and_how_to_act_on_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    log = json.loads(written(numbered_rules(tmp_path), "sarif"))
    [rule] = [r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "AK002"]
    assert rule["help"]["text"] == (
        "Rule 2 of ADR-032: an infrastructure entry carries no practice\n\n"
        "Checked by aks:Rule2NoPracticeOnInfrastructure, enforcing ADR-032. "
        "`anthology-kg validate --select AK002` reports this rule alone; a waiver in "
        "waivers.ttl accepts an exception for one entry, with a reason and an expiry date."
    )


def test_every_code_a_result_carries_is_a_rule_of_the_log(tmp_path, monkeypatch):
    """The waivers' AK000 and the shapes of one's own that state no rule number nor
    ak:enforces are described too, an own shape by its rdfs:label where it has one."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "own").mkdir()
    labelled = OWN_SHAPES.replace(
        "ex:HasSeeAlso a sh:NodeShape ;",
        'ex:HasSeeAlso a sh:NodeShape ; rdfs:label "See also"@en ;',
    )
    log = json.loads(written((own_shapes(tmp_path / "own", labelled, OWN_DATA), 1), "sarif"))
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    see_also = rules["http://ex.org/shapes/HasSeeAlso"]
    assert (see_also["name"], see_also["shortDescription"]["text"]) == ("HasSeeAlso", "See also")
    assert see_also["fullDescription"]["text"] == (
        "The anthology's own shape http://ex.org/shapes/HasSeeAlso: See also"
    )
    assert see_also["defaultConfiguration"]["level"] == "warning"
    blocks = rules["http://ex.org/shapes/Blocks"]  # another IRI's severity: an error
    assert blocks["defaultConfiguration"]["level"] == "error"
    assert blocks["shortDescription"]["text"] == (
        "The anthology's own shape http://ex.org/shapes/Blocks"
    )
    # A blank-node shape is known by its label, quoted where the shell would split it.
    assert (
        "`anthology-kg validate --select 'has a comment'`"
        in (rules["has a comment"]["help"]["text"])
    )
    monkeypatch.chdir(tmp_path)
    log = json.loads(written(expired_waiver(tmp_path), "sarif"))
    [waivers] = [r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "AK000"]
    assert waivers["properties"]["shapes"] == ["aks:WaiverNotExpired"]
    assert waivers["help"]["text"].endswith(
        "`anthology-kg validate --select AK000` reports this rule alone; mend the waiver "
        "in waivers.ttl, or remove it."
    )


def test_a_rules_name_and_descriptions_are_clipped_to_githubs_limits(tmp_path, monkeypatch):
    """GitHub Docs, SARIF support, reportingDescriptor: name "Limited to 255 characters",
    shortDescription.text and fullDescription.text "Limited to 1024 characters"; the
    help, which has no limit, keeps the whole description."""
    monkeypatch.chdir(tmp_path)
    log = json.loads(written(long_texts(tmp_path), "sarif"))
    [rule] = [r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"].endswith("Long")]
    assert rule["name"] == "Long" * 63 + "Lo…"
    assert rule["shortDescription"]["text"] == ("A label of a shape, " * 60)[:1023] + "…"
    message = "A message of a shape, " * 60
    assert rule["fullDescription"]["text"] == message[:1023] + "…"
    assert rule["help"]["text"].startswith(message + "\n\nChecked by http://ex.org/shapes/Long")


def test_the_schema_fixture_rejects_what_it_should(sarif_schema):
    """The schema is the real one, not a permissive stand-in: it refuses a level SARIF
    does not have and a line 0."""
    log = json.loads(
        '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t"}}, "results": ['
        '{"message": {"text": "m"}, "level": "fatal", "locations": [{"physicalLocation":'
        '{"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}'
    )
    paths = {"/".join(map(str, e.absolute_path)) for e in sarif_schema.iter_errors(log)}
    assert paths == {
        "runs/0/results/0/level",
        "runs/0/results/0/locations/0/physicalLocation/region/startLine",
    }


# --- JUnit XML --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def junit_schema():
    return etree.XMLSchema(etree.parse(str(SCHEMAS / "junit-10.xsd")))


def test_every_junit_report_is_valid_against_the_jenkins_junit_schema(scenario, junit_schema):
    text = written(scenario, "junit")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    document = etree.fromstring(text.encode("utf-8"))
    assert junit_schema.validate(document), [str(e) for e in junit_schema.error_log]
    # The counts a reporter shows (Jenkins, GitLab, GitHub test reporters read them from
    # the attributes) are the elements' counts.
    assert document.tag == "testsuites"
    cases = document.findall("testsuite/testcase")
    for element in (document, *document.findall("testsuite")):
        assert int(element.get("tests")) == len(cases)
        assert int(element.get("failures")) == len(document.findall(".//failure"))
        assert int(element.get("errors", "0")) == len(document.findall(".//error"))
    assert all(case.get("name") and case.get("classname") for case in cases)


# --- GitHub workflow commands -----------------------------------------------------------

#: actions/runner, src/Runner.Common/ActionCommand.cs (_escapeDataMappings and
#: _escapePropertyMappings), the runner's decoding of a command's data and properties,
#: applied in this order; GitHub Docs, "Workflow commands for GitHub Actions" gives the
#: command syntax ``::error file={name},line={line},endLine=…,title={title}::{message}``.
DATA_ESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
PROPERTY_ESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
#: The properties an annotation takes (GitHub Docs, workflow commands: message
#: parameters): ``line`` and ``col`` start at 1.
ANNOTATION_PROPERTIES = {"title", "file", "col", "endColumn", "line", "endLine"}


def _unescape(text: str, escapes: tuple[tuple[str, str], ...]) -> str:
    for escaped, character in escapes:
        text = text.replace(escaped, character)
    return text


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str] | None:
    """ActionCommand.TryParseV2 of actions/runner: a line that, less its leading blanks,
    starts with ``::`` and has a second ``::`` is a command; its name runs to the first
    blank, its properties are split at commas, each at its first ``=``."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    name, _, properties = info.partition(" ")
    found = {}
    for pair in (p for p in properties.strip().split(",") if p):
        key, _, value = pair.partition("=")
        if key and value:
            found[key] = _unescape(value, PROPERTY_ESCAPES)
    return name, found, _unescape(line[end + 2 :], DATA_ESCAPES)


def test_every_annotation_reads_back_as_written(scenario):
    """Each result is one annotation line that the runner reads back to the SARIF
    result's text and file (shown as the text report shows control characters), so no
    value can end a property, forge one, or start another command."""
    annotations = written(scenario, "github").splitlines()
    log = json.loads(written(scenario, "sarif"))
    run = log["runs"][0]
    expected = [
        r
        for r in run["results"]
        if "suppressions" not in r and r.get("baselineState") != "unchanged"
    ]
    parsed = [parse_workflow_command(line) for line in annotations]
    commands = [command for command in parsed if command is not None]
    if "invocations" in run:  # an input error: one annotation, no summary line
        [notification] = run["invocations"][0]["toolExecutionNotifications"]
        [(name, properties, message)] = commands
        text = printable(notification["message"]["text"], kept="\r\n")
        assert (name, message) == ("error", text)
        assert properties["title"] == "anthology-kg: input error"
        place = notification["locations"][0]["physicalLocation"]
        assert properties["file"] == printable(unquote(place["artifactLocation"]["uri"]))
        assert properties["line"] == str(place["region"]["startLine"])
        return
    assert parsed[-1] is None  # the summary line is no command
    assert len(commands) == len(annotations) - 1 == len(expected)
    level = {"error": "error", "warning": "warning", "note": "notice"}
    # (CR and LF are the annotation's own line breaks, decoded by the runner.)
    by_message = {printable(r["message"]["text"], kept="\r\n"): r for r in expected}
    for name, properties, message in commands:
        assert set(properties) <= ANNOTATION_PROPERTIES, properties
        result = by_message[message]
        assert name == level[result["level"]]
        location = result["locations"][0]
        physical = location["physicalLocation"]
        if "message" in location:  # no line of a file holds it: the annotation names none
            assert "line" not in properties, properties
        else:
            uri = unquote(physical["artifactLocation"]["uri"], errors="surrogateescape")
            assert properties["file"] == printable(uri)
            assert properties["line"] == str(physical["region"]["startLine"])
            if "startColumn" in physical["region"]:
                assert properties["col"] == str(physical["region"]["startColumn"])
        assert properties["title"].startswith(f"{result['ruleId']} ")


def test_the_odd_text_is_there_to_be_read_back(tmp_path, monkeypatch):
    """odd_text's annotation holds what needs escaping, escaped: the round trip above
    proves something."""
    monkeypatch.chdir(tmp_path)
    [line] = [x for x in written(odd_text(tmp_path), "github").splitlines() if "AK008" in x]
    assert "file=m/data/LIT-001 %2541%2Cb%3Ac=d\\x1b.ttl," in line
    assert "odd %2525 100%25 a:b, c=d :: ::error::x%0D%0A\\x1b[31m <x>&amp;" in line
    name, properties, message = parse_workflow_command(line)
    assert properties["file"] == "m/data/LIT-001 %41,b:c=d\\x1b.ttl"
    assert "odd %25 100% a:b, c=d :: ::error::x\r\n\\x1b[31m <x>&amp;" in message
