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


def test_every_term_of_the_namespace_has_label_and_comment():
    """New terms too (stated unknowns, admissions, load-bearing places), not only the contract."""
    graph = load()
    terms = {s for s in graph.subjects(RDF.type, None) if str(s).startswith(str(AK))}
    assert len(terms) > len(CONTRACT)
    for term in terms:
        assert graph.value(term, RDFS.label) is not None, term
        assert graph.value(term, RDFS.comment) is not None, term


def test_an_admission_node_implies_admits_category_and_uses_as_example():
    """The n-ary admission keeps ak:admitsCategory and ak:usesAsExample working (chains)."""
    from rdflib import BNode

    graph = load()
    admission = BNode()
    graph.add((AK.adr, AK.admits, admission))
    graph.add((admission, AK.admittedCategory, AK.infrastructure))
    graph.add((admission, AK.example, AK.entry))
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph)
    assert (AK.adr, AK.admitsCategory, AK.infrastructure) in graph
    assert (AK.adr, AK.usesAsExample, AK.entry) in graph


def test_a_takeaway_text_is_kept_by_owl_tools():
    """rdf:value is OWL-reserved: undeclared, the OWL API drops each takeaway text (hunt10 #1)."""
    assert (RDF.value, RDF.type, OWL.AnnotationProperty) in load()
