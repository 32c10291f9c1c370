"""anthology_kg.owlrl_linear: owlrl's closures with its two quadratic steps run in linear
time (RDFS's literal pairs grouped on the value, OWL-RL's list of blank nodes tested by a
set) and its rules reading rdflib's vocabularies through terms looked up once are exactly
owlrl's own closures, so the reference engine, and the 100,000-entry comparison with
owlrl they make possible, infer what owlrl infers."""

from pathlib import Path

import pytest
from owlrl import DeductiveClosure
from owlrl.OWLRL import OWLRL_Semantics
from owlrl.RDFSClosure import RDFS_Semantics
from rdflib import XSD, Graph, Literal, Namespace
from rdflib.compare import isomorphic

from anthology_kg import owlrl_linear
from anthology_kg.owlrl_linear import (
    _RULE_MODULES,
    OWLRLSemantics,
    RDFSSemantics,
    _Terms,
    vocabularies_read_once,
)

OWLRL = {"rdfs": RDFS_Semantics, "owlrl": OWLRL_Semantics}
LINEAR = {"rdfs": RDFSSemantics, "owlrl": OWLRLSemantics}

# Literals of equal value under different lexical forms and datatypes, ill-typed ones
# (no value), NaN (a value unequal to itself), language tags, an XML literal, and blank
# nodes (one a predicate, which OWL-RL's post-processing removes), and the classes whose
# members RDFS's rules give triples of their own (rdfs6, 8, 10, 12, datatypes).
TRICKY = """
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:a ex:p "1"^^xsd:integer, "01"^^xsd:integer, "1.0"^^xsd:decimal, "1.0E0"^^xsd:double,
    "true"^^xsd:boolean, "1"^^xsd:boolean, "1"^^xsd:long, "2"^^xsd:int .
ex:b ex:q "abc", "abc"@en, "abc"@EN-gb, "x"^^xsd:integer, "y"^^xsd:integer, "NaN"^^xsd:double,
    "NaN"^^xsd:float, "INF"^^xsd:double, "2020-01-01"^^xsd:date,
    "2020-01-01T00:00:00Z"^^xsd:dateTime, "2020-01-01T00:00:00+00:00"^^xsd:dateTime,
    "0A"^^xsd:hexBinary, "0a"^^xsd:hexBinary, "<b>x</b>"^^rdf:XMLLiteral, "1" .
ex:c ex:p "1"^^xsd:short ; ex:r "abc"^^xsd:string ; ex:s [ ex:t [ ex:u ex:a ] ] .
ex:p rdfs:range ex:Value ; rdfs:subPropertyOf ex:s ; owl:inverseOf [ rdfs:label "p-1" ] .
ex:s a owl:TransitiveProperty .
_:q a owl:ObjectProperty . ex:d _:q ex:e .
ex:K a rdfs:Class . ex:dt a rdfs:Datatype . ex:m a rdfs:ContainerMembershipProperty .
"""


# Every construct owlrl's OWL-RL rules other than the eq-* ones read (SCHEMA_PREDICATES),
# with the data each needs to fire, annotation properties and owl:sameAs besides.
CONSTRUCTS = """
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:p rdfs:domain ex:D ; rdfs:range ex:R ; rdfs:subPropertyOf ex:q ; owl:inverseOf ex:pi ;
    owl:equivalentProperty ex:pe ; owl:propertyDisjointWith ex:z ; rdfs:label "p" .
ex:f a owl:FunctionalProperty . ex:g a owl:InverseFunctionalProperty .
ex:s a owl:SymmetricProperty . ex:t a owl:TransitiveProperty .
ex:pc owl:propertyChainAxiom ( ex:p ex:t ) .
ex:K owl:hasKey ( ex:g ) .
ex:A rdfs:subClassOf ex:B ; owl:equivalentClass ex:A2 ; owl:disjointWith ex:Z .
ex:I owl:intersectionOf ( ex:A ex:C ) . ex:U owl:unionOf ( ex:A ex:C ) .
ex:N owl:complementOf ex:Z .
ex:SV owl:onProperty ex:p ; owl:someValuesFrom ex:R .
ex:AV owl:onProperty ex:s ; owl:allValuesFrom ex:C .
ex:HV owl:onProperty ex:q ; owl:hasValue ex:v .
ex:MC owl:onProperty ex:f ; owl:maxCardinality "1"^^xsd:nonNegativeInteger .
ex:MQ owl:onProperty ex:f ; owl:maxQualifiedCardinality "1"^^xsd:nonNegativeInteger ;
    owl:onClass ex:C .
ex:O owl:oneOf ( ex:a ex:b ) .
[] a owl:NegativePropertyAssertion ; owl:sourceIndividual ex:a ; owl:assertionProperty ex:z ;
    owl:targetIndividual ex:b .
ex:a a ex:A, ex:C, ex:K, ex:AV, ex:MC ; ex:p ex:b ; ex:t ex:c ; ex:s ex:b ; ex:f ex:c, ex:d ;
    ex:g ex:k ; owl:sameAs ex:a2 ; rdfs:comment "a" .
ex:b ex:t ex:d ; a ex:K ; ex:g ex:k ; ex:q ex:v .
"""


def _closure(asserted: Graph, semantics: type) -> Graph:
    graph = Graph()
    graph += asserted  # the same blank nodes in both closures
    DeductiveClosure(semantics).expand(graph)
    return graph


def _owlrls_own(asserted: Graph, profile: str, monkeypatch) -> Graph:
    """owlrl's closure by its own classes, its rules reading rdflib's vocabularies
    themselves (as they do where anthology_kg.owlrl_linear was never imported)."""
    with monkeypatch.context() as patch:
        for module, names in _RULE_MODULES.items():
            for name in names:
                vocabulary = getattr(module, name)
                if isinstance(vocabulary, _Terms):
                    patch.setattr(module, name, vocabulary.vocabulary)
        return _closure(asserted, OWLRL[profile])


@pytest.mark.parametrize("profile", sorted(OWLRL))
@pytest.mark.parametrize("source", ["tricky", "bundled", "constructs"])
def test_linear_semantics_give_owlrls_own_closure(source, profile, monkeypatch):
    if source in ("tricky", "constructs"):
        text = TRICKY if source == "tricky" else CONSTRUCTS
    else:
        root = Path(__file__).parents[1]
        files = [*sorted((root / "data").glob("*.ttl")), root / "ontology" / "anthology.ttl"]
        text = "\n".join(p.read_text() for p in files)
    asserted = Graph().parse(data=text, format="turtle")
    theirs = _owlrls_own(asserted, profile, monkeypatch)
    ours = _closure(asserted, LINEAR[profile])
    assert_owlrl_as_it_was()
    if profile == "owlrl" and source == "tricky":
        # Isomorphic, not equal: OWL-RL reports an ill-typed literal on a fresh blank node.
        assert len(ours) == len(theirs) and isomorphic(ours, theirs)
    else:
        assert set(ours) == set(theirs)
    # The tricky graph does exercise the copies: a value's triples reach its other forms.
    if source == "tricky" and profile == "rdfs":
        ex = Namespace("http://example.org/")
        assert (ex.c, ex.p, Literal("true", datatype=XSD.boolean)) in theirs
        assert (ex.c, ex.p, Literal("2", datatype=XSD.int)) not in theirs


def assert_owlrl_as_it_was() -> None:
    """owlrl's rule modules hold rdflib's own vocabularies (no ``_Terms`` left behind)."""
    import rdflib.namespace

    for module, names in _RULE_MODULES.items():
        for name in names:
            assert getattr(module, name) is getattr(rdflib.namespace, name), (module, name)


def test_the_rule_modules_read_terms_once_only_within_the_block():
    """Within ``vocabularies_read_once`` (nested too) the rules read ``_Terms``; when the
    last block ends, owlrl is as it was for the rest of the process, also after pySHACL's
    closure and after an exception."""
    from anthology_kg.reference_shacl import shacl_report

    assert_owlrl_as_it_was()
    with vocabularies_read_once():
        with vocabularies_read_once():
            pass
        assert all(
            isinstance(getattr(module, name), _Terms)
            for module, names in _RULE_MODULES.items()
            for name in names
        )
    assert_owlrl_as_it_was()
    with pytest.raises(ZeroDivisionError), vocabularies_read_once():
        1 / 0  # noqa: B018
    assert_owlrl_as_it_was()
    data = Graph().parse(data=TRICKY, format="turtle")
    shacl_report(data, Graph(), Graph(), inference="rdfs")
    assert_owlrl_as_it_was()


def test_the_terms_looked_up_once_are_the_vocabularys():
    """``_Terms`` gives what the rdflib vocabulary gives: each term (the same one every
    time after the first), a term by index, ``in``, and the vocabulary's refusal of a
    name it does not define."""
    from rdflib.namespace import OWL, RDF

    terms = _Terms(OWL)
    assert terms.sameAs == OWL.sameAs and terms.sameAs is terms.sameAs
    assert terms["inverseOf"] == OWL["inverseOf"] and terms.vocabulary is OWL
    assert OWL.sameAs in terms and RDF.type not in terms
    assert _Terms(RDF)["_3"] == RDF["_3"]
    with pytest.raises(AttributeError):
        terms.notAnOwlTerm  # noqa: B018
    with pytest.raises(AttributeError):
        terms.__wrapped__  # noqa: B018


@pytest.mark.parametrize("profile", sorted(OWLRL))
def test_the_same_closure_once_the_triples_remembered_reach_their_bound(profile, monkeypatch):
    """Past PRESENT_KEPT triples remembered, the rest are looked up in the graph as owlrl
    does: the closure is the same."""
    asserted = Graph().parse(data=TRICKY, format="turtle")
    theirs = _owlrls_own(asserted, profile, monkeypatch)
    monkeypatch.setattr(owlrl_linear, "PRESENT_KEPT", 5)
    ours = _closure(asserted, LINEAR[profile])
    assert len(ours) == len(theirs) and isomorphic(ours, theirs)


def test_owlrls_rules_besides_equality_fire_only_on_the_schema_predicates():
    """OWLRLSemantics.rules runs only owlrl's eq-* rules on a triple whose predicate is
    none of SCHEMA_PREDICATES: read from owlrl's source, each other rule method is an
    if/elif chain, every branch testing the triple's predicate against one of them (or
    prp-ap's annotation properties in the first cycle)."""
    import ast
    import inspect

    from owlrl import OWLRL as owlrl_rules
    from rdflib.namespace import OWL, RDF, RDFS

    vocabularies = {"OWL": OWL, "RDF": RDF, "RDFS": RDFS}
    source = ast.parse(inspect.getsource(owlrl_rules.OWLRL_Semantics))
    methods = {
        node.name: node
        for node in ast.walk(source)
        if isinstance(node, ast.FunctionDef)
        and node.name in ("_properties", "_classes", "_class_axioms", "_schema_vocabulary")
    }
    assert len(methods) == 4
    tested, annotation_branches = set(), 0
    for method in methods.values():
        body = [n for n in method.body if not isinstance(n, ast.Expr)]  # (the docstring)
        unpack = body.pop(0)
        assert isinstance(unpack, ast.Assign) and ast.unparse(unpack.value) == "triple"
        predicate = unpack.targets[0].elts[1].id  # type: ignore[attr-defined]
        assert body and all(isinstance(node, ast.If) for node in body), method.name
        branches = list(body)
        while branches:
            branch = branches.pop()
            branches += [n for n in branch.orelse if isinstance(n, ast.If)]
            assert all(isinstance(n, ast.If) for n in branch.orelse), method.name
            test = branch.test
            conditions = test.values if isinstance(test, ast.BoolOp) else [test]
            first = (
                conditions[-1] if ast.unparse(conditions[0]) == "cycle_num == 1" else conditions[0]
            )
            assert isinstance(test, ast.Compare) or isinstance(test.op, ast.And)
            if ast.unparse(first) == f"{predicate} in OWLRL_Annotation_properties":
                annotation_branches += 1
                continue
            assert isinstance(first, ast.Compare) and ast.unparse(first.left) == predicate
            assert isinstance(first.ops[0], ast.Eq), ast.unparse(first)
            term = first.comparators[0]
            assert isinstance(term, ast.Attribute) and isinstance(term.value, ast.Name)
            tested.add(vocabularies[term.value.id][term.attr])
    assert annotation_branches == 1
    assert tested == owlrl_linear.SCHEMA_PREDICATES


def test_owlrls_rules_on_a_type_triple_fire_only_for_the_types_with_rules():
    """OWLRLSemantics.rules runs only the eq-* rules on ``x rdf:type c`` where ``c`` is
    none of TYPES_WITH_RULES: read from owlrl's source, every branch of its rule methods
    that tests the triple's predicate for ``rdf:type`` tests its object for one of them
    (``p == RDF.type and o == OWL.Class``, or nested ``if o == ...`` branches), and each
    of those is one of TYPES_WITH_RULES."""
    import ast
    import inspect

    from owlrl import OWLRL as owlrl_rules
    from rdflib.namespace import OWL, RDF, RDFS

    vocabularies = {"OWL": OWL, "RDF": RDF, "RDFS": RDFS}
    source = ast.parse(inspect.getsource(owlrl_rules.OWLRL_Semantics))
    names = ("_properties", "_equality", "_classes", "_class_axioms", "_schema_vocabulary")
    methods = [n for n in ast.walk(source) if isinstance(n, ast.FunctionDef) and n.name in names]
    assert len(methods) == len(names)

    def objects_tested(test: ast.expr, value: str) -> set:
        """The terms ``test`` compares ``value`` with (``value == X`` or an ``or`` of them)."""
        tests = test.values if isinstance(test, ast.BoolOp) else [test]
        assert not isinstance(test, ast.BoolOp) or isinstance(test.op, ast.Or), ast.unparse(test)
        terms = set()
        for one in tests:
            assert isinstance(one, ast.Compare) and ast.unparse(one.left) == value, ast.unparse(one)
            assert isinstance(one.ops[0], ast.Eq) and len(one.comparators) == 1
            term = one.comparators[0]
            assert isinstance(term, ast.Attribute) and isinstance(term.value, ast.Name)
            terms.add(vocabularies[term.value.id][term.attr])
        return terms

    tested, branches_on_type = set(), 0
    for method in methods:
        unpack = next(n for n in method.body if isinstance(n, ast.Assign))
        assert ast.unparse(unpack.value) == "triple"
        predicate, value = (e.id for e in unpack.targets[0].elts[1:])  # type: ignore[attr-defined]
        on_type = f"{predicate} == RDF.type"
        for node in ast.walk(method):
            if not isinstance(node, ast.If):
                continue
            test = node.test
            if isinstance(test, ast.BoolOp) and ast.unparse(test.values[0]) == on_type:
                assert isinstance(test.op, ast.And) and len(test.values) == 2
                tested |= objects_tested(test.values[1], value)
                branches_on_type += 1
            elif ast.unparse(test) == on_type:  # its body: a chain of ifs on the object
                assert len(node.body) == 1 and isinstance(node.body[0], ast.If)
                chain = [node.body[0]]
                while chain:
                    branch = chain.pop()
                    tested |= objects_tested(branch.test, value)
                    branches_on_type += 1
                    assert all(isinstance(n, ast.If) for n in branch.orelse)
                    chain += branch.orelse  # type: ignore[arg-type]
            else:
                assert on_type not in ast.unparse(test), ast.unparse(test)
    assert branches_on_type >= 10
    assert tested == owlrl_linear.TYPES_WITH_RULES


def test_each_owlrl_rule_method_is_given_the_triples_it_can_fire_on():
    """OWLRLSemantics.rules gives a triple only to the rule methods of RULE_METHODS whose
    predicates (or, for ``x rdf:type c``, classes) it has: read from owlrl's source, each
    method's branches test the triple's predicate (the first condition of each branch of
    its if/elif chains), a branch on rdf:type tests the object against these classes
    (``p == RDF.type and o == X``, or a chain of ``if o == X`` in its body), and nothing
    else in the method runs on a triple (the two tests above check the shape)."""
    import ast
    import inspect

    from owlrl import OWLRL as owlrl_rules
    from rdflib.namespace import OWL, RDF, RDFS

    vocabularies = {"OWL": OWL, "RDF": RDF, "RDFS": RDFS}
    source = ast.parse(inspect.getsource(owlrl_rules.OWLRL_Semantics))
    methods = {
        node.name: node
        for node in ast.walk(source)
        if isinstance(node, ast.FunctionDef) and node.name in owlrl_linear.RULE_METHODS
    }
    assert list(owlrl_linear.RULE_METHODS) == [
        "_properties", "_classes", "_class_axioms", "_schema_vocabulary",
    ]  # fmt: skip
    assert set(methods) == set(owlrl_linear.RULE_METHODS)

    def term(node: ast.expr):
        assert isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        return vocabularies[node.value.id][node.attr]

    def compared(test: ast.expr, name: str) -> list:
        """The terms ``test`` compares ``name`` with: ``name == X``, or an ``or`` of them."""
        tests = test.values if isinstance(test, ast.BoolOp) else [test]
        assert not isinstance(test, ast.BoolOp) or isinstance(test.op, ast.Or)
        found = []
        for one in tests:
            assert isinstance(one, ast.Compare) and ast.unparse(one.left) == name
            assert isinstance(one.ops[0], ast.Eq) and len(one.comparators) == 1
            found.append(term(one.comparators[0]))
        return found

    read = {}
    for name, method in methods.items():
        unpack = next(n for n in method.body if isinstance(n, ast.Assign))
        predicate, value = (e.id for e in unpack.targets[0].elts[1:])  # type: ignore[attr-defined]
        predicates, types = set(), set()
        chains = [n for n in method.body if isinstance(n, ast.If)]
        while chains:
            branch = chains.pop()
            chains += [n for n in branch.orelse if isinstance(n, ast.If)]
            test = branch.test
            conditions = test.values if isinstance(test, ast.BoolOp) else [test]
            if ast.unparse(conditions[0]) == "cycle_num == 1":  # prp-ap
                assert ast.unparse(conditions[1]) == f"{predicate} in OWLRL_Annotation_properties"
                continue
            (tested,) = compared(conditions[0], predicate)
            if tested != RDF.type:
                predicates.add(tested)
            elif len(conditions) == 2:  # p == RDF.type and o == X (or o == Y ...)
                types.update(compared(conditions[1], value))
            else:  # p == RDF.type: a chain of ifs on the object
                (nested,) = branch.body
                inner = [nested]
                while inner:
                    one = inner.pop()
                    assert isinstance(one, ast.If)
                    types.update(compared(one.test, value))
                    inner += one.orelse  # type: ignore[arg-type]
        read[name] = (predicates, types)
    assert read == {name: (set(p), set(t)) for name, (p, t) in owlrl_linear.RULE_METHODS.items()}
    # the same terms as the shapes of owlrl's rules the two tests above read
    assert {p for ps, _ in read.values() for p in ps} | {RDF.type} == (
        owlrl_linear.SCHEMA_PREDICATES
    )
    assert {t for _, ts in read.values() for t in ts} | {OWL.AllDifferent} == (
        owlrl_linear.TYPES_WITH_RULES
    )


def _simple_memory_and_closure_graph(text: str) -> tuple[Graph, owlrl_linear.ClosureGraph]:
    """``text`` in rdflib's SimpleMemory and in a ClosureGraph (added in the same order:
    the same blank nodes, the same index order)."""
    asserted = Graph().parse(data=text, format="turtle")
    simple, ours = Graph(store="SimpleMemory"), owlrl_linear.ClosureGraph()
    simple += asserted
    ours += asserted
    return simple, ours


def test_a_closure_graph_finds_simplememorys_triples_in_its_order():
    """Every pattern (each term given or not, a term in the graph or not, a path as the
    predicate) gives SimpleMemory's triples in its order, and ``in`` its answer."""
    from itertools import product

    from rdflib import URIRef

    simple, ours = _simple_memory_and_closure_graph(TRICKY + CONSTRUCTS)
    ex = Namespace("http://example.org/")
    some = sorted({term for triple in simple for term in triple}, key=str)[::7]
    terms = [None, *some, URIRef("urn:x-test:absent"), ex.p / ex.s, ~ex.p]
    asked = 0
    for pattern in product(terms, repeat=3):
        assert list(ours.triples(pattern)) == list(simple.triples(pattern)), pattern
        assert (pattern in ours) == (pattern in simple), pattern
        asked += 1
    assert asked > 10_000 and len(list(ours)) == len(simple) > 100
    assert list(ours) == list(simple)


@pytest.mark.parametrize("profile", sorted(OWLRL))
def test_a_closure_on_a_closure_graph_is_the_one_on_simplememory(profile):
    """The same triples in the same order (but the blank node of each error message
    OWL-RL writes, which each closure mints afresh)."""
    from rdflib import BNode

    simple, ours = _simple_memory_and_closure_graph(TRICKY + CONSTRUCTS)
    asserted = {term for triple in simple for term in triple if isinstance(term, BNode)}
    DeductiveClosure(LINEAR[profile]).expand(simple)
    DeductiveClosure(LINEAR[profile]).expand(ours)

    def fresh_ones_alike(graph: Graph) -> list[tuple]:
        def alike(term):
            return "fresh" if isinstance(term, BNode) and term not in asserted else term

        return [tuple(alike(term) for term in triple) for triple in graph]

    assert fresh_ones_alike(ours) == fresh_ones_alike(simple) and len(ours) > 200
