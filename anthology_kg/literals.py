"""Literals kept as written while rdflib parses or builds them.

rdflib rewrites a typed literal's lexical form when ``rdflib.NORMALIZE_LITERALS`` is
true, its default (``"1.0E6"^^xsd:double`` becomes ``"1000000.0"``), and the graph must
say what the record says. The flag is global to the process, so it is switched off only
inside the calls that read or build RDF, and put back after: importing anthology_kg
changes nothing for other libraries.
"""

from __future__ import annotations

import contextlib

import rdflib

from .swaps import swapped


def literals_as_written() -> contextlib.AbstractContextManager[None]:
    """Within the block, rdflib keeps literals' lexical forms; the setting of before is
    put back when the last such block ends (``swaps.swapped``: blocks in other threads
    and nested ones count), whatever a block did to it meanwhile (pySHACL sets it)."""
    return swapped(rdflib, "NORMALIZE_LITERALS", False)
