"""A library's process-global attribute set for the length of our calls, and put back.

rdflib's ``NORMALIZE_LITERALS``, owlrl's vocabularies and pySHACL's query helpers are
globals of the process that this tool must change while it reads RDF or validates, and
leave as they were for every other user of those libraries. Blocks may nest and run in
several threads at once: ``swapped`` counts them, sets the value when the first begins
and puts the original back when the last ends (a plain save-and-restore in each block
would, with two threads, restore one block's value after the other's: a change that
outlives both).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

_LOCK = threading.Lock()
#: The original of an attribute the target did not have (a release of the library
#: without it): set for the blocks, then taken away again.
_ABSENT = object()
#: For each (object, attribute) swapped now: how many blocks hold it, and its original.
_HELD: dict[tuple[int, str], tuple[int, Any]] = {}


@contextlib.contextmanager
def swapped(target: object, name: str, value: Any) -> Iterator[None]:
    """``target.name`` is ``value`` from the start of the block; when the last block
    swapping ``target.name`` ends (in any thread), it is put back as it was before the
    first began, whatever was done to it meanwhile. A name the target lacks (another
    release of the library) is set for the blocks and taken away after: the library
    does not read it, so the swap does nothing, where it raised AttributeError."""
    key = (id(target), name)
    with _LOCK:
        count, original = _HELD.get(key, (0, None))
        if count == 0:
            original = getattr(target, name, _ABSENT)
        setattr(target, name, value)  # again if a block's callee changed it meanwhile
        _HELD[key] = (count + 1, original)
    try:
        yield
    finally:
        with _LOCK:
            count, original = _HELD.pop(key)
            if count == 1 and original is _ABSENT:
                delattr(target, name)
            elif count == 1:
                setattr(target, name, original)
            else:
                _HELD[key] = (count - 1, original)
