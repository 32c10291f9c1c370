"""A real Oxigraph server: publish, query remotely, validate remotely, replace, errors."""

import contextlib
import functools
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from bundled import QUERY_NAMES
from conftest import run_cli
from rdflib.compare import isomorphic
from stores import Proxy, free_port, put_graph, recording_store, serve_process

from anthology_kg.choices import ONTOLOGY_GRAPH, SHAPES_GRAPH
from anthology_kg.endpoint import run_remote, store_result
from anthology_kg.errors import AnthologyError
from anthology_kg.loader import load_anthology
from anthology_kg.local_query import run_local
from anthology_kg.queries import bind_params, catalog
from anthology_kg.query_result import QueryResult
from anthology_kg.sparql_text import with_values
from anthology_kg.triplestore import (
    default_graphs,
    fetch_graph,
    publish,
    query_url,
)
from anthology_kg.validation import validate

BINARY = Path(sys.executable).parent / "oxigraph"
OXIGRAPH = str(BINARY) if BINARY.exists() else shutil.which("oxigraph")
pytestmark = pytest.mark.skipif(
    OXIGRAPH is None, reason="the oxigraph server binary is not installed (pip install oxigraph)"
)


def wait_until_up(url: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/query?query=ASK%7B%7D", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("oxigraph did not start")


@contextlib.contextmanager
def running_oxigraph():
    """An in-memory Oxigraph server on a free port: its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [OXIGRAPH, "serve", "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def oxigraph():
    with running_oxigraph() as base:
        yield base


@pytest.fixture
def own_oxigraph():
    """A server of the test's own, whose ontology and shapes graphs it may spoil."""
    with running_oxigraph() as base:
        yield base


@pytest.fixture(scope="module")
def published(oxigraph):
    result = run_cli("publish", "--endpoint", f"{oxigraph}/store", "--replace")
    assert result.exit_code == 0, result.stderr
    assert "replaced <https://w3id.org/anthology-kg/graph/data>" in result.stdout
    return oxigraph


@functools.cache
def stored_locally(name: str) -> tuple[str, QueryResult]:
    """The stored query ``name`` with its parameters bound (``entry`` for depends-on) as
    sent to a store, and its local rows on the bundled anthology (the reference
    engine's), computed once for the tests on Oxigraph and on Virtuoso (no test writes
    to the bundled anthology)."""
    anthology = load_anthology()
    stored = catalog(anthology)[name]
    values = {"entry": "ARXIV-2409.19256"} if name == "depends-on" else {}
    bindings = bind_params(anthology, stored, values)
    return with_values(stored.text, bindings), run_local(anthology, stored.text, bindings)


@pytest.mark.parametrize("name", QUERY_NAMES)
def test_every_stored_query_gives_the_same_rows_remotely(published, name):
    text, local = stored_locally(name)
    remote = run_remote(query_url(f"{published}/query", default_graphs()), text)
    assert remote.variables == local.variables
    assert remote.rows == local.rows
    assert local.rows  # every standing question has an answer on the bundled anthology


def test_query_cli_remote_output_is_the_local_output(published):
    for fmt in ("table", "json", "csv"):
        local = run_cli("query", "confounders", "--format", fmt)
        remote = run_cli(
            "query", "confounders", "--format", fmt, "--endpoint", f"{published}/query"
        )
        assert remote.exit_code == 0 and remote.stdout_bytes == local.stdout_bytes


def test_sparql_cli_remote(published):
    text = "SELECT ?e WHERE { ?e a <https://w3id.org/anthology-kg/ns#Codebase> } ORDER BY ?e"
    local = run_cli("sparql", "-", "--format", "csv", input=text)
    remote = run_cli(
        "sparql", "-", "--format", "csv", "--endpoint", f"{published}/query", input=text
    )
    assert remote.stdout_bytes == local.stdout_bytes


def test_validate_remote_reports_what_local_validation_reports(published, tmp_path):
    # Publish a broken copy to a graph of its own and validate it remotely.
    root = tmp_path / "broken"
    shutil.copytree(Path(__file__).parent / "fixtures" / "rules" / "rule10-bad", root)
    graph = "urn:test:broken"
    assert (
        run_cli(
            "--root",
            str(root),
            "publish",
            "--endpoint",
            f"{published}/store",
            "--graph",
            graph,
            "--replace",
        ).exit_code
        == 0
    )
    local = validate(load_anthology(root))
    result = run_cli(
        "--root",
        str(root),
        "validate",
        "--format",
        "json",
        "--endpoint",
        f"{published}/query",
        "--graph",
        graph,
    )
    assert result.exit_code == 1
    import json

    remote = json.loads(result.stdout)["results"]
    key = ("focus", "path", "value", "shape", "severity")
    assert sorted(tuple(r[k] for k in key) for r in remote) == sorted(
        (r.focus, r.path, r.value, r.shape, r.severity) for r in local.results
    )
    assert {r["file"] for r in remote} == {None}


def test_replace_is_atomic_for_readers(published, tmp_path):
    endpoint = f"{published}/query"
    bigger = tmp_path / "bigger"
    shutil.copytree(Path(__file__).parent.parent / "data", bigger / "data")
    (bigger / "data" / "SOTA-999.ttl").write_text(
        "<SOTA-999> a <https://w3id.org/anthology-kg/ns#SotaRecord> ;\n"
        '    <http://purl.org/dc/terms/identifier> "SOTA-999" .\n',
        encoding="utf-8",
    )
    graph = "urn:test:atomic"
    small, big = load_anthology(), load_anthology(bigger)
    publish(small, f"{published}/store", graph, replace=True)
    count_query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    url = query_url(endpoint, [graph])
    seen, stop = set(), threading.Event()

    def reader():
        while not stop.is_set():
            seen.add(int(run_remote(url, count_query).rows[0][0]))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(20):
            publish(big if i % 2 == 0 else small, f"{published}/store", graph, replace=True)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert seen <= {len(small.data), len(big.data)}, seen
    assert seen


def test_server_down_is_exit_2():
    port = free_port()
    result = run_cli("query", "unread", "--endpoint", f"http://127.0.0.1:{port}/query")
    assert result.exit_code == 2 and "cannot connect" in result.stderr
    result = run_cli("publish", "--endpoint", f"http://127.0.0.1:{port}/store")
    assert result.exit_code == 2 and "cannot connect" in result.stderr


def test_wrong_url_is_http_404_exit_2(oxigraph):
    result = run_cli("query", "unread", "--endpoint", f"{oxigraph}/nope")
    assert result.exit_code == 2
    assert f"POST {oxigraph}/nope: HTTP 404" in result.stderr
    result = run_cli("publish", "--endpoint", f"{oxigraph}/nothing-here")
    assert result.exit_code == 2 and "HTTP 404" in result.stderr


def test_validating_a_missing_graph_is_exit_2(oxigraph):
    result = run_cli("validate", "--endpoint", f"{oxigraph}/query", "--graph", "urn:test:none")
    assert result.exit_code == 2 and "<urn:test:none> is empty or missing" in result.stderr


def test_validate_remote_bundled_conforms(published):
    result = run_cli("validate", "--endpoint", f"{published}/query")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].startswith("conforms: 0 violation(s)")


def test_serve_starts_a_loaded_read_only_server():
    port = free_port()
    process = serve_process("serve", "--read-only", port=port)
    try:
        base = f"http://127.0.0.1:{port}"
        # The endpoint line comes once serve itself knows the server listens; a SIGTERM sent
        # before it (the server may answer a moment earlier) would stop serve while starting.
        assert process.stdout is not None
        first = process.stdout.readline()
        wait_until_up(base)
        result = run_remote(
            f"{base}/query",
            'SELECT ?e WHERE { ?e <http://purl.org/dc/terms/identifier> "ARXIV-2409.19256" }',
        )
        assert [str(r[0]) for r in result.rows] == [
            "https://w3id.org/anthology-kg/id/ARXIV-2409.19256"
        ]
        with pytest.raises(AnthologyError, match="HTTP 4"):
            from anthology_kg.endpoint import http

            http(
                f"{base}/store?default",
                method="POST",
                data=b"<a:a> <a:b> <a:c> .",
                headers={"Content-Type": "application/n-triples"},
            )
    finally:
        process.terminate()
        process.communicate(timeout=10)
    assert first.startswith(f"SPARQL endpoint: http://127.0.0.1:{port}/query")


# --- Virtuoso Open Source 7.2, with authentication ---------------------------------

# The `virtuoso` fixture comes from tests/stores.py, through conftest.py.


@pytest.fixture
def dba(virtuoso, monkeypatch):
    """The dba's credentials in the environment, as a user would set them."""
    monkeypatch.setenv("ANTHOLOGY_KG_USER", virtuoso.user)
    monkeypatch.setenv("ANTHOLOGY_KG_PASSWORD", virtuoso.password)
    return virtuoso


@pytest.fixture(scope="module")
def virtuoso_published(virtuoso):
    import os

    os.environ["ANTHOLOGY_KG_USER"], os.environ["ANTHOLOGY_KG_PASSWORD"] = (
        virtuoso.user,
        virtuoso.password,
    )
    try:
        result = run_cli("publish", "--endpoint", virtuoso.graph_store, "--replace")
    finally:
        del os.environ["ANTHOLOGY_KG_USER"], os.environ["ANTHOLOGY_KG_PASSWORD"]
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("replaced <") == 3
    return virtuoso


@pytest.mark.parametrize("name", QUERY_NAMES)
def test_every_stored_query_gives_the_same_rows_on_virtuoso(virtuoso_published, name):
    from anthology_kg.endpoint import Connection

    text, local = stored_locally(name)
    url = query_url(virtuoso_published.sparql, default_graphs())
    remote = run_remote(url, text, connection=Connection(method="form"))
    assert remote.variables == local.variables
    assert remote.rows == local.rows


def test_query_cli_on_virtuoso_falls_back_from_a_direct_post(virtuoso_published, monkeypatch):
    """From a client that knows nothing of the store (the virtuoso fixture tells it), with
    a probe of 0.5 s: Virtuoso spins a core for as long as it holds a direct POST."""
    from anthology_kg import endpoint

    made: list[endpoint.Connection] = []

    class Watched(endpoint.Connection):
        def __post_init__(self):
            super().__post_init__()
            made.append(self)

    monkeypatch.setattr(endpoint, "Connection", Watched)
    monkeypatch.setattr(endpoint, "PROBE_SECONDS", 0.5)
    local = run_cli("query", "confounders", "--format", "csv")
    remote = run_cli(
        "query", "confounders", "--format", "csv", "--endpoint", virtuoso_published.sparql
    )
    assert remote.exit_code == 0, remote.stderr
    assert remote.stdout_bytes == local.stdout_bytes
    # learned by the probe, for the command's later queries
    assert [c.form_only for c in made] == [{virtuoso_published.sparql}]


def test_a_direct_post_virtuoso_never_answers_is_a_timeout_not_a_connect_error(
    virtuoso_published, monkeypatch
):
    from anthology_kg import endpoint, remote

    url = virtuoso_published.sparql
    # One direct POST, the command line's, its store_result watched for what the library
    # raises: Virtuoso spins a core ~0.9 s after each direct POST, whatever the timeout
    # (a second request, to the library alone, cost that again). Any timeout proves it.
    raised: list[AnthologyError] = []

    def watched(*args, **kwargs):
        try:
            return store_result(*args, **kwargs)
        except AnthologyError as exc:
            raised.append(exc)
            raise

    monkeypatch.setattr(remote, "store_result", watched)
    monkeypatch.setattr(endpoint, "store_result", watched)  # the data graph's probe's
    result = run_cli("query", "unread", "--endpoint", url, "--method", "post", "--timeout", "0.5")
    assert [exc.message for exc in raised] == [f"{url}: no answer within 0.5 s (--timeout)"]
    said = f"query unread: no answer from {url} within 0.5 s (--timeout)"
    assert result.exit_code == 2 and said in result.stderr
    assert "cannot connect" not in result.stderr

    for method in ("form", "get"):
        ok = run_cli("query", "unread", "--endpoint", url, "--method", method)
        assert ok.exit_code == 0, ok.stderr


def test_validate_against_virtuoso(virtuoso_published):
    result = run_cli("validate", "--endpoint", virtuoso_published.sparql, "--method", "form")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("conforms: 0 violation(s)")


def test_publish_to_virtuoso_without_credentials_says_so(virtuoso, monkeypatch, tmp_path):
    monkeypatch.setenv("NETRC", str(tmp_path / "none"))
    result = run_cli("publish", "--endpoint", virtuoso.graph_store, "--replace")
    assert result.exit_code == 2
    assert "HTTP 401" in result.stderr and "ANTHOLOGY_KG_USER" in result.stderr
    anonymous = run_cli("publish", "--endpoint", virtuoso.graph_store_anonymous, "--replace")
    assert anonymous.exit_code == 2
    # the cause, below the first line of Virtuoso's answer, is shown
    assert "HTTP 403" in anonymous.stderr and "SQ110" in anonymous.stderr
    assert len(anonymous.stderr.strip().splitlines()) == 1


def test_publish_to_virtuoso_with_wrong_credentials(virtuoso, monkeypatch):
    monkeypatch.setenv("ANTHOLOGY_KG_USER", "dba")
    monkeypatch.setenv("ANTHOLOGY_KG_PASSWORD", "not-the-password")
    result = run_cli("publish", "--endpoint", virtuoso.graph_store, "--replace")
    assert result.exit_code == 2 and "HTTP 401" in result.stderr
    assert "credentials were refused" in result.stderr
    assert "not-the-password" not in result.stderr


def test_credentials_from_netrc(virtuoso, monkeypatch, tmp_path):
    netrc_file = tmp_path / "netrc"
    netrc_file.write_text(f"machine 127.0.0.1 login {virtuoso.user} password {virtuoso.password}\n")
    netrc_file.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc_file))
    result = run_cli(
        "publish", "--endpoint", virtuoso.graph_store, "--graph", "urn:test:netrc", "--replace"
    )
    assert result.exit_code == 0, result.stderr
    assert virtuoso.password not in result.stdout + result.stderr


def test_credentials_in_the_url_are_refused_and_never_echoed(virtuoso):
    port = virtuoso.base.rsplit(":", 1)[1]
    url = f"http://dba:{virtuoso.password}@127.0.0.1:{port}/sparql-graph-crud-auth"
    result = run_cli("publish", "--endpoint", url, "--replace")
    assert result.exit_code == 2
    assert "credentials in the URL are not accepted" in result.stderr
    assert virtuoso.password not in result.stderr


# --- Stores that answer badly: exit 2, one line, no traceback -----------------------


class RawServer:
    """A TCP server on 127.0.0.1 that answers every connection with ``reply(request)``
    bytes (sent in ``chunks`` with ``pause`` seconds between) and closes it."""

    def __init__(self, reply, pause: float = 0.0, chunk: int = 0):
        self.reply, self.pause, self.chunk = reply, pause, chunk
        self.requests: list[bytes] = []
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        self.socket.settimeout(0.2)
        while not self.stopped.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                continue
            with connection:
                connection.settimeout(2)
                data = b""
                try:
                    while b"\r\n\r\n" not in data:
                        data += connection.recv(65536)
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = re.search(rb"(?i)content-length:\s*(\d+)", head)
                    while length and len(body) < int(length.group(1)):
                        body += connection.recv(65536)
                    self.requests.append(head + b"\r\n\r\n" + body)
                    answer = self.reply(head + b"\r\n\r\n" + body)
                    step = self.chunk or len(answer) or 1
                    for i in range(0, len(answer), step):
                        if self.stopped.is_set():
                            break
                        connection.sendall(answer[i : i + step])
                        time.sleep(self.pause)
                except OSError:
                    pass

    def close(self):
        self.stopped.set()
        self.thread.join(timeout=5)
        self.socket.close()


def http_answer(body: bytes, status: str = "200 OK", content_type: str = "", length=None):
    size = len(body) if length is None else length
    kind = f"Content-Type: {content_type}\r\n" if content_type else ""
    return (
        f"HTTP/1.1 {status}\r\n{kind}Content-Length: {size}\r\nConnection: close\r\n\r\n"
    ).encode() + body


JSON = "application/sparql-results+json"
#: The graph a fake store's test names with --graph, and the store's answer to the probe
#: of it (RemoteEngine.query asks first whether a graph named holds a triple): one row.
GRAPH = "urn:test:g"
HELD = http_answer(
    b'{"head": {"vars": ["s"]}, "results": {"bindings": '
    b'[{"s": {"type": "uri", "value": "urn:x"}}]}}',
    content_type=JSON,
)


def probed_then(answer: bytes) -> Callable[[bytes], bytes]:
    """A RawServer's reply: one row to the probe of GRAPH, ``answer`` to the query."""
    return lambda request: HELD if f"GRAPH <{GRAPH}>".encode() in request else answer


BAD_ANSWERS = {
    "truncated body": (
        http_answer(b'{"head": {"vars"', content_type=JSON, length=400),
        "cut short",
    ),
    "not HTTP": (b"SSH-2.0-OpenSSH_9.2\r\n", "not valid HTTP"),
    "empty object": (http_answer(b"{}", content_type=JSON), "not SPARQL JSON results"),
    "binding without value": (
        http_answer(
            b'{"head":{"vars":["e"]},"results":{"bindings":[{"e":{"type":"uri"}}]}}',
            content_type=JSON,
        ),
        "not SPARQL JSON results",
    ),
    "not JSON": (http_answer(b"<html>hello</html>", content_type="text/html"), "not SPARQL"),
}


@pytest.mark.parametrize("case", sorted(BAD_ANSWERS))
def test_a_bad_answer_is_one_line_exit_2(case):
    answer, expected = BAD_ANSWERS[case]
    server = RawServer(lambda request: answer)
    try:
        result = run_cli("query", "unread", "--endpoint", f"{server.url}/sparql")
    finally:
        server.close()
    assert result.exit_code == 2, (case, result.stdout)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], (case, result.stderr)
    assert "Traceback" not in result.stderr


def test_turtle_that_is_not_utf8_is_one_line_exit_2():
    answer = http_answer(b'<urn:a> <urn:b> "caf\xe9" .\n', content_type="text/turtle")
    server = RawServer(probed_then(answer))
    try:
        # --graph: the probe asks for that graph, which this server holds
        result = run_cli(
            "sparql", "-", "--endpoint", f"{server.url}/sparql", "--graph", GRAPH,
            input="CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
        )  # fmt: skip
    finally:
        server.close()
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("the Turtle answer is not UTF-8 text")
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_store_that_drips_its_answer_is_cut_at_the_deadline():
    from anthology_kg.endpoint import Connection

    answer = http_answer(b'{"head":{"vars":[]},"results":{"bindings":[]}}', content_type=JSON)
    server = RawServer(lambda request: answer, pause=0.3, chunk=1)
    started = time.monotonic()
    try:
        with pytest.raises(AnthologyError, match=r"no answer within 1\.5 s"):
            run_remote(
                f"{server.url}/sparql", "ASK {}", connection=Connection(method="form", timeout=1.5)
            )
        elapsed = time.monotonic() - started
    finally:
        server.close()
    assert elapsed < 3


def test_a_shared_client_names_the_store_that_ran_out_and_still_answers_after(published):
    """One client for a command's requests: a store that drips its answer is still cut at
    the deadline and named, and the next request, to another store, is answered."""
    from anthology_kg.endpoint import Connection

    answer = http_answer(b'{"head":{"vars":[]},"results":{"bindings":[]}}', content_type=JSON)
    server = RawServer(lambda request: answer, pause=0.3, chunk=1)
    try:
        with Connection(method="form", timeout=1.5) as connection:
            with pytest.raises(AnthologyError) as caught:
                run_remote(f"{server.url}/sparql", "ASK {}", connection=connection)
            assert (
                caught.value.message == f"{server.url}/sparql: no answer within 1.5 s (--timeout)"
            )
            text = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"
            url = query_url(f"{published}/query", default_graphs())
            rows = run_remote(url, text, kind="select", connection=connection)
            assert rows.variables == ["s"] and len(rows.rows) == 1
    finally:
        server.close()


def test_an_error_page_shows_its_cause_without_html_or_secrets(monkeypatch):
    page = (
        b"<html><head><title>Error</title><style>p{}</style></head><body>"
        b"<h1>Bad things</h1><p>Virtuoso 42000 Error SQ110: Permission denied for "
        b"user ID = 107 password=hunter2 token s3cr3t-t0ken</p></body></html>"
    )
    server = RawServer(lambda request: http_answer(page, "500 Oops", "text/html"))
    monkeypatch.setenv("ANTHOLOGY_KG_TOKEN", "s3cr3t-t0ken")
    try:
        result = run_cli("query", "unread", "--endpoint", f"{server.url}/sparql")
    finally:
        server.close()
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert "HTTP 500 Oops: Virtuoso 42000 Error SQ110: Permission denied" in message
    assert "<" not in message.split("HTTP 500")[1] and "p{}" not in message
    assert "hunter2" not in message and "s3cr3t-t0ken" not in message
    assert b"Authorization: Bearer s3cr3t-t0ken" in server.requests[0]


def test_publish_says_which_graphs_were_replaced_when_one_fails():
    answers = iter([http_answer(b"", "201 Created")] + [http_answer(b"disk full", "500 No")] * 5)
    server = RawServer(lambda request: next(answers))
    try:
        result = run_cli("publish", "--endpoint", f"{server.url}/store", "--replace")
    finally:
        server.close()
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert "HTTP 500 No: disk full" in message
    assert "replaced: <https://w3id.org/anthology-kg/graph/data>;" in message
    assert (
        "not replaced: <https://w3id.org/anthology-kg/graph/ontology>, "
        "<https://w3id.org/anthology-kg/graph/shapes>"
    ) in message


# --- publish --replace: one request, or an honest account of three --------------------

OLD = "<urn:old> <urn:old> <urn:old> .\n"
GRAPHS = ("urn:test:cut", ONTOLOGY_GRAPH, SHAPES_GRAPH)


def _put_old(store: str, connection=None) -> None:
    """Each of the three graphs holds one old triple."""
    for graph in GRAPHS:
        put_graph(store, graph, OLD, connection)


def _holds(query_endpoint: str) -> dict[str, str]:
    """For each of the three graphs: "old" (the one old triple), "new" (the anthology's
    triples, no old one), or its count of triples and of old ones. Asked as forms, which
    every store takes and Virtuoso only them (the ``virtuoso`` fixture says why)."""
    from anthology_kg.endpoint import Connection

    form = Connection(method="form")
    found = {}
    for graph in GRAPHS:
        counts = (
            int(
                run_remote(
                    query_endpoint,
                    f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ {subject} ?p ?o }} }}",
                    kind="select",
                    connection=form,
                ).rows[0][0]
            )
            for subject in ("?s", "<urn:old>")
        )
        total, old = counts
        found[graph] = {(1, 1): "old"}.get(
            (total, old), "new" if total > 1 and not old else f"{total}/{old}"
        )
    return found


def test_publish_update_is_one_request_with_the_graphs_the_graph_store_gets(own_oxigraph):
    with Proxy(own_oxigraph) as proxy:
        result = run_cli("publish", "--update", f"{proxy.url}/update", "--replace")
    assert result.exit_code == 0, result.stderr
    assert [(sent.method, sent.path) for sent in proxy.requests] == [("POST", "/update")]
    assert result.stdout.count("replaced <") == 3
    by_update = {g: fetch_graph(f"{own_oxigraph}/query", g) for g in default_graphs()}
    again = run_cli("publish", "--update", f"{own_oxigraph}/update", "--replace")
    assert again.exit_code == 0 and again.stdout == result.stdout  # replaced, not added to
    assert run_cli("publish", "--endpoint", f"{own_oxigraph}/store", "--replace").exit_code == 0
    for graph, graph_store in ((g, fetch_graph(f"{own_oxigraph}/query", g)) for g in by_update):
        assert isomorphic(by_update[graph], graph_store), graph


def test_publish_update_cut_mid_way_leaves_every_old_graph(own_oxigraph):
    _put_old(f"{own_oxigraph}/store")
    with Proxy(own_oxigraph, cut=lambda sent: sent.path == "/update") as proxy:
        result = run_cli(
            "publish", "--update", f"{proxy.url}/update", "--replace", "--graph", GRAPHS[0]
        )
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1 and "HTTP 502" in message
    assert "the three graphs were one update request: nothing was replaced" in message
    assert len(proxy.requests) == 1 and proxy.requests[0].size > 10_000
    assert _holds(f"{own_oxigraph}/query") == dict.fromkeys(GRAPHS, "old")


def test_three_puts_cut_at_the_second_say_what_the_store_holds(own_oxigraph):
    _put_old(f"{own_oxigraph}/store")
    cut_ontology = Proxy(
        own_oxigraph, cut=lambda sent: ONTOLOGY_GRAPH in urllib.parse.unquote(sent.path)
    )
    with cut_ontology as proxy:
        result = run_cli(
            "publish", "--endpoint", f"{proxy.url}/store", "--replace", "--graph", GRAPHS[0]
        )
    assert result.exit_code == 2
    assert (
        f"replaced: <{GRAPHS[0]}>; not replaced: <{ONTOLOGY_GRAPH}>, <{SHAPES_GRAPH}> "
        "(the store may now hold a mix: publish again)"
    ) in result.stderr
    assert _holds(f"{own_oxigraph}/query") == {
        GRAPHS[0]: "new",
        ONTOLOGY_GRAPH: "old",
        SHAPES_GRAPH: "old",
    }


def test_a_put_left_without_an_answer_is_perhaps_replaced():
    answers = iter([http_answer(b"", "201 Created"), b""])
    server = RawServer(lambda request: next(answers, b""))
    try:
        result = run_cli("publish", "--endpoint", f"{server.url}/store", "--replace")
    finally:
        server.close()
    assert result.exit_code == 2
    assert (
        "; replaced: <https://w3id.org/anthology-kg/graph/data>; perhaps replaced (no answer): "
        "<https://w3id.org/anthology-kg/graph/ontology>; not replaced: "
        "<https://w3id.org/anthology-kg/graph/shapes> (the store may now hold a mix"
    ) in result.stderr


def test_publish_update_left_without_an_answer_says_so():
    server = RawServer(lambda request: b"")
    try:
        result = run_cli("publish", "--update", f"{server.url}/update", "--replace")
    finally:
        server.close()
    assert result.exit_code == 2 and len(server.requests) == 1
    assert "the store may have applied the whole update or none of it" in result.stderr


def test_publish_needs_one_endpoint():
    for args in (
        (),
        ("--endpoint", "http://127.0.0.1:9/store", "--update", "http://127.0.0.1:9/u"),
    ):
        result = run_cli("publish", *args)
        assert result.exit_code == 2
        assert "publish needs one of --endpoint URL or --update URL" in result.stderr


# --- publish twice: a graph the store has already is replaced or added to on request ---

DEFAULT_GRAPHS = default_graphs()


def _counts(query_endpoint: str, graphs: tuple[str, ...] | list[str] = DEFAULT_GRAPHS) -> dict:
    """For each graph: its triples and those with a blank node subject (asked as forms)."""
    from anthology_kg.endpoint import Connection

    form = Connection(method="form")
    text = (
        "SELECT (COUNT(*) AS ?n) (SUM(IF(isBlank(?s), 1, 0)) AS ?b) "
        "WHERE {{ GRAPH <{}> {{ ?s ?p ?o }} }}"
    )
    return {
        g: tuple(
            int(v or 0)
            for v in run_remote(
                query_endpoint, text.format(g), kind="select", connection=form
            ).rows[0]
        )
        for g in graphs
    }


def test_publish_twice_is_refused_not_the_blank_nodes_twice(own_oxigraph):
    """The Graph Store's POST merges: the same anthology posted twice held every blank
    node twice (each takeaway, claim, arm), exit 0. A graph the store has already is
    refused, nothing sent, unless --replace or --add says what to do with it."""
    store, query = f"{own_oxigraph}/store", f"{own_oxigraph}/query"
    first = run_cli("publish", "--endpoint", store)
    assert first.exit_code == 0, first.stderr
    assert first.stdout.count("added to <") == 3
    once = _counts(query)
    assert all(n > 0 for n, _ in once.values()) and once[DEFAULT_GRAPHS[0]][1] > 0
    with Proxy(own_oxigraph) as proxy:
        again = run_cli("publish", "--endpoint", f"{proxy.url}/store")
    assert again.exit_code == 2 and again.stdout == ""
    assert again.stderr == (
        f"anthology-kg: {proxy.url}/store has the graphs "
        + ", ".join(f"<{g}>" for g in DEFAULT_GRAPHS)
        + " already: nothing was sent; --replace replaces them, --add adds to them (each "
        "blank node anew: the same anthology added twice holds two copies of each)\n"
    )
    assert {sent.method for sent in proxy.requests} == {"HEAD"}
    assert _counts(query) == once
    replaced = run_cli("publish", "--endpoint", store, "--replace")
    assert replaced.exit_code == 0 and replaced.stdout.count("replaced <") == 3
    assert _counts(query) == once
    added = run_cli("publish", "--endpoint", store, "--add")
    assert added.exit_code == 0 and added.stdout == first.stdout
    twice = _counts(query)
    assert all(twice[g][1] == 2 * once[g][1] for g in DEFAULT_GRAPHS), (once, twice)


def test_publish_names_only_the_graphs_the_store_has(own_oxigraph):
    put_graph(f"{own_oxigraph}/store", SHAPES_GRAPH, OLD)
    result = run_cli("publish", "--endpoint", f"{own_oxigraph}/store", "--graph", "urn:test:new")
    assert result.exit_code == 2
    assert f"/store has the graph <{SHAPES_GRAPH}> already: nothing was sent;" in result.stderr
    assert _counts(f"{own_oxigraph}/query", ["urn:test:new", ONTOLOGY_GRAPH, SHAPES_GRAPH]) == {
        "urn:test:new": (0, 0),
        ONTOLOGY_GRAPH: (0, 0),
        SHAPES_GRAPH: (1, 0),
    }


def test_publish_replace_and_add_exclude_each_other():
    with recording_store() as (url, seen):
        result = run_cli("publish", "--endpoint", f"{url}/store", "--replace", "--add")
    assert result.exit_code == 2 and seen == []
    assert "publish takes one of --replace or --add, not both" in result.stderr


def test_publish_update_needs_replace_or_add():
    """An update endpoint answers no query: it cannot say whether the graphs are there."""
    with recording_store(status=204) as (url, seen):
        result = run_cli("publish", "--update", f"{url}/update")
        assert result.exit_code == 2 and seen == []
        assert result.stderr == (
            "anthology-kg: publish --update cannot see whether the store has the graphs "
            "already (an update endpoint answers no query): --replace replaces them, --add "
            "adds to them (each blank node anew: the same anthology added twice holds two "
            "copies of each)\n"
        )
        added = run_cli("publish", "--update", f"{url}/update", "--add")
    assert added.exit_code == 0 and added.stdout.count("added to <") == 3
    assert seen == ["POST /update"]


def test_virtuoso_publish_twice_is_refused(virtuoso_published, dba):
    """Virtuoso 7.2 answers HEAD with 501: the graphs are asked for with GET."""
    path = urllib.parse.urlsplit(dba.graph_store).path
    before = _counts(dba.sparql)
    with Proxy(dba.base) as proxy:
        result = run_cli("publish", "--endpoint", f"{proxy.url}{path}")
    assert result.exit_code == 2, result.stderr
    assert "already: nothing was sent; --replace replaces them" in result.stderr
    # (each twice: Digest's challenge, then with the credentials)
    assert [sent.method for sent in proxy.requests] == ["HEAD", "HEAD", "GET", "GET"] * 3
    assert _counts(dba.sparql) == before


def test_virtuoso_three_puts_cut_at_the_second_say_what_the_store_holds(dba):
    from anthology_kg.endpoint import Connection, Credentials

    auth = Connection(credentials=Credentials(dba.user, dba.password))
    _put_old(dba.graph_store, auth)
    proxy = Proxy(dba.base, cut=lambda sent: ONTOLOGY_GRAPH in urllib.parse.unquote(sent.path))
    path = urllib.parse.urlsplit(dba.graph_store).path
    try:
        result = run_cli(
            "publish", "--endpoint", f"{proxy.url}{path}", "--replace", "--graph", GRAPHS[0]
        )
        assert result.exit_code == 2
        assert (
            f"replaced: <{GRAPHS[0]}>; not replaced: <{ONTOLOGY_GRAPH}>, <{SHAPES_GRAPH}>"
        ) in result.stderr
        assert _holds(dba.sparql) == {GRAPHS[0]: "new", ONTOLOGY_GRAPH: "old", SHAPES_GRAPH: "old"}
    finally:
        proxy.close()
        assert run_cli("publish", "--endpoint", dba.graph_store, "--replace").exit_code == 0


def test_virtuoso_refuses_the_one_update_request_and_keeps_the_old_graphs(dba):
    """Virtuoso 7.2 takes no blank node in INSERT DATA (and commits each operation of
    a request): it publishes through the Graph Store; the refusal changes nothing."""
    from anthology_kg.endpoint import Connection, Credentials

    auth = Connection(credentials=Credentials(dba.user, dba.password))
    _put_old(dba.graph_store, auth)
    try:
        result = run_cli(
            "publish", "--update", f"{dba.base}/sparql-auth", "--replace", "--graph", GRAPHS[0]
        )
        assert result.exit_code == 2
        message = result.stderr.strip()
        assert "HTTP 400" in message and "Blank node" in message and len(message.splitlines()) == 1
        assert _holds(dba.sparql) == dict.fromkeys(GRAPHS, "old")
    finally:
        assert run_cli("publish", "--endpoint", dba.graph_store, "--replace").exit_code == 0


def test_each_method_sends_the_query_as_the_protocol_says(published):
    from anthology_kg.endpoint import Connection

    with Proxy(published) as proxy:
        url = query_url(f"{proxy.url}/query", ["urn:test:a", "urn:test:b"])
        answers = {
            method: run_remote(url, "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", kind="select",
                               connection=Connection(method=method)).variables
            for method in ("post", "form", "get")
        }  # fmt: skip
    assert answers == dict.fromkeys(("post", "form", "get"), ["s"])
    graphs = "default-graph-uri=urn%3Atest%3Aa&default-graph-uri=urn%3Atest%3Ab"
    post, form, get = proxy.requests
    assert (post.method, post.path, post.text) == (
        "POST", f"/query?{graphs}", "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"
    )  # fmt: skip
    assert (form.method, form.path) == ("POST", "/query")
    assert form.text == "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"
    assert (get.method, get.path.startswith(f"/query?{graphs}&query=SELECT")) == ("GET", True)


# --- stopping serve: SIGTERM (a service manager) and SIGINT (Ctrl-C) -------------------


def _serve(tmp_path: Path, sigint: Callable | int, *args: str) -> subprocess.Popen:
    """``serve`` in a process of its own with SIGINT set to ``sigint`` as it starts (a
    background job of a script starts with it ignored), its temporary folder
    ``tmp_path``."""
    import os

    return serve_process(
        *args,
        "serve",
        port=free_port(),
        sigint=sigint,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )


def _stores(folder: Path) -> list[Path]:
    return list(folder.glob("anthology-kg-store-*"))


@pytest.mark.parametrize(
    ("stop", "sigint"),
    [("SIGTERM", "SIG_DFL"), ("SIGTERM", "SIG_IGN"), ("SIGINT", "SIG_DFL")],
    ids=["sigterm", "sigterm-in-a-background-job", "sigint"],
)
def test_serve_stops_on_a_signal_and_removes_its_store(tmp_path, stop, sigint):
    import signal

    process = _serve(tmp_path, getattr(signal, sigint))
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("SPARQL endpoint: ")
        assert len(_stores(tmp_path)) == 1
        process.send_signal(getattr(signal, stop))
        process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0
    assert _stores(tmp_path) == []


def test_serve_keeps_an_ignored_sigint_ignored_and_stops_on_sigterm(tmp_path):
    """A background job of a script starts with SIGINT ignored: serve leaves it so, as
    the shell meant, and a SIGTERM stops it."""
    import signal

    process = _serve(tmp_path, signal.SIG_IGN)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("SPARQL endpoint: ")
        process.send_signal(signal.SIGINT)
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=1)
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 0 and _stores(tmp_path) == []


@pytest.mark.parametrize("stopping", ["SIGTERM", "SIGINT"])
def test_a_stop_signal_as_serve_polls_its_server_stops_it(
    tmp_path, monkeypatch, ctrl_c_raises, stopping
):
    """A SIGTERM (or Ctrl-C's SIGINT) whose stop was raised inside ``Popen.wait`` right
    as it took the server's waitpid lock (its acquire returned, its try not yet entered)
    left the lock taken for good: the stop's own wait for the server never returned
    (this module's ignored-SIGINT case timed out now and then under load). The signal is
    sent here from inside that acquire, to serve's own process."""
    import signal

    from stores import serve_in_process

    raised_holding: list[type[BaseException]] = []

    class SignalledAsTaken:
        """A waitpid lock whose first poll (a non-blocking acquire) gets the signal once
        it has the lock."""

        def __init__(self, lock) -> None:
            self.lock, self.armed = lock, True

        def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
            taken = self.lock.acquire(blocking, timeout)
            if taken and not blocking and self.armed:
                self.armed = False
                try:
                    signal.raise_signal(getattr(signal, stopping))  # its handler runs here
                except BaseException as stop:
                    raised_holding.append(type(stop))
                    self.lock.release()  # (else this test would hang as serve did)
                    raise
            return taken

        def release(self) -> None:
            self.lock.release()

        def __enter__(self) -> bool:
            return self.acquire()

        def __exit__(self, *_: object) -> None:
            self.release()

    def signal_as_polled(servers: list[subprocess.Popen]) -> None:
        servers[0]._waitpid_lock = SignalledAsTaken(servers[0]._waitpid_lock)  # type: ignore[attr-defined]

    result, servers = serve_in_process(monkeypatch, tmp_path, signal_as_polled)
    assert raised_holding == []
    assert result.exit_code == 0, result.stderr
    assert servers[0].returncode is not None and _stores(tmp_path) == []


def test_a_sigterm_while_the_store_loads_stops_serve_and_removes_the_store(tmp_path):
    """Before: the SIGTERM handler came after the load, so a SIGTERM while the store
    loaded killed serve (-15) with the store and its loader left behind."""
    import signal

    root = tmp_path / "generated"
    made = run_cli("generate", "--entries", "2000", "--seed", "1", "-o", str(root))
    assert made.exit_code == 0
    process = _serve(tmp_path, signal.SIG_DFL, "--root", str(root))
    try:
        deadline = time.monotonic() + 60
        while not _stores(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
    assert "SPARQL endpoint" not in out  # stopped while loading, not once serving
    assert process.returncode == 0 and _stores(tmp_path) == []


@pytest.mark.parametrize("child", ["mkdtemp", "load", "serve"])
def test_a_sigterm_while_a_child_starts_stops_serve_and_reaps_it(tmp_path, monkeypatch, child):
    """A SIGTERM that comes inside ``subprocess.Popen`` once the child is forked (here
    sent from there: the race the signal tests above lose now and then) waits until the
    child is serve's to stop: serve returns 0, every child it started is reaped and no
    store is left. Before, the stop left the child running unseen (and, inside
    ``mkdtemp``, the store with no name to remove it by)."""
    import os
    import signal
    import tempfile

    from anthology_kg.engine import open_engine
    from anthology_kg.server import serve

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    started: dict[int, list[str]] = {}
    execute_child = subprocess.Popen._execute_child  # type: ignore[attr-defined]

    def execute_and_stop(popen, args, *rest):
        execute_child(popen, args, *rest)
        started[popen.pid] = list(args)
        if child in args:
            os.kill(os.getpid(), signal.SIGTERM)

    def mkdtemp_and_stop(*args, **kwargs):
        mkdtemp(*args, **kwargs)  # the store's folder made, its name not yet returned
        os.kill(os.getpid(), signal.SIGTERM)

    mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(subprocess.Popen, "_execute_child", execute_and_stop)
    if child == "mkdtemp":
        monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp_and_stop)
    anthology = open_engine()
    code = serve(anthology, "127.0.0.1", free_port(), False, started=lambda url: None)
    assert code == 0
    assert child == "mkdtemp" or [args for args in started.values() if child in args]
    assert not any("serve" in args for args in started.values()) or child == "serve"
    for pid in started:
        with pytest.raises(ChildProcessError):  # already waited for by serve
            os.waitpid(pid, os.WNOHANG)
    assert _stores(tmp_path) == []


def test_parameters_and_select_star_answer_remotely_as_locally(published, bundled_copy):
    """--endpoint gets the text with_values writes, as the fast engine does: each tricky
    query of test_parameter_binding binds its parameter in the WHERE clause there too
    (hunt8 #1, #2), a DESCRIBE without WHERE binds (#9), and a SELECT *'s columns come
    in the local order, not the store's by name (#10)."""
    from test_parameter_binding import AK, TRICKY, stored

    endpoint = ("--endpoint", f"{published}/query")
    stored(bundled_copy, "describe", "#+ summary: an entry\nDESCRIBE ?_entry_iri\n")
    runs = [("describe", "entry=https://w3id.org/anthology-kg/id/LIT-168", ())]
    for name, text in TRICKY.items():
        stored(bundled_copy, name, text)
        runs += [
            (name, f"status={AK}{status}", ("--format", "csv")) for status in ("read", "unread")
        ]
    for name, value, fmt in runs:
        args = ("--root", str(bundled_copy), "query", name, "--param", value, *fmt)
        local = run_cli(*args)
        assert local.exit_code == 0, local.output
        remote = run_cli(*args, *endpoint)
        assert remote.exit_code == 0, remote.output
        assert remote.stdout == local.stdout, (name, value)
    star = bundled_copy / "star.rq"
    star.write_text(
        f"PREFIX ak: <{AK}>\nSELECT * WHERE {{ ?zed ak:readingStatus ?alpha }} ORDER BY ?zed\n"
    )
    local = run_cli("sparql", str(star), "--format", "csv")
    assert local.stdout.splitlines()[0] == "zed,alpha"
    assert run_cli("sparql", str(star), "--format", "csv", *endpoint).stdout == local.stdout
