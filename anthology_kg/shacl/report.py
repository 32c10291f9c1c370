"""The W3C ``sh:ValidationReport`` graph (SHACL 3.6) of result rows, built on request."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .paths import copy_path
from .validator import ResultRow

if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node


def _describe(source: Graph, node: Node, target: Graph, done: set[Node]) -> None:
    """Copy the blank node ``node``'s description (its triples, nested blank nodes
    followed) from ``source``, as pySHACL does for a blank source shape or constraint:
    the report then says which one it was."""
    from rdflib import BNode

    if not isinstance(node, BNode) or node in done:
        return
    done.add(node)
    for p, o in source.predicate_objects(node):
        target.add((node, p, o))
        _describe(source, o, target, done)


def report_graph(rows: Iterable[ResultRow], shapes: Graph) -> Graph:
    """The validation report of ``rows`` (on either library's terms: pyoxigraph's are
    converted here); result paths, and blank source shapes and constraints, are copied
    from the rdflib graph ``shapes``."""
    from rdflib import RDF, BNode, Graph, Literal
    from rdflib.namespace import SH

    from ..terms import rdflib_term as node

    report = Graph()
    root = BNode()
    report.add((root, RDF.type, SH.ValidationReport))
    count = 0
    described: set[Node] = set()
    for row in rows:
        count += 1
        result = BNode()
        report.add((root, SH.result, result))
        report.add((result, RDF.type, SH.ValidationResult))
        shape = node(row.source_shape)
        report.add((result, SH.focusNode, node(row.focus)))
        report.add((result, SH.resultSeverity, node(row.severity)))
        report.add((result, SH.sourceShape, shape))
        report.add((result, SH.sourceConstraintComponent, node(row.source_constraint_component)))
        if row.value is not None:
            report.add((result, SH.value, node(row.value)))
        if row.path is not None:
            report.add((result, SH.resultPath, copy_path(shapes, node(row.path), report)))
        if row.source_constraint is not None:
            constraint = node(row.source_constraint)
            report.add((result, SH.sourceConstraint, constraint))
            _describe(shapes, constraint, report, described)
        _describe(shapes, shape, report, described)
        for message in row.messages:
            report.add((result, SH.resultMessage, node(message)))
    report.add((root, SH.conforms, Literal(count == 0)))
    return report
