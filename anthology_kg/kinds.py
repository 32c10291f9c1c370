"""What kind of RDF term a node is, and its text, whichever library made it.

Validation works on pyoxigraph's terms; an engine built on rdflib (the reference engine,
the remote one) answers its lookups with rdflib's. rdflib is consulted only when it is
already loaded: a node of a process that never imported it cannot be one of its terms.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TypeAlias

import pyoxigraph as ox

if TYPE_CHECKING:
    from rdflib.term import Node

    from .parts import OxTerm

#: A term as the engines take and give it: pyoxigraph's (the Oxigraph engine's result
#: rows, the rules read by pyoxigraph) or rdflib's (the reference and remote engines'
#: rows and lookups). Written as a string: no rdflib is imported to name it.
Term: TypeAlias = "OxTerm | Node"


def _rdflib_is(node: object, kind: str) -> bool:
    rdflib = sys.modules.get("rdflib")
    return rdflib is not None and isinstance(node, getattr(rdflib, kind))


def is_iri(node: object) -> bool:
    """Whether ``node`` is an IRI (a pyoxigraph NamedNode or an rdflib URIRef)."""
    return isinstance(node, ox.NamedNode) or _rdflib_is(node, "URIRef")


def is_blank(node: object) -> bool:
    """Whether ``node`` is a blank node (of either library)."""
    return isinstance(node, ox.BlankNode) or _rdflib_is(node, "BNode")


def is_literal(node: object) -> bool:
    """Whether ``node`` is a literal (of either library)."""
    return isinstance(node, ox.Literal) or _rdflib_is(node, "Literal")


def text(node: object) -> str:
    """An IRI, a blank node's label or a literal's lexical form, as rdflib's ``str``
    gives it (rdflib's terms are strings; pyoxigraph's hold it as ``value``)."""
    if isinstance(node, str):
        return str.__str__(node)
    value = getattr(node, "value", None)
    return value if isinstance(value, str) else str(node)
