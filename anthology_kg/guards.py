"""The limits a local query or validation runs under: a time limit, a prompt Ctrl-C, and
no ``SERVICE`` (the network) unless the user allows it.

pyoxigraph releases the GIL while it evaluates a query, and rdflib and pySHACL are
Python, so the work runs in a worker thread while the calling thread waits in short
slices: Ctrl-C (KeyboardInterrupt) and the deadline are seen within a tenth of a second
whatever the engine is doing. A worker given up on is a daemon thread: it ends with the
process.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .errors import AnthologyError, TimedOut
from .sourcemap import string_end

if TYPE_CHECKING:
    from .shacl.graph import ShapesGraph

T = TypeVar("T")
#: Each outgoing request of an allowed SERVICE gives up after this many seconds.
SERVICE_REQUEST_TIMEOUT = 30.0
_SERVICE = re.compile(r"(?<![\w:?$])SERVICE\b", re.IGNORECASE)
#: SPARQL 1.1 section 19.2: ``\uXXXX`` and ``\UXXXXXXXX`` anywhere in a query stand for
#: their character before the query is parsed (rdflib reads them so everywhere,
#: pyoxigraph within strings and IRIs only).
_CODEPOINT_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def bounded(work: Callable[[], T], seconds: float | None, what: str) -> T:
    """The result of ``work()``, run in a worker thread; TimedOut (said of ``what``, as
    the user would name it: ``query confounders``) if it takes more than ``seconds``
    (None or 0: no limit). KeyboardInterrupt reaches the caller at once; the worker's
    own exceptions are raised as they are."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, name=f"anthology-kg {what}", daemon=True)
    worker.start()
    deadline = time.monotonic() + seconds if seconds else None
    while worker.is_alive():
        worker.join(0.1)
        if deadline is not None and time.monotonic() > deadline and worker.is_alive():
            raise TimedOut(seconds or 0, what=what)
    error = outcome.get("error")
    if isinstance(error, TimedOut):  # a request to a store, within the work
        raise error.about(what) from None
    if error is not None:
        raise error  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


@contextmanager
def timeouts_named(what: str) -> Iterator[None]:
    """Say of a time-out raised within (a request to a store) that it was ``what``
    that got no answer: ``query confounders: no answer from URL within 300 s``."""
    try:
        yield
    except TimedOut as exc:
        raise exc.about(what) from None


def uses_service(text: str) -> bool:
    """Whether SPARQL ``text`` has a ``SERVICE`` keyword outside comments, strings and
    IRIs (a variable or prefixed name spelled ``service`` does not count), read as
    written or with its codepoint escapes replaced (``\\u0053ERVICE``): each engine
    reads one or the other."""
    if _service_outside_literals(text):
        return True
    unescaped = _CODEPOINT_ESCAPE.sub(_codepoint, text)
    return unescaped != text and _service_outside_literals(unescaped)


def _codepoint(escape: re.Match[str]) -> str:
    value = int(escape.group(1) or escape.group(2), 16)
    return chr(value) if value <= 0x10FFFF else escape.group()


def _service_outside_literals(text: str) -> bool:
    i, n, start = 0, len(text), 0
    while i < n:
        c = text[i]
        if c in "#\"'<":
            if _SERVICE.search(text, start, i):
                return True
            if c == "#":
                end = text.find("\n", i)
                i = n if end == -1 else end
            elif c == "<" and re.match(r"<[^\s<>\"{}|^`\\]*>", text[i:]):
                i = text.index(">", i) + 1
            elif c == "<":
                i += 1
            else:
                i = string_end(text, i)
            start = i
            continue
        i += 1
    return bool(_SERVICE.search(text, start, n))


def refuse_service(text: str, source: str | Path | None, allowed: bool) -> None:
    """An AnthologyError if a local query would call a remote endpoint (``SERVICE``)
    and the user did not allow it; when allowed, every request it makes times out."""
    if not uses_service(text):
        return
    if not allowed:
        raise AnthologyError(
            "the query calls a remote endpoint (SERVICE); a local query runs on the "
            "anthology alone: pass --allow-service to let it reach the network",
            source,
        )
    # rdflib's SERVICE uses urllib without a timeout: this one applies to every socket.
    socket.setdefaulttimeout(SERVICE_REQUEST_TIMEOUT)


def refuse_service_in_shapes(shapes: ShapesGraph, allowed: bool) -> None:
    """``refuse_service`` for every SPARQL constraint and target of the shapes (read on
    pyoxigraph terms, ``Rules.shapes_view``)."""
    from .shacl.sparql_based import declared_prefixes
    from .shacl.vocabulary import SH

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
            socket.setdefaulttimeout(SERVICE_REQUEST_TIMEOUT)
