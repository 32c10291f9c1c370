"""publish reads every graph it sends before it sends any: an input error of the
anthology's own files (a shape that does not parse) sends nothing (hunt20 #5 a); and a
publish stopped by a signal between graphs says what was sent, as a failure does (b)."""

from __future__ import annotations

import http.server
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import cli_process, run_cli

from anthology_kg.resources import bundled_dir

BROKEN = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://ex.org/> .

ex:S a sh:NodeShape ;
    sh:targetNode ex:a ;
    sh:sparql [ sh:select "SELECT $this WHERE { $this ak:x ?y }" ] .
"""
GRAPH = "https://w3id.org/anthology-kg/graph/"


class Store:
    """A Graph Store on 127.0.0.1 that records each request (method and graph) and has
    no graph (HEAD: 404); it answers each PUT or POST at once, or, with ``hold``, the
    first and holds the others until closed."""

    def __init__(self, hold: bool = False) -> None:
        self.requests: list[tuple[str, str]] = []
        self.released = threading.Event()
        store = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _record(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                store.requests.append((self.command, self.path.rpartition("%2F")[2]))

            def do_HEAD(self) -> None:
                self._record()
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_PUT(self) -> None:
                self._record()
                if hold and len([r for r in store.requests if r[0] != "HEAD"]) > 1:
                    store.released.wait(30)
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_PUT

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/store"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def broken_shape(tmp_path: Path) -> Path:
    (tmp_path / "data").symlink_to(bundled_dir() / "data")
    (tmp_path / "ontology" / "shapes").mkdir(parents=True)
    (tmp_path / "ontology" / "shapes" / "own.ttl").write_text(BROKEN, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("how", [["--replace"], ["--add"], []], ids=["replace", "add", "first"])
def test_a_shape_that_does_not_parse_sends_nothing(broken_shape, how):
    store = Store()
    try:
        result = run_cli("--root", str(broken_shape), "publish", "--endpoint", store.url, *how)
    finally:
        store.close()
    assert result.exit_code == 2, result.stdout
    assert "own.ttl:6: " in result.stderr and "sh:select" in result.stderr
    assert store.requests == []


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_publish_stopped_between_graphs_says_what_was_sent(stop):
    store = Store(hold=True)
    process = cli_process(
        "--root", str(bundled_dir()), "publish", "--endpoint", store.url, "--replace",
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while len(store.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.requests == [("PUT", "data"), ("PUT", "ontology")]
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
        store.close()
    word, code = ("terminated", 143) if stop == signal.SIGTERM else ("interrupted", 130)
    assert process.returncode == code
    assert stderr == (
        f"anthology-kg: {word}; replaced: <{GRAPH}data>; perhaps replaced (no answer): "
        f"<{GRAPH}ontology>; not replaced: <{GRAPH}shapes> (the store may now hold a mix: "
        "publish again)\n"
    )
