"""``query`` and ``sparql --endpoint URL --graph G`` where the store holds no graph G (a
typo of its IRI): the answer, from nothing, and a note on stderr naming the graph, exit 0,
as bf02375 says of an empty data graph; each graph named asked once, all in one request,
on a real Oxigraph server behind a recording proxy (and the several-graph probe on
Virtuoso 7.2)."""

from __future__ import annotations

import pytest
from conftest import run_cli
from stores import Proxy, put_graph
from test_server import OXIGRAPH, running_oxigraph

from anthology_kg.choices import DATA_GRAPH, graph_names
from anthology_kg.endpoint import Connection, Credentials
from anthology_kg.triplestore import held_graphs

pytestmark = pytest.mark.skipif(
    OXIGRAPH is None, reason="the oxigraph server binary is not installed (pip install oxigraph)"
)
TYPO = DATA_GRAPH.replace("/graph/data", "/graph/dat")
ONTOLOGY = graph_names(DATA_GRAPH)["ontology"]


@pytest.fixture(scope="module")
def published():
    """A server holding the bundled anthology as ``publish`` puts it."""
    with running_oxigraph() as base:
        result = run_cli("publish", "--endpoint", f"{base}/store", "--replace")
        assert result.exit_code == 0, result.output
        yield base


def _noted(result, url: str, graph: str) -> None:
    """Exit 0 and one line on stderr: the graph named, empty or missing."""
    assert result.exit_code == 0, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(
        f"anthology-kg: {url}: the graph <{graph}> (--graph) is empty or missing, so the "
        "answer reads nothing from it ("
    ), line


def test_a_typo_of_the_graph_named_is_said_beside_the_answer(published):
    with Proxy(published) as proxy:
        url = f"{proxy.url}/query"
        result = run_cli("query", "unread", "--format", "csv", "--endpoint", url, "--graph", TYPO)
        _noted(result, url, TYPO)
        assert result.stdout == "entry,class,category,title\n"
        assert len(proxy.requests) == 2  # the probe, then the query
        assert f"<{TYPO}>" in proxy.requests[0].text
        said = run_cli(
            "sparql", "-", "--endpoint", url, "--graph", TYPO, "--format", "json",
            input="ASK { ?s ?p ?o }",
        )  # fmt: skip
        _noted(said, url, TYPO)
        assert said.stdout == '{"head":{},"boolean":false}\n'


def test_each_graph_named_is_asked_for_in_one_request(published):
    """Of two graphs named, the one the store holds gets no note, the other does; one
    probe asks for both."""
    with Proxy(published) as proxy:
        url = f"{proxy.url}/query"
        result = run_cli(
            "sparql", "-", "--endpoint", url, "--graph", DATA_GRAPH, "--graph", TYPO,
            "--format", "csv", input="SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
        )  # fmt: skip
        _noted(result, url, TYPO)
        assert result.stdout.splitlines()[0] == "n" and int(result.stdout.splitlines()[1]) > 0
        assert len(proxy.requests) == 2
        assert f"<{TYPO}>" in proxy.requests[0].text and DATA_GRAPH in proxy.requests[0].text


def test_graphs_named_that_hold_triples_get_no_note(published):
    local = run_cli("query", "unread", "--format", "csv")
    with Proxy(published) as proxy:
        url = f"{proxy.url}/query"
        result = run_cli(
            "query", "unread", "--format", "csv", "--endpoint", url,
            "--graph", DATA_GRAPH, "--graph", ONTOLOGY,
        )  # fmt: skip
        assert (result.exit_code, result.stderr) == (0, ""), result.output
        assert result.stdout == local.stdout
        assert len(proxy.requests) == 2


def test_the_probe_of_several_graphs_on_virtuoso(virtuoso):
    """Virtuoso 7.2 answers the probe of several graphs (VALUES and FILTER EXISTS) as
    Oxigraph does."""
    dba = Connection(credentials=Credentials(virtuoso.user, virtuoso.password))
    for graph in ("urn:test:probe-a", "urn:test:probe-c"):
        put_graph(virtuoso.graph_store, graph, "<urn:x> <urn:y> <urn:z> .", dba)
    asked = ["urn:test:probe-a", "urn:test:probe-b", "urn:test:probe-c"]
    with Connection(method="form") as connection:
        held = held_graphs(virtuoso.sparql, asked, connection)
    assert held == {"urn:test:probe-a", "urn:test:probe-c"}
