"""A local query reaches the network only when the caller asks, through every call of
the library that runs one: ``Engine.query`` and ``Engine.select`` refuse SERVICE on
both local engines as ``run_local`` does (hunt12's finding 2). A real HTTP listener
records each request that arrives."""

from __future__ import annotations

import pytest
from conftest import FIXTURES
from stores import recording_store

from anthology_kg import AnthologyError, open_engine, run_local

ANSWER = b'{"head":{"vars":["s"]},"results":{"bindings":[]}}'
KINDS = ["fast", "reference"]


@pytest.fixture(scope="module")
def engines():
    return {kind: open_engine(kind, root=FIXTURES / "minimal") for kind in KINDS}


@pytest.fixture(scope="module")
def listener():
    with recording_store(body=ANSWER) as found:
        yield found


def calls(url: str) -> str:
    return f"SELECT ?s WHERE {{ SERVICE <{url}/q> {{ ?s ?p ?o }} }}"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "ask",
    [
        lambda engine, text: engine.query(text),
        lambda engine, text: engine.query(text, parts=("data",)),
        lambda engine, text: engine.select(text),
        lambda engine, text: run_local(engine, text),
    ],
    ids=["query", "query-data", "select", "run_local"],
)
def test_a_local_query_calling_service_is_refused_and_sends_nothing(engines, listener, kind, ask):
    url, seen = listener
    seen.clear()
    with pytest.raises(AnthologyError, match=r"calls a remote endpoint \(SERVICE\)"):
        ask(engines[kind], calls(url))
    assert seen == []


@pytest.mark.parametrize("kind", KINDS)
def test_allowed_the_query_reaches_the_endpoint(engines, listener, kind):
    url, seen = listener
    seen.clear()
    assert engines[kind].query(calls(url), allow_service=True).rows == []
    assert run_local(engines[kind], calls(url), allow_service=True).rows == []
    # (the path, its query string aside: the reference engine sends a short query by GET)
    assert [request.split()[1].split("?")[0] for request in seen] == ["/q", "/q"]
