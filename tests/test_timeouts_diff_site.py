"""``diff --query`` and ``site`` run stored queries within the shared --timeout, and
``diff --query`` stops at SIGTERM (143) and Ctrl-C (130) while a query runs (hunt16 #4:
it ran the query on the main thread, inside pyoxigraph, where no signal handler runs,
with no limit; ``site`` ran a stored query a pull request adds with none either).

The diff's query waits on a SERVICE that never answers (allowed), so the wait burns no
CPU; the site never runs a SERVICE query, so its slow query computes, in a forked
process that ends with the build (forked_cli)."""

from __future__ import annotations

import signal
import socket
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli
from forked_cli import ForkServer, cpu_outside_the_main_thread

_FORK_SERVER = ForkServer()


@pytest.fixture(scope="module", autouse=True)
def _fork_server_stopped():
    yield
    _FORK_SERVER.stop()


@pytest.fixture
def silent_store():
    """A store that takes every connection and never answers (the kernel accepts it)."""
    with socket.create_server(("127.0.0.1", 0), backlog=16) as listening:
        yield listening


#: Six joins of every triple with every other: 40 triples give 40**6 rows to count.
SLOW = (
    "SELECT (COUNT(*) AS ?n) WHERE "
    "{ ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o . ?q ?r ?s }\n"
)


def anthology(root: Path, query: str, entries: int = 1) -> Path:
    """``entries`` triples and the stored query ``slow`` at ``root``."""
    (root / "data").mkdir(parents=True)
    triples = "".join(f'<X-{i}> <http://example.org/p> "v{i}" .\n' for i in range(entries))
    (root / "data" / "X-1.ttl").write_text(triples, encoding="utf-8")
    (root / "queries").mkdir()
    (root / "queries" / "slow.rq").write_text(f"#+ summary: slow\n{query}", "utf-8")
    return root


def states(tmp_path: Path, query: str, entries: int = 1) -> tuple[str, str]:
    """Two folders, each an ``anthology``."""
    return (
        str(anthology(tmp_path / "old", query, entries)),
        str(anthology(tmp_path / "new", query, entries)),
    )


def waiting(listening: socket.socket) -> str:
    port = listening.getsockname()[1]
    return f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{port}/sparql> {{ ?s ?p ?o }} }}\n"


def test_diff_query_gives_up_at_its_timeout_naming_the_state(tmp_path, silent_store):
    old, new = states(tmp_path, waiting(silent_store))
    started = time.monotonic()
    result = run_cli("diff", old, new, "--query", "slow", "--allow-service", "--timeout", "0.3")
    assert time.monotonic() - started < 5
    assert result.exit_code == 2, result.output
    assert result.stderr.endswith(": query slow: no answer within 0.3 s (--timeout)\n")
    assert "old" in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_diff_query_stops_at_a_signal_while_the_query_runs(tmp_path, signum, code):
    """A query that computes (a SERVICE's wait is bounded in a thread of its own)."""
    old, new = states(tmp_path, SLOW, entries=40)
    process = _FORK_SERVER.start("diff", old, new, "--query", "slow")
    # Until the worker is in the query (the states read and the query begun take ~0.02 s
    # of its CPU), 0.06 s, not a fixed half second (nor 0.2 s): the CPU burnt before the
    # signal is most of what the test costs.
    deadline = time.monotonic() + 90
    while cpu_outside_the_main_thread(process.pid) < 0.06 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None
    process.send_signal(signum)
    try:
        _, err = process.communicate(timeout=5)
    finally:
        process.send_signal(signal.SIGKILL)  # (once a test failed: nothing left running)
    assert process.returncode == code, err


def test_site_shows_a_query_past_its_timeout_as_such_and_is_built(tmp_path):
    root = anthology(tmp_path / "a", SLOW, entries=40)
    site = tmp_path / "site"
    started = time.monotonic()
    process = _FORK_SERVER.start("--root", str(root), "site", "-o", str(site), "--timeout", "0.3")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert time.monotonic() - started < 30
    assert "query 'slow' gave no answer within 0.3 s (--timeout)" in err
    page = (site / "queries" / "slow.html").read_text(encoding="utf-8")
    assert "gave no answer within 0.3 s (--timeout); its page shows none." in page
    assert (site / "queries" / "unread.html").is_file()  # (the others answered)
