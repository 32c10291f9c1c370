"""owlrl's RDFS and OWL 2 RL closures with the two steps that are quadratic on an
anthology run in linear time: the same triples (tests/test_owlrl_linear.py compares them
with owlrl's own classes), for the reference engine and its export.

owlrl 7.6 as it stands cannot compute these closures at 100,000 entries: its RDFS
``one_time_rules`` tests every pair of literals for an equal value (390 of the ~400 CPU s
of an RDFS export at 10,000 entries), and OWL-RL's first cycle tests each term of every
triple against a Python list of the blank nodes seen so far (a 100,000-entry closure was
still there after 30 CPU minutes). Both are overridden here; and owlrl's rules read the
vocabulary's terms through ``vocabularies_read_once`` (``_Terms``), and the triples they
find already in the graph are remembered (``PresentRemembered``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from owlrl import OWLRL, Closure, OWLRL_Semantics, RDFS_Semantics, RDFSClosure
from rdflib import OWL, RDF, RDFS, BNode, Graph, Literal
from rdflib.paths import Path
from rdflib.plugins.stores.memory import SimpleMemory

from .swaps import swapped


class _Terms:
    """One of rdflib's vocabularies (``OWL``, ``RDF``, ``RDFS``) whose terms are looked up
    once each: the same URIRefs, indexing and ``in`` as the vocabulary's own. rdflib makes
    a new URIRef on every attribute read of a vocabulary (its metaclass's ``__getattr__``,
    ~1 us), and owlrl's rules read a dozen for every triple of every cycle: about 40% of
    the CPU of a closure of a small anthology."""

    def __init__(self, vocabulary: Any) -> None:
        self.__vocabulary = vocabulary

    @property
    def vocabulary(self) -> Any:
        """The rdflib vocabulary the terms are read from."""
        return self.__vocabulary

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # (no term; and none while the object is half made)
            raise AttributeError(name)
        term = getattr(self.__vocabulary, name)
        setattr(self, name, term)
        return term

    def __getitem__(self, name: str) -> Any:
        return self.__vocabulary[name]

    def __contains__(self, item: object) -> bool:
        return item in self.__vocabulary


#: The modules of owlrl whose rules run on every triple, and the vocabularies they read.
_RULE_MODULES = {OWLRL: ("OWL", "RDF", "RDFS"), RDFSClosure: ("RDF", "RDFS"), Closure: ("RDF",)}


@contextlib.contextmanager
def vocabularies_read_once() -> Iterator[None]:
    """Within the block, owlrl's rule modules read their vocabularies through ``_Terms``
    (owlrl's own classes and pySHACL's closure included: the same terms, so the same
    triples); when the last open block ends, they hold rdflib's vocabularies again
    (``swaps.swapped``), so that owlrl is left as it was for every other user."""
    with contextlib.ExitStack() as stack:
        for module, names in _RULE_MODULES.items():
            for name in names:
                vocabulary = getattr(module, name)
                if not isinstance(vocabulary, _Terms):  # (else a block is open: its terms)
                    vocabulary = _Terms(vocabulary)
                stack.enter_context(swapped(module, name, vocabulary))
        yield


#: The most triples ``PresentRemembered`` keeps (about 100 bytes each): past it, a
#: triple is looked up in the graph as owlrl does.
PRESENT_KEPT = 500_000


class PresentRemembered:
    """owlrl's ``store_triple`` with the triples it found in the graph remembered.

    The rules ask to store the same triples again and again (``x owl:sameAs x`` for every
    triple naming x, in every cycle), and owlrl looks each up in the graph (an rdflib
    lookup, ~3 us) to leave out one already there. Nothing is removed from the graph
    while the rules run (only ``post_process`` removes, and the set is emptied there),
    so a triple once found stays there: the same triples are stored."""

    destination: Any
    graph: Any
    added_triples: set[tuple[Any, Any, Any]]
    _debug: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._present: set[tuple[Any, Any, Any]] = set()
        with vocabularies_read_once():  # (the axioms are added here)
            super().__init__(*args, **kwargs)

    def closure(self) -> None:
        with vocabularies_read_once():
            super().closure()  # type: ignore[misc]

    def store_triple(self, t: tuple[Any, Any, Any]) -> None:
        """owlrl's ``store_triple``: ``t`` joins ``added_triples`` unless it is in the
        graph (or its predicate is a literal). A triple stored already in this cycle is
        left as it is (owlrl looked it up in the graph again, twice, and added it to the
        set again), and one looked up and not found is added without owlrl's own two
        lookups: of the triples the rules of a small anthology's closure store, ~80% of
        the rdflib lookups were those."""
        present = self._present
        if t in present or t in self.added_triples:
            return
        if len(present) >= PRESENT_KEPT:
            super().store_triple(t)  # type: ignore[misc]
            return
        destination = self.destination
        if t in destination or (self.graph is not destination and t in self.graph):
            present.add(t)
            return
        if not isinstance(t[1], Literal):
            if self._debug or Closure.offlineGeneration:
                print(t)
            self.added_triples.add(t)

    def post_process(self) -> None:
        self._present = set()
        super().post_process()  # type: ignore[misc]


#: The predicates of the triples on which owlrl's RDFS rules other than rdf1, rdfs4a,
#: rdfs4b and those on an ``rdf:type`` triple fire: each tests the triple's predicate
#: against one of these first (``RDFSClosure.RDFS_Semantics.rules``).
RDFS_SCHEMA_PREDICATES = frozenset({RDFS.domain, RDFS.range, RDFS.subClassOf, RDFS.subPropertyOf})
_RDF_TYPE = frozenset({RDF.type})


class RDFSRulesBySchemaPredicate:
    """owlrl's RDFS ``rules`` run only where they can fire: on a triple whose predicate is
    none of ``RDFS_SCHEMA_PREDICATES``, rdf1 and in the first cycle rdfs4a and rdfs4b, and
    on ``x rdf:type c`` besides those the rules of its class ``c`` (rdfs6, 8, 10 and 12 and
    the datatypes' subclass of ``rdfs:Literal``), found by a dict lookup. owlrl tested
    each triple against ~15 terms (rdflib's ``==``, a Python call) in every cycle, and
    most triples of an RDFS closure are ``rdf:type`` ones (two thirds of the rules' calls
    on the test fixtures): the same triples stored, with a tenth of the comparisons.

    rdf1's ``p rdf:type rdf:Property`` and rdfs4a/b's ``x rdf:type rdfs:Resource`` are
    stored once per term (``_typed_once``): once stored, a triple is in the graph or among
    those added for good, so owlrl's storing it again for every triple of every cycle
    naming the term added nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._typed_property: set[Any] = set()  # the terms rdf1 typed
        self._typed_resource: set[Any] = set()  # the terms rdfs4a or rdfs4b typed
        super().__init__(*args, **kwargs)

    def rules(self, t: tuple[Any, Any, Any], cycle_num: int) -> None:
        subject, predicate, value = t
        if predicate in RDFS_SCHEMA_PREDICATES:
            super().rules(t, cycle_num)  # type: ignore[misc]
            return
        rdf, rdfs = RDFSClosure.RDF, RDFSClosure.RDFS  # (_Terms within the block)
        if predicate not in self._typed_property:
            self._typed_once(self._typed_property, predicate, rdf.Property)  # rdf1
        if cycle_num == 1:
            typed = self._typed_resource
            for term in (subject, value):  # rdfs4a, rdfs4b
                if term not in typed:
                    self._typed_once(typed, term, rdfs.Resource)
        if predicate in _RDF_TYPE:
            store_triple = self.store_triple  # type: ignore[attr-defined]
            for predicate_made, value_made in _RULES_OF_A_CLASS.get(value, ()):
                store_triple(
                    (subject, predicate_made, subject if value_made is None else value_made)
                )

    def _typed_once(self, typed: set[Any], term: Any, kind: Any) -> None:
        """Store ``term rdf:type kind`` and note ``term`` in ``typed`` (up to
        ``PRESENT_KEPT`` terms: past it, stored again each time as owlrl does)."""
        self.store_triple((term, RDFSClosure.RDF.type, kind))  # type: ignore[attr-defined]
        if len(typed) < PRESENT_KEPT:
            typed.add(term)


#: What owlrl's RDFS rules store for ``x rdf:type c``, by ``c``, besides rdf1, rdfs4a and
#: rdfs4b: (predicate, object) of a triple about ``x`` (None: ``x`` itself).
_RULES_OF_A_CLASS: dict[Any, tuple[tuple[Any, Any], ...]] = {
    RDF.Property: ((RDFS.subPropertyOf, None),),  # rdfs6
    RDFS.Class: ((RDFS.subClassOf, RDFS.Resource), (RDFS.subClassOf, None)),  # rdfs8, rdfs10
    RDFS.ContainerMembershipProperty: ((RDFS.subPropertyOf, RDFS.member),),  # rdfs12
    RDFS.Datatype: ((RDFS.subClassOf, RDFS.Literal),),
}


class RDFSSemantics(PresentRemembered, RDFSRulesBySchemaPredicate, RDFS_Semantics):
    """owlrl's ``RDFS_Semantics``, its literal pairs found by grouping on the value."""

    def one_time_rules(self) -> None:
        """Copy each triple whose object is a literal to every literal of the same value.

        owlrl pairs ``(a, b)`` over ``product(literals, literals)`` where ``a is b`` or
        both values are known and ``==`` (two distinct terms of its set are never
        ``==``). Python's ``==`` on those values is exact across int, float, Decimal and
        bool, so grouping by value (hash, then ``==``) gives the same pairs; a value
        unequal to itself (NaN) or unknown pairs only with itself, and a value that
        cannot be hashed is compared with every known one, as owlrl does."""
        literals = self._literals()
        groups: dict[object, list[Any]] = {}
        unhashable: list[Any] = []
        for literal in literals:
            value = literal.value
            if value is None or value != value:
                groups[("alone", literal)] = [literal]
                continue
            try:
                groups.setdefault(value, []).append(literal)
            except TypeError:
                unhashable.append(literal)
        pairs = [(a, b) for group in groups.values() for a in group for b in group]
        known = [literal for literal in literals if literal.value is not None]
        pairs += [
            pair
            for one in unhashable
            for other in known
            for pair in ((one, other), (other, one))
            if one is other or one.value == other.value
        ]
        for one, other in pairs:
            for subject, predicate, _ in self.graph.triples((None, None, one)):
                self.destination.add((subject, predicate, other))


class _AppendOnlyList(list[object]):
    """A list only appended to, whose ``in`` is a set lookup."""

    def __init__(self) -> None:
        super().__init__()
        self._members: set[object] = set()

    def append(self, item: object) -> None:
        self._members.add(item)
        super().append(item)

    def __contains__(self, item: object) -> bool:
        return item in self._members


#: The predicates of the triples on which owlrl's OWL-RL rules other than the eq-* ones
#: fire: ``_properties``, ``_classes``, ``_class_axioms`` and ``_schema_vocabulary``
#: each test the triple's predicate first, against these (tests/test_owlrl_linear.py
#: reads owlrl's source for them), and do nothing for another (but for prp-ap, on an
#: annotation property, in the first cycle).
SCHEMA_PREDICATES = frozenset(
    {
        RDF.type,
        RDFS.domain,
        RDFS.range,
        RDFS.subClassOf,
        RDFS.subPropertyOf,
        *(
            OWL[name]
            for name in (
                "allValuesFrom complementOf disjointWith equivalentClass equivalentProperty "
                "hasKey hasValue intersectionOf inverseOf maxCardinality "
                "maxQualifiedCardinality oneOf propertyChainAxiom propertyDisjointWith "
                "someValuesFrom sourceIndividual unionOf"
            ).split()
        ),
    }
)


#: The classes ``c`` for which owlrl's OWL-RL rules fire on ``x rdf:type c``: each of
#: its rules on an ``rdf:type`` triple tests the triple's object against one of these
#: (tests/test_owlrl_linear.py reads owlrl's source for them). Its other rules on the
#: classes of ``x`` fire on the schema triples (``c rdfs:subClassOf d``, ...), each
#: reading the instances of ``c``.
TYPES_WITH_RULES = frozenset(
    {
        RDF.Property,
        *(
            OWL[name]
            for name in (
                "AllDifferent AllDisjointClasses AllDisjointProperties AsymmetricProperty "
                "Class DatatypeProperty FunctionalProperty InverseFunctionalProperty "
                "IrreflexiveProperty Nothing ObjectProperty SymmetricProperty "
                "TransitiveProperty"
            ).split()
        ),
    }
)
_SAME_AS = frozenset({OWL.sameAs})


def _owl(names: str) -> frozenset[Any]:
    return frozenset(OWL[name] for name in names.split())


#: owlrl's OWL-RL rule methods other than ``_equality``, in the order its ``rules`` calls
#: them (``_equality`` second), each with the predicates of the triples it can fire on
#: and, for ``x rdf:type c``, the classes ``c``: every branch of each tests the triple's
#: predicate first, and a branch on rdf:type its object (tests/test_owlrl_linear.py
#: reads owlrl's source for them). ``_properties`` fires on an annotation property too,
#: in the first cycle (prp-ap).
RULE_METHODS: dict[str, tuple[frozenset[Any], frozenset[Any]]] = {
    "_properties": (
        frozenset({RDFS.domain, RDFS.range, RDFS.subPropertyOf})
        | _owl(
            "equivalentProperty hasKey inverseOf propertyChainAxiom propertyDisjointWith "
            "sourceIndividual"
        ),
        _owl(
            "AllDisjointProperties AsymmetricProperty FunctionalProperty "
            "InverseFunctionalProperty IrreflexiveProperty SymmetricProperty TransitiveProperty"
        ),
    ),
    "_classes": (
        _owl(
            "allValuesFrom complementOf hasValue intersectionOf maxCardinality "
            "maxQualifiedCardinality oneOf someValuesFrom unionOf"
        ),
        _owl("Nothing"),
    ),
    "_class_axioms": (
        frozenset({RDFS.subClassOf}) | _owl("disjointWith equivalentClass"),
        _owl("AllDisjointClasses"),
    ),
    "_schema_vocabulary": (
        frozenset({RDFS.domain, RDFS.range, RDFS.subClassOf, RDFS.subPropertyOf})
        | _owl(
            "allValuesFrom equivalentClass equivalentProperty hasValue intersectionOf "
            "someValuesFrom unionOf"
        ),
        frozenset({RDF.Property}) | _owl("Class DatatypeProperty ObjectProperty"),
    ),
}
_ANNOTATION_PROPERTIES = frozenset(OWLRL.OWLRL_Annotation_properties)


class OWLRLSemantics(PresentRemembered, OWLRL_Semantics):
    """owlrl's ``OWLRL_Semantics``, its list of the blank nodes seen (``bnodes``, kept in
    the order first seen for ``post_process``) tested by a set lookup, each triple given
    only to the rule methods that can fire on it (``RULE_METHODS``), and its equality
    rules cut to those that can add anything."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bnodes = _AppendOnlyList()
        self._same_as_stored: set[Any] = set()  # the terms whose eq-ref triple is stored
        by_predicate: dict[Any, list[Any]] = {}
        by_type: dict[Any, list[Any]] = {}
        for name, (predicates, types) in RULE_METHODS.items():
            for table, keys in ((by_predicate, predicates), (by_type, types)):
                for key in keys:
                    methods = table.setdefault(key, [])
                    methods.append(getattr(self, name))
                    if name == "_properties":
                        methods.append(self._equality)
        equality = (self._equality,)

        def with_equality(methods: list[Any]) -> tuple[Any, ...]:
            return tuple(methods) if self._equality in methods else (*equality, *methods)

        self._by_predicate = {key: with_equality(m) for key, m in by_predicate.items()}
        self._by_type = {key: with_equality(m) for key, m in by_type.items()}
        self._equality_only = equality
        self._annotation = (self._properties, self._equality)

    def rules(self, t: tuple[Any, Any, Any], cycle_num: int) -> None:
        """owlrl's ``rules``: in the first cycle the triple's blank nodes noted, then the
        rule methods that can fire on it (``RULE_METHODS``; the eq-* rules on every
        triple), in owlrl's order. owlrl ran all five on every triple in every cycle,
        each testing it against up to ~20 terms (rdflib's ``==``, a Python call): most
        triples of an anthology are of none of their predicates (or ``x rdf:type c`` of
        an entry's own class), and a schema triple has one or two methods to fire."""
        predicate = t[1]
        if cycle_num == 1:
            for r in t:
                if isinstance(r, BNode) and r not in self.bnodes:
                    self.bnodes.append(r)
            if predicate in _ANNOTATION_PROPERTIES:  # prp-ap (_properties)
                for method in self._annotation:
                    method(t, cycle_num)
                return
        if predicate in _RDF_TYPE:
            methods = self._by_type.get(t[2], self._equality_only)
        else:
            methods = self._by_predicate.get(predicate, self._equality_only)
        for method in methods:
            method(t, cycle_num)

    def _equality(self, triple: tuple[Any, Any, Any], cycle_num: int) -> None:
        """owlrl's eq-* rules. eq-ref (``x owl:sameAs x`` for each term of every triple)
        is stored once per term: once stored, a triple is in the graph or among those
        added for good, so owlrl's storing it again in every cycle added nothing (and
        cost three lookups of it per triple). On ``x owl:sameAs x`` (eq-ref gives one
        for every term of the graph, each read again in every cycle) eq-sym, eq-trans
        and eq-rep-s/p/o are left out: with the two sides equal, each of the triples
        they store is one of the graph's own (``x p o`` for each ``x p o``, and so on),
        which ``store_triple`` leaves out. They walked every triple naming x three
        times: ~30% of an OWL-RL closure of the bundled anthology. eq-ref and eq-diff1
        stay; on any other ``owl:sameAs`` and on ``x rdf:type owl:AllDifferent``, owlrl's
        own rules run."""
        s, p, o = triple
        owl = OWLRL.OWL  # (the terms the rules read: _Terms within vocabularies_read_once)
        if p in _SAME_AS:
            if s != o:
                super()._equality(triple, cycle_num)
                return
            self._same_as(s, p)
            if (s, owl.differentFrom, o) in self.graph:  # eq-diff1
                self.add_error(
                    "'sameAs' and 'differentFrom' cannot be used on the same subject-object "
                    f"pair: ({s}, {o})"
                )
            return
        if p in _RDF_TYPE and o == owl.AllDifferent:  # eq-diff2, eq-diff3
            super()._equality(triple, cycle_num)
            return
        self._same_as(s, o, p)

    def _same_as(self, *terms: Any) -> None:
        """eq-ref: ``x owl:sameAs x`` stored for each of ``terms`` not stored before."""
        stored = self._same_as_stored
        for term in terms:
            if term not in stored:
                self.store_triple((term, OWLRL.OWL.sameAs, term))
                if len(stored) < PRESENT_KEPT:
                    stored.add(term)


class ClosureGraph(Graph):
    """A graph on rdflib's SimpleMemory store (no contexts to index) whose lookups read
    the store's three indexes directly: the same triples, in the same order, as the
    store's own ``triples`` gives them. For an owlrl closure, which looks triples up
    ~10,000 times a fixture anthology: rdflib's way through ``Graph.triples`` (a test
    for a path, a generator around the store's) and the store's (each pattern term
    compared with ``!=``, a Python call, and a contexts generator made for every triple
    found) was ~20% of an export's closure."""

    def __init__(self) -> None:
        super().__init__(store=SimpleMemory())
        store: Any = self.store
        # SimpleMemory's indexes (dicts of dicts of dicts): by subject, predicate and
        # object; by predicate, object and subject; by object, subject and predicate.
        self._spo: dict[Any, dict[Any, dict[Any, int]]] = store._SimpleMemory__spo
        self._pos: dict[Any, dict[Any, dict[Any, int]]] = store._SimpleMemory__pos
        self._osp: dict[Any, dict[Any, dict[Any, int]]] = store._SimpleMemory__osp

    def __contains__(self, triple: Any) -> bool:
        s, p, o = triple
        if s is None or p is None or o is None or isinstance(p, Path):
            return Graph.__contains__(self, triple)
        objects = self._spo.get(s, {}).get(p)
        return objects is not None and o in objects

    def triples(self, triple: Any) -> Iterator[Any]:  # type: ignore[override]
        """``Graph.triples`` of the pattern ``triple`` (None for any term), read from
        the store's indexes as SimpleMemory's ``triples`` reads them."""
        subject, predicate, value = triple
        if isinstance(predicate, Path):
            yield from Graph.triples(self, triple)
        elif subject is not None:
            by_predicate = self._spo.get(subject, {})
            if predicate is not None:
                objects = by_predicate.get(predicate, {})
                if value is not None:
                    if value in objects:
                        yield subject, predicate, value
                else:
                    for o in objects:
                        yield subject, predicate, o
            else:
                for p, objects in by_predicate.items():
                    if value is not None:
                        if value in objects:
                            yield subject, p, value
                    else:
                        for o in objects:
                            yield subject, p, o
        elif predicate is not None:
            by_value = self._pos.get(predicate, {})
            if value is not None:
                for s in by_value.get(value, {}):
                    yield s, predicate, value
            else:
                for o, subjects in by_value.items():
                    for s in subjects:
                        yield s, predicate, o
        elif value is not None:
            for s, predicates in self._osp.get(value, {}).items():
                for p in predicates:
                    yield s, p, value
        else:
            for s, by_predicate in self._spo.items():
                for p, objects in by_predicate.items():
                    for o in objects:
                        yield s, p, o


def rdf_triples(closure: Graph) -> Graph:
    """``closure`` (an owlrl closure, changed in place) without its triples whose subject
    is a literal.

    owlrl computes the closure in generalized RDF, as the RDF 1.1 Semantics states its
    rules (rdfs4b and rdfs3 type a literal object, OWL 2 RL's dt-type2 and eq-ref give
    ``"x" rdf:type xsd:string`` and ``"x" owl:sameAs "x"``), and keeps those triples
    (RDFLib/OWL-RL#63). They are not RDF: the Semantics counts as entailed the legal RDF
    triples its rules conclude, a SPARQL store cannot hold the others, and the fast
    engine's rules never conclude them."""
    for triple in [t for t in closure if isinstance(t[0], Literal)]:
        closure.remove(triple)
    return closure
