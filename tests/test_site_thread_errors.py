"""The site's threads that answer the stored queries and validate (a thread of this
process beside the reading of the model, or a new one in a forked child) hand their
errors over with their frames' locals dropped (``guards.releasing``): pyoxigraph refuses
to drop query solutions on another thread than the one that made them, a RuntimeError
reported as unraisable wherever the error ends."""

import gc
import sys
from concurrent.futures import ThreadPoolExecutor

import pyoxigraph as ox
import pytest

from anthology_kg.guards import releasing
from anthology_kg.site.workers import _in_a_new_thread


def _failing_with_solutions() -> None:
    store = ox.Store()
    node = ox.NamedNode("urn:x")
    store.add(ox.Quad(node, node, node))
    solutions = store.query("SELECT * WHERE { ?s ?p ?o }")
    assert isinstance(solutions, ox.QuerySolutions)
    raise ValueError("refused")


@pytest.fixture
def unraisable(monkeypatch):
    """What is reported as unraisable from now on (earlier garbage collected unheard)."""
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: None)
    gc.collect()
    heard: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: heard.append(repr(u.exc_value)))
    return heard


def _raised_here(work) -> None:
    with pytest.raises(ValueError, match="refused") as caught:
        work()
    assert "_failing_with_solutions" in [entry.name for entry in caught.traceback]  # kept
    del caught


def test_an_error_of_the_childs_answering_thread_holds_no_solutions(unraisable):
    _raised_here(lambda: _in_a_new_thread(_failing_with_solutions))
    gc.collect()
    assert unraisable == []


def test_an_error_of_the_answering_pool_holds_no_solutions(unraisable):
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(releasing(_failing_with_solutions))
        _raised_here(future.result)
        del future
    gc.collect()
    assert unraisable == []
