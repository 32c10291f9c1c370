import owlrl
from rdflib import OWL, RDF, RDFS, Graph

from anthology_kg.namespaces import AK
from anthology_kg.resources import ontology_file

CONTRACT = """Entry Reference LiteratureRecord DecisionRecord SotaRecord Note Category Takeaway
Practice Claim ReproducibilityClaim QuantitativeClaim Figure Codebase Recommendation Comparison
Arm Algorithm ConfounderProperty OpenQuestion Sweep CitationTally about status decision
consequence admitsCategory usesAsExample noteOn hasNote category authors takeaway position
carriesPractice practiceWithheldBy readingStatus makesClaim restsOn figure value minValue
maxValue unit algorithm baseline describedIn releasedOn recommends preferred over arm
reportedIn checkpointsFrom trainedWith declaredBy concerns addressedIn documentsRead
readDocument inSweep tallied citingDocuments namesInBacklogTop backlogTopSize enforces
categories method evaluation infrastructure readingStatuses unread read proposed accepted
superseded deprecated GRPO PPO ES""".split()


def load():
    return Graph().parse(ontology_file(), format="turtle")


def test_every_contract_term_is_declared_with_label_and_comment():
    graph = load()
    for name in CONTRACT:
        term = AK[name]
        assert (term, RDF.type, None) in graph, name
        assert graph.value(term, RDFS.label) is not None, name
        assert graph.value(term, RDFS.comment) is not None, name


def test_note_on_and_has_note_are_inverse():
    assert (AK.noteOn, OWL.inverseOf, AK.hasNote) in load()


def test_owlrl_closure_runs_and_infers_subclass_types():
    graph = load()
    graph.add((AK.x, RDF.type, AK.Reference))
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    assert (AK.x, RDF.type, AK.Entry) in graph
