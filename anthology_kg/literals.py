"""Literals kept as written while rdflib parses or builds them.

rdflib rewrites a typed literal's lexical form when ``rdflib.NORMALIZE_LITERALS`` is
true, its default (``"1.0E6"^^xsd:double`` becomes ``"1000000.0"``), and the graph must
say what the record says. The flag is global to the process, so it is switched off only
inside the calls that read or build RDF, and put back after: importing anthology_kg
changes nothing for other libraries.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import rdflib


@contextlib.contextmanager
def literals_as_written() -> Iterator[None]:
    """Within the block, rdflib keeps literals' lexical forms; the old setting is put
    back at the end, whatever it was and whatever the block did to it."""
    saved = rdflib.NORMALIZE_LITERALS
    rdflib.NORMALIZE_LITERALS = False
    try:
        yield
    finally:
        rdflib.NORMALIZE_LITERALS = saved
