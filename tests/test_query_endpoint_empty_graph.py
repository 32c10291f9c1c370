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


def _noted_empty(result, url: str, stdout: str) -> None:
    """The answer, read from no data, and a note on stderr saying why (exit 0)."""
    assert (result.exit_code, result.stdout) == (0, stdout), result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"anthology-kg: {url}: {EMPTY}, so the answer reads no data ("), line
    assert "anthology-kg publish" in line and "--graph" in line


def test_a_query_on_a_store_without_the_data_graph_says_so(exported):
    """A query answers, from no data, and says why beside it: an anthology of no entries
    yet, served or published, is such a store too (a store need keep no empty graph), and
    its empty answer is right (review47 #1: exit 2 refused it). validate refuses."""
    with Proxy(exported) as proxy:
        url = f"{proxy.url}/query"
        _noted_empty(
            run_cli("query", "unread", "--endpoint", url, "--format", "csv"),
            url,
            "entry,class,category,title\n",
        )
        assert len(proxy.requests) == 2  # the probe, then the query
        said = run_cli(
            "sparql", "-", "--endpoint", url, "--format", "json", input="ASK { ?s ?p ?o }"
        )
        _noted_empty(said, url, '{"head":{},"boolean":false}\n')
        _said_empty(run_cli("validate", "--endpoint", url), url)  # the same words
        _said_empty(run_cli("validate", "--endpoint", url, "--engine", "reference"), url)


def test_a_query_of_an_anthology_of_no_entries_served_answers_nothing(tmp_path):
    """``serve`` of an anthology whose data/ holds no entry yet: its store has no data
    graph, and a query's answer is empty, as the local one is (review47 #1)."""
    (tmp_path / "data").mkdir()
    local = run_cli("--root", str(tmp_path), "query", "unread", "--format", "csv")
    assert local.exit_code == 0 and local.stdout == "entry,class,category,title\n", local.output
    with running_oxigraph() as base:
        published = run_cli(
            "--root", str(tmp_path), "publish", "--endpoint", f"{base}/store", "--replace"
        )
        assert published.exit_code == 0, published.output
        url = f"{base}/query"
        result = run_cli(
            "--root", str(tmp_path), "query", "unread", "--format", "csv", "--endpoint", url
        )
        _noted_empty(result, url, local.stdout)


def test_graphs_named_by_the_user_are_queried_as_named(exported):
    """--graph names the graphs a query sees: the published data graph is not asked for,
    the graph named is (test_query_endpoint_named_graph says what of it)."""
    with Proxy(exported) as proxy:
        url = f"{proxy.url}/query"
        result = run_cli("query", "unread", "--endpoint", url, "--graph", "urn:test:mine")
        assert result.exit_code == 0, result.output
        assert len(proxy.requests) == 2
        assert DATA_GRAPH not in proxy.requests[0].text
        assert "<urn:test:mine>" in proxy.requests[0].text


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
