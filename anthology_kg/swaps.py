"""A library's process-global set for the length of our calls, and put back.

rdflib's ``NORMALIZE_LITERALS``, owlrl's vocabularies, pySHACL's query helpers (attributes:
``swapped``) and socket's default timeout (got and set by functions: ``held``) are globals
of the process that this tool must change while it reads RDF, validates or calls a
SERVICE, and leave as they were for every other user of those libraries. Blocks may nest
and run in several threads at once: ``held`` counts them, sets the value when the first begins
and puts the original back when the last ends (a plain save-and-restore in each block
would, with two threads, restore one block's value after the other's: a change that
outlives both).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Hashable, Iterator
from typing import Any

_LOCK = threading.Lock()
#: The original of an attribute the target did not have (a release of the library
#: without it): set for the blocks, then taken away again.
_ABSENT = object()
#: For each global held now (by its key): how many blocks hold it, and its original.
_HELD: dict[Hashable, tuple[int, Any]] = {}


@contextlib.contextmanager
def held(
    key: Hashable, read: Callable[[], Any], write: Callable[[Any], None], value: Any
) -> Iterator[None]:
    """The process-global that ``read`` and ``write`` get and set (``key`` names it) is
    ``value`` from the start of the block; when the last block holding ``key`` ends (in
    any thread), ``write`` puts back what ``read`` gave before the first began, whatever
    was done to it meanwhile."""
    with _LOCK:
        count, original = _HELD.get(key, (0, None))
        if count == 0:
            original = read()
        write(value)  # again if a block's callee changed it meanwhile
        _HELD[key] = (count + 1, original)
    try:
        yield
    finally:
        with _LOCK:
            count, original = _HELD.pop(key)
            if count == 1:
                write(original)
            else:
                _HELD[key] = (count - 1, original)


def swapped(target: object, name: str, value: Any) -> contextlib.AbstractContextManager[None]:
    """``target.name`` is ``value`` for the block, as ``held`` says. A name the target
    lacks (another release of the library) is set for the blocks and taken away after:
    the library does not read it, so the swap does nothing, where it raised
    AttributeError."""

    def write(new: Any) -> None:
        if new is _ABSENT:
            delattr(target, name)
        else:
            setattr(target, name, new)

    return held((id(target), name), lambda: getattr(target, name, _ABSENT), write, value)
