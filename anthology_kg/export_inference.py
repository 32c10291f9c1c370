"""Inference for an export on rdflib graphs: owlrl's closure (run by ``owlrl_linear``)
of data and ontology, kept to the triples about the anthology's own entries and terms.
The reference the fast closure (``inference.inferred_triples``) is tested against, and
its fallback; imported only by an export with inference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node


def infer(data: Graph, ontology: Graph, asserted: Graph, inference: str) -> Graph:
    """The triples the ``inference`` closure (owlrl's, run by ``owlrl_linear``) of data
    and ontology adds to ``asserted`` about the anthology's own entries and terms: no
    axioms about the RDF, RDFS, OWL, XSD, SKOS or SHACL vocabularies."""
    import owlrl  # only here: the fast path infers without it
    from rdflib import RDF, BNode, Graph, Literal

    from .inference import REFLEXIVE, STANDARD_NAMESPACES, TRIVIAL_OBJECTS, TRIVIAL_TYPES
    from .owlrl_linear import ClosureGraph, OWLRLSemantics, RDFSSemantics

    def about_the_anthology(triple: tuple[Node, Node, Node]) -> bool:
        """An inferred triple worth exporting: about a subject the export asserts
        something of (or a blank node), and neither trivial nor about a standard
        vocabulary."""
        s, p, o = triple
        if isinstance(s, Literal) or str(s).startswith(STANDARD_NAMESPACES):
            return False
        if s not in subjects and not isinstance(s, BNode):
            return False
        if p in REFLEXIVE and s == o:
            return False
        return o not in TRIVIAL_OBJECTS and not (p == RDF.type and o in TRIVIAL_TYPES)

    # rdflib's SimpleMemory store (no contexts to index), read through its indexes: the
    # same triples.
    closure = ClosureGraph()
    closure += data
    closure += ontology
    semantics = OWLRLSemantics if inference == "owlrl" else RDFSSemantics
    owlrl.DeductiveClosure(semantics, axiomatic_triples=False).expand(closure)
    # A set: one lookup for each triple of the closure (an rdflib lookup in ``asserted``
    # is ~10 us), and its subjects one per inferred triple.
    asserted_triples = set(asserted)
    subjects = {s for s, _, _ in asserted_triples}
    # On rdflib's SimpleMemory store (no contexts to keep): ~1,000 triples about the
    # ontology's own terms on every anthology, added at a third of the cost.
    inferred = Graph(store="SimpleMemory")
    for triple in closure:
        if triple not in asserted_triples and about_the_anthology(triple):
            inferred.add(triple)
    return inferred
