"""The library's calls to a SPARQL store answer as a local run does and check what the
CLI checks (hunt12's findings 8, 9 and 10). The stores are tiny fakes on 127.0.0.1
(``stores.recording_store``) that answer every request alike."""

from __future__ import annotations

import functools
import json

import pytest
from conftest import FIXTURES, run_cli
from rdflib import Literal
from stores import recording_store

from anthology_kg import AnthologyError, open_engine, publish, run_remote
from anthology_kg.triplestore import publish_update

ENGINE = functools.cache(lambda: open_engine(root=FIXTURES / "minimal"))
#: A store's answer with the variables by name, as Oxigraph's server gives a SELECT *.
BY_NAME = json.dumps(
    {
        "head": {"vars": ["o", "p", "s"]},
        "results": {
            "bindings": [
                {
                    "o": {"type": "literal", "value": "O"},
                    "p": {"type": "uri", "value": "http://x/p"},
                    "s": {"type": "uri", "value": "http://x/s"},
                }
            ]
        },
    }
).encode()


def test_run_remote_gives_select_star_columns_in_a_local_runs_order():
    with recording_store(body=BY_NAME) as (url, _):
        result = run_remote(f"{url}/query", "SELECT * WHERE { ?s ?p ?o }")
    assert result.variables == ["s", "p", "o"]
    assert [str(term) for term in result.rows[0]] == ["http://x/s", "http://x/p", "O"]


def test_the_remote_engine_orders_them_by_the_text_as_written():
    # The text sent binds ?o in a VALUES block ahead of ?s ?p ?o: not the order asked for.
    engine = open_engine(root=FIXTURES / "minimal", endpoint="http://127.0.0.1:9/query")
    with recording_store(body=BY_NAME) as (url, seen):
        engine.endpoint = f"{url}/query"
        result = engine.query("SELECT * WHERE { ?s ?p ?o }", {"o": Literal("O")})
    assert len(seen) == 1
    assert result.variables == ["s", "p", "o"]


@pytest.mark.parametrize("text", ["SELECT ?o ?p ?s WHERE { ?s ?p ?o }", "SELECT * { ?o ?p ?s }"])
def test_an_order_the_query_gives_is_kept(text):
    with recording_store(body=BY_NAME) as (url, _):
        assert run_remote(f"{url}/query", text).variables == ["o", "p", "s"]


NOT_URLS = ["127.0.0.1:9/query", "not a url", "ftp://127.0.0.1/query", "http:///query"]
NOT_IRIS = ["relative", "http://x/a b", "http://x/a>b"]


@pytest.mark.parametrize("url", NOT_URLS)
def test_a_url_that_is_none_is_refused_by_the_library_as_by_the_cli(url):
    with pytest.raises(AnthologyError) as refused:
        run_remote(url, "ASK {}")
    assert "is not an http:// or https:// URL" in refused.value.message
    cli = run_cli("sparql", "-", "--endpoint", url, input="ASK {}")
    assert cli.exit_code == 2 and refused.value.message in cli.stderr, cli.stderr
    with pytest.raises(AnthologyError, match="is not an http:// or https:// URL"):
        open_engine(root=FIXTURES / "minimal", endpoint=url)
    with pytest.raises(AnthologyError, match="is not an http:// or https:// URL"):
        publish(ENGINE(), url)


@pytest.mark.parametrize("iri", NOT_IRIS)
def test_a_graph_name_that_is_no_iri_is_refused_before_anything_is_sent(iri):
    with recording_store() as (url, seen):
        for call in (
            lambda: publish(ENGINE(), f"{url}/store", data_graph=iri),
            lambda: publish_update(ENGINE(), f"{url}/update", data_graph=iri),
            lambda: open_engine(root=FIXTURES / "minimal", endpoint=url, data_graph=iri),
            lambda: open_engine(root=FIXTURES / "minimal", endpoint=url, graphs=[iri]),
        ):
            with pytest.raises(AnthologyError, match="is not an absolute IRI") as refused:
                call()
        assert seen == []
    cli = run_cli("publish", "--endpoint", "http://127.0.0.1:9/store", "--graph", iri)
    assert cli.exit_code == 2 and refused.value.message in cli.stderr, cli.stderr


def _select(variables: object, bindings: object) -> bytes:
    return json.dumps({"head": {"vars": variables}, "results": {"bindings": bindings}}).encode()


@pytest.mark.parametrize(
    "body",
    [
        _select("xy", []),
        _select([1, None], [{}]),
        _select(["x", "x"], []),
        _select(["a b"], []),
        _select(["x"], {"x": {"type": "literal", "value": "v"}}),
        _select(["x"], ["x"]),
        _select(["x"], [{"x": {"type": "uri", "value": "http://a/ b"}}]),
        _select(["x"], [{"x": {"type": "uri", "value": "relative"}}]),
    ],
    ids=["vars-str", "vars-not-str", "vars-twice", "vars-no-name", "bindings-object",
         "bindings-str", "iri-space", "iri-relative"],
)  # fmt: skip
def test_json_that_breaks_the_protocol_is_no_sparql_json(body):
    with recording_store(body=body) as (url, _):
        with pytest.raises(AnthologyError, match="the answer is not SPARQL JSON results"):
            run_remote(f"{url}/query", "SELECT ?x {}")
