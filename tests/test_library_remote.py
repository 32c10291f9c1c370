"""The library's calls to a SPARQL store answer as a local run does and check what the
CLI checks (hunt12's findings 8, 9 and 10). The stores are tiny fakes on 127.0.0.1
(``stores.recording_store``) that answer every request alike."""

from __future__ import annotations

import contextlib
import functools
import json
import time
from http.server import BaseHTTPRequestHandler

import pytest
from conftest import FIXTURES, run_cli
from rdflib import Literal
from stores import recording_store, send_answer, served

from anthology_kg import AnthologyError, endpoint, open_engine, publish, run_remote
from anthology_kg.endpoint import Connection
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
    assert len(seen) == 2  # the probe of the data graph (answered a row here), the query
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


def _read(request: BaseHTTPRequestHandler, seen: list[str]) -> str:
    """The content type of a fake store's ``request``, added to ``seen``; its body read."""
    kind = request.headers.get("Content-Type", "")
    seen.append(kind)
    request.rfile.read(int(request.headers.get("Content-Length") or 0))
    return kind


@contextlib.contextmanager
def probed_store():
    """A store on 127.0.0.1 that takes its path's word for how to answer a query sent
    as a direct POST: ``/late`` sends its status line at once and the rows a second
    later, ``/refuses`` answers 415; a form is answered at once. ``/silent`` sends
    nothing for 3 s, however the query comes. Yields its URL and the content type of
    each request it gets."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            direct = _read(self, seen) == "application/sparql-query"
            if self.path == "/silent":
                time.sleep(3)
            status = 415 if direct and self.path == "/refuses" else 200
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(BY_NAME)))
                self.end_headers()
            except OSError:  # (a client that gave up on it)
                return
            if direct and self.path == "/late":
                time.sleep(1)
            with contextlib.suppress(OSError):  # (a client that gave up on it)
                self.wfile.write(BY_NAME)

        def log_message(self, *args: object) -> None:
            pass

    with served(Handler) as url:
        yield url, seen


@pytest.fixture
def short_probe(monkeypatch):
    monkeypatch.setattr(endpoint, "PROBE_SECONDS", 0.3)


def test_a_store_that_starts_answering_is_waited_for_and_sent_the_query_once(short_probe):
    with probed_store() as (url, seen), Connection(timeout=10) as connection:
        result = run_remote(f"{url}/late", "SELECT ?s {}", connection=connection)
        assert result.variables == ["o", "p", "s"]
        assert seen == ["application/sparql-query"]
        assert connection.form_only == frozenset()


def test_a_silent_store_gets_a_form_within_what_is_left_of_the_timeout(monkeypatch):
    monkeypatch.setattr(endpoint, "PROBE_SECONDS", 1.5)
    with probed_store() as (url, seen), Connection(timeout=2) as connection:
        started = time.monotonic()
        with pytest.raises(AnthologyError, match=r"no answer within 2 s"):
            run_remote(f"{url}/silent", "SELECT ?s {}", connection=connection)
        assert time.monotonic() - started < 3.0  # 1.5 s of probe and 2 s more before
        form = "application/x-www-form-urlencoded"
        assert seen == ["application/sparql-query", form]  # taken for one that never answers


def test_a_refused_post_is_sent_as_a_form_and_the_connection_remembers(short_probe):
    with probed_store() as (url, seen), Connection() as connection:
        for _ in range(2):
            run_remote(f"{url}/refuses", "SELECT ?s {}", connection=connection)
        assert connection.form_only == {f"{url}/refuses"}
        run_remote(f"{url}/refuses", "SELECT ?s {}")  # another connection learns anew
    form = "application/x-www-form-urlencoded"
    assert seen == ["application/sparql-query", form, form, "application/sparql-query", form]


def test_a_probe_given_up_on_frees_a_store_that_answers_one_request_at_a_time(short_probe):
    """As Virtuoso 7.2: one thread holds a direct POST it never answers for as long as
    the connection is open; the form sent next is answered only once it is closed."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if _read(self, seen) == "application/sparql-query":
                self.connection.settimeout(5)
                with contextlib.suppress(OSError):
                    self.connection.recv(1)  # b"" when the client closes it
                self.close_connection = True
                return
            send_answer(self, BY_NAME)

        def log_message(self, *args: object) -> None:
            pass

    with served(Handler, one_at_a_time=True) as url:
        started = time.monotonic()
        with Connection(timeout=4) as connection:
            assert run_remote(f"{url}/sparql", "SELECT ?s {}", connection=connection).rows
        assert time.monotonic() - started < 3  # not the POST's 4 s, then the form's
        assert seen == ["application/sparql-query", "application/x-www-form-urlencoded"]
