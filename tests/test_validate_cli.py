"""`validate`, `check` and `rules` through the CLI: output formats, exit codes, waivers."""

import json
import re
import shutil
from xml.etree import ElementTree as ET

import pytest
from conftest import FIXTURES, date_term, run_cli, waiver_text

RULES = FIXTURES / "rules"


def add_practice(root):
    path = root / "data" / "ARXIV-2409.19256.ttl"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "    ak:practiceWithheldBy id:ADR-032 ;\n",
        '    ak:carriesPractice [ a ak:Practice ; rdfs:label "Run RL on verl" ] ;\n',
    )
    path.write_text(text, encoding="utf-8")


def test_check_on_bundled_anthology_exits_0():
    result = run_cli("check")
    assert result.exit_code == 0
    # The stated unknowns rules 1 and 6 accept are shown (Info), then the summary.
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("conforms: 0 violation(s), 0 warning(s), 0 waived, 3 info(s)")
    assert all(" Info " in line for line in lines[:-1]) and len(lines) == 4


def test_check_fails_when_the_seed_entry_gains_a_practice(bundled_copy, monkeypatch):
    add_practice(bundled_copy)
    monkeypatch.chdir(bundled_copy)
    result = run_cli("check")
    assert result.exit_code == 1
    (line,) = [line for line in result.stdout.splitlines() if " Violation " in line]
    assert re.match(
        r"data/ARXIV-2409\.19256\.ttl:17:5: AK002 Violation \[ADR-032\] Rule 2 of ADR-032: an "
        r"infrastructure entry carries no practice \(ARXIV-2409\.19256, ak:category "
        r"ak:infrastructure\)$",
        line,
    ), line
    assert result.stdout.splitlines()[-1].startswith("does not conform: 1 violation(s)")


def test_text_is_sorted_by_file_and_line():
    result = run_cli("--root", str(RULES / "rule10-bad"), "validate")
    assert result.exit_code == 1
    places = [line.split(": ")[0].split(":") for line in result.stdout.splitlines()[:-1]]
    keys = [(p[0], int(p[1]), int(p[2])) for p in places]
    assert keys == sorted(keys) and len(keys) == 3


def test_warnings_alone_pass_unless_fail_on_warning():
    root = str(RULES / "rule4-bad")
    assert run_cli("--root", root, "validate").exit_code == 0
    assert run_cli("--root", root, "validate", "--fail-on", "warning").exit_code == 1
    assert run_cli("--root", root, "check", "--fail-on", "warning").exit_code == 1


def test_json_format_has_the_documented_structure():
    result = run_cli("--root", str(RULES / "rule9-bad"), "validate", "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert set(doc) == {"schema", "conforms", "counts", "results"}
    assert doc["conforms"] is False
    assert doc["counts"] == {"violations": 1, "warnings": 0, "infos": 0, "waived": 0}
    (item,) = doc["results"]
    assert set(item) == {
        "code",
        "severity",
        "focus",
        "path",
        "value",
        "message",
        "shape",
        "rule",
        "adr",
        "file",
        "line",
        "column",
        "component",
        "waived",
        "waiverReason",
    }
    assert item["focus"] == "LIT-001" and item["value"] == "id:LIT-999" and item["line"] == 9
    assert item["column"] == 36 and item["code"] == "AK009"
    assert item["shape"] == "aks:Rule9NoDanglingReference" and item["rule"] == 9


def test_github_format_is_workflow_annotations():
    result = run_cli("--root", str(RULES / "rule5-bad"), "validate", "--format", "github")
    lines = result.stdout.splitlines()
    annotation = re.compile(
        r"^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,title=AK\d{3} [^:]+::.+$"
    )
    assert len(lines) == 3
    for line in lines[:-1]:
        assert annotation.match(line), line
        assert "%3A" in line.split("::")[1]  # the ':' of titles is escaped


def test_junit_format_has_one_testcase_per_rule():
    result = run_cli("--root", str(RULES / "rule8-bad"), "validate", "--format", "junit")
    root = ET.fromstring(result.stdout)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    rules = run_cli("rules").stdout.splitlines()
    assert len(cases) == len(rules) == int(suite.get("tests"))
    failed = {c.get("name") for c in cases if c.find("failure") is not None}
    kinds = ("One", "Literature", "Decision", "Sota", "Note", "Reference", "Unique")
    kinds += ("Codebase", "Comparison", "Sweep", "Question")
    assert failed == {f"aks:Rule8{kind}Identifier" for kind in kinds}  # every shape of rule 8
    assert suite.get("failures") == "11"


def test_sarif_format_has_the_required_fields():
    result = run_cli("--root", str(RULES / "rule2-bad"), "validate", "--format", "sarif")
    doc = json.loads(result.stdout)
    assert doc["version"] == "2.1.0" and "$schema" in doc
    (run,) = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "anthology-kg"
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == [f"AK{n:03d}" for n in range(1, 11)]  # one descriptor per rule code
    (res,) = run["results"]
    assert res["ruleId"] == "AK002"
    assert res["properties"]["shape"] == "aks:Rule2NoPracticeOnInfrastructure"
    assert ids[res["ruleIndex"]] == res["ruleId"]
    region = res["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 8, "startColumn": 5}
    assert res["level"] == "error" and res["message"]["text"]
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("rule2-bad/data/LIT-001.ttl")
    assert loc["region"]["startLine"] == 8  # the ak:category triple, not the subject (6)


def test_output_file_and_same_bytes_twice(tmp_path):
    out = tmp_path / "report.sarif"
    args = ("--root", str(RULES / "rule1-bad"), "validate", "--format", "sarif", "-o", str(out))
    assert run_cli(*args).exit_code == 1
    first = out.read_bytes()
    run_cli(*args)
    assert out.read_bytes() == first and first.startswith(b"{")


def test_extra_shapes_file(tmp_path):
    shapes = tmp_path / "extra.ttl"
    shapes.write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:x:NeedsStatus> a sh:PropertyShape ; ak:ruleNumber 99 ;\n"
        "  sh:targetClass ak:LiteratureRecord ; sh:path ak:readingStatus ; sh:minCount 1 ;\n"
        '  sh:message "Local rule: a literature record has a reading status" .\n',
        encoding="utf-8",
    )
    result = run_cli(
        "--root", str(FIXTURES / "rules" / "rule1-good"), "validate", "--shapes", str(shapes)
    )
    assert result.exit_code == 1
    assert (
        "Local rule: a literature record has a reading status (LIT-001, ak:readingStatus)"
        in result.stdout
    )


def test_bad_inference_value_is_a_usage_error():
    result = run_cli("validate", "--inference", "magic")
    assert result.exit_code == 2


def test_rules_lists_each_shape():
    result = run_cli("rules")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 33
    assert "aks:Rule2NoPracticeOnInfrastructure\trule 2\tADR-032\tViolation\t" in result.stdout
    assert any(line.split("\t")[2:4] == ["ADR-032", "Warning"] for line in lines)


@pytest.fixture
def waived_root(tmp_path):
    root = tmp_path / "w"
    shutil.copytree(RULES / "rule9-bad", root)
    return root


def test_active_waiver_is_reported_not_counted(waived_root):
    (waived_root / "waivers.ttl").write_text(waiver_text(date_term("2999-12-31")), "utf-8")
    result = run_cli("--root", str(waived_root), "check")
    assert result.exit_code == 0
    assert "Violation (waived: LIT-999 is being written)" in result.stdout
    assert "0 violation(s), 0 warning(s), 1 waived" in result.stdout


def test_expired_waiver_is_itself_a_violation(waived_root):
    (waived_root / "waivers.ttl").write_text(waiver_text(date_term("2000-01-01")), "utf-8")
    result = run_cli("--root", str(waived_root), "validate", "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    messages = [(r["shape"], r["file"].rsplit("/", 1)[-1], r["line"]) for r in doc["results"]]
    assert ("aks:WaiverNotExpired", "waivers.ttl", 6) in messages
    assert doc["counts"]["violations"] == 2 and doc["counts"]["waived"] == 0


def test_both_engines_print_the_same_report():
    root = str(RULES / "rule10-bad")
    fast = run_cli("--root", root, "check")
    reference = run_cli("--root", root, "check", "--engine", "reference")
    assert fast.exit_code == reference.exit_code == 1
    assert fast.stdout == reference.stdout


def test_shapes_the_fast_engine_cannot_compile_fall_back_to_pyshacl(tmp_path):
    # The compiler runs every W3C core and SPARQL-based construct; an SHACL-AF rule
    # (sh:rule) is what it leaves to pySHACL.
    shapes = tmp_path / "advanced.ttl"
    shapes.write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<urn:x:Q> a sh:PropertyShape ; ak:ruleNumber 98 ; sh:targetClass ak:Comparison ;\n"
        "  sh:path ak:arm ; sh:qualifiedValueShape [ sh:class ak:Arm ] ;\n"
        "  sh:rule [ a sh:TripleRule ; sh:subject sh:this ; sh:predicate ak:checked ;\n"
        "            sh:object true ] ;\n"
        '  sh:qualifiedMinCount 4 ; sh:message "Local rule: four arms" .\n',
        encoding="utf-8",
    )
    result = run_cli("validate", "--shapes", str(shapes))
    assert "using the reference engine" in result.stderr and "SHACL-AF" in result.stderr
    assert result.exit_code == 1 and "Local rule: four arms" in result.stdout


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_an_anthology_holding_a_copy_of_the_bundled_shapes_reads_each_shape_once(
    bundled_copy, engine
):
    """A checkout of this repository run by another installed version has the bundled
    shapes in its own ontology/shapes: a file with the same bytes is read once (before,
    every shape came twice, and pySHACL refused a property shape with two sh:path)."""
    from anthology_kg import resources

    alone = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    shutil.copytree(resources.bundled_shapes_dir(), bundled_copy / "ontology" / "shapes")
    copied = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    assert (copied.exit_code, copied.stdout) == (alone.exit_code, alone.stdout)
    assert alone.exit_code == 0, alone.output


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_shapes_pyshacl_refuses_are_an_input_error_on_both_engines(bundled_copy, engine):
    """A property shape with two sh:path is ill-formed SHACL: exit 2 at the file and line,
    not pySHACL's traceback (the reference engine; before, its message named no file) nor
    the first path read and checked on (the fast engine, before)."""
    shapes = bundled_copy / "ontology" / "shapes"
    shapes.mkdir(parents=True)
    (shapes / "twice.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://example.org/> .\n"
        "ex:S a sh:NodeShape ; sh:targetNode ex:n ; sh:property ex:P .\n"
        "ex:P a sh:PropertyShape ; sh:path ex:a , ex:b ; sh:minCount 1 .\n",
        encoding="utf-8",
    )
    result = run_cli("--root", str(bundled_copy), "check", "--engine", engine)
    assert result.exit_code == 2, result.output
    assert f"{shapes / 'twice.ttl'}:4: <http://example.org/P>: sh:path: more than one value" in (
        result.stderr
    )
    assert "Traceback" not in result.output
