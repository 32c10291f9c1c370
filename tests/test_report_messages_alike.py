"""Which messages a result of a SPARQL-based constraint has, alike on both engines: its
constraint's sh:message values, filled from its solution, language tags kept (SHACL
5.3.2), and its shape's sh:message (2.1.5) only where the constraint has none. pySHACL
wrote the shape's beside the constraint's (two messages of one language, which 3.6.2 says
a result should not have) and dropped the tag of a filled message."""

from __future__ import annotations

import pytest
from conftest import rules_fixture_copy, run_cli
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import SH

SHAPES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/shapes#> .
ex:Filed a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:message "the shape's own words" ;
    sh:sparql [
        sh:message "filed as {?category}"@en, "abgelegt als {?category}"@de ;
        sh:select '''SELECT $this ?category WHERE {
            $this <https://w3id.org/anthology-kg/ns#category> ?category }''' ] ,
      [ sh:select '''SELECT $this WHERE {
            $this a <https://w3id.org/anthology-kg/ns#LiteratureRecord> }''' ] .
"""
CATEGORY = "https://w3id.org/anthology-kg/ns#method"


@pytest.fixture
def reports(tmp_path):
    root = rules_fixture_copy(tmp_path, "rule1-good", SHAPES)
    args = ("--root", str(root), "validate", "--format", "turtle", "--engine")
    return {engine: run_cli(*args, engine) for engine in ("fast", "reference")}


def _messages(turtle: str) -> set[frozenset[Literal]]:
    """The messages of each of ex:Filed's results at LIT-001 (filed as method)."""
    graph = Graph().parse(data=turtle, format="turtle")
    lit1 = URIRef("https://w3id.org/anthology-kg/id/LIT-001")
    return {
        frozenset(graph.objects(result, SH.resultMessage))
        for result in graph.subjects(SH.focusNode, lit1)
        if graph.value(result, SH.sourceShape) == URIRef("http://example.org/shapes#Filed")
    }


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_constraint_s_messages_replace_its_shape_s(reports, engine):
    result = reports[engine]
    assert result.exit_code == 1, result.output
    assert _messages(result.stdout) == {
        frozenset(
            {
                Literal(f"filed as {CATEGORY}", lang="en"),
                Literal(f"abgelegt als {CATEGORY}", lang="de"),
            }
        ),
        frozenset({Literal("the shape's own words")}),  # the constraint without sh:message
    }


def test_the_report_graphs_are_the_same(reports):
    assert reports["fast"].stdout == reports["reference"].stdout


TAGGED_SHAPE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/shapes#> .
ex:Multi a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:message "shape words"@en, "Formworte"@de ;
    sh:sparql [ sh:select '''SELECT $this WHERE {
        $this a <https://w3id.org/anthology-kg/ns#LiteratureRecord> }''' ] .
"""


def test_a_shape_s_tagged_messages_keep_their_tags_on_a_constraint_without_its_own(tmp_path):
    """review49 #1: the constraint has no sh:message, so its results have the shape's,
    each with its tag, on both engines (pySHACL wrote them untagged, and text then chose
    another one to show)."""
    root = rules_fixture_copy(tmp_path, "rule1-good", TAGGED_SHAPE)
    written = {}
    for fmt in ("turtle", "text"):
        args = ("--root", str(root), "validate", "--format", fmt, "--engine")
        outputs = {engine: run_cli(*args, engine) for engine in ("fast", "reference")}
        assert {r.exit_code for r in outputs.values()} == {1}
        assert outputs["fast"].stdout == outputs["reference"].stdout, fmt
        written[fmt] = outputs["reference"].stdout
    graph = Graph().parse(data=written["turtle"], format="turtle")
    assert set(graph.objects(None, SH.resultMessage)) == {
        Literal("shape words", lang="en"),
        Literal("Formworte", lang="de"),
    }
