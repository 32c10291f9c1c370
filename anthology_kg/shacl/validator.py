"""Run compiled shapes on a pyoxigraph store: the results as plain rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import URIRef
from rdflib.term import Node

from ..errors import AnthologyError
from ..progress import track
from ..terms import from_ox
from .compiler import CompiledConstraint, Compiler


@dataclass(frozen=True)
class ResultRow:
    """One SHACL validation result (SHACL 3.6.2): ``path`` is the result path (a node
    of the shapes graph, or the predicate of a closed shape's triple), ``value`` the
    value node, ``source_constraint`` the SPARQL constraint or validator where there is
    one, ``messages`` the result messages."""

    focus: Node
    path: Node | None
    value: Node | None
    source_shape: Node
    source_constraint_component: URIRef
    severity: URIRef
    messages: tuple[Node, ...] = ()
    source_constraint: Node | None = None


class ValidationError(AnthologyError):
    """A compiled query the store refused (a SPARQL constraint's own syntax, say)."""


def run_compiled(
    store: ox.Store, compiled: Sequence[CompiledConstraint], default_graph: Sequence
) -> list[ResultRow]:
    """Run ``compiled`` on ``store`` with ``default_graph`` (a list of graph names) as the
    data graph; the distinct results, in the order of the constraints."""
    rows: list[ResultRow] = []
    for constraint in track(compiled, "checking"):
        try:
            solutions = store.query(constraint.sparql, default_graph=list(default_graph))
        except SyntaxError as exc:
            raise ValidationError(f"compiled shape {constraint.shape}: bad SPARQL: {exc}") from None
        assert isinstance(solutions, ox.QuerySolutions)
        names = {v.value for v in solutions.variables}
        seen = set()
        for solution in solutions:
            focus_term = solution["this"]
            if focus_term is None:
                continue
            focus = from_ox(focus_term)
            value_term = solution["value"] if "value" in names else None
            path_term = solution["path"] if "path" in names else None
            value = from_ox(value_term) if value_term is not None else None
            if value is None and constraint.value_is_focus:
                value = focus
            path = from_ox(path_term) if path_term is not None else constraint.path
            row = ResultRow(
                focus=focus,
                path=path,
                value=value,
                source_shape=constraint.shape,
                source_constraint_component=constraint.component,
                severity=constraint.severity,
                messages=constraint.messages,
                source_constraint=constraint.source_constraint,
            )
            key = tuple(str(solution[name]) for name in sorted(names))
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def validate_store(
    store: ox.Store, shapes, default_graph: Sequence, shapes_graph: str | None = None
) -> list[ResultRow]:
    """Validate the data graph(s) ``default_graph`` of ``store`` against the rdflib
    shapes graph ``shapes`` (also in the store as ``shapes_graph``, for $shapesGraph)."""
    return run_compiled(store, Compiler(shapes, shapes_graph).compile(), default_graph)
