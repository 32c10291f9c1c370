"""The IRIs the compiler reads and writes, as pyoxigraph terms (no rdflib needed)."""

from __future__ import annotations

import pyoxigraph as ox

#: A term of a shapes graph or of a query's solution.
Term = ox.NamedNode | ox.BlankNode | ox.Literal


class Namespace:
    """IRIs under ``iri``: ``SH.path`` and ``SH["class"]`` are pyoxigraph NamedNodes."""

    def __init__(self, iri: str) -> None:
        self.iri = iri

    def __getattr__(self, name: str) -> ox.NamedNode:
        if name.startswith("__"):
            raise AttributeError(name)
        node = ox.NamedNode(self.iri + name)
        setattr(self, name, node)  # found as an attribute from now on, not made again
        return node

    def __getitem__(self, name: str) -> ox.NamedNode:
        return ox.NamedNode(self.iri + name)


SH = Namespace("http://www.w3.org/ns/shacl#")
RDF = Namespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")
OWL = Namespace("http://www.w3.org/2002/07/owl#")
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
TRUE = ox.Literal("true", datatype=XSD.boolean)


def text(node: Term | str) -> str:
    """A term's text as rdflib's ``str`` gives it (an IRI, a blank node's label, a
    literal's lexical form): the order the compiler sorts in, so that the queries are
    written in the same order whichever library read the shapes."""
    return str(node) if isinstance(node, str) else node.value  # (an rdflib term is a str)


def ox_term(node: object) -> Term:
    """``node`` as a pyoxigraph term (converted where it is an rdflib term)."""
    if isinstance(node, ox.NamedNode | ox.BlankNode | ox.Literal):
        return node
    from ..terms import to_ox

    converted: Term = to_ox(node)  # type: ignore[arg-type]
    return converted


def short_name(node: Term) -> str:
    """``sh:name`` for an IRI of SHACL's namespace, else ``<iri>`` (for messages)."""
    if isinstance(node, ox.NamedNode) and node.value.startswith(SH.iri):
        return "sh:" + node.value[len(SH.iri) :]
    return str(node)
