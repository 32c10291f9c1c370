"""The anthology in any SPARQL 1.1 store: the named graph of each part, publishing them
(Graph Store HTTP Protocol, or one SPARQL Update request) and reading one back.

The data, the ontology and the shapes go into three named graphs. Queries sent to a
store name them as the default graph (``default-graph-uri``, SPARQL 1.1 Protocol), so
that a stored query gives the same rows remotely as locally.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox
from rdflib import Graph, URIRef

from .bnodes import relabel
from .choices import DATA_GRAPH, graph_names
from .endpoint import (
    Connection,
    RequestFailed,
    check_graph,
    check_url,
    http,
    left_unanswered,
    request,
    run_remote,
    shown,
)
from .errors import AnthologyError, Interrupted, TimedOut
from .terms import nt_term

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True)
class Published:
    """One graph sent to the store."""

    graph: str
    triples: int


def _with_params(url: str, params: list[tuple[str, str]]) -> str:
    separator = "&" if urllib.parse.urlsplit(url).query else "?"
    return url + separator + urllib.parse.urlencode(params)


def _part_triples(anthology: Engine, part: str) -> list[ox.Triple]:
    return list(dict.fromkeys(quad.triple for quad in anthology.quads((part,))))


#: What adding to a graph that holds the anthology already does (an RDF merge).
_ADDED_AGAIN = (
    "--replace replaces them, --add adds to them (each blank node anew: the same "
    "anthology added twice holds two copies of each)"
)


def publish(
    anthology: Engine,
    store: str,
    data_graph: str = DATA_GRAPH,
    replace: bool = False,
    connection: Connection | None = None,
    add: bool = False,
) -> list[Published]:
    """Upload data, ontology and shapes to a Graph Store HTTP Protocol endpoint.

    With ``replace`` each graph is sent with PUT, which the store applies as one
    operation, so a reader sees the old graph or the new one, never part of it; with
    ``add``, with POST, which adds to what the graph holds: an RDF merge, where each
    blank node sent is a new one, so the same anthology added twice holds two copies of
    each. With neither, the store is first asked for the three graphs (``_has_graph``)
    and one it has already is an AnthologyError, nothing sent; else they are sent with
    POST (a graph another client makes in between is added to, not replaced). The Graph
    Store protocol has no request for three graphs at once (``publish_update`` sends
    one): when one fails, the error says which graphs were sent, which were not, and
    which one the store may or may not have taken (a request left without an answer), so
    that nobody mistakes the store's mix of old and new for either. A ``store`` that is no
    http or https URL, or a ``data_graph`` that is no absolute IRI, is an AnthologyError
    before anything is sent (``check_url``, ``check_graph``), and so is an input error
    of the anthology's files: every graph is read before any is sent.
    """
    check_url(store)
    names = graph_names(check_graph(data_graph))
    if replace and add:
        raise ValueError("publish: replace and add exclude each other")
    # Every graph read first: an input error (an own shape that does not parse) sends
    # nothing, and leaves no store with the new data beside the old shapes.
    parts = {part: _part_triples(anthology, part) for part in names}
    if not (replace or add):
        held = [g for g in names.values() if _has_graph(store, g, connection)]
        if held:
            which = f"graph {_listed(held)}" if len(held) == 1 else f"graphs {_listed(held)}"
            raise AnthologyError(
                f"{shown(store)} has the {which} already: nothing was sent; {_ADDED_AGAIN}"
            )
    sent: list[Published] = []
    for part, graph_iri in names.items():
        triples = parts[part]
        try:
            http(
                _with_params(store, [("graph", graph_iri)]),
                method="PUT" if replace else "POST",
                data=ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES),
                headers={"Content-Type": "application/n-triples"},
                connection=connection,
            )
        except AnthologyError as exc:
            if isinstance(exc, TimedOut):
                exc = exc.about(f"publishing <{graph_iri}>")
            unknown_outcome = left_unanswered(exc)
            if not sent and not unknown_outcome:
                raise exc from None
            said = _what_was_sent(list(names.values()), len(sent), unknown_outcome, replace)
            raise AnthologyError(f"{exc.message}; {said}") from None
        except KeyboardInterrupt:
            # Stopped while a graph was on its way: the store may or may not take it.
            said = _what_was_sent(list(names.values()), len(sent), True, replace)
            raise Interrupted(said) from None
        sent.append(Published(graph=graph_iri, triples=len(triples)))
    return sent


def _what_was_sent(graphs: list[str], sent: int, unknown_outcome: bool, replace: bool) -> str:
    """What the store holds of ``graphs`` once the first ``sent`` were sent and the next
    failed, or was left without an answer (``unknown_outcome``)."""
    verb = "replaced" if replace else "added to"
    unknown = graphs[sent : sent + 1] if unknown_outcome else []
    left = graphs[sent + len(unknown) :]
    said = [
        f"{verb}: {_listed(graphs[:sent])}" if sent else f"nothing {verb}",
        *([f"perhaps {verb} (no answer): {_listed(unknown)}"] if unknown else []),
        *([f"not {verb}: {_listed(left)}"] if left else []),
    ]
    return f"{'; '.join(said)} (the store may now hold a mix: publish again)"


def _listed(graphs: Iterable[str]) -> str:
    return ", ".join(f"<{g}>" for g in graphs)


def _has_graph(store: str, graph_iri: str, connection: Connection | None) -> bool:
    """Whether the Graph Store at ``store`` has the graph ``graph_iri``: HEAD, which
    SPARQL 1.1 Graph Store Protocol 5.4 makes a GET without its body, answered 404 for a
    graph the store does not have (an empty graph it keeps counts as had). A store that
    does not take HEAD (Virtuoso 7.2 answers 501) is sent a GET, whose body is read and
    dropped. No answer in time is a TimedOut of publishing that graph."""
    url = _with_params(store, [("graph", graph_iri)])
    for method in ("HEAD", "GET"):
        try:
            # Oxigraph 0.5.13 answers a HEAD's 404 with a body, which the next answer
            # on the connection would start with: the connection is not kept.
            request(
                url,
                method=method,
                headers={"Accept": "application/n-triples", "Connection": "close"},
                connection=connection,
            )
        except TimedOut as exc:
            raise exc.about(f"publishing <{graph_iri}>") from None
        except RequestFailed as exc:
            if exc.status == 404:
                return False
            if method == "HEAD" and exc.status in (405, 501):
                continue
            raise
        return True
    raise AssertionError("unreachable: GET answers or raises")


def publish_update(
    anthology: Engine,
    endpoint: str,
    data_graph: str = DATA_GRAPH,
    replace: bool = False,
    connection: Connection | None = None,
    add: bool = False,
) -> list[Published]:
    """Upload data, ontology and shapes to a SPARQL 1.1 Update endpoint in one request:
    one ``INSERT DATA`` of the three graphs, after a ``DROP SILENT GRAPH`` of each with
    ``replace``, or added to what they hold with ``add`` (as ``publish`` adds). One of
    them is needed: an update endpoint answers no query, so it cannot be asked whether
    the graphs are there (AnthologyError, nothing sent). A store that applies an update
    request as one transaction (Oxigraph does) is never left half updated; Virtuoso 7.2
    commits each operation and refuses blank nodes and large bodies in INSERT DATA, so
    it takes ``publish`` (Graph Store). ``endpoint`` and ``data_graph`` are checked as
    ``publish`` checks them.
    """
    check_url(endpoint)
    names = graph_names(check_graph(data_graph))
    if replace and add:
        raise ValueError("publish_update: replace and add exclude each other")
    if not (replace or add):
        raise AnthologyError(
            "publish --update cannot see whether the store has the graphs already (an "
            f"update endpoint answers no query): {_ADDED_AGAIN}"
        )
    parts = {part: _part_triples(anthology, part) for part in names}
    # N-Triples is the SPARQL triple syntax for these terms: one serializer (pyoxigraph)
    # writes every literal, IRI and blank node as the update's grammar reads it.
    drops = [f"DROP SILENT GRAPH {nt_term(URIRef(g))} ;\n" for g in names.values()]
    body = [*(drops if replace else []), "INSERT DATA {\n"]
    for part, graph_iri in names.items():
        triples = ox.serialize(parts[part], format=ox.RdfFormat.N_TRIPLES) or b""
        body += [f"GRAPH {nt_term(URIRef(graph_iri))} {{\n", triples.decode("utf-8"), "}\n"]
    body.append("}\n")
    try:
        http(
            endpoint,
            method="POST",
            data="".join(body).encode("utf-8"),
            headers={"Content-Type": "application/sparql-update"},
            connection=connection,
        )
    except AnthologyError as exc:
        if isinstance(exc, TimedOut):
            exc = exc.about("publishing")
        verb = "replaced" if replace else "added to"
        outcome = (
            "the store may have applied the whole update or none of it (no answer)"
            if left_unanswered(exc)
            else f"nothing was {verb} where the store applies an update request as one "
            "transaction, as Oxigraph does"
        )
        raise AnthologyError(
            f"{exc.message}; the three graphs were one update request: {outcome}"
        ) from None
    return [Published(graph=names[part], triples=len(parts[part])) for part in names]


def default_graphs(data_graph: str = DATA_GRAPH) -> list[str]:
    """The graphs a query names as its default graph: data, ontology and shapes."""
    return list(graph_names(data_graph).values())


def query_url(endpoint: str, graphs: list[str]) -> str:
    """The query endpoint with a ``default-graph-uri`` parameter for each graph."""
    return (
        _with_params(endpoint, [("default-graph-uri", g) for g in graphs]) if graphs else endpoint
    )


def fetch_graph(endpoint: str, graph_iri: str, connection: Connection | None = None) -> Graph:
    """The triples of one named graph, read back with a CONSTRUCT query (sent without
    default-graph-uri, which would hide the named graphs); an empty one is
    ``empty_graph``'s AnthologyError."""
    name = nt_term(URIRef(graph_iri))
    text = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH {name} {{ ?s ?p ?o }} }}"
    result = run_remote(endpoint, text, connection=connection)
    if result.graph is None or len(result.graph) == 0:
        raise empty_graph(endpoint, graph_iri)
    return relabel(result.graph)


def holds_graph(endpoint: str, graph_iri: str, connection: Connection | None = None) -> bool:
    """Whether the named graph ``graph_iri`` of the store at the query endpoint
    ``endpoint`` holds a triple: one small request (a SELECT, not an ASK: Virtuoso
    answers an ASK as a row, not a boolean). An empty graph and a missing one are alike
    here: a store may keep no empty graph (one publish or a load left empty: Oxigraph's
    HEAD of it is 404), or keep one made by CREATE GRAPH."""
    probe = f"SELECT ?s WHERE {{ GRAPH {nt_term(URIRef(graph_iri))} {{ ?s ?p ?o }} }} LIMIT 1"
    return bool(run_remote(endpoint, probe, kind="select", connection=connection).rows)


def held_graphs(
    endpoint: str, graphs: Sequence[str], connection: Connection | None = None
) -> set[str]:
    """Those of ``graphs`` that hold a triple in the store at the query endpoint
    ``endpoint`` (``holds_graph`` of each), asked in one request: one graph as
    ``holds_graph`` asks, several with a VALUES block, each tested with FILTER EXISTS,
    which stops at the graph's first triple (Oxigraph and Virtuoso 7.2 answer it)."""
    if len(graphs) <= 1:
        return {g for g in graphs if holds_graph(endpoint, g, connection)}
    named = " ".join(nt_term(URIRef(g)) for g in graphs)
    probe = (
        f"SELECT ?g WHERE {{ VALUES ?g {{ {named} }} FILTER EXISTS {{ GRAPH ?g {{ ?s ?p ?o }} }} }}"
    )
    rows = run_remote(endpoint, probe, kind="select", connection=connection).rows
    return {str(row[0]) for row in rows} & set(graphs)


def require_graph(endpoint: str, graph_iri: str, connection: Connection | None = None) -> None:
    """``empty_graph``'s AnthologyError unless ``holds_graph``."""
    if not holds_graph(endpoint, graph_iri, connection):
        raise empty_graph(endpoint, graph_iri)


#: How the data graph gets filled, or another named: said where it holds nothing.
_FILLED = "(`anthology-kg publish` puts the data there; --graph names the graph that holds it)"


def empty_graph(endpoint: str, graph_iri: str) -> AnthologyError:
    """What a command reading the anthology's data graph says when the store has none
    (a store loaded from ``export``'s file holds it all in the default graph), with
    how to put it there or name another."""
    return AnthologyError(
        f"{shown(endpoint)}: the graph <{graph_iri}> is empty or missing {_FILLED}"
    )


def empty_answer_note(endpoint: str, graph_iri: str, data: bool = True) -> str:
    """What a query says beside its answer when the store holds no triple in the graph
    ``graph_iri`` it reads: the data graph (an anthology of no entries yet, or a store
    filled otherwise), or, not ``data``, a graph the user named with --graph (a typo of
    its IRI, or a graph not filled yet)."""
    if data:
        return (
            f"{shown(endpoint)}: the graph <{graph_iri}> is empty or missing, so the answer "
            f"reads no data {_FILLED}"
        )
    return (
        f"{shown(endpoint)}: the graph <{graph_iri}> (--graph) is empty or missing, so the "
        "answer reads nothing from it (is the IRI the one the data was put in?)"
    )
