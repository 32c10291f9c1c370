"""RDF terms written as text and carried between rdflib and pyoxigraph, and the parts
an anthology's graph has.

One N-Triples term writer (N-Triples syntax is valid SPARQL and Turtle) and the two
conversions between rdflib's and pyoxigraph's terms, shared by the exporters, the
engines and the SHACL compiler so that none of them imports another.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox
import rdflib.term
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD
from rdflib.term import Node

from .parts import GRAPHS as GRAPHS
from .parts import PARTS as PARTS
from .swaps import held

if TYPE_CHECKING:
    from .kinds import Term

_XSD_STRING = str(XSD.string)


def nt_term(node: Node) -> str:
    """A term in N-Triples syntax (one line, escapes per RDF 1.1 N-Triples, UTF-8 kept)."""
    if isinstance(node, Literal):
        lexical = (
            str(node)
            .replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
        if node.language:
            return f'"{lexical}"@{node.language}'
        if node.datatype is not None and node.datatype != XSD.string:
            return f'"{lexical}"^^<{node.datatype}>'
        return f'"{lexical}"'
    return str(node.n3())


def is_iri(text: str) -> bool:
    """True when ``text`` is an absolute IRI (RFC 3987) as pyoxigraph reads one; False
    for a relative reference or a character no IRI holds (a space, ``<``, ``{``)."""
    try:
        ox.NamedNode(text)
    except ValueError:
        return False
    return True


def to_ox(node: Node) -> Any:
    """An rdflib term as a pyoxigraph term (typed Any: rdflib's triples carry plain
    Nodes, and pyoxigraph's Quad wants each position's own term type)."""
    if isinstance(node, URIRef):
        return ox.NamedNode(str(node))
    if isinstance(node, BNode):
        return ox.BlankNode(str(node))
    if not isinstance(node, Literal):
        raise TypeError(f"not an RDF term: {node!r}")
    if node.language:
        return ox.Literal(str(node), language=node.language)
    if node.datatype is not None:
        return ox.Literal(str(node), datatype=ox.NamedNode(str(node.datatype)))
    return ox.Literal(str(node))


def from_ox(term: object) -> Node:
    """A pyoxigraph term as an rdflib term (xsd:string literals without a datatype),
    its lexical form as written whatever ``rdflib.NORMALIZE_LITERALS`` says."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Triple):  # the data's own parse refuses them too (exit 2)
        from .errors import AnthologyError

        raise AnthologyError(
            f"the answer holds a triple term, {term}: RDF 1.2 triple terms are not supported"
        )
    if not isinstance(term, ox.Literal):
        raise TypeError(f"not an RDF term: {term!r}")
    if term.language:
        if getattr(term, "direction", None) is not None:  # pyoxigraph 0.5's RDF 1.2
            from .errors import AnthologyError

            raise AnthologyError(
                f"the answer holds a literal with a base direction, {term}: RDF 1.2 base "
                "directions are not supported"
            )
        return Literal(term.value, lang=term.language, normalize=False)
    if term.datatype.value == _XSD_STRING:
        return Literal(term.value, normalize=False)
    with quiet_ill_typed():
        return exact_literal(term.value, URIRef(term.datatype.value))


def rdflib_term(term: Term) -> Node:
    """``term`` as an rdflib term: a pyoxigraph term converted (``from_ox``), an rdflib
    term kept."""
    return term if isinstance(term, Node) else from_ox(term)


def exact_literal(lexical: str, datatype: URIRef) -> Literal:
    """The typed literal ``lexical``^^``datatype`` with its lexical form kept exactly."""
    literal = Literal(lexical, datatype=datatype, normalize=False)
    if str(literal) == lexical:
        return literal
    # rdflib collapses the spaces of xsd:token and xsd:normalizedString even with
    # normalize=False; the author's text is kept by building the term around it (the
    # same four slots Literal.__new__ fills).
    exact = str.__new__(Literal, lexical)
    exact._language = None
    exact._datatype = datatype
    exact._value = literal.value
    exact._ill_typed = literal.ill_typed
    return exact


def quiet_ill_typed() -> contextlib.AbstractContextManager[None]:
    """Within the block, rdflib logs no traceback for an ill-typed literal
    (``"abc"^^xsd:integer``) and warns of no ill-typed xsd:boolean (``"x"^^xsd:boolean``:
    a UserWarning on stderr): such a literal is data, which ``sh:datatype`` reports, not
    a program error. rdflib's logger and its xsd:boolean lexical-to-value mapping (the
    same values, ``_xsd_boolean``) are put back as they were when the last open block
    ends, whichever thread opened it (``swaps.held``: one lock for both, a literal made
    from pyoxigraph's opens a block)."""
    return held(_QUIET, _quiet_read, _quiet_written, (True, _xsd_boolean))


#: rdflib's logger of its terms and its lexical-to-value mappings by datatype.
_TERM_LOG = logging.getLogger("rdflib.term")
_TO_PYTHON: dict[object, Any] = getattr(rdflib.term, "_toPythonMapping", {})
_QUIET = ("quiet_ill_typed", id(_TERM_LOG), id(_TO_PYTHON))


def _quiet_read() -> tuple[bool, Any]:
    return _TERM_LOG.disabled, _TO_PYTHON.get(XSD.boolean)


def _quiet_written(state: tuple[bool, Any]) -> None:
    _TERM_LOG.disabled, boolean = state
    if boolean is not None:
        _TO_PYTHON[XSD.boolean] = boolean


def _xsd_boolean(lexical: str | bytes) -> bool:
    """rdflib's value of an xsd:boolean's lexical form (its ``_parseBoolean``: true for
    ``1`` and ``true`` in any case, else false), with no warning of an ill-typed one."""
    return lexical.lower() in ("1", "true", b"1", b"true")
