"""``validate --format turtle|jsonld``: the W3C sh:ValidationReport graph, byte-stable."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli
from rdflib import RDF, Graph
from rdflib.compare import isomorphic
from rdflib.namespace import SH

BAD = FIXTURES / "rules" / "rule1-bad"
GOOD = FIXTURES / "rules" / "rule1-good"
PARSERS = {"turtle": "turtle", "jsonld": "json-ld"}


def _report(root, fmt: str, *extra: str):
    result = run_cli("--root", str(root), "validate", "--format", fmt, *extra)
    graph = Graph().parse(data=result.stdout, format=PARSERS[fmt])
    (node,) = graph.subjects(RDF.type, SH.ValidationReport)
    return result, graph, node


@pytest.mark.parametrize("fmt", sorted(PARSERS))
def test_a_broken_rule_gives_a_w3c_report_with_its_results(fmt):
    result, graph, node = _report(BAD, fmt)
    assert result.exit_code == 1
    assert graph.value(node, SH.conforms).toPython() is False
    results = list(graph.objects(node, SH.result))
    text = run_cli("--root", str(BAD), "validate", "--format", "json")
    assert results and len(results) == text.stdout.count('"focus"')
    for r in results:
        assert (r, RDF.type, SH.ValidationResult) in graph
        for term in (SH.focusNode, SH.resultSeverity, SH.sourceShape, SH.sourceConstraintComponent):
            assert graph.value(r, term) is not None


@pytest.mark.parametrize("fmt", sorted(PARSERS))
def test_a_conforming_anthology_gives_conforms_true(fmt):
    result, graph, node = _report(GOOD, fmt)
    assert result.exit_code == 0
    assert graph.value(node, SH.conforms).toPython() is True
    assert not list(graph.objects(node, SH.result))


@pytest.mark.parametrize("fmt", sorted(PARSERS))
def test_the_report_is_byte_stable_and_the_same_graph_on_both_engines(fmt, tmp_path):
    first = run_cli("--root", str(BAD), "validate", "--format", fmt).stdout
    again = run_cli("--root", str(BAD), "validate", "--format", fmt).stdout
    assert first == again
    out = tmp_path / "report"
    written = run_cli("--root", str(BAD), "validate", "--format", fmt, "-o", str(out))
    assert written.exit_code == 1 and out.read_text(encoding="utf-8") == first
    reference = run_cli(
        "--root", str(BAD), "validate", "--format", fmt, "--engine", "reference"
    ).stdout
    graphs = [Graph().parse(data=t, format=PARSERS[fmt]) for t in (first, reference)]
    assert isomorphic(*graphs)  # sh:resultMessage included
    assert first == reference


@pytest.mark.parametrize("bad", sorted(p.name for p in (FIXTURES / "rules").glob("*-bad")))
def test_every_broken_rule_gives_the_same_report_on_both_engines(bad):
    """The report graph of each broken rule, its messages included, byte for byte: the
    result of a SPARQL-based constraint with its own sh:message has that message alone
    on both engines (SHACL 5.3.2), not its shape's beside it (pySHACL wrote both)."""
    root = FIXTURES / "rules" / bad
    fast, reference = (
        run_cli("--root", str(root), "validate", "--format", "turtle", "--engine", engine)
        for engine in ("fast", "reference")
    )
    assert fast.exit_code == reference.exit_code, fast.output + reference.output
    assert "sh:resultMessage" in fast.stdout
    assert fast.stdout == reference.stdout


def test_a_literal_focus_node_is_named_as_written_even_when_its_value_is_false():
    """``as_written`` maps a focus node or value that pyoxigraph gave in canonical form
    back to the input's literal; "00"^^xsd:integer and "false" are falsy rdflib literals,
    which a fallback written ``back(focus) or focus`` dropped for the canonical form."""
    from rdflib import Literal, URIRef
    from rdflib.namespace import XSD

    from anthology_kg.shacl import as_written
    from anthology_kg.shacl.validator import ResultRow

    data = Graph()
    for i, lexical in enumerate(["00", "0010"]):
        literal = Literal(lexical, datatype=XSD.integer, normalize=False)
        data.add((URIRef(f"urn:s{i}"), URIRef("urn:p"), literal))
    canonical = [Literal("0", datatype=XSD.integer), Literal("10", datatype=XSD.integer)]
    rows = [
        ResultRow(
            focus=value,
            path=None,
            value=value,
            source_shape=URIRef("urn:shape"),
            source_constraint_component=SH.DatatypeConstraintComponent,
            severity=SH.Violation,
        )
        for value in canonical
    ]
    written = as_written(rows, (data,))
    assert [str(r.focus) for r in written] == ["00", "0010"]
    assert [str(r.value) for r in written] == ["00", "0010"]
