"""anthology_kg.owlrl_linear.OWLRLSemantics on a reflexive ``owl:sameAs`` (``x owl:sameAs
x``, one for every term of the graph from the first cycle on): the equality rules that can
only restate a triple already in the graph are skipped, and the closure and the errors
it reports are owlrl's own."""

from __future__ import annotations

from owlrl import DeductiveClosure
from owlrl.OWLRL import OWLRL_Semantics
from rdflib import Graph, URIRef
from rdflib.compare import isomorphic

from anthology_kg.owlrl_linear import OWLRLSemantics

ERROR = URIRef("http://www.daml.org/2002/03/agents/agent-ont#error")
# A chain of owl:sameAs (eq-sym, eq-trans, eq-rep-s/p/o rewrite), a term different from
# itself (eq-diff1 on its reflexive owl:sameAs, an error), a term both the same as and
# different from another, and a property the same as another.
GRAPH = """
@prefix ex: <https://example.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:a owl:sameAs ex:b . ex:b owl:sameAs ex:c .
ex:a ex:p ex:x . ex:y ex:q ex:b . ex:p owl:sameAs ex:r .
ex:x owl:differentFrom ex:x .
ex:d owl:sameAs ex:e . ex:d owl:differentFrom ex:e .
"""


def _closure(semantics: type) -> Graph:
    graph = Graph().parse(data=GRAPH, format="turtle")
    DeductiveClosure(semantics).expand(graph)
    return graph


def _errors(graph: Graph) -> set[str]:
    return {str(message) for message in graph.objects(None, ERROR)}


def test_the_closure_and_errors_on_reflexive_sameas_are_owlrls_own():
    theirs, ours = _closure(OWLRL_Semantics), _closure(OWLRLSemantics)
    # Isomorphic, not equal: owlrl reports each error on a fresh blank node.
    assert len(ours) == len(theirs) and isomorphic(ours, theirs)
    assert _errors(ours) == _errors(theirs)
    x = "https://example.org/x"
    assert any(f"({x}, {x})" in message for message in _errors(ours))
    assert len(_errors(ours)) >= 2
