"""pyoxigraph refuses to drop a query's solutions on another thread than the one that
made them (a RuntimeError, reported as unraisable by the thread that dropped them). A
worker ``guards.bounded`` gave up on (a time-out, Ctrl-C) releases what its work made,
its value or an error whose frames hold solutions, in its own thread; an error handed
over holds none; nor does one a validation's query thread hands over. Each case is
ordered with events: the work makes its solutions only once it was given up on, and the
garbage collector runs here only once the worker has ended."""

import contextvars
import gc
import sys
import threading
import time

import pyoxigraph as ox
import pytest

from anthology_kg import guards
from anthology_kg.errors import TimedOut
from anthology_kg.shacl.compiler import CompiledConstraint
from anthology_kg.shacl.validator import run_compiled, store_select


def _store() -> ox.Store:
    store = ox.Store()
    node = ox.NamedNode("urn:x")
    store.add(ox.Quad(node, node, node))
    return store


class _Unraisable:
    """What is reported as unraisable from now on (what earlier tests left to the
    garbage collector is collected first, unheard)."""

    def __init__(self, monkeypatch) -> None:
        monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: None)
        gc.collect()
        self.heard: list[str] = []
        monkeypatch.setattr(
            sys, "unraisablehook", lambda unraisable: self.heard.append(repr(unraisable.exc_value))
        )

    def after_collecting(self) -> list[str]:
        gc.collect()
        return self.heard


def _make_solutions(store: ox.Store, returned: bool) -> ox.QuerySolutions:
    """Solutions made here, returned, or held by this frame of the error raised."""
    solutions = store.query("SELECT * WHERE { ?s ?p ?o }")
    assert isinstance(solutions, ox.QuerySolutions)
    if returned:
        return solutions
    raise ValueError("refused")


def _worker(what: str) -> threading.Thread:
    (worker,) = [t for t in threading.enumerate() if t.name == f"anthology-kg {what}"]
    return worker


class _InterruptedClock:
    """``guards.time`` whose clock, read after the first time (the deadline), raises
    KeyboardInterrupt: a Ctrl-C while ``bounded`` waits for its worker."""

    def __init__(self) -> None:
        self.read = False

    def monotonic(self) -> float:
        if self.read:
            raise KeyboardInterrupt
        self.read = True
        return time.monotonic()


def _starts_then_interrupted(thread: threading.Thread) -> None:
    """``Thread.start``, then a Ctrl-C: one that comes as ``bounded`` starts its worker."""
    _THREAD_START(thread)
    raise KeyboardInterrupt


_THREAD_START = threading.Thread.start


@pytest.mark.parametrize("given_up_by", ["time-out", "Ctrl-C while waiting", "Ctrl-C at start"])
@pytest.mark.parametrize("returned", [True, False], ids=["value", "error"])
def test_a_given_up_worker_releases_its_solutions_in_its_own_thread(
    monkeypatch, given_up_by, returned
):
    unraisable = _Unraisable(monkeypatch)
    store, go = _store(), threading.Event()
    what = f"given up by {given_up_by}"

    def work() -> ox.QuerySolutions:
        go.wait()
        return _make_solutions(store, returned)

    expected = TimedOut if given_up_by == "time-out" else KeyboardInterrupt
    with monkeypatch.context() as patched:
        if given_up_by == "Ctrl-C while waiting":
            patched.setattr(guards, "time", _InterruptedClock())
        elif given_up_by == "Ctrl-C at start":
            patched.setattr(threading.Thread, "start", _starts_then_interrupted)
        with pytest.raises(expected) as caught:  # held until the worker ends, as a caller may
            guards.bounded(work, 0.01 if given_up_by == "time-out" else 60, what)
    worker = _worker(what)
    go.set()
    worker.join(30)  # (a worker left waiting to hand its outcome over would never end)
    assert not worker.is_alive()
    del caught
    assert unraisable.after_collecting() == []


def test_a_worker_given_up_once_it_handed_its_outcome_over_releases_it():
    """The waiting thread gives up (its deadline) just as the worker hands its solutions
    over: the worker, which waits to learn whether they were taken, releases them."""
    store, handover = _store(), guards._Handover()
    worker = threading.Thread(
        target=handover.run,
        args=(contextvars.copy_context(), lambda: _make_solutions(store, True)),
    )
    worker.start()
    handover.handed.wait()
    handover.give_up()
    worker.join()
    assert handover._outcome is None


def test_an_error_a_worker_hands_over_holds_none_of_its_solutions(monkeypatch):
    unraisable = _Unraisable(monkeypatch)
    store = _store()
    with pytest.raises(ValueError, match="refused"):
        guards.bounded(lambda: _make_solutions(store, False), None, "handed over")
    assert unraisable.after_collecting() == []


def test_an_error_a_validation_thread_hands_over_holds_none_of_its_solutions(monkeypatch):
    """A compiled query whose solutions fail as they are read (an allowed SERVICE refused
    by pyoxigraph's client: port 9, no connection made), run on two threads."""
    unraisable = _Unraisable(monkeypatch)
    node = ox.NamedNode("urn:x")

    def constraint(sparql: str) -> CompiledConstraint:
        return CompiledConstraint(
            shape=node, component=node, severity=node, path=None, sparql=sparql
        )

    failing = constraint("SELECT ?this WHERE { SERVICE <http://127.0.0.1:9/> { ?this ?p ?o } }")
    select = store_select(_store(), [ox.DefaultGraph()], ox_terms=True)
    with pytest.raises(OSError, match="port 9"):
        run_compiled(select, [failing, constraint("SELECT ?this WHERE { ?this ?p ?o }")], 2)
    for thread in threading.enumerate():  # (each holds the outcomes while it runs)
        if thread.name == "anthology-kg checking":
            thread.join()
    assert unraisable.after_collecting() == []
