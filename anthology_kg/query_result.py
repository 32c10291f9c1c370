"""The answer of a SPARQL query, one model for every engine (``QueryResult``): the rows of
a SELECT, the boolean of an ASK, or a graph. pyoxigraph's answers are read into it here
(``rows_from_ox``, ``graph_from_ox``), and a ``SELECT *``'s columns put in one order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rdflib import Graph
from rdflib.term import Node

if TYPE_CHECKING:
    import pyoxigraph as ox

    from .parts import OxTerm


@dataclass
class QueryResult:
    """A SPARQL answer: rows of a SELECT, the boolean of an ASK, or a graph."""

    kind: str  # "select", "ask" or "graph"
    variables: list[str] = field(default_factory=list)
    rows: list[tuple[Node | None, ...]] = field(default_factory=list)
    boolean: bool | None = None
    graph: Graph | None = None


def in_select_star_order(result: QueryResult, text: str) -> QueryResult:
    """``result`` with the columns of a ``SELECT *`` in the order its variables are first
    used in ``text`` (its code: not a comment or string), as the W3C's result-format
    tests list them, on every engine: pyoxigraph and Oxigraph's server sort them by
    name, rdflib gives a set's order."""
    from .sparql_text import selects_all, variable_tokens

    if result.kind != "select" or not selects_all(text):
        return result
    names = result.variables
    first: dict[str, int] = {}
    for at, name in variable_tokens(text):
        first.setdefault(name, at)
    order = sorted(range(len(names)), key=lambda i: (first.get(names[i], len(text)), names[i]))
    if order == list(range(len(names))):
        return result
    rows = [tuple(row[i] for i in order) for row in result.rows]
    return QueryResult(kind="select", variables=[names[i] for i in order], rows=rows)


def rows_from_ox(answered: Iterable[Iterable[OxTerm | None]]) -> list[tuple[Node | None, ...]]:
    """Rows of pyoxigraph terms (None where unbound) as rows of rdflib terms
    (``terms.from_ox``), equal term for equal term. Each distinct term is converted once:
    an answer repeats its terms (an entry on each row of its values), and an rdflib
    literal costs a dozen times a dictionary lookup."""
    from .terms import from_ox

    rows = [tuple(row) for row in answered]
    converted: dict[OxTerm | None, Node | None] = {
        term: from_ox(term) for term in set().union(*rows) if term is not None
    }
    converted[None] = None
    get = converted.__getitem__
    return [tuple(map(get, row)) for row in rows]


def graph_from_ox(triples: Iterable[ox.Triple]) -> Graph:
    """An rdflib graph of pyoxigraph triples (a CONSTRUCT's answer, from the store or a
    remote one), each term as ``terms.from_ox`` gives it."""
    from .terms import from_ox

    graph = Graph()
    for triple in triples:
        graph.add((from_ox(triple.subject), from_ox(triple.predicate), from_ox(triple.object)))
    return graph
