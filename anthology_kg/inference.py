"""Inference on the fast engine: the RDFS or OWL 2 RL closure materialized in the store.

``materialize(store, sources, profile)`` adds to ``INFERRED`` (a named graph of the same
pyoxigraph store) every triple the closure of the ``sources`` graphs entails that they do
not assert. The rules are owlrl's, the reference engine's reasoner (``RDFS_Semantics``,
``OWLRL_Semantics``), each written as one SPARQL update that inserts its conclusion where
it is new; the rules run in rounds until a round adds nothing, all inside the store. Of
OWL 2 RL, the rules for the constructs an anthology's ontology uses are implemented
(class and property hierarchies, domains and ranges, inverse, symmetric, transitive,
functional and inverse-functional properties, property chains, equivalence, owl:sameAs);
a graph that uses one of the others (class expressions such as owl:someValuesFrom, keys,
disjointness, ...) is refused with ``InferenceUnsupported``, never half inferred, so the
caller falls back to owlrl. Written here rather than taken from a reasoner: owlrl is
minutes at 10,000 entries, and the Rust reasoner measured (``reasonable``) missed
domain and range triples owlrl derives and ran out of memory at 100,000.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import Literal, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SH, SKOS, XSD

from .errors import AnthologyError, InferenceUnsupported
from .shacl.value_type import well_formed
from .terms import GRAPHS, from_ox

#: The closures ``--inference`` and ``--inferred`` name (besides ``none``).
PROFILES = ("rdfs", "owlrl")
#: The named graph the inferred triples are written to.
INFERRED = ox.NamedNode("urn:anthology-kg:graph:inferred")
_PREFIXES = f"PREFIX rdf: <{RDF}>\nPREFIX rdfs: <{RDFS}>\nPREFIX owl: <{OWL}>\n"


@dataclass(frozen=True)
class Rule:
    """One entailment rule: its name in the RDF Semantics or OWL 2 RL tables, the triple
    patterns it matches (SPARQL), a condition on them, and the one triple it concludes.
    With ``distinct``, the patterns are matched once per distinct binding of these
    variables (a rule whose conclusion uses only them, such as rdf1)."""

    name: str
    premises: tuple[str, ...]
    then: str
    condition: str = ""
    distinct: str = ""

    def bodies(self, delta: ox.NamedNode | None) -> list[str]:
        """The rule's WHERE clauses: one matching every triple, or, with ``delta`` (the
        triples new in the last round), one per premise matched in ``delta`` only."""
        if delta is None:
            variants = [list(self.premises)]
        else:
            variants = [
                [f"GRAPH {delta} {{ {p} }}" if i == j else p for i, p in enumerate(self.premises)]
                for j in range(len(self.premises))
            ]
        # Each conclusion once: one rule often derives a triple from many matches.
        concluded = self.distinct or " ".join(sorted(set(re.findall(r"\?\w+", self.then))))
        bodies = []
        for premises in variants:
            body = " . ".join(premises) + (f" FILTER({self.condition})" if self.condition else "")
            bodies.append(f"{{ SELECT DISTINCT {concluded} WHERE {{ {body} }} }}")
        return bodies


def _rule(name: str, premises: str, then: str, condition: str = "", distinct: str = "") -> Rule:
    return Rule(name, tuple(p.strip() for p in premises.split(" . ")), then, condition, distinct)


_OTHER_PROPERTY = "isIRI(?q) && !sameTerm(?p, ?q)"
#: The rules about the schema alone (premises and conclusion in the ontology's
#: vocabulary), saturated before the rules about the data run.
SCHEMA_RULES = frozenset(
    "rdfs5 rdfs6 rdfs8 rdfs10 rdfs11 rdfs12 rdfs13 scm-cls scm-eqc1 scm-sco scm-eqc2 scm-op "
    "scm-eqp1 scm-spo scm-eqp2 scm-dom1 scm-dom2 scm-rng1 scm-rng2".split()
)

# -- RDFS (RDF 1.1 Semantics, 9.2.1), as owlrl's RDFS_Semantics applies them ----------

RDFS_RULES = (
    _rule(
        "rdfs5", "?p rdfs:subPropertyOf ?q . ?q rdfs:subPropertyOf ?r", "?p rdfs:subPropertyOf ?r"
    ),
    _rule("rdfs11", "?c rdfs:subClassOf ?d . ?d rdfs:subClassOf ?e", "?c rdfs:subClassOf ?e"),
    _rule("rdfs6", "?p rdf:type rdf:Property", "?p rdfs:subPropertyOf ?p"),
    _rule("rdfs8", "?c rdf:type rdfs:Class", "?c rdfs:subClassOf rdfs:Resource"),
    _rule("rdfs10", "?c rdf:type rdfs:Class", "?c rdfs:subClassOf ?c"),
    _rule(
        "rdfs12",
        "?p rdf:type rdfs:ContainerMembershipProperty",
        "?p rdfs:subPropertyOf rdfs:member",
    ),
    _rule("rdfs13", "?d rdf:type rdfs:Datatype", "?d rdfs:subClassOf rdfs:Literal"),
    # p rdfs:subPropertyOf p concludes nothing new (rdfs6 gives every property one)
    _rule("rdfs7", "?p rdfs:subPropertyOf ?q . ?x ?p ?y", "?x ?q ?y", _OTHER_PROPERTY),
    _rule("rdf1", "?x ?p ?y", "?p rdf:type rdf:Property", distinct="?p"),
    _rule("rdfs2", "?p rdfs:domain ?c . ?x ?p ?y", "?x rdf:type ?c"),
    _rule("rdfs3", "?p rdfs:range ?c . ?x ?p ?y", "?y rdf:type ?c", "!isLiteral(?y)"),
    _rule("rdfs9", "?c rdfs:subClassOf ?d . ?x rdf:type ?c", "?x rdf:type ?d"),
)
#: rdfs4a/b: owlrl types the subject and object of every triple of its first round (the
#: graph as given, not what either rule adds) as rdfs:Resource, once.
RDFS_FIRST_ROUND = (
    _rule("rdfs4a", "?t ?p ?o", "?t rdf:type rdfs:Resource", distinct="?t"),
    _rule("rdfs4b", "?s ?p ?t", "?t rdf:type rdfs:Resource", "!isLiteral(?t)", "?t"),
)

# -- OWL 2 RL (OWL 2 Profiles, 4.3), as owlrl's OWLRL_Semantics applies them -----------

_ANNOTATION_PROPERTIES = (
    RDFS.label,
    RDFS.comment,
    RDFS.seeAlso,
    RDFS.isDefinedBy,
    OWL.deprecated,
    OWL.versionInfo,
    OWL.priorVersion,
    OWL.backwardCompatibleWith,
    OWL.incompatibleWith,
)
#: The datatypes owlrl's dt-type1 declares (its ``OWL_RL_Datatypes``: OWL 2 RL's, less
#: owl:real and owl:rational, plus rdf:HTML, rdf:langString, xsd:date and xsd:time).
OWLRL_DATATYPES = (
    *(
        XSD[name]
        for name in (
            "integer decimal nonNegativeInteger nonPositiveInteger negativeInteger "
            "positiveInteger long int short byte unsignedLong unsignedInt unsignedShort "
            "unsignedByte float double string normalizedString token language Name NCName "
            "NMTOKEN boolean hexBinary base64Binary anyURI dateTimeStamp dateTime time date"
        ).split()
    ),
    RDFS.Literal,
    RDF.XMLLiteral,
    RDF.HTML,
    RDF.langString,
    RDF.PlainLiteral,
)
#: cls-thing, cls-nothing1, prp-ap and dt-type1: triples owlrl adds once, whatever the
#: graph.
OWLRL_AXIOMS = (
    (OWL.Thing, RDF.type, OWL.Class),
    (OWL.Nothing, RDF.type, OWL.Class),
    *((p, RDF.type, OWL.AnnotationProperty) for p in _ANNOTATION_PROPERTIES),
    *((d, RDF.type, RDFS.Datatype) for d in OWLRL_DATATYPES),
)
#: The datatypes owlrl declares pairwise disjoint (``owl:disjointWith``, in this order)
#: where the graph has literals of both, but for the two pairs of ``_NOT_DISJOINT``.
_DISJOINT_DATATYPES = (
    *(XSD[name] for name in "anyURI base64Binary boolean dateTime decimal double".split()),
    *(XSD[name] for name in "float hexBinary string".split()),
    RDF.PlainLiteral,
    RDF.XMLLiteral,
)
_NOT_DISJOINT = frozenset({(XSD.string, RDF.PlainLiteral), (RDF.PlainLiteral, RDF.XMLLiteral)})
#: The datatypes of literals owlrl, on rdflib, does not see as typed: a simple literal
#: and a language-tagged one have no datatype there.
_UNTYPED = frozenset({XSD.string, RDF.langString})
#: scm-op's premise, one rule per kind of property (a FILTER on ``?p rdf:type ?kind``
#: would read every typing triple).
_PROPERTY_KINDS = ("owl:ObjectProperty", "owl:DatatypeProperty", "rdf:Property")
#: In an order that lets one round go far: the schema first (Table 9), then the
#: properties (Table 5), the classes (Table 7) and equality (Table 4). eq-ref is added
#: once at the end (see ``_reflexive_same_as``).
OWLRL_RULES = (
    _rule("scm-cls", "?c rdf:type owl:Class", "?c rdfs:subClassOf ?c"),
    _rule("scm-cls", "?c rdf:type owl:Class", "?c owl:equivalentClass ?c"),
    _rule("scm-cls", "?c rdf:type owl:Class", "?c rdfs:subClassOf owl:Thing"),
    _rule("scm-cls", "?c rdf:type owl:Class", "owl:Nothing rdfs:subClassOf ?c"),
    _rule("scm-eqc1", "?c owl:equivalentClass ?d", "?c rdfs:subClassOf ?d", "!sameTerm(?c, ?d)"),
    _rule("scm-eqc1", "?c owl:equivalentClass ?d", "?d rdfs:subClassOf ?c", "!sameTerm(?c, ?d)"),
    _rule(
        "scm-sco",
        "?c rdfs:subClassOf ?d . ?d rdfs:subClassOf ?e",
        "?c rdfs:subClassOf ?e",
        "!sameTerm(?c, ?d) && !sameTerm(?c, ?e)",
    ),
    _rule("scm-eqc2", "?c rdfs:subClassOf ?d . ?d rdfs:subClassOf ?c", "?c owl:equivalentClass ?d"),
    *(
        _rule("scm-op", f"?p rdf:type {kind}", f"?p {relation} ?p")
        for kind in _PROPERTY_KINDS
        for relation in ("rdfs:subPropertyOf", "owl:equivalentProperty")
    ),
    _rule(
        "scm-eqp1",
        "?p owl:equivalentProperty ?q",
        "?p rdfs:subPropertyOf ?q",
        "!sameTerm(?p, ?q)",
    ),
    _rule(
        "scm-eqp1",
        "?p owl:equivalentProperty ?q",
        "?q rdfs:subPropertyOf ?p",
        "!sameTerm(?p, ?q)",
    ),
    _rule(
        "scm-spo",
        "?p rdfs:subPropertyOf ?q . ?q rdfs:subPropertyOf ?r",
        "?p rdfs:subPropertyOf ?r",
        "!sameTerm(?p, ?q) && !sameTerm(?p, ?r)",
    ),
    _rule(
        "scm-eqp2",
        "?p rdfs:subPropertyOf ?q . ?q rdfs:subPropertyOf ?p",
        "?p owl:equivalentProperty ?q",
        "!sameTerm(?p, ?q)",
    ),
    _rule(
        "scm-dom1",
        "?p rdfs:domain ?c . ?c rdfs:subClassOf ?d",
        "?p rdfs:domain ?d",
        "!sameTerm(?c, ?d)",
    ),
    _rule(
        "scm-dom2",
        "?q rdfs:domain ?c . ?p rdfs:subPropertyOf ?q",
        "?p rdfs:domain ?c",
        "!sameTerm(?p, ?q)",
    ),
    _rule(
        "scm-rng1",
        "?p rdfs:range ?c . ?c rdfs:subClassOf ?d",
        "?p rdfs:range ?d",
        "!sameTerm(?c, ?d)",
    ),
    _rule(
        "scm-rng2",
        "?q rdfs:range ?c . ?p rdfs:subPropertyOf ?q",
        "?p rdfs:range ?c",
        "!sameTerm(?p, ?q)",
    ),
    _rule("prp-spo1", "?p rdfs:subPropertyOf ?q . ?x ?p ?y", "?x ?q ?y", _OTHER_PROPERTY),
    _rule(
        "prp-eqp1",
        "?p owl:equivalentProperty ?q . ?x ?p ?y",
        "?x ?q ?y",
        "!sameTerm(?p, ?q) && isIRI(?q)",
    ),
    _rule(
        "prp-eqp2",
        "?p owl:equivalentProperty ?q . ?x ?q ?y",
        "?x ?p ?y",
        "!sameTerm(?p, ?q) && isIRI(?p)",
    ),
    _rule("prp-inv1", "?p owl:inverseOf ?q . ?x ?p ?y", "?y ?q ?x", "!isLiteral(?y) && isIRI(?q)"),
    _rule("prp-inv2", "?p owl:inverseOf ?q . ?x ?q ?y", "?y ?p ?x", "!isLiteral(?y) && isIRI(?p)"),
    _rule("prp-symp", "?p rdf:type owl:SymmetricProperty . ?x ?p ?y", "?y ?p ?x", "!isLiteral(?y)"),
    _rule("prp-trp", "?p rdf:type owl:TransitiveProperty . ?x ?p ?y . ?y ?p ?z", "?x ?p ?z"),
    _rule("prp-dom", "?p rdfs:domain ?c . ?x ?p ?y", "?x rdf:type ?c"),
    _rule("prp-rng", "?p rdfs:range ?c . ?x ?p ?y", "?y rdf:type ?c", "!isLiteral(?y)"),
    _rule(
        "cax-sco", "?c rdfs:subClassOf ?d . ?x rdf:type ?c", "?x rdf:type ?d", "!sameTerm(?c, ?d)"
    ),
    _rule(
        "cax-eqc1",
        "?c owl:equivalentClass ?d . ?x rdf:type ?c",
        "?x rdf:type ?d",
        "!sameTerm(?c, ?d)",
    ),
    _rule(
        "cax-eqc2",
        "?c owl:equivalentClass ?d . ?x rdf:type ?d",
        "?x rdf:type ?c",
        "!sameTerm(?c, ?d)",
    ),
    _rule(
        "prp-fp",
        "?p rdf:type owl:FunctionalProperty . ?x ?p ?y1 . ?x ?p ?y2",
        "?y1 owl:sameAs ?y2",
        "!sameTerm(?y1, ?y2) && !isLiteral(?y1)",
    ),
    _rule(
        "prp-ifp",
        "?p rdf:type owl:InverseFunctionalProperty . ?x1 ?p ?y . ?x2 ?p ?y",
        "?x1 owl:sameAs ?x2",
        "!sameTerm(?x1, ?x2)",
    ),
    _rule("eq-sym", "?x owl:sameAs ?y", "?y owl:sameAs ?x", "!isLiteral(?y)"),
    _rule("eq-trans", "?x owl:sameAs ?y . ?y owl:sameAs ?z", "?x owl:sameAs ?z"),
    _rule(
        "eq-rep-s", "?s owl:sameAs ?t . ?s ?p ?o", "?t ?p ?o", "!sameTerm(?s, ?t) && !isLiteral(?t)"
    ),
    _rule("eq-rep-p", "?p owl:sameAs ?q . ?s ?p ?o", "?s ?q ?o", "!sameTerm(?p, ?q) && isIRI(?q)"),
    _rule("eq-rep-o", "?o owl:sameAs ?v . ?s ?p ?o", "?s ?p ?v", "!sameTerm(?o, ?v)"),
)

#: The OWL 2 RL constructs whose rules are not implemented: a graph that uses one (as a
#: predicate, or as the class of a typing triple) is refused rather than half inferred.
UNSUPPORTED_PREDICATES = tuple(
    OWL[name]
    for name in (
        "intersectionOf unionOf complementOf oneOf someValuesFrom allValuesFrom hasValue "
        "maxCardinality maxQualifiedCardinality hasKey disjointWith propertyDisjointWith "
        "differentFrom members distinctMembers sourceIndividual onProperty onClass "
        "disjointUnionOf"
    ).split()
)
UNSUPPORTED_TYPES = tuple(
    OWL[name]
    for name in (
        "Nothing AllDisjointClasses AllDisjointProperties AllDifferent IrreflexiveProperty "
        "AsymmetricProperty NegativePropertyAssertion"
    ).split()
)
#: owlrl checks the lexical form of literals of these datatypes (dt-not-type) and reports
#: an ill-formed one as an inconsistency; such a graph is refused too. A SPARQL cast
#: tests these (``shacl.value_type.well_formed``); the others of owlrl's that it checks,
#: ``_CHECKED_BY_OWLRL``, by patterns that are not always XSD's, owlrl itself.
_CHECKED_DATATYPES = frozenset(
    ox.NamedNode(XSD[name])
    for name in (
        "integer decimal nonNegativeInteger nonPositiveInteger negativeInteger "
        "positiveInteger long int short byte unsignedLong unsignedInt unsignedShort "
        "unsignedByte float double boolean dateTime time date"
    ).split()
)


#: The datatypes of owlrl's (``owlrl.XsdDatatypes.OWL_RL_Datatypes``) whose literals its
#: own check (``owlrl.DatatypeHandling.AltXSDToPYTHON``) may refuse and no SPARQL cast
#: tests: owlrl is asked (its NCName is ``[\\w_.\\-]+``, its language tag a pattern of
#: its own), imported only for a graph that has such a literal.
_CHECKED_BY_OWLRL = frozenset(
    [
        *(
            ox.NamedNode(XSD[name])
            for name in (
                "normalizedString token language Name NCName NMTOKEN hexBinary base64Binary "
                "anyURI dateTimeStamp"
            ).split()
        ),
        ox.NamedNode(RDF.XMLLiteral),
        ox.NamedNode(RDF.PlainLiteral),
    ]
)


def _refused_by_owlrl(
    store: ox.Store, sources: Sequence[ox.NamedNode], used: set[ox.NamedNode]
) -> list[ox.NamedNode]:
    """The datatypes of ``_CHECKED_BY_OWLRL`` among ``used`` of which a literal of the
    ``sources`` has a lexical form owlrl's check refuses, in order. The store holds a
    literal of a derived integer type as an ``xsd:integer`` and an ``xsd:dateTimeStamp``
    as an ``xsd:dateTime`` (oxigraph issue 1413): an out-of-range ``"300"^^xsd:byte``, or
    a zoneless date-time stamp, is not seen here, where owlrl refuses it."""
    checked = sorted((d for d in used if d in _CHECKED_BY_OWLRL), key=lambda d: d.value)
    if not checked:
        return []
    from owlrl.DatatypeHandling import AltXSDToPYTHON

    kinds = ", ".join(str(d) for d in checked)
    kept = f"isLiteral(?o) && datatype(?o) IN ({kinds})"
    refused: set[ox.NamedNode] = set()
    for row in _select(store, f"SELECT DISTINCT ?o WHERE {{ ?s ?p ?o FILTER({kept}) }}", sources):
        literal = row["o"]
        assert isinstance(literal, ox.Literal)
        if literal.datatype in refused:
            continue
        try:
            AltXSDToPYTHON[URIRef(literal.datatype.value)](literal.value)
        except ValueError:  # what owlrl catches (dt-not-type)
            refused.add(literal.datatype)
    return sorted(refused, key=lambda d: d.value)


def _apply(
    store: ox.Store,
    rule: Rule,
    dataset: Sequence[ox.NamedNode],
    into: Sequence[ox.NamedNode],
    delta: ox.NamedNode | None = None,
) -> None:
    """Add the rule's new conclusions to each graph of ``into``, its premises matched in
    the union of the ``dataset`` graphs (the sources and the closure so far; one premise
    in ``delta``, if given).

    What is new is what the dataset does not hold. Where the premises are matched on
    everything and the conclusion has a fixed predicate, that is a MINUS: pyoxigraph reads
    the triples of that predicate once and anti-joins by hash, where a FILTER NOT EXISTS
    looks each candidate up (3x slower on the first round's tens of thousands of
    ``x rdf:type C``). As it reads them even when nothing matches, the rule is first
    asked for a match. A later round has few candidates, and a conclusion with a
    variable predicate would make MINUS read every triple: there, NOT EXISTS."""
    where = " UNION ".join(f"{{ {body} }}" for body in rule.bodies(delta))
    insert = " ".join(f"GRAPH {g} {{ {rule.then} }}" for g in into)
    anti_join = delta is None and not rule.then.split()[1].startswith("?")
    if anti_join and not _ask(store, f"{_PREFIXES}ASK {{ {where} }}", dataset):
        return
    new = "MINUS" if anti_join else "FILTER NOT EXISTS"
    store.update(
        f"{_PREFIXES}INSERT {{ {insert} }}\n{_using(dataset, delta)}"
        f"WHERE {{ {where} {new} {{ {rule.then} }} }}"
    )


def _using(dataset: Sequence[ox.NamedNode], named: ox.NamedNode | None = None) -> str:
    """The dataset clauses of an update: the default graph the union of ``dataset``, and
    ``named`` the one graph a GRAPH pattern may name."""
    return "".join(f"USING {g}\n" for g in dataset) + (f"USING NAMED {named}\n" if named else "")


def _select(store: ox.Store, text: str, dataset: Sequence[ox.NamedNode] = ()) -> ox.QuerySolutions:
    result = store.query(text, default_graph=list(dataset) or None)
    assert isinstance(result, ox.QuerySolutions)
    return result


def _count(store: ox.Store, graph: ox.NamedNode) -> int:
    (row,) = _select(store, f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}")
    return int(row["n"].value)


def _chain_rules(store: ox.Store, dataset: Sequence[ox.NamedNode]) -> Iterator[Rule]:
    """prp-spo2: one rule per owl:propertyChainAxiom of the closure so far (the union of
    the ``dataset`` graphs; the chain's list read from its rdf:first/rdf:rest nodes, as
    owlrl reads it)."""
    query = f"{_PREFIXES}SELECT ?p ?l WHERE {{ ?p owl:propertyChainAxiom ?l }}"
    for row in _select(store, query, dataset):
        chain = _list_items(store, dataset, row["l"])
        if row["p"] is None or not chain or not all(isinstance(p, ox.NamedNode) for p in chain):
            continue
        steps = tuple(f"?u{i} {p} ?u{i + 1}" for i, p in enumerate(chain))
        yield Rule("prp-spo2", steps, f"?u0 {row['p']} ?u{len(chain)}")


def _list_items(store: ox.Store, dataset: Sequence[ox.NamedNode], head: object) -> list[object]:
    items: list[object] = []
    seen = set()
    node = head
    while isinstance(node, ox.NamedNode | ox.BlankNode) and node != _NIL and node not in seen:
        seen.add(node)
        first = [q.object for g in dataset for q in store.quads_for_pattern(node, _FIRST, None, g)]
        rest = [q.object for g in dataset for q in store.quads_for_pattern(node, _REST, None, g)]
        if not first or not rest:
            break
        items.append(first[0])
        node = rest[0]
    return items


_FIRST = ox.NamedNode(str(RDF.first))
_REST = ox.NamedNode(str(RDF.rest))
_NIL = ox.NamedNode(str(RDF.nil))


def _literal_datatypes(store: ox.Store, sources: Sequence[ox.NamedNode]) -> set[ox.NamedNode]:
    """The datatypes of the literals of the union of the ``sources`` graphs."""
    used = _select(
        store,
        "SELECT DISTINCT (datatype(?o) AS ?d) WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }",
        sources,
    )
    return {row["d"] for row in used if isinstance(row["d"], ox.NamedNode)}


def _datatype_disjointness(
    used: set[ox.NamedNode],
) -> Iterator[tuple[URIRef, URIRef, URIRef]]:
    """owlrl's datatype disjointness: ``a owl:disjointWith b`` for the pairs of
    ``_DISJOINT_DATATYPES`` of which the graph has literals of both (``used``, the
    datatypes of its literals; those of ``_UNTYPED`` do not count)."""
    typed = {URIRef(d.value) for d in used} - _UNTYPED
    for index, first in enumerate(_DISJOINT_DATATYPES):
        for second in _DISJOINT_DATATYPES[index + 1 :]:
            if {first, second} <= typed and (first, second) not in _NOT_DISJOINT:
                yield first, OWL.disjointWith, second


def _unsupported(
    store: ox.Store, profile: str, sources: Sequence[ox.NamedNode], used: set[ox.NamedNode]
) -> list[str]:
    """What in the union of the ``sources`` graphs (``used``: the datatypes of their
    literals) the ``profile``'s rules here cannot entail as owlrl does (empty when the
    closure here is owlrl's): OWL constructs without rules here, a node typed with a
    datatype (owlrl types it with the datatype's supertypes), a functional property with
    two literal values (owl:sameAs between literals), an ill-formed literal (owlrl
    reports an inconsistency)."""
    if profile != "owlrl":
        return []
    found = []
    predicates = " ".join(f"<{p}>" for p in UNSUPPORTED_PREDICATES)
    types = " ".join(f"<{t}>" for t in UNSUPPORTED_TYPES)
    for row in _select(
        store,
        f"SELECT DISTINCT ?t WHERE {{ {{ VALUES ?t {{ {predicates} }} ?s ?t ?o }} "
        f"UNION {{ VALUES ?t {{ {types} }} ?s a ?t }} }}",
        sources,
    ):
        found.append(f"<{row['t'].value}>")
    if _ask(
        store,
        f"{_PREFIXES}ASK {{ ?p rdf:type owl:FunctionalProperty . ?x ?p ?y1 . ?x ?p ?y2 "
        "FILTER(isLiteral(?y1) && !sameTerm(?y1, ?y2)) }",
        sources,
    ):
        found.append("a functional property with two literal values")
    datatypes = " ".join(f"<{d}>" for d in OWLRL_DATATYPES)
    if _ask(store, f"ASK {{ VALUES ?d {{ {datatypes} }} ?s a ?d }}", sources):
        found.append("a node typed with a datatype")
    checked = sorted((d for d in used if d in _CHECKED_DATATYPES), key=lambda d: d.value)
    tests = [(d, well_formed("?o", URIRef(d.value))) for d in checked]
    # the datatypes used, in one more pass over the literals
    ill_formed = " || ".join(f"(sameTerm(?d, {d}) && !{test})" for d, test in tests if test)
    query = (
        "SELECT DISTINCT ?d WHERE { ?s ?p ?o FILTER(isLiteral(?o)) "
        f"BIND(datatype(?o) AS ?d) FILTER({ill_formed}) }} ORDER BY ?d"
    )
    refused = [row["d"] for row in _select(store, query, sources)] if ill_formed else []
    for datatype in sorted(
        [*refused, *_refused_by_owlrl(store, sources, used)], key=lambda d: d.value
    ):
        found.append(f"an ill-formed {datatype.value} literal (an OWL 2 RL inconsistency)")
    return found


def _ask(store: ox.Store, text: str, dataset: Sequence[ox.NamedNode] = ()) -> bool:
    return bool(store.query(text, default_graph=list(dataset) or None))


_DELTAS = (
    ox.NamedNode("urn:anthology-kg:graph:inferring-a"),
    ox.NamedNode("urn:anthology-kg:graph:inferring-b"),
)


def materialize(
    store: ox.Store,
    sources: Sequence[ox.NamedNode],
    profile: str,
    into: ox.NamedNode = INFERRED,
) -> int:
    """Fill graph ``into`` of ``store`` (empty) with the ``profile`` closure (``rdfs`` or
    ``owlrl``) of the union of the ``sources`` graphs: every entailed triple they do not
    hold. Returns how many were added. Raises ``InferenceUnsupported`` (and adds
    nothing) for a graph whose closure the rules here would not give as owlrl does.

    Semi-naive: the first round matches the rules on everything; each later round only
    where a premise is a triple the round before added (kept in a scratch graph), so a
    round costs what is new, not the whole graph; it ends when a round adds nothing. The
    rules match the union of the sources and ``into`` (the closure so far), read in
    place: nothing is copied."""
    if profile not in PROFILES:
        raise AnthologyError(f"unknown inference {profile!r}: use one of none, rdfs, owlrl")
    if _has_triples(store, into):
        raise AnthologyError(f"inference needs the graph {into} empty")
    used = _literal_datatypes(store, sources) if profile == "owlrl" else set()
    problems = _unsupported(store, profile, sources, used)
    if problems:
        raise InferenceUnsupported(
            f"the fast engine cannot infer {profile} here: the graph uses " + ", ".join(problems)
        )
    dataset = (*sources, into)
    delta, added = _DELTAS
    try:
        if profile == "owlrl":
            _add_new(store, dataset, (into, added), OWLRL_AXIOMS)
            _add_new(store, dataset, (into, added), _datatype_disjointness(used))
            rules: tuple[Rule, ...] = OWLRL_RULES
        else:
            for rule in RDFS_FIRST_ROUND:
                # on the sources alone: matched on rdfs4a's triples too, rdfs4b would
                # conclude rdfs:Resource rdf:type rdfs:Resource, which owlrl does not
                _apply(store, rule, sources, (into, added))
            rules = RDFS_RULES
        # The schema first, to its fixpoint: the rules about the data then see every
        # inherited domain and superclass in their first round, not in a later one.
        schema = [rule for rule in rules if rule.name in SCHEMA_RULES]
        while True:
            for rule in schema:
                _apply(store, rule, dataset, (into, added))
            if not _has_triples(store, added):
                break
            store.clear_graph(added)
        last: ox.NamedNode | None = None  # the first round: every triple is new
        chained: set[Rule] = set()
        while True:
            for rule in rules:
                _apply(store, rule, dataset, (into, added), last)
            for rule in _chain_rules(store, dataset) if profile == "owlrl" else ():
                # a chain axiom found in a later round is matched on everything once
                chain_delta = last if rule in chained else None
                _apply(store, rule, dataset, (into, added), chain_delta)
                chained.add(rule)
            if not _has_triples(store, added):
                break
            store.clear_graph(delta)
            delta, added = added, delta
            last = delta
        if profile == "owlrl":
            _reflexive_same_as(store, dataset, into)
    finally:
        for scratch in _DELTAS:
            store.clear_graph(scratch)
    return _count(store, into)


def _reflexive_same_as(
    store: ox.Store, dataset: Sequence[ox.NamedNode], into: ox.NamedNode
) -> None:
    """eq-ref: every IRI and blank node of the closure (the union of ``dataset``) is
    owl:sameAs itself. Added once the other rules are done (``x owl:sameAs x`` lets none
    of them conclude anything new), straight into ``into``, less the few the dataset
    holds; and owl:sameAs, the predicate of these, is owl:sameAs itself."""
    store.update(
        f"{_PREFIXES}INSERT {{ GRAPH {into} {{ ?t owl:sameAs ?t }} }}\n{_using(dataset)}"
        "WHERE { { SELECT DISTINCT ?t WHERE { { ?t ?p ?o } UNION { ?s ?t ?o } "
        "UNION { ?s ?p ?t FILTER(!isLiteral(?t)) } } } MINUS { ?t owl:sameAs ?t } }"
    )
    _add_new(store, dataset, (into,), [(OWL.sameAs, OWL.sameAs, OWL.sameAs)])


def _has_triples(store: ox.Store, graph: ox.NamedNode) -> bool:
    return bool(store.query(f"ASK {{ GRAPH {graph} {{ ?s ?p ?o }} }}"))


def _add_new(
    store: ox.Store,
    dataset: Sequence[ox.NamedNode],
    into: Sequence[ox.NamedNode],
    triples: Iterable[tuple[object, object, object]],
) -> None:
    """Add each of ``triples`` (IRIs) to the graphs ``into`` unless a graph of
    ``dataset`` holds it."""
    for s, p, o in triples:
        terms = (ox.NamedNode(str(s)), ox.NamedNode(str(p)), ox.NamedNode(str(o)))
        if not any(ox.Quad(*terms, g) in store for g in dataset):
            store.extend(ox.Quad(*terms, g) for g in into)


def equal_value_literals(quads: Iterable[ox.Quad]) -> Iterator[ox.Triple]:
    """owlrl's RDFS one-time rule ("a literal with the same value as another"): for two
    literals whose Python values compare equal (``"1"^^xsd:integer`` and
    ``"1.0"^^xsd:decimal``, ``"x"@en`` and ``"x"``, as rdflib converts them), each triple
    with one as object is repeated with the other. Computed on the quads as written, since
    a store keeps numbers in canonical form ("007" is stored as 7)."""
    by_object: dict[ox.Literal, list[tuple[object, object]]] = defaultdict(list)
    for quad in quads:
        if isinstance(quad.object, ox.Literal):
            by_object[quad.object].append((quad.subject, quad.predicate))
    groups: dict[object, list[ox.Literal]] = defaultdict(list)
    for literal in by_object:
        value = _value(literal)
        if value is not None:
            groups[value].append(literal)
    for literals in groups.values():
        for written in literals:
            for other in literals:
                if other != written:
                    for subject, predicate in by_object[written]:
                        yield ox.Triple(subject, predicate, other)  # type: ignore[arg-type]


def _value(literal: ox.Literal) -> object:
    """The literal's Python value as rdflib gives it (None when it has none, or when the
    value cannot be a dictionary key)."""
    node = from_ox(literal)
    value = node.value if isinstance(node, Literal) else None
    try:
        hash(value)
    except TypeError:
        return None
    return value


# -- what of the closure is about the anthology ----------------------------------------

#: The vocabularies whose own terms an export's inferred triples are never about; the
#: objects, types and reflexive properties that make an inferred triple trivial (the
#: rules here and export's owlrl fallback keep the same triples).
STANDARD_NAMESPACES = (str(RDF), str(RDFS), str(OWL), str(XSD), str(SKOS), str(SH))
TRIVIAL_OBJECTS = (OWL.Thing, RDFS.Resource, OWL.Nothing)
TRIVIAL_TYPES = (OWL.NamedIndividual, RDFS.Class, OWL.Class)
REFLEXIVE = (
    OWL.sameAs,
    RDFS.subClassOf,
    RDFS.subPropertyOf,
    OWL.equivalentClass,
    OWL.equivalentProperty,
)


def _one_of(variable: str, terms: Iterable[object]) -> str:
    return "(" + " || ".join(f"sameTerm({variable}, <{t}>)" for t in terms) + ")"


def about_the_anthology(
    store: ox.Store, asserted: Sequence[ox.NamedNode], inferred: ox.NamedNode = INFERRED
) -> Iterator[ox.Triple]:
    """The triples of graph ``inferred`` worth exporting beside the ``asserted`` graphs:
    not asserted, about a subject they assert something of (or a blank node), not about
    a standard vocabulary's own terms (RDF, RDFS, OWL, XSD, SKOS, SHACL), and not
    trivial (``x owl:sameAs x``, ``x rdf:type owl:Thing``, ``C rdf:type owl:Class``)."""
    graphs = " ".join(str(g) for g in asserted)
    standard = " || ".join(f'STRSTARTS(STR(?s), "{ns}")' for ns in STANDARD_NAMESPACES)
    query = f"""SELECT ?s ?p ?o WHERE {{
        GRAPH {inferred} {{ ?s ?p ?o }}
        FILTER(isBlank(?s) || (!({standard})
            && EXISTS {{ VALUES ?g {{ {graphs} }} GRAPH ?g {{ ?s ?anyPredicate ?anyObject }} }}))
        FILTER NOT EXISTS {{ VALUES ?h {{ {graphs} }} GRAPH ?h {{ ?s ?p ?o }} }}
        FILTER(!(sameTerm(?s, ?o) && {_one_of("?p", REFLEXIVE)}))
        FILTER(!{_one_of("?o", TRIVIAL_OBJECTS)})
        FILTER(!(sameTerm(?p, <{RDF.type}>) && {_one_of("?o", TRIVIAL_TYPES)}))
    }}"""
    for row in _select(store, query):
        yield ox.Triple(row["s"], row["p"], row["o"])


def inferred_triples(
    parts: Mapping[str, Iterable[ox.Quad]], asserted: Sequence[str], profile: str
) -> list[ox.Triple]:
    """The ``profile`` closure of an anthology's data and ontology, less what the
    ``asserted`` parts hold, kept to what is about the anthology (``about_the_anthology``):
    the inferred triples of an export. ``parts`` gives each part's quads as written
    (``data`` and ``ontology`` at least; their graph names are ignored)."""
    store = ox.Store()
    written: dict[str, list[ox.Quad]] = {part: list(quads) for part, quads in parts.items()}
    for part, quads in written.items():
        store.extend(ox.Quad(q.subject, q.predicate, q.object, GRAPHS[part]) for q in quads)
    materialize(store, [GRAPHS["data"], GRAPHS["ontology"]], profile)
    graphs = [GRAPHS[part] for part in asserted]
    sources = [*written["data"], *written["ontology"]]
    found = list(_as_written(about_the_anthology(store, graphs), sources))
    if profile == "rdfs":
        # owlrl's RDFS one-time rule, on the literals as written (see equal_value_literals)
        for triple in equal_value_literals(sources):
            subject = triple.subject
            if isinstance(subject, ox.NamedNode) and (
                subject.value.startswith(STANDARD_NAMESPACES)
                or not any(
                    next(store.quads_for_pattern(subject, None, None, g), None) for g in graphs
                )
            ):
                continue
            if not any(
                ox.Quad(subject, triple.predicate, triple.object, g) in store for g in graphs
            ):
                found.append(triple)
    return found


_PLAIN = (ox.NamedNode(str(XSD.string)), ox.NamedNode(str(RDF.langString)))


def _as_written(triples: Iterable[ox.Triple], quads: Iterable[ox.Quad]) -> Iterator[ox.Triple]:
    """``triples`` with each literal object as the ``quads`` write it: a store keeps a
    number in canonical form ("1.0"^^xsd:decimal is stored as "1"), and owlrl, on
    rdflib, keeps the written one."""
    literals = list(
        {
            q.object
            for q in quads
            if isinstance(q.object, ox.Literal) and q.object.datatype not in _PLAIN
        }
    )
    scratch = ox.Store()  # the canonical form of each, as a store keeps it
    scratch.extend(
        ox.Quad(ox.NamedNode(f"urn:literal:{index}"), _FIRST, literal)
        for index, literal in enumerate(literals)
    )
    written: dict[object, list[ox.Literal]] = defaultdict(list)
    for quad in scratch:
        index = int(str(quad.subject).strip("<>").rpartition(":")[2])
        written[quad.object].append(literals[index])
    for triple in triples:
        forms = written.get(triple.object)
        if forms is None:
            yield triple
        else:
            for form in forms:
                yield ox.Triple(triple.subject, triple.predicate, form)
