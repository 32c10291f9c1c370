"""Real SPARQL stores started on 127.0.0.1 for the tests: Virtuoso Open Source 7.2
(Debian's ``virtuoso-opensource``), with its own temporary database and ini and a
generated dba password. Import the fixture where it is needed::

    from stores import virtuoso  # noqa: F401  (a module fixture, kept for the next module)

``Proxy`` goes between a client and a store: it records every request, and cuts the
ones a test chooses in the middle of their body (a store that fails mid-way).
``recording_store`` is a store of its own that gives every request one answer and
records it (to see whether a command reached the network); ``served`` serves a
test's own handler.

Tests that use it skip, saying why, when ``virtuoso-t`` is not installed
(``apt-get install virtuoso-opensource``; ``.ci/run`` installs it).
"""

from __future__ import annotations

import hashlib
import http.client
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

VIRTUOSO = shutil.which("virtuoso-t")
ISQL = shutil.which("isql-vt") or shutil.which("isql")
VSP = Path("/var/lib/virtuoso-opensource-7/vsp")

#: VectorSize = 1000 as in the virtuoso.ini Debian ships (/etc/virtuoso-opensource-7), which
#: this one otherwise leaves out: with virtuoso-t's own default, larger, the store took
#: 7.0-7.2 s of CPU over test_server and test_pushdown, 4.6-5.1 s with it (the queries'
#: vectors are sized for a few hundred rows); the same answers, Virtuoso's subClassOf*
#: bug included (test_virtuoso_answers_a_subclass_path_from_a_bound_node_wrongly).
INI = """[Database]
DatabaseFile = {folder}/virtuoso.db
ErrorLogFile = {folder}/virtuoso.log
LockFile = {folder}/virtuoso.lck
TransactionFile = {folder}/virtuoso.trx
xa_persistent_file = {folder}/virtuoso.pxa
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {folder}/virtuoso-temp.db
TransactionFile = {folder}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
CaseMode = 2
DirsAllowed = ., {folder}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
VectorSize = 1000
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {vsp}
ServerThreads = 8
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 120
"""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that no one listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_in_process(
    monkeypatch: pytest.MonkeyPatch,
    folder: Path,
    once_serving: Callable[[list[subprocess.Popen]], None],
) -> tuple[Any, list[subprocess.Popen]]:
    """``serve`` run in this process (CliRunner) with its stores under ``folder``;
    ``once_serving(servers)`` is called as it says it is serving, with the oxigraph
    servers it has started. Its result and those servers."""
    import click
    from conftest import run_cli

    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    servers: list[subprocess.Popen] = []

    class Recorded(subprocess.Popen):
        def __init__(self, args, *rest, **options):
            super().__init__(args, *rest, **options)
            if "serve" in args or "serve-read-only" in args:  # (its default)
                servers.append(self)

    echo = click.echo

    def echo_then(message=None, **options) -> None:
        echo(message, **options)
        if str(message).startswith("SPARQL endpoint"):  # serving: serve waits now
            once_serving(servers)

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    monkeypatch.setattr(click, "echo", echo_then)
    return run_cli("serve", "--port", str(free_port())), servers


def serve_process(
    *args: str, port: int, sigint: Callable | int = signal.SIG_DFL, **popen: Any
) -> subprocess.Popen:
    """``python -m anthology_kg ARGS --port PORT`` (``ARGS`` ending with ``serve`` or one
    of its options) in a process of its own, SIGINT set to ``sigint`` in it as it starts:
    at its default, as at a terminal, unless a test says otherwise (a background job of a
    script starts with it ignored). Its stdout is a text pipe and its stderr goes nowhere
    unless ``popen`` (given to ``subprocess.Popen``) says otherwise."""
    return subprocess.Popen(
        [sys.executable, "-m", "anthology_kg", *args, "--port", str(port)],
        preexec_fn=lambda: signal.signal(signal.SIGINT, sigint),
        **{"stdout": subprocess.PIPE, "stderr": subprocess.DEVNULL, "text": True, **popen},
    )


@dataclass
class Virtuoso:
    """A running Virtuoso: its endpoints and its dba credentials."""

    base: str
    sql_port: int
    user: str = "dba"
    password: str = field(default="", repr=False)
    process: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def sparql(self) -> str:
        """The SPARQL 1.1 Protocol endpoint (queries; no updates without credentials)."""
        return f"{self.base}/sparql"

    @property
    def graph_store(self) -> str:
        """The Graph Store endpoint that accepts writes (HTTP Digest, SPARQL_UPDATE)."""
        return f"{self.base}/sparql-graph-crud-auth"

    @property
    def graph_store_anonymous(self) -> str:
        """The Graph Store endpoint without authentication (refuses writes: 403)."""
        return f"{self.base}/sparql-graph-crud"

    def isql(self, script: str) -> str:
        """Run SQL as dba (the script on standard input, not on a command line)."""
        done = subprocess.run(
            [ISQL or "isql-vt", f"127.0.0.1:{self.sql_port}", self.user, self.password],
            input=script,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0 or "*** Error" in done.stdout:
            raise RuntimeError(f"isql failed: {done.stdout[-500:]} {done.stderr[-500:]}")
        return done.stdout


def _answers(url: str) -> bool:
    query = urllib.parse.urlencode({"query": "ASK {}"})
    try:
        with urllib.request.urlopen(f"{url}/sparql?{query}", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def _write_ini(folder: Path) -> tuple[Path, int, int]:
    """``folder``'s virtuoso.ini, on two free ports: its path, the SQL and HTTP ports."""
    sql_port, http_port = free_port(), free_port()
    ini = folder / "virtuoso.ini"
    ini.write_text(
        INI.format(folder=folder, sql_port=sql_port, http_port=http_port, vsp=VSP),
        encoding="utf-8",
    )
    return ini, sql_port, http_port


#: The files of a database that virtuoso-t has made and shut down cleanly.
DATABASE_FILES = ("virtuoso.db", "virtuoso.trx")


def database_template(templates: Path, seconds: float = 120) -> Path:
    """A folder in ``templates`` holding a new, empty database (``DATABASE_FILES``, the
    dba password the default one) made by this virtuoso-t with this INI, made now if
    there is none yet: a copy of it starts in ~1 s of CPU, where virtuoso-t takes ~2 s
    to make a database. Made in a folder of its own and then renamed into place, so that
    test sessions running at once never read half a template."""
    assert VIRTUOSO is not None
    binary = Path(VIRTUOSO).resolve()
    made_by = f"{binary} {binary.stat().st_size} {binary.stat().st_mtime_ns}\n{INI}"
    template = templates / f"virtuoso-{hashlib.sha256(made_by.encode()).hexdigest()[:16]}"
    if all((template / name).is_file() for name in DATABASE_FILES):
        return template
    building = Path(tempfile.mkdtemp(prefix="virtuoso-template-", dir=templates))
    try:
        ini, _, _ = _write_ini(building)
        subprocess.run(
            [VIRTUOSO, "+foreground", "+checkpoint-only", "+configfile", str(ini)],
            cwd=building,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=seconds,
            check=True,
        )
        for path in building.iterdir():
            if path.name not in DATABASE_FILES:
                path.unlink()
        building.rename(template)
    except OSError:  # another session's is there already (or none could be made)
        if not all((template / name).is_file() for name in DATABASE_FILES):
            raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return template


def start_virtuoso(folder: Path, seconds: float = 120, templates: Path | None = None) -> Virtuoso:
    """Start virtuoso-t on free ports with a new database in ``folder`` (a copy of
    ``database_template(templates)`` if ``templates`` is given), then replace the default
    dba password by a generated one."""
    if VIRTUOSO is None or ISQL is None:
        pytest.skip("Virtuoso is not installed (apt-get install virtuoso-opensource)")
    if templates is not None:
        template = database_template(templates, seconds)
        for name in DATABASE_FILES:
            shutil.copyfile(template / name, folder / name)
    ini, sql_port, http_port = _write_ini(folder)
    process = subprocess.Popen(
        [VIRTUOSO, "+foreground", "+configfile", str(ini)],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    store = Virtuoso(
        base=f"http://127.0.0.1:{http_port}", sql_port=sql_port, password="dba", process=process
    )
    deadline = time.monotonic() + seconds
    while not _answers(store.base):
        if process.poll() is not None or time.monotonic() > deadline:
            stop_virtuoso(store)
            log = (folder / "virtuoso.log").read_text(errors="replace")[-800:]
            raise RuntimeError(f"Virtuoso did not start: {log}")
        time.sleep(0.3)
    password = secrets.token_urlsafe(16)
    store.isql(f"user_set_password('dba', '{password}');\n")
    store.password = password
    return store


def stop_virtuoso(store: Virtuoso) -> None:
    if store.process is None or store.process.poll() is not None:
        return
    store.process.terminate()
    try:
        store.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        store.process.kill()
        store.process.wait(timeout=10)


class _Running:
    """The test process's Virtuoso (``virtuoso``), started when a test first asks for it.
    Kept from one module to the next that uses it (test_server, then test_pushdown:
    conftest.BESIDE), and stopped after the last of them (conftest calls
    ``stop_unless_used_by``), not at the end of the session: its CPU (1.2 s to start, and
    what it does for the tests; 5 s in a whole run) was counted on whichever test ended
    the session, when the process reaped it."""

    def __init__(self) -> None:
        self.store: Virtuoso | None = None
        self.modules: set[Path] | None = None  # those with a test using it

    def start(self, tmp_path_factory: pytest.TempPathFactory) -> Virtuoso:
        if self.store is None:
            # The database template is kept beside pytest's numbered temporary folders
            # (in its pytest-of-USER, private to the user), which pytest removes and it
            # does not.
            base = tmp_path_factory.getbasetemp()
            templates = next((p for p in base.parents if p.name.startswith("pytest-of-")), None)
            self.store = start_virtuoso(tmp_path_factory.mktemp("virtuoso"), templates=templates)
        return self.store

    def stop(self) -> None:
        if self.store is not None:
            stop_virtuoso(self.store)
            self.store = None

    def stop_unless_used_by(self, item: pytest.Item | None) -> None:
        """Stop Virtuoso if no test of ``item``'s module (of this session) uses it, or
        ``item`` is None (the session ends)."""
        if self.store is None:
            return
        if item is not None and self.modules is None:
            self.modules = {t.path for t in item.session.items if "virtuoso" in t.fixturenames}
        if item is None or self.modules is None or item.path not in self.modules:
            self.stop()


RUNNING = _Running()


@pytest.fixture(scope="module")
def virtuoso(tmp_path_factory):
    """A Virtuoso for the modules that use it, one after the other (``_Running``; skipped
    where it is not installed). Its query endpoint takes queries only as a form
    (Virtuoso 7.2 never answers a direct POST, and holds a core busy for the ``auto``
    method's probe and 1 s more): a test queries it with ``--method form`` unless it
    tests that probe."""
    return RUNNING.start(tmp_path_factory)


def put_graph(store: str, graph: str, turtle: str, connection=None) -> None:
    """Replace ``graph`` at the Graph Store endpoint ``store`` by the triples of ``turtle``
    (the project's client: credentials from ``connection``)."""
    from anthology_kg.endpoint import http

    http(
        f"{store}?{urllib.parse.urlencode({'graph': graph})}",
        method="PUT",
        data=turtle.encode("utf-8"),
        headers={"Content-Type": "text/turtle"},
        connection=connection,
    )


@contextmanager
def recording_store(
    status: int = 200,
    body: bytes = b"",
    content_type: str = "application/sparql-results+json",
    location: str | None = None,
) -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on 127.0.0.1 answering every GET, POST and PUT with ``status`` and
    ``body`` (and, given a ``location``, a Location of ``location`` plus the request's
    path: a redirect); yields its URL and the list of the requests it gets
    (``"POST /path"``)."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(f"{self.command} {self.path}")
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            redirect = {} if location is None else {"Location": location + self.path}
            send_answer(self, body, status, content_type, redirect)

        do_GET = do_PUT = do_POST

        def log_message(self, *args: object) -> None:
            pass

    with served(Handler) as url:
        yield url, seen


def send_answer(
    handler: BaseHTTPRequestHandler,
    body: bytes,
    status: int = 200,
    content_type: str = "application/sparql-results+json",
    headers: dict[str, str] | None = None,
) -> None:
    """Answer the request ``handler`` is handling: ``status``, ``headers``, ``body`` as
    ``content_type`` with its length."""
    handler.send_response(status)
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@contextmanager
def served(handler: type[BaseHTTPRequestHandler], one_at_a_time: bool = False) -> Iterator[str]:
    """An HTTP server on 127.0.0.1 answering with ``handler`` from a thread of its own,
    each request in a thread of its own (or one at a time); yields its URL and shuts it
    down at the end of the block."""
    server = (HTTPServer if one_at_a_time else ThreadingHTTPServer)(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Sent:
    """One request the proxy saw: method, path (with the query string) and the query or
    update text (the body, or its ``query``/``update`` field when the body is a form);
    ``peer``, the client's address and port (one per TCP connection it opened)."""

    method: str
    path: str
    text: str
    size: int
    peer: tuple[str, int] = ("", 0)


class Proxy:
    """An HTTP proxy on 127.0.0.1 in front of ``upstream`` (a base URL) that keeps every
    request (``requests``) and the bytes of every answer (``answered``). A request for
    which ``cut(sent)`` is true reaches the store with half its body, and then the
    connection closes; the client is answered 502. It speaks HTTP/1.1 and keeps a
    client's connection open (keep-alive) as a store does. ``with Proxy(...) as proxy``
    closes it at the end of the block."""

    def __init__(self, upstream: str, cut: Callable[[Sent], bool] | None = None):
        self.requests: list[Sent] = []
        self.answered = 0
        self.cut = cut or (lambda sent: False)
        proxy = self
        target = urllib.parse.urlsplit(upstream)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # TCP_NODELAY: the body, written after the headers, leaves at once; with Nagle
            # it waits for the client's delayed ACK of the headers, ~40 ms an answer.
            disable_nagle_algorithm = True

            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                text = body.decode("utf-8", "replace")
                if "x-www-form-urlencoded" in self.headers.get("Content-Type", ""):
                    form = urllib.parse.parse_qs(text)
                    text = (form.get("query") or form.get("update") or [""])[0]
                sent = Sent(self.command, self.path, text, len(body), self.client_address[:2])
                proxy.requests.append(sent)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                challenge = None
                if proxy.cut(sent):
                    status, content, kind = 502, b"cut by the test proxy", "text/plain"
                    upstream_connection = http.client.HTTPConnection(
                        target.hostname, target.port, timeout=30
                    )
                    upstream_connection.putrequest(self.command, self.path)
                    for key, value in headers.items():
                        upstream_connection.putheader(key, value)
                    upstream_connection.endheaders(body[: len(body) // 2])
                    upstream_connection.close()
                else:
                    response = self._upstream(self.command, self.path, body, headers)
                    status, content = response.status, response.read()
                    kind = response.headers.get("Content-Type", "text/plain")
                    challenge = response.headers.get("WWW-Authenticate")
                    if response.will_close:
                        self._close_upstream()
                proxy.answered += len(content)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                if status == 401 and challenge:
                    self.send_header("WWW-Authenticate", challenge)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_HEAD = do_POST = do_PUT = _forward

            # One connection to the store for each of the client's (kept alive as the
            # client's is): a new one a request cost the proxy ~0.6 ms of CPU of ~1.5.
            _connection: http.client.HTTPConnection | None = None

            def _upstream(self, method, path, body, headers) -> http.client.HTTPResponse:
                for attempt in (1, 2):
                    fresh = self._connection is None
                    if self._connection is None:
                        self._connection = http.client.HTTPConnection(
                            target.hostname, target.port, timeout=120
                        )
                    try:
                        self._connection.request(method, path, body=body or None, headers=headers)
                        return self._connection.getresponse()
                    except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                        self._close_upstream()
                        if fresh or attempt == 2:  # not a kept connection the store closed
                            raise
                raise AssertionError("unreachable")

            def _close_upstream(self) -> None:
                if self._connection is not None:
                    self._connection.close()
                    self._connection = None

            def finish(self) -> None:
                super().finish()
                self._close_upstream()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Proxy:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
