"""The anthology in a real triplestore: publish it (Graph Store HTTP Protocol), read it
back, and start an Oxigraph server loaded with it.

The data, the ontology and the shapes go into three named graphs. Queries sent to a
store name them as the default graph (``default-graph-uri``, SPARQL 1.1 Protocol), so
that a stored query gives the same rows remotely as locally.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph, URIRef

from .bnodes import relabel
from .endpoint import http, run_remote
from .errors import AnthologyError
from .export import Export, nt_term, to_ntriples
from .loader import Anthology

GRAPH_BASE = "https://w3id.org/anthology-kg/graph/"
DATA_GRAPH = GRAPH_BASE + "data"
ONTOLOGY_GRAPH = GRAPH_BASE + "ontology"
SHAPES_GRAPH = GRAPH_BASE + "shapes"


@dataclass(frozen=True)
class Published:
    """One graph sent to the store."""

    graph: str
    triples: int


def graph_names(data_graph: str = DATA_GRAPH) -> dict[str, str]:
    """The named graph of each part of the anthology."""
    return {"data": data_graph, "ontology": ONTOLOGY_GRAPH, "shapes": SHAPES_GRAPH}


def _with_params(url: str, params: list[tuple[str, str]]) -> str:
    separator = "&" if urllib.parse.urlsplit(url).query else "?"
    return url + separator + urllib.parse.urlencode(params)


def publish(
    anthology: Anthology, store: str, data_graph: str = DATA_GRAPH, replace: bool = False
) -> list[Published]:
    """Upload data, ontology and shapes to a Graph Store HTTP Protocol endpoint.

    With ``replace`` each graph is sent with PUT, which the store applies as one
    operation, so a reader sees the old graph or the new one, never part of it;
    without, with POST, which adds to what the graph holds.
    """
    parts = {"data": anthology.data, "ontology": anthology.ontology, "shapes": anthology.shapes}
    sent = []
    for part, graph_iri in graph_names(data_graph).items():
        body = to_ntriples(Export(parts[part], Graph(), anthology.base, "none"))
        http(
            _with_params(store, [("graph", graph_iri)]),
            method="PUT" if replace else "POST",
            data=body.encode("utf-8"),
            headers={"Content-Type": "application/n-triples"},
        )
        sent.append(Published(graph=graph_iri, triples=len(parts[part])))
    return sent


def default_graphs(data_graph: str = DATA_GRAPH) -> list[str]:
    """The graphs a query names as its default graph: data, ontology and shapes."""
    return list(graph_names(data_graph).values())


def query_url(endpoint: str, graphs: list[str]) -> str:
    """The query endpoint with a ``default-graph-uri`` parameter for each graph."""
    return (
        _with_params(endpoint, [("default-graph-uri", g) for g in graphs]) if graphs else endpoint
    )


def fetch_graph(endpoint: str, graph_iri: str) -> Graph:
    """The triples of one named graph, read back with a CONSTRUCT query (sent without
    default-graph-uri, which would hide the named graphs)."""
    name = nt_term(URIRef(graph_iri))
    text = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH {name} {{ ?s ?p ?o }} }}"
    result = run_remote(endpoint, text)
    if len(result.graph) == 0:
        raise AnthologyError(f"{endpoint}: the graph <{graph_iri}> is empty or missing")
    return relabel(result.graph)


def oxigraph_binary() -> str:
    """The ``oxigraph`` server binary (the ``oxigraph`` package from PyPI)."""
    beside = Path(sys.executable).parent / "oxigraph"
    found = str(beside) if beside.exists() else shutil.which("oxigraph")
    if not found:
        raise AnthologyError(
            "the oxigraph server is not installed: pip install 'anthology-kg[server]'"
        )
    return found


def load_store(anthology: Anthology, location: Path, data_graph: str = DATA_GRAPH) -> None:
    """Load the anthology's three graphs into an Oxigraph store folder."""
    parts = {"data": anthology.data, "ontology": anthology.ontology, "shapes": anthology.shapes}
    with tempfile.TemporaryDirectory() as folder:
        dump = Path(folder) / "anthology.nq"
        with dump.open("w", encoding="utf-8") as handle:
            for part, graph_iri in graph_names(data_graph).items():
                name = nt_term(URIRef(graph_iri))
                lines = to_ntriples(Export(parts[part], Graph(), anthology.base, "none"))
                for line in lines.splitlines():
                    handle.write(line[:-1] + f"{name} .\n")
        done = subprocess.run(
            [oxigraph_binary(), "load", "--location", str(location), "--file", str(dump)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise AnthologyError(f"oxigraph load failed: {done.stderr.strip()}")


def serve_command(location: Path, host: str, port: int, read_only: bool) -> list[str]:
    """The command line that serves the store at ``location``; queries see the union of
    the anthology's graphs as their default graph."""
    command = [
        oxigraph_binary(),
        "serve-read-only" if read_only else "serve",
        "--location",
        str(location),
        "--bind",
        f"{host}:{port}",
    ]
    return command + ["--union-default-graph"]
