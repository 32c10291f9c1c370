import owlrl
from rdflib import OWL, RDF, RDFS, SH, Graph, Literal, URIRef

from anthology_kg.namespaces import AK
from anthology_kg.resources import bundled_dir, bundled_shapes_dir, ontology_file

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


#: What OWL 2 needs no declaration of: its built-in annotation properties, the words of
#: its RDF mapping (OWL 2 Mapping to RDF, Table 1), and any term of the owl: namespace.
OWL_BUILT_INS = {
    RDFS.label,
    RDFS.comment,
    RDFS.seeAlso,
    RDFS.isDefinedBy,
    RDF.type,
    RDF.first,
    RDF.rest,
    RDFS.subClassOf,
    RDFS.subPropertyOf,
    RDFS.domain,
    RDFS.range,
}
DECLARATIONS = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)


def bundled_data() -> Graph:
    graph = Graph()
    for path in sorted((bundled_dir() / "data").glob("*.ttl")):
        graph.parse(path, format="turtle")
    return graph


def used_terms(ontology: Graph) -> dict[URIRef, str]:
    """Every IRI used as a predicate or a class (an rdf:type object, a shape's target) in
    the ontology, the bundled shapes' targets and the bundled data, with where."""
    used: dict[URIRef, str] = {}
    for name, graph in (("ontology", ontology), ("data", bundled_data())):
        for predicate in graph.predicates(unique=True):
            used.setdefault(predicate, f"{name}: predicate")
        for cls in graph.objects(None, RDF.type, unique=True):
            used.setdefault(cls, f"{name}: rdf:type object")
    shapes = Graph()
    for path in sorted(bundled_shapes_dir().glob("*.ttl")):
        shapes.parse(path, format="turtle")
    for target in (SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf):
        for term in shapes.objects(None, target, unique=True):
            used.setdefault(term, f"shapes: {target.fragment} object")
    return {term: where for term, where in used.items() if isinstance(term, URIRef)}


def test_every_term_used_is_declared_in_the_ontology():
    """OWL 2 DL needs every term declared: an undeclared one is read as an annotation
    property (the SKOS hierarchy, the CiTO citation, the attribution then mean nothing to a
    reasoner) or makes an illegal pun (ak:enforces with domain sh:Shape; hunt10 #3)."""
    ontology = load()
    declared = {term for kind in DECLARATIONS for term in ontology.subjects(RDF.type, kind)}
    undeclared = {
        f"{term} ({where})"
        for term, where in used_terms(ontology).items()
        if term not in declared and term not in OWL_BUILT_INS and not str(term).startswith(str(OWL))
    }
    assert not undeclared, sorted(undeclared)


def test_no_domain_range_or_superclass_is_reserved_vocabulary():
    """rdf:Property or an owl: class as a domain, range or superclass is reserved vocabulary
    used as a class, which OWL 2 DL forbids (rdfs:range rdf:Property; hunt10 #3), and a
    subclass of owl:ObjectProperty stops owlready2 loading the ontology (hunt10 #2)."""
    ontology = load()
    reserved = [
        (subject, relation, value)
        for relation in (RDFS.domain, RDFS.range, RDFS.subClassOf)
        for subject, value in ontology.subject_objects(relation)
        if str(value).startswith((str(RDF), str(OWL)))
    ]
    assert not reserved, reserved


XSD_NS = "http://www.w3.org/2001/XMLSchema#"
#: The OWL 2 datatype map (OWL 2 Structural Specification, 4): the datatypes a reasoner
#: such as HermiT accepts; any other (xsd:date, xsd:gYear) stops it.
OWL2_DATATYPE_MAP = {
    OWL.real,
    OWL.rational,
    RDF.PlainLiteral,
    RDF.XMLLiteral,
    RDFS.Literal,
    *(
        URIRef(XSD_NS + name)
        for name in """decimal integer nonNegativeInteger nonPositiveInteger positiveInteger
        negativeInteger long int short byte unsignedLong unsignedInt unsignedShort unsignedByte
        double float string normalizedString token language Name NCName NMTOKEN boolean
        hexBinary base64Binary anyURI dateTime dateTimeStamp""".split()
    ),
}
#: Datatypes outside the map that DESIGN.md's contract requires, with why; their values
#: are kept on annotation properties only, which reasoners do not read.
REQUIRED_BY_DESIGN = {
    URIRef(XSD_NS + "gYear"): 'DESIGN.md: dcterms:issued is "2024"^^xsd:gYear',
}


def test_every_datatype_range_is_in_the_owl2_datatype_map():
    """HermiT refused the ontology over ak:expires rdfs:range xsd:date (hunt10 #2)."""
    ontology = load()
    outside = [
        (prop, datatype)
        for prop, datatype in ontology.subject_objects(RDFS.range)
        if str(datatype).startswith(XSD_NS) and datatype not in OWL2_DATATYPE_MAP
    ]
    assert not outside, outside


def test_a_literal_outside_the_datatype_map_is_only_an_annotation_value():
    """A data property's value outside the map stops a reasoner as its range would; those
    DESIGN.md requires are values of annotation properties."""
    ontology = load()
    annotations = set(ontology.subjects(RDF.type, OWL.AnnotationProperty))
    wrong = []
    for subject, prop, value in bundled_data():
        if not isinstance(value, Literal) or value.datatype in (None, *OWL2_DATATYPE_MAP):
            continue
        if value.datatype not in REQUIRED_BY_DESIGN or prop not in annotations:
            wrong.append((subject, prop, value))
    assert not wrong, wrong


def test_a_waiver_may_name_its_rule_by_a_code():
    """README: ak:rule names the shape or the rule by its code ("AK009"); as an object
    property of range sh:Shape, a waiver with a code was ill-typed OWL and RDFS made the
    text a shape (hunt10 #10)."""
    graph = load()
    assert (AK.rule, RDF.type, OWL.AnnotationProperty) in graph
    assert (AK.rule, RDF.type, OWL.ObjectProperty) not in graph
    assert graph.value(AK.rule, RDFS.range) is None


def test_a_codebase_that_rests_on_another_is_no_claim():
    """The queries follow ak:restsOn from codebases and entries; a domain ak:Claim made a
    codebase resting on another a claim under RDFS (hunt10 #8)."""
    graph = load()
    graph.add((AK.verl, RDF.type, AK.Codebase))
    graph.add((AK.verl, AK.restsOn, AK.megatron))
    graph.add((AK.megatron, RDF.type, AK.Codebase))
    owlrl.DeductiveClosure(owlrl.RDFS_Semantics).expand(graph)
    assert (AK.verl, RDF.type, AK.Claim) not in graph


def test_every_term_declared_has_label_and_comment():
    """Standard terms too (dcterms:title had none; hunt10 #13), not only those of ak:."""
    graph = load()
    for kind in DECLARATIONS:
        for term in graph.subjects(RDF.type, kind):
            assert graph.value(term, RDFS.label) is not None, term
            assert graph.value(term, RDFS.comment) is not None, term
