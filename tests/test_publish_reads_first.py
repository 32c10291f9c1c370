"""publish reads every graph it sends before it sends any: an input error of the
anthology's own files (a shape that does not parse) sends nothing (hunt20 #5 a)."""

from __future__ import annotations

import http.server
import threading
from pathlib import Path

import pytest
from conftest import run_cli

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
