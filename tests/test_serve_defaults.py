"""``serve`` is read-only unless ``--writable`` and asks its server for the shared
--timeout (hunt16 #6: it served writable by default, so any web page open in a browser
could POST a cross-site form that changed or dropped the store, and it gave queries no
limit)."""

from __future__ import annotations

import math
import shutil
import signal
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from conftest import run_cli
from stores import free_port, serve_process

from anthology_kg import server

_BESIDE = Path(sys.executable).parent / "oxigraph"
needs_oxigraph = pytest.mark.skipif(
    not _BESIDE.exists() and shutil.which("oxigraph") is None,
    reason="the oxigraph server is not installed",
)


@pytest.fixture
def served_with(monkeypatch):
    """The options ``serve`` gives ``server.serve`` (which is not run)."""
    given: dict = {}

    def serve(anthology, host, port, read_only, started, **options):
        given.update(read_only=read_only, **options)
        return 0

    monkeypatch.setattr(server, "serve", serve)
    return given


@pytest.mark.parametrize(
    "options, read_only, timeout",
    [
        ((), True, 300),
        (("--writable",), False, 300),
        (("--read-only", "--timeout", "7"), True, 7),
    ],
)
def test_serve_is_read_only_by_default_with_the_shared_timeout(
    served_with, options, read_only, timeout
):
    result = run_cli("serve", *options)
    assert result.exit_code == 0, result.output
    assert served_with == {"read_only": read_only, "timeout": timeout}


@needs_oxigraph
def test_the_server_command_asks_for_whole_seconds():
    command = server.serve_command(Path("store"), "127.0.0.1", 7878, True, 2.5)
    assert command[1] == "serve-read-only"
    assert command[-3:] == ["--union-default-graph", "--timeout-s", "3"]
    assert "--timeout-s" not in server.serve_command(Path("store"), "::1", 1, False, 0)


@needs_oxigraph
@pytest.mark.parametrize("seconds", [math.inf, 1e20, threading.TIMEOUT_MAX])
def test_a_timeout_past_what_a_thread_waits_is_no_limit(seconds):
    """Before (hunt18 #3): ``serve --timeout inf`` was an OverflowError traceback (exit
    1) and ``--timeout 1e20`` Oxigraph's usage line ("the oxigraph server did not start:
    For more information, try '--help'.", exit 2). As a request's (endpoint.py), such a
    limit is none."""
    assert server.serve_command(Path("store"), "::1", 1, True, seconds)[-1] == (
        "--union-default-graph"
    )
    below = server.serve_command(Path("store"), "::1", 1, True, threading.TIMEOUT_MAX - 1)
    assert below[-1] == str(math.ceil(threading.TIMEOUT_MAX - 1))


@needs_oxigraph
def test_a_cross_site_form_update_is_refused_by_default():
    port = free_port()
    process = serve_process("serve", port=port)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("SPARQL endpoint: ")
        base = f"http://127.0.0.1:{port}"
        form = urllib.parse.urlencode({"update": 'INSERT DATA { <urn:x> <urn:y> "csrf" }'})
        request = urllib.request.Request(
            f"{base}/update",
            data=form.encode(),
            headers={
                "Origin": "http://evil.example",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403
        ask = urllib.parse.urlencode({"query": "ASK { <urn:x> ?p ?o }"})
        answer = urllib.request.urlopen(
            urllib.request.Request(
                f"{base}/query?{ask}", headers={"Accept": "application/sparql-results+json"}
            ),
            timeout=10,
        ).read()
        assert b'"boolean":false' in answer.replace(b" ", b"")
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
