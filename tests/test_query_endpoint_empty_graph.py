"""``query --endpoint`` and ``sparql --endpoint`` on a store whose data graph is empty or
missing (hunt21 #6: a store loaded from ``export``'s file, which holds everything in the
default graph): exit 2 with validate's message, not 0 rows and exit 0; one request more
than the query, at most, on a real Oxigraph server behind a recording proxy."""

from __future__ import annotations

import pytest
from conftest import run_cli
from stores import Proxy
from test_server import OXIGRAPH, running_oxigraph

from anthology_kg.choices import DATA_GRAPH
from anthology_kg.endpoint import http

pytestmark = pytest.mark.skipif(
    OXIGRAPH is None, reason="the oxigraph server binary is not installed (pip install oxigraph)"
)
EMPTY = f"the graph <{DATA_GRAPH}> is empty or missing"


@pytest.fixture(scope="module")
def exported():
    """A server holding ``export``'s N-Quads (all in the default graph), none in the
    published graphs."""
    with running_oxigraph() as base:
        triples = run_cli("export", "--format", "nquads")
        assert triples.exit_code == 0
        http(
            f"{base}/store",
            method="POST",
            data=triples.stdout.encode("utf-8"),
            headers={"Content-Type": "application/n-quads"},
        )
        yield base


def _said_empty(result, url: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"anthology-kg: {url}: {EMPTY} ("), line
    assert "anthology-kg publish" in line and "--graph" in line


def test_a_query_on_a_store_without_the_data_graph_says_so(exported):
    with Proxy(exported) as proxy:
        url = f"{proxy.url}/query"
        _said_empty(run_cli("query", "unread", "--endpoint", url), url)
        assert len(proxy.requests) == 1  # the probe: the query itself is not sent
        _said_empty(run_cli("sparql", "-", "--endpoint", url, input="ASK { ?s ?p ?o }"), url)
        _said_empty(run_cli("validate", "--endpoint", url), url)  # the same words
        _said_empty(run_cli("validate", "--endpoint", url, "--engine", "reference"), url)


def test_graphs_named_by_the_user_are_queried_as_named(exported):
    """--graph names the graphs a query sees: the published data graph is not asked for."""
    with Proxy(exported) as proxy:
        url = f"{proxy.url}/query"
        result = run_cli("query", "unread", "--endpoint", url, "--graph", "urn:test:mine")
        assert result.exit_code == 0, result.output
        assert len(proxy.requests) == 1


def test_a_published_store_costs_one_request_more(exported):
    """The probe is one small SELECT before the query: json sends it and the query (one
    request before), the table also reads the data graph back for its entry names (two
    before)."""
    published = run_cli("publish", "--endpoint", f"{exported}/store", "--replace")
    assert published.exit_code == 0, published.output
    for fmt, requests in (("json", 2), ("table", 3)):
        local = run_cli("query", "unread", "--format", fmt)
        with Proxy(exported) as proxy:
            url = f"{proxy.url}/query"
            result = run_cli("query", "unread", "--format", fmt, "--endpoint", url)
            assert result.exit_code == 0, result.output
            assert result.stdout == local.stdout
            assert len(proxy.requests) == requests
            assert proxy.requests[0].text.startswith(f"SELECT ?s WHERE {{ GRAPH <{DATA_GRAPH}>")
