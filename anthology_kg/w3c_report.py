"""The W3C SHACL validation report (``sh:ValidationReport``, SHACL 3.6) as a file:
canonical Turtle or JSON-LD, byte-stable, for other SHACL tools and dashboards.

rdflib and the writers load when a report is written: ``validate`` imports this table
of writers for every format, and the others need no RDF library."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rdflib import Graph

    from .export import Export
    from .validation import Report


def _canonical(graph: Graph) -> Graph:
    """``graph`` with RDFC-1.0 blank-node labels (pyoxigraph's). Results about blank
    nodes of the data can be told apart by nothing in the report, so labels from
    content alone (bnodes.relabel) would depend on parse order."""
    import pyoxigraph as ox
    from rdflib import Graph

    from .bnodes import canonical_nquads, relabel
    from .terms import from_ox, to_ox

    # Through canonical_nquads, as every export: its work limit refuses blank nodes
    # of the data too alike to label in time, and a stop signal acts while it runs.
    quads = [(str(to_ox(s)), str(to_ox(p)), str(to_ox(o)), "") for s, p, o in graph]
    out = Graph()
    for quad in ox.parse(canonical_nquads(quads), format=ox.RdfFormat.N_QUADS):
        out.add((from_ox(quad.subject), from_ox(quad.predicate), from_ox(quad.object)))
    return relabel(out)


def _export(report: Report, base: str) -> Export:
    from rdflib import Graph

    from .export import graph_export
    from .namespaces import bind_prefixes

    if report.shacl is None:
        raise ValueError("the report carries no SHACL report graph")
    graph = bind_prefixes(Graph(), base)
    graph += _canonical(report.shacl)
    return graph_export(graph, base)


def shacl_turtle(report: Report, base: str) -> str:
    """The engine's report graph in the project's canonical Turtle."""
    from .export_writers import to_turtle

    return to_turtle(_export(report, base))


def shacl_jsonld(report: Report, base: str) -> str:
    """The engine's report graph as expanded JSON-LD, nodes and values sorted."""
    from .export_writers import to_jsonld

    return to_jsonld(_export(report, base))


WRITERS = {"turtle": shacl_turtle, "jsonld": shacl_jsonld}
