"""RDF terms written as text and carried between rdflib and pyoxigraph.

One N-Triples term writer (N-Triples syntax is valid SPARQL and Turtle) and the two
conversions between rdflib's and pyoxigraph's terms, shared by the exporters, the fast
engine and the SHACL compiler so that none of them imports another.
"""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import XSD
from rdflib.term import Node


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
    return node.n3()


def to_ox(node: Node):
    """An rdflib term as a pyoxigraph term."""
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


def from_ox(term) -> Node:
    """A pyoxigraph term as an rdflib term (xsd:string literals without a datatype)."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if term.language:
        return Literal(term.value, lang=term.language)
    if term.datatype.value == str(XSD.string):
        return Literal(term.value)
    return Literal(term.value, datatype=URIRef(term.datatype.value))
