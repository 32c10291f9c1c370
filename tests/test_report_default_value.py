"""A result whose value is the focus node only by SHACL's default (a SPARQL constraint
that selects no ?value: SHACL 5.3.2) shows no value in the reports to people and CI:
``(LIT-001, ak:category LIT-001)`` read as if LIT-001 were the category at fault. The W3C
report graph keeps sh:value as SHACL says, and both engines agree."""

from __future__ import annotations

import json

import pytest
from conftest import rules_fixture_copy, run_cli
from rdflib import Graph, Namespace, URIRef

SH = Namespace("http://www.w3.org/ns/shacl#")
LIT_001 = URIRef("https://w3id.org/anthology-kg/id/LIT-001")
ENGINES = ["fast", "reference"]


@pytest.fixture
def root(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule1-bad")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("engine", ENGINES)
def test_a_missing_category_has_no_value_in_text_json_and_sarif(root, engine):
    text = run_cli("validate", "--engine", engine, "--select", "AK001").stdout
    assert (
        "data/LIT-001.ttl:6:1: AK001 Violation [ADR-032] Rule 1 of ADR-032: a reference or "
        "literature record has exactly one category (LIT-001, ak:category)\n"
    ) in text
    results = json.loads(run_cli("validate", "--engine", engine, "--format", "json").stdout)
    lit_001 = [r for r in results["results"] if r["focus"] == "LIT-001"]
    assert [(r["path"], r["value"]) for r in lit_001] == [("ak:category", None)]
    sarif = json.loads(run_cli("validate", "--engine", engine, "--format", "sarif").stdout)
    found = [r["properties"] for r in sarif["runs"][0]["results"]]
    assert {"shape": "aks:Rule1OneCategory", "focus": "LIT-001", "path": "ak:category"} | {
        "value": None
    } in found


@pytest.mark.parametrize("engine", ENGINES)
def test_the_w3c_report_graph_keeps_the_focus_as_sh_value(root, engine):
    result = run_cli("validate", "--engine", engine, "--format", "turtle")
    graph = Graph().parse(data=result.stdout, format="turtle")
    results = set(graph.subjects(SH.focusNode, LIT_001))
    assert [graph.value(r, SH.value) for r in results] == [LIT_001]


OWN = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
<urn:x:NoSelfReference> a sh:NodeShape ;
    sh:targetClass ak:LiteratureRecord ;
    sh:sparql [
        sh:message "an entry does not reference itself" ;
        sh:select \"\"\"
            # the entry itself is the value at fault
            SELECT $this ?value WHERE {
                $this <http://purl.org/dc/terms/references> ?value . FILTER (?value = $this)
            }\"\"\"
    ] .
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_value_the_select_gives_is_shown_even_when_it_is_the_focus(root, engine):
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "own.ttl").write_text(OWN, "utf-8")
    data = root / "data" / "LIT-001.ttl"
    data.write_text(
        data.read_text("utf-8").rstrip().rstrip(".") + " ;\n    dcterms:references id:LIT-001 .\n",
        "utf-8",
    )
    results = json.loads(run_cli("validate", "--engine", engine, "--format", "json").stdout)
    own = [r for r in results["results"] if r["shape"] == "urn:x:NoSelfReference"]
    assert [(r["focus"], r["value"]) for r in own] == [("LIT-001", "LIT-001")]


COMPONENT = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/c#> .
ex:NeedsProperty a sh:ConstraintComponent ;
    sh:parameter [ sh:path ex:needs ] ;
    sh:nodeValidator [
        a sh:SPARQLSelectValidator ;
        sh:message "lacks a property it needs" ;
        sh:select "SELECT $this WHERE { FILTER NOT EXISTS { $this $needs ?any } }"
    ] .
ex:Shape a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    ex:needs <http://purl.org/dc/terms/title> .
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_node_shapes_select_validator_without_value_shows_none(root, engine):
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "component.ttl").write_text(COMPONENT, "utf-8")
    results = json.loads(run_cli("validate", "--engine", engine, "--format", "json").stdout)
    mine = [r for r in results["results"] if r["component"] == "NeedsProperty"]
    assert [(r["focus"], r["value"]) for r in mine] == [
        ("LIT-001", None),
        ("LIT-002", None),
        ("LIT-003", None),
        ("LIT-004", None),
    ]
    graph = Graph().parse(
        data=run_cli("validate", "--engine", engine, "--format", "turtle").stdout,
        format="turtle",
    )
    ours = [r for r in graph.subjects(SH.focusNode, LIT_001)]
    assert LIT_001 in {graph.value(r, SH.value) for r in ours}
