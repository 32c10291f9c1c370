"""The remote engine: an anthology published to a SPARQL 1.1 store.

Queries go to the store over the SPARQL 1.1 Protocol (``endpoint.py`` does the HTTP);
the rules (ontology, shapes, waivers, stored queries) are the local anthology's. Entry
lookups and validation work on a copy of the data graph read back once with a CONSTRUCT
(blank nodes cannot be named across requests), so results carry no file and line.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pyoxigraph as ox
from rdflib import Graph
from rdflib.term import Node

from .choices import DATA_GRAPH, graph_names
from .endpoint import Connection, check_graph, check_url, store_result
from .entries import check_parts
from .kinds import Term
from .literals import literals_as_written
from .loader import Anthology, EntryIndex, Location, load_rules
from .namespaces import DEFAULT_BASE, bind_prefixes
from .pushdown import remote_rows
from .query_result import QueryResult, in_select_star_order
from .shacl import ResultRow
from .sparql_text import with_values
from .terms import PARTS
from .triplestore import (
    default_graphs,
    empty_answer_note,
    fetch_graph,
    held_graphs,
    query_url,
)


@dataclass(kw_only=True)
class RemoteEngine(EntryIndex):
    """An anthology in a SPARQL 1.1 store at ``endpoint`` (its query URL)."""

    name: ClassVar[str] = "remote"
    endpoint: str
    data_graph: str = DATA_GRAPH
    graphs: list[str] = field(default_factory=list)
    #: Validate in the store (the compiled shapes sent as queries) rather than locally.
    pushdown: bool = False
    _copy: Anthology | None = field(default=None, repr=False)
    #: The graphs the store was asked whether they hold a triple (``query`` asks first).
    _asked: set[str] = field(default_factory=set, repr=False)
    #: Where a note on the answer goes (None: ``warnings.warn``).
    warn: Callable[[str], None] | None = field(default=None, repr=False)
    #: How requests reach the store: timeout, query method (credentials: environment);
    #: its requests share the connection's HTTP client (None: a client per request).
    connection: Connection | None = None

    def local_copy(self) -> Anthology:
        """The data graph read back from the store (once), with the local rules."""
        if self._copy is None:
            with literals_as_written():
                self._copy = self._with_data(
                    fetch_graph(self.endpoint, self.data_graph, self.connection)
                )
        return self._copy

    def _with_data(self, data: Graph) -> Anthology:
        return Anthology(
            root=self.root,
            data=bind_prefixes(data, self.base),
            rules=self.rules,
            data_files=[],
            base=self.base,
            locations=dict(self.locations),
        )

    def query(
        self,
        text: str,
        bindings: Mapping[str, Node] | None = None,
        source: str | Path | None = None,
        parts: Sequence[str] = PARTS,
        *,
        allow_service: bool = False,
    ) -> QueryResult:
        """Run ``text`` on the store, its default graph the graphs of ``parts`` (or the
        graphs the engine was opened with); a ``SELECT *``'s columns come in the order a
        local run gives (``in_select_star_order``). The store runs a SERVICE call, this
        host sends nothing but the query, so ``allow_service`` changes nothing here. The
        first query to read a graph asks the store whether it holds a triple: the data
        graph, where the query reads the published graphs, or each graph the engine was
        opened with (--graph) otherwise, all in one request (``held_graphs``). An empty
        or missing one (a store filled from ``export``'s file, an anthology of no entries
        yet, a typo of a graph's IRI) is said through ``warn``
        (``triplestore.empty_answer_note``), and the query runs."""
        check_parts(parts)
        bound = with_values(text, bindings or {}, source)  # (a bad value: before any request)
        names = graph_names(self.data_graph)
        if self.graphs and tuple(parts) == PARTS:
            graphs = self.graphs
            named = graphs != default_graphs(self.data_graph)
        else:
            graphs, named = [names[p] for p in parts], False
        # An empty graph answers every query with nothing of it: say so, once a graph.
        wanted = graphs if named else [g for g in graphs if g == names["data"]]
        asked = [g for g in dict.fromkeys(wanted) if g not in self._asked]
        if asked:
            held = held_graphs(self.endpoint, asked, self.connection)
            for graph_iri in asked:
                if graph_iri not in held:
                    note = empty_answer_note(self.endpoint, graph_iri, graph_iri == names["data"])
                    (self.warn or _warn)(note)
            self._asked.update(asked)
        with literals_as_written():
            answer = store_result(
                query_url(self.endpoint, graphs),
                bound,
                connection=self.connection,
            )
        # Ordered by the text as written, as a local engine orders them: the VALUES
        # block of the text sent names the bound variables first.
        return in_select_star_order(answer, text)

    def identifier(self, node: Term) -> str | None:
        return self.local_copy().identifier(node)

    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        return self.local_copy().identifier_pairs()

    def identified(self, text: str) -> Iterator[Node]:
        return self.local_copy().identified(text)

    def referrers(self, node: Term) -> set[Node]:
        return self.local_copy().referrers(node)

    def objects(self, node: Term) -> set[Node]:
        return self.local_copy().objects(node)

    def location(self, node: Term) -> Location | None:
        return self.local_copy().location(node)

    def written_in(self, node: Term) -> list[Location]:
        return self.local_copy().written_in(node)

    def normalize(self, node: str) -> str:
        return self.local_copy().normalize(node)

    def graph(self, part: str) -> Graph:
        check_parts((part,))  # (before the data is read back)
        return self.local_copy().graph(part)

    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        check_parts(parts)
        return self.local_copy().quads(parts)

    def describe(self, node: Node) -> Graph:
        return self.local_copy().describe(node)

    def shacl_rows(self, inference: str = "none") -> list[ResultRow]:
        """With ``pushdown`` (and no inference), the compiled shapes run in the store and
        only result rows travel, with a small graph naming the entries that hold them
        (the lookups then read it); otherwise pySHACL on the data read back."""
        if self.pushdown and inference == "none":
            rows, names = remote_rows(self.shapes, self.endpoint, self.data_graph, self.connection)
            self._copy = self._with_data(names)
            return rows
        return self.local_copy().shacl_rows(inference)


def _warn(message: str) -> None:
    warnings.warn(message, stacklevel=4)


def open_remote(
    endpoint: str,
    root: Path,
    *,
    base: str = DEFAULT_BASE,
    extra_shapes: Sequence[Path] = (),
    data_graph: str = DATA_GRAPH,
    graphs: Sequence[str] = (),
    pushdown: bool = False,
    connection: Connection | None = None,
    warn: Callable[[str], None] | None = None,
) -> RemoteEngine:
    """The anthology published at ``endpoint``, with the rules of the anthology at
    ``root``; queries see ``graphs`` (default: data, ontology and shapes) as their
    default graph. Its requests share ``connection``'s HTTP client (without one, a
    default connection of the engine's own). An ``endpoint`` that is no http or https
    URL, or a graph name that is no absolute IRI, is an AnthologyError (``check_url``,
    ``check_graph``)."""
    check_url(endpoint)
    for graph_iri in (data_graph, *graphs):
        check_graph(graph_iri)
    rules = load_rules(root, base, extra_shapes)
    return RemoteEngine(
        root=root,
        endpoint=endpoint,
        data_graph=data_graph,
        graphs=list(graphs) or default_graphs(data_graph),
        pushdown=pushdown,
        connection=connection or Connection(),
        warn=warn,
        rules=rules,
        data_files=[],
        base=base,
        locations=dict(rules.locations),
    )
