"""SHACL compiled to SPARQL: the fast engine's validator, organized like the
specification (targets, paths, then one module per section of constraint components).

``Compiler(shapes).compile()`` turns a shapes graph into SPARQL queries;
``validate_store`` runs them on a pyoxigraph store and returns ``ResultRow``s;
``report_graph`` builds the W3C ``sh:ValidationReport`` from rows when one is wanted;
``validate_graphs`` does all of it for rdflib graphs (the W3C suite's way in).
Shapes the compiler does not translate (SHACL-AF rules and custom targets, which the
W3C core and SPARQL-based suites do not define) raise ``Unsupported``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .compiler import COMPONENTS, CompiledConstraint, Compiler
from .errors import Unsupported
from .graph import ShapesGraph
from .report import report_graph
from .validator import (
    ResultRow,
    Select,
    ValidationError,
    run_compiled,
    store_select,
    validate_store,
)

if TYPE_CHECKING:
    from rdflib import Graph

    from ..kinds import Term

__all__ = [
    "COMPONENTS",
    "CompiledConstraint",
    "Compiler",
    "ResultRow",
    "Select",
    "ShapesGraph",
    "Unsupported",
    "ValidationError",
    "as_written",
    "literals_as_written",
    "report_graph",
    "run_compiled",
    "store_select",
    "validate_graphs",
    "validate_store",
]

_DATA = "urn:anthology-kg:graph:data"
_SHAPES = "urn:anthology-kg:graph:shapes"


def literals_as_written(rows: list[ResultRow], written: Iterable[ox.Literal]) -> list[ResultRow]:
    """Rows on pyoxigraph terms whose literal focus nodes and values are among
    ``written`` (the input's literals): a pyoxigraph store keeps a valid literal in
    canonical form ("4.0"^^xsd:decimal comes back as "4"), so each is mapped back to
    the one input literal with that canonical form (left as it is where two have it)."""
    ordered = sorted(
        set(written), key=lambda lit: (lit.value, lit.datatype.value, lit.language or "")
    )
    if not ordered:
        return rows
    scratch = ox.Store()
    scratch.extend(
        ox.Quad(ox.NamedNode(f"urn:i:{i}"), ox.NamedNode("urn:p"), lit)
        for i, lit in enumerate(ordered)
    )
    originals: dict[ox.Literal, set[ox.Literal]] = {}
    for quad in scratch:
        original = ordered[int(quad.subject.value.removeprefix("urn:i:"))]
        assert isinstance(quad.object, ox.Literal)
        originals.setdefault(quad.object, set()).add(original)

    def back(node: Term) -> Term:
        choices = originals.get(node) if isinstance(node, ox.Literal) else None
        return next(iter(choices)) if choices and len(choices) == 1 else node

    return [
        replace(r, focus=back(r.focus), value=None if r.value is None else back(r.value))
        for r in rows
    ]


def as_written(rows: list[ResultRow], graphs: tuple[Graph, ...]) -> list[ResultRow]:
    """Rows whose literals are those of the input graphs: a pyoxigraph store keeps a
    valid literal in canonical form ("4.0"^^xsd:decimal comes back as "4"), so each
    value is mapped back to the one input literal with that canonical form."""
    from rdflib import Literal
    from rdflib.term import Node

    from ..terms import from_ox, to_ox

    literals = {o for g in graphs for t in g for o in t if isinstance(o, Literal)}
    if not literals:
        return rows
    scratch = ox.Store()
    ordered = sorted(literals, key=lambda lit: (str(lit), str(lit.datatype), str(lit.language)))
    scratch.extend(
        ox.Quad(ox.NamedNode(f"urn:i:{i}"), ox.NamedNode("urn:p"), to_ox(lit))
        for i, lit in enumerate(ordered)
    )
    written: dict[Node, set[Literal]] = {}
    for quad in scratch:
        original = ordered[int(quad.subject.value.removeprefix("urn:i:"))]
        written.setdefault(from_ox(quad.object), set()).add(original)

    def back(node: Term) -> Term:
        choices = written.get(node) if isinstance(node, Literal) else None
        return next(iter(choices)) if choices and len(choices) == 1 else node

    return [
        replace(r, focus=back(r.focus), value=None if r.value is None else back(r.value))
        for r in rows
    ]


def validate_graphs(data: Graph, shapes: Graph, extra: Graph | None = None) -> tuple[bool, Graph]:
    """Validate the rdflib graph ``data`` (plus ``extra``, say a vocabulary) against
    ``shapes`` on a fresh pyoxigraph store; return (conforms, report graph)."""
    from ..terms import to_ox

    store = ox.Store()
    graphs = [ox.NamedNode(_DATA)]
    store.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), graphs[0]) for s, p, o in data)
    if extra is not None:
        graphs.append(ox.NamedNode(_DATA + ":extra"))
        store.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), graphs[1]) for s, p, o in extra)
    named = ox.NamedNode(_SHAPES)
    store.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), named) for s, p, o in shapes)
    rows = validate_store(store, shapes, graphs, _SHAPES)
    rows = as_written(rows, (data, shapes))
    return not rows, report_graph(rows, shapes)
