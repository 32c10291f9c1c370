"""The limits a local query or validation runs under: a time limit, a prompt Ctrl-C, and
no ``SERVICE`` (the network) unless the user allows it.

pyoxigraph releases the GIL while it evaluates a query, and rdflib and pySHACL are
Python, so the work runs in a worker thread while the calling thread waits in short
slices: Ctrl-C (KeyboardInterrupt) and the deadline are seen within a tenth of a second
whatever the engine is doing. A worker given up on is a daemon thread: it ends with the
process, or before, once its work returns, releasing what the work made in its own
thread (pyoxigraph's query solutions may be dropped in no other).
"""

from __future__ import annotations

import contextvars
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Generic, ParamSpec, TypeVar, cast

from .errors import AnthologyError, TimedOut
from .sparql_text import has_keyword
from .swaps import held

if TYPE_CHECKING:
    from .shacl.graph import ShapesGraph

T = TypeVar("T")
P = ParamSpec("P")
#: Each outgoing request of an allowed SERVICE gives up after this many seconds (on the
#: fast engine, the whole query: ``service_bounded``).
SERVICE_REQUEST_TIMEOUT = 30.0


def bounded(work: Callable[[], T], seconds: float | None, what: str) -> T:
    """The result of ``work()``, run in a worker thread; TimedOut (said of ``what``, as
    the user would name it: ``query confounders``) if it takes more than ``seconds``
    (None or 0: no limit). KeyboardInterrupt reaches the caller at once; the worker's
    own exceptions are raised as they are (the locals of their frames dropped:
    ``clear_frames``). A worker given up on releases what its work gave on its own
    thread when it ends (``_Handover``)."""
    handover: _Handover[T] = _Handover()
    context = contextvars.copy_context()  # the caller's (cli_context.command, limits)
    worker = threading.Thread(
        target=handover.run, args=(context, work), name=f"anthology-kg {what}", daemon=True
    )
    try:  # (a Ctrl-C may come as the worker starts)
        worker.start()
        deadline = time.monotonic() + seconds if seconds else None
        while not handover.handed.wait(0.1):
            if deadline is not None and time.monotonic() > deadline:
                raise TimedOut(seconds or 0, what=what)
        value, error = handover.take()
    except BaseException:  # given up on: a time-out, Ctrl-C
        handover.give_up()
        if worker.is_alive():
            _GIVEN_UP[:] = [w for w in _GIVEN_UP if w.is_alive()] + [worker]
        raise
    worker.join()  # (it only returns now)
    if isinstance(error, TimedOut):  # a request to a store, within the work
        raise error.about(what) from None
    if error is not None:
        raise error
    return cast(T, value)


class _Handover(Generic[T]):
    """What a worker of ``bounded`` hands the thread that waits for it: its work's value
    or error, once (``handed``), until that thread takes it or gives up on it. Given up
    on, the worker releases it itself, in its own thread: pyoxigraph refuses to drop a
    query's solutions (or triples, an iterator of quads) on another thread than theirs
    (a RuntimeError, reported as unraisable by whichever thread then dropped them: the
    one that ran the garbage collector, or dropped the time-out last)."""

    def __init__(self) -> None:
        self.handed = threading.Event()
        self._settled = threading.Event()  # taken, or given up on
        self._lock = threading.Lock()
        self._given_up = False
        self._outcome: tuple[T | None, BaseException | None] | None = None

    def run(self, context: contextvars.Context, work: Callable[[], T]) -> None:
        """In the worker: run ``work`` in ``context``, hand over its outcome, and
        release it if the waiting thread gives up."""
        outcome: tuple[T | None, BaseException | None]
        try:
            outcome = (context.run(work), None)
        except BaseException as exc:  # handed to the waiting thread
            clear_frames(exc)
            outcome = (None, exc)
        with self._lock:
            if not self._given_up:
                self._outcome = outcome
                self.handed.set()
        if self.handed.is_set():
            self._settled.wait()  # taken, or given up on meanwhile
        if self._given_up:
            with self._lock:
                self._outcome = None
            _break_tracebacks(outcome[1])
        del outcome  # the last of what the work made, if given up: released here

    def take(self) -> tuple[T | None, BaseException | None]:
        """In the waiting thread: the outcome handed over (``handed`` is set)."""
        with self._lock:
            outcome, self._outcome = self._outcome, None
            self._settled.set()
        assert outcome is not None
        return outcome

    def give_up(self) -> None:
        """In the waiting thread: the worker releases its outcome itself (unless it was
        taken already)."""
        with self._lock:
            if not self._settled.is_set():
                self._given_up = True
                self._settled.set()


def clear_frames(error: BaseException) -> None:
    """Drop the locals of the finished frames in the tracebacks of ``error`` and of the
    exceptions it chains (its cause, its context), in this thread: where the
    error goes to another thread, what its frames held (a pyoxigraph query's solutions,
    which refuse to be dropped on another thread than theirs) is released here, not
    wherever the error ends. The frames' code and lines stay: the traceback still
    prints."""
    for chained in _chain(error):
        traceback.clear_frames(chained.__traceback__)


def releasing(work: Callable[P, T]) -> Callable[P, T]:
    """``work``, whose error is raised with its frames' locals dropped (``clear_frames``):
    for work run in one thread whose error another thread gets (a pool's future, a
    thread joined), so that what the frames held is released in the thread that made it."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return work(*args, **kwargs)
        except BaseException as exc:
            clear_frames(exc)
            raise

    return run


def _break_tracebacks(error: BaseException | None) -> None:
    """Detach the tracebacks of ``error`` and of the exceptions it chains, which make a
    cycle with the frame that caught it: the error is then released when its last
    reference goes, not by the garbage collector in whatever thread runs it."""
    if error is not None:
        for chained in _chain(error):
            chained.__traceback__ = None


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and every exception it chains, each once."""
    todo, seen = [error], set()
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        todo.extend(e for e in (current.__cause__, current.__context__) if e is not None)


#: The workers ``bounded`` gave up on, which may still run (``still_working``).
_GIVEN_UP: list[threading.Thread] = []


def still_working() -> bool:
    """Whether a worker ``bounded`` gave up on still runs. It may be inside pyoxigraph
    or rdflib, which the interpreter's finalization can free objects from under (a
    SIGSEGV was seen after a time-out, about 1 run in 500): a process should then end
    with ``os._exit`` rather than finalize."""
    return any(worker.is_alive() for worker in _GIVEN_UP)


@contextmanager
def timeouts_named(what: str) -> Iterator[None]:
    """Say of a time-out raised within (a request to a store) that it was ``what``
    that got no answer: ``query confounders: no answer from URL within 300 s``."""
    try:
        yield
    except TimedOut as exc:
        raise exc.about(what) from None


def uses_service(text: str) -> bool:
    """Whether SPARQL ``text`` has a ``SERVICE`` keyword (``sparql_text.has_keyword``: not
    inside a comment, string, IRI or name, however each engine reads its escapes)."""
    return has_keyword(text, "SERVICE")


def refuse_service(text: str, source: str | Path | None, allowed: bool) -> bool:
    """An AnthologyError if a local query would call a remote endpoint (``SERVICE``)
    and the user did not allow it; else whether it calls one (``service_timeout``)."""
    if not uses_service(text):
        return False
    if not allowed:
        raise AnthologyError(
            "the query calls a remote endpoint (SERVICE); a local query runs on the "
            "anthology alone: pass --allow-service to let it reach the network",
            source,
        )
    return True


def refuse_service_in_shapes(shapes: ShapesGraph, allowed: bool) -> bool:
    """``refuse_service`` for every SPARQL constraint and target of the shapes (read on
    pyoxigraph terms, ``Rules.shapes_view``): whether one calls a remote endpoint."""
    from .shacl.sparql_based import declared_prefixes
    from .shacl.vocabulary import SH

    calls = False
    for predicate in (SH.select, SH.ask):
        for node, text in (
            (n, t) for n in shapes.subjects(predicate) for t in shapes.objects(n, predicate)
        ):
            if not uses_service(f"{declared_prefixes(shapes, node)}\n{text.value}"):
                continue
            if not allowed:
                raise AnthologyError(
                    f"a SPARQL constraint of the shapes ({node.value}) calls a remote endpoint "
                    "(SERVICE): pass --allow-service to let validation reach the network"
                )
            calls = True
    return calls


def service_bounded(work: Callable[[], T], source: str | Path | None) -> T:
    """``work()``, a query of the fast engine that calls a remote endpoint (SERVICE),
    given up after SERVICE_REQUEST_TIMEOUT seconds: an AnthologyError at ``source``.

    pyoxigraph makes the requests with an HTTP client of its own, which has no time
    limit and which the socket default (``service_timeout``) does not reach; it takes no
    limit either, so the whole query is bounded, not each request."""
    limit = SERVICE_REQUEST_TIMEOUT
    try:
        return bounded(work, limit, "SERVICE")
    except TimedOut as exc:
        if exc.what != "SERVICE":
            raise
        message = f"query failed: SERVICE timed out: no answer within {limit:g} s"
        raise AnthologyError(message, source) from None


@contextmanager
def service_timeout(calls_service: bool) -> Iterator[None]:
    """Inside, when ``calls_service``, a socket opened without a timeout of its own gives
    up after SERVICE_REQUEST_TIMEOUT seconds; when the last such block ends (in any
    thread), the process's default comes back as it was before the first began."""
    if not calls_service:
        yield
        return
    # rdflib's SERVICE uses urllib without a timeout; the socket default is the only
    # handle on it, and it is the process's: held for the calls, then put back (counted
    # across threads by ``swaps.held``, as the attributes ``swaps.swapped`` sets are).
    with held(
        "socket.defaulttimeout",
        socket.getdefaulttimeout,
        socket.setdefaulttimeout,
        SERVICE_REQUEST_TIMEOUT,
    ):
        yield
