"""The reference engine's validation with inference (anthology_kg.reference_shacl): pySHACL's
closure of the data and ontology computed by owlrl_linear's classes gives pySHACL's own
report, and leaves owlrl and pySHACL as they were."""

from __future__ import annotations

from pathlib import Path

import owlrl
import pyshacl
import pytest
from pyshacl import inference as pyshacl_inference
from rdflib import Graph
from rdflib.compare import isomorphic
from rdflib.namespace import SH

from anthology_kg.literals import literals_as_written
from anthology_kg.owlrl_linear import PresentRemembered
from anthology_kg.reference_shacl import shacl_report

PREFIXES = """@prefix ex: <https://example.org/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
"""
# Each entailment matters: ex:x and ex:y are ex:Cited by their subclass (RDFS), ex:x
# cites by its subproperty (RDFS) and ex:y by the inverse (OWL 2 RL only); ex:z cites
# nothing.
ONTOLOGY = (
    PREFIXES
    + """
ex:Paper rdfs:subClassOf ex:Cited .
ex:quotes rdfs:subPropertyOf ex:cites .
ex:quotedBy owl:inverseOf ex:quotes .
"""
)
DATA = (
    PREFIXES
    + """
ex:x a ex:Paper ; ex:quotes ex:w .
ex:y a ex:Paper .
ex:w ex:quotedBy ex:y .
ex:z a ex:Paper .
"""
)
SHAPES = (
    PREFIXES
    + """
ex:CitesSomething a sh:NodeShape ; sh:targetClass ex:Cited ;
    sh:property [ sh:path ex:cites ; sh:minCount 1 ] .
"""
)


def _graph(text: str) -> Graph:
    return Graph().parse(data=text, format="turtle")


@pytest.mark.parametrize("inference, focus", [("rdfs", {"y", "z"}), ("owlrl", {"z"})])
def test_the_report_with_inference_is_pyshacls_own(inference, focus, monkeypatch):
    closures: list[type] = []
    own_init = owlrl.DeductiveClosure.__init__

    def recorded(self, closure_class, *args, **kwargs):
        closures.append(closure_class)
        own_init(self, closure_class, *args, **kwargs)

    data, shapes, ontology = _graph(DATA), _graph(SHAPES), _graph(ONTOLOGY)
    classes = (owlrl.OWLRL_Semantics, pyshacl_inference.CustomRDFSSemantics)
    monkeypatch.setattr(owlrl.DeductiveClosure, "__init__", recorded)
    conforms, ours = shacl_report(data, shapes, ontology, inference)
    assert [issubclass(c, PresentRemembered) for c in closures] == [True]
    assert (owlrl.OWLRL_Semantics, pyshacl_inference.CustomRDFSSemantics) == classes
    closures.clear()
    with literals_as_written():
        theirs = pyshacl.validate(
            data, shacl_graph=shapes, ont_graph=ontology, inference=inference, advanced=False
        )
    assert closures == [classes[0] if inference == "owlrl" else classes[1]]
    assert conforms is False and theirs[0] is False
    assert len(ours) == len(theirs[1]) and isomorphic(ours, theirs[1])
    found = {str(node).rsplit("/", 1)[1] for node in ours.objects(None, SH.focusNode)}
    assert found == focus


def test_pyshacls_rdfs_closure_with_the_triples_found_remembered_is_its_own():
    """PySHACLRDFSSemantics (pySHACL's validation, and the reference engine's queries
    under ``--inference rdfs``) infers what pySHACL's own class does, on the bundled
    anthology's data and ontology."""
    from owlrl import DeductiveClosure
    from pyshacl.inference import CustomRDFSSemantics

    from anthology_kg.reference_shacl import PySHACLRDFSSemantics

    root = Path(__file__).parents[1]
    files = [*sorted((root / "data").glob("*.ttl")), root / "ontology" / "anthology.ttl"]
    asserted = _graph("\n".join(path.read_text(encoding="utf-8") for path in files))
    closures = []
    for semantics in (CustomRDFSSemantics, PySHACLRDFSSemantics):
        graph = Graph()
        graph += asserted  # the same blank nodes in both closures
        DeductiveClosure(semantics).expand(graph)
        closures.append(set(graph))
    assert closures[0] == closures[1] and len(closures[0]) > len(asserted)
