"""``w3c_report.report_lines``: the W3C report graph written straight from result rows,
the same graph as ``shacl.report_graph`` builds in rdflib."""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import Graph, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import SH

from anthology_kg.shacl import ShapesGraph, report_graph
from anthology_kg.shacl.validator import ResultRow
from anthology_kg.terms import from_ox
from anthology_kg.w3c_report import report_lines

SHAPES = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:S a sh:NodeShape ;
    sh:property [ sh:path ( ex:p [ sh:inversePath ex:q ] ) ; sh:in ( 1 2 ) ] ,
        [ sh:path [ sh:alternativePath ( ex:p [ sh:zeroOrMorePath ex:q ] ) ] ] ;
    sh:sparql [ sh:select "SELECT $this WHERE { }" ; sh:message "m"@en ] .
"""
EX = "http://example.org/"


def _shapes() -> tuple[ShapesGraph, Graph]:
    """The shapes on pyoxigraph terms and as an rdflib graph, each blank node of one
    label in both (as ``Rules.shapes_view`` and ``Rules.shapes`` have them)."""
    triples = [q.triple for q in ox.parse(SHAPES, format=ox.RdfFormat.TURTLE)]
    rdflib_shapes = Graph()
    for t in triples:
        rdflib_shapes.add((from_ox(t.subject), from_ox(t.predicate), from_ox(t.object)))
    return ShapesGraph((t.subject, t.predicate, t.object) for t in triples), rdflib_shapes


def _rows(shapes: ShapesGraph) -> list[ResultRow]:
    sh = lambda name: ox.NamedNode(f"{SH}{name}")  # noqa: E731
    (with_in,) = shapes.subjects(sh("in"))
    (alternative,) = shapes.subjects(sh("alternativePath"))
    (with_alternative,) = shapes.subjects(sh("path"), alternative)
    (constraint,) = shapes.subjects(sh("select"))
    in_list = ResultRow(
        focus=ox.NamedNode(EX + "a"),
        path=shapes.value(with_in, sh("path")),
        value=ox.Literal("x", language="en"),
        source_shape=with_in,
        source_constraint_component=sh("InConstraintComponent"),
        severity=sh("Violation"),
        messages=(ox.Literal("one"), ox.Literal("two", language="en")),
    )
    return [
        in_list,
        in_list,  # a row given twice: two results, as report_graph makes
        # Data blank nodes labelled as the report's own nodes are other nodes.
        ResultRow(
            focus=ox.BlankNode("root"),
            path=ox.NamedNode(EX + "p"),
            value=ox.BlankNode("r1"),
            source_shape=ox.NamedNode(EX + "S"),
            source_constraint_component=sh("SPARQLConstraintComponent"),
            severity=sh("Warning"),
            source_constraint=constraint,
        ),
        # The reference engine's rows hold rdflib terms.
        ResultRow(
            focus=URIRef(EX + "b"),
            path=from_ox(alternative),
            value=None,
            source_shape=from_ox(with_alternative),
            source_constraint_component=URIRef(f"{SH}MinCountConstraintComponent"),
            severity=URIRef(f"{SH}Info"),
        ),
    ]


def _graph(lines: list[str]) -> Graph:
    return Graph().parse(data="".join(f"{line} .\n" for line in lines), format="nt")


def test_the_lines_are_the_graph_report_graph_builds():
    shapes, rdflib_shapes = _shapes()
    rows = _rows(shapes)
    lines = report_lines(rows, shapes)
    assert len(lines) == len(set(lines))
    built = _graph(lines)
    assert isomorphic(built, report_graph(rows, rdflib_shapes))
    assert len(list(built.objects(None, SH.result))) == 4
    assert not next(built.objects(None, SH.conforms)).toPython()
    # The blank paths are copied as SHACL reads them, the blank shapes described.
    assert (None, SH.alternativePath, None) in built and (None, SH.inversePath, None) in built
    assert (None, SH.select, None) in built and (None, SH["in"], None) in built


def test_no_rows_give_a_report_that_conforms():
    shapes, rdflib_shapes = _shapes()
    built = _graph(report_lines([], shapes))
    assert isomorphic(built, report_graph([], rdflib_shapes))
    assert next(built.objects(None, SH.conforms)).toPython() is True
