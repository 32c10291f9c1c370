"""The namespaces of the vocabulary contract and the prefixes the tool writes."""

from __future__ import annotations

from rdflib import Graph, Namespace
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SH, SKOS, XSD

from .choices import DEFAULT_BASE as DEFAULT_BASE
from .prefixes import PREFIXES as PREFIXES  # as plain strings (writing text needs no rdflib)

AK = Namespace("https://w3id.org/anthology-kg/ns#")
AKS = Namespace("https://w3id.org/anthology-kg/shapes#")
CITO = Namespace("http://purl.org/spar/cito/")


def bind_prefixes(graph: Graph, base: str = DEFAULT_BASE) -> Graph:
    """Bind the tool's fixed prefixes on ``graph`` (``id:`` to ``base``) and return it."""
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, base if prefix == "id" else iri, override=True, replace=True)
    return graph


def prefixed_like(graph: Graph) -> Graph:
    """A new empty graph with the prefix bindings of ``graph``, in a namespace manager of
    its own (a prefix bound on either later is not seen by the other)."""
    out = Graph(bind_namespaces="none")
    for prefix, namespace in graph.namespaces():
        out.namespace_manager.bind(prefix, namespace, override=True, replace=True)
    return out


__all__ = ["AK", "AKS", "CITO", "DCTERMS", "DEFAULT_BASE", "OWL", "PREFIXES", "PROV", "RDF", "RDFS"]
__all__ += ["SH", "SKOS", "XSD", "bind_prefixes", "prefixed_like"]
