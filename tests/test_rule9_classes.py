"""Rule 9's check of the classes of ak: (aks:Rule9NoDanglingReference's second
constraint, b8bf421; review48 #1, #4, #5): a class the ontology does not declare is
found under inference too, a literal written as a type is no class of ak:, and the
W3C report of such a result is the same graph on both engines."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, run_cli

BAD = FIXTURES / "rules" / "rule9-class-bad"
MISSPELT = "rdf:type ak:LiteratureRecrod"


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("inference", ["none", "rdfs", "owlrl"])
def test_a_misspelt_class_is_found_with_and_without_inference(engine, inference):
    # With a closure every class a node is typed with is described (rdfs:Class,
    # rdfs:Resource): "described by nothing" found none of them.
    result = run_cli("--root", str(BAD), "check", "--engine", engine, "--inference", inference)
    assert result.exit_code == 1, result.output
    assert result.stdout.count("AK009") == 2 and MISSPELT in result.stdout


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_literal_written_as_a_type_is_no_class_of_ak(tmp_path, engine):
    root = tmp_path / "a"
    shutil.copytree(BAD, root)
    entry = root / "data" / "LIT-001.ttl"
    text = entry.read_text(encoding="utf-8")
    entry.write_text(
        text.replace("ak:LiteratureRecrod", '"https://w3id.org/anthology-kg/ns#LiteratureRecrod"'),
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert MISSPELT not in result.stdout and "LiteratureRecrod" not in result.stdout


def test_the_report_graph_is_the_same_on_both_engines():
    reports = [
        run_cli("--root", str(BAD), "validate", "--format", "turtle", "--engine", engine).stdout
        for engine in ("fast", "reference")
    ]
    assert reports[0] == reports[1] and "LiteratureRecrod" in reports[0]
