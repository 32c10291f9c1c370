"""Run compiled shapes on a pyoxigraph store: the results as plain rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import Graph, URIRef
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


# A SPARQL SELECT executor: query text to its solutions, each a mapping from variable
# name to term (an unbound variable absent or None). A pyoxigraph store and a remote
# SPARQL endpoint are two.
Select = Callable[[str], Iterable[Mapping[str, Node | None]]]

#: A graph name of a pyoxigraph store, as its queries' ``default_graph`` takes them.
GraphName = ox.NamedNode | ox.BlankNode | ox.DefaultGraph


def store_select(store: ox.Store, default_graph: Sequence[GraphName]) -> Select:
    """The executor of ``store`` with the graphs ``default_graph`` as the data graph."""
    graphs: list[GraphName] = list(default_graph)

    def select(text: str) -> Iterator[dict[str, Node | None]]:
        try:
            solutions = store.query(text, default_graph=graphs)
        except SyntaxError as exc:
            raise ValidationError(f"bad SPARQL: {exc}") from None
        assert isinstance(solutions, ox.QuerySolutions)
        names = [v.value for v in solutions.variables]
        for solution in solutions:
            yield {n: from_ox(t) for n in names if (t := solution[n]) is not None}

    return select


def run_compiled(select: Select, compiled: Sequence[CompiledConstraint]) -> list[ResultRow]:
    """Run ``compiled`` with ``select``; the distinct results, in the order of the
    constraints."""
    rows: list[ResultRow] = []
    for constraint in track(compiled, "checking"):
        seen: set[tuple[tuple[str, Node], ...]] = set()
        try:
            solutions = select(constraint.sparql)
            for solution in solutions:
                focus = solution.get("this")
                if focus is None:
                    continue
                value = solution.get("value")
                if value is None and constraint.value_is_focus:
                    value = focus
                row = ResultRow(
                    focus=focus,
                    path=solution.get("path") or constraint.path,
                    value=value,
                    source_shape=constraint.shape,
                    source_constraint_component=constraint.component,
                    severity=constraint.severity,
                    messages=constraint.messages,
                    source_constraint=constraint.source_constraint,
                )
                key = tuple(sorted((k, v) for k, v in solution.items() if v is not None))
                if key not in seen:
                    seen.add(key)
                    rows.append(row)
        except ValidationError as exc:
            raise ValidationError(f"compiled shape {constraint.shape}: {exc.message}") from None
    return rows


def validate_store(
    store: ox.Store,
    shapes: Graph,
    default_graph: Sequence[GraphName],
    shapes_graph: str | None = None,
) -> list[ResultRow]:
    """Validate the data graph(s) ``default_graph`` of ``store`` against the rdflib
    shapes graph ``shapes`` (also in the store as ``shapes_graph``, for $shapesGraph)."""
    compiled = Compiler(shapes, shapes_graph).compile()
    return run_compiled(store_select(store, default_graph), compiled)
