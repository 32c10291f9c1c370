"""The Oxigraph engine: the anthology in a pyoxigraph store, shapes run as compiled SPARQL.

``load_fast(root)`` parses the data files with pyoxigraph's Turtle parser into one store
(data, ontology, the vocabulary skeleton and shapes in named graphs) and implements the
``engine.Engine`` interface on it. Validation gives the same plain rows as the reference
engine, so every writer, waiver and source location works the same on either engine.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast, overload

import pyoxigraph as ox

from . import resources
from .choices import DEFAULT_BASE
from .entries import EntryIndex, check_parts
from .errors import AnthologyError
from .layout import LayoutScan
from .parts import GRAPHS, PARTS, OxTerm
from .prefixes import prefixed_name
from .progress import track
from .ruleset import Rules, load_rules
from .sourcemap import refuse_rdf12_terms
from .sources import (
    TurtleFiles,
    load_into,
    parse_quads,
    read_source,
)
from .sparql_text import has_keyword, sparql_error

# rdflib loads only where a caller asks for rdflib terms or graphs (a lookup, a query's
# rows, the rules): loading the data and counting it (``stats``) do without. The SHACL
# compiler and the inference rules load when validation or inference first needs them.
if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node

    from .kinds import Term
    from .query_result import QueryResult
    from .ruleset import Triple as RuleTriple
    from .shacl import CompiledConstraint, ResultRow, ShapesGraph

DATA = GRAPHS["data"]
ONTOLOGY = GRAPHS["ontology"]
SHAPES = GRAPHS["shapes"]
VOCABULARY = ox.NamedNode("urn:anthology-kg:graph:vocabulary")
#: The graphs a query's default graph is the union of, that may hold a triple of another
#: (a data file may restate a triple of the ontology, and the shapes one of either):
#: Oxigraph's union of several graphs keeps a triple once per graph that holds it, where
#: SPARQL's default graph is their merge, a set (``OxigraphEngine._merged``).
_RULE_GRAPHS = (ONTOLOGY, SHAPES, VOCABULARY)
_MERGED = "urn:anthology-kg:graph:merged:"
#: Up to this many data files, validation hash-joins the focus nodes of a class target
#: with a constraint's pattern (Compiler.for_store's path_targets): the fastest form,
#: but its hash table holds every focus node while the query runs, 12 MB per such
#: query at 100,000 entries, two at a time on two threads. Above it, the focus nodes
#: are looked up one by one: ~12% more query CPU, peak RSS of check at 100,000
#: entries 582 -> 562 MiB.
HASH_JOINED_TARGETS_UP_TO = 50_000
_IDENTIFIER = ox.NamedNode("http://purl.org/dc/terms/identifier")
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_XSD_DATE_TIME = "http://www.w3.org/2001/XMLSchema#dateTime"


def _text(term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple) -> str:
    """An identifier's text: a literal's lexical form (an IRI's text, should one be used)."""
    return str(term) if isinstance(term, ox.Triple) else term.value


_OX_TERMS = (ox.NamedNode, ox.BlankNode, ox.Literal, ox.Triple)


def _as_ox(node: Term) -> OxTerm:
    """``node`` as a pyoxigraph term (converted from rdflib's where it is one)."""
    if isinstance(node, _OX_TERMS):
        return node
    from .terms import to_ox

    converted: OxTerm = to_ox(node)
    return converted


class StoreAccess:
    """Who may look at an engine's store: readers together, or one validation alone.

    A validation changes what the data graph holds while it runs (the vocabulary lent
    to it, a closure of its own), so a read must not start meanwhile. A read holds the
    access only while it starts: a pyoxigraph query or iterator reads the store as it
    was when it began, whatever is added later. A waiting validation goes before reads
    that come after it; a thread that holds the access may take it again (a read in a
    read, or in its own validation)."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._readers = 0
        self._writer: int | None = None
        self._writers_waiting = 0
        self._held = threading.local()

    def acquire_read(self) -> None:
        """Wait until no validation runs or waits, then read (see ``reading``)."""
        depth = getattr(self._held, "reads", 0)
        if not depth and self._writer != threading.get_ident():
            with self._changed:
                while self._writer is not None or self._writers_waiting:
                    self._changed.wait()  # (a Ctrl-C here leaves nothing held)
                self._readers += 1
        self._held.reads = depth + 1

    def release_read(self) -> None:
        depth = self._held.reads - 1
        self._held.reads = depth
        if depth or self._writer == threading.get_ident():
            return
        with self._changed:
            self._readers -= 1
            if not self._readers:
                self._changed.notify_all()

    def reading(self) -> StoreAccess:
        """Held (``with``) while a read of the store starts."""
        return self

    def __enter__(self) -> None:
        self.acquire_read()

    def __exit__(self, *exc_info: object) -> None:
        self.release_read()

    @contextmanager
    def changing(self) -> Iterator[None]:
        """Held while a validation (or ``infer``) changes the store: no read starts
        meanwhile, nor another change."""
        me = threading.get_ident()
        if self._writer == me:
            yield
            return
        if getattr(self._held, "reads", 0):
            raise RuntimeError("a read of the store cannot turn into a change")
        with self._changed:
            self._writers_waiting += 1
            try:
                while self._writer is not None or self._readers:
                    self._changed.wait()
            except BaseException:  # given up (Ctrl-C): the reads it held back may start
                self._writers_waiting -= 1
                self._changed.notify_all()
                raise
            self._writers_waiting -= 1
            self._writer = me
        try:
            yield
        finally:
            with self._changed:
                self._writer = None
                self._changed.notify_all()


@dataclass(kw_only=True)
class OxigraphEngine(EntryIndex):
    """The Oxigraph engine (the default): the anthology in a pyoxigraph store (data,
    ontology, the vocabulary skeleton and shapes in named graphs), shapes run as
    compiled SPARQL, queries answered by the store."""

    name: ClassVar[str] = "fast"
    answers_beside: ClassVar[bool] = True
    #: The data graph only, until the rules are asked for (``store`` adds them); None
    #: until first used when the load was deferred (``load_fast(deferred=True)``).
    _loaded: ox.Store | None = field(default=None, repr=False)
    _loading: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: Reads of the store start only while no validation changes it (the vocabulary
    #: lent to the data graph, a closure of its own), and validations take turns.
    _access: StoreAccess = field(default_factory=StoreAccess, repr=False)
    #: The rule graphs copied into the store so far (``_with_rules``).
    _rules_in_store: set[ox.NamedNode] = field(default_factory=set, repr=False)
    #: The merged rule graphs made for a default graph (``_merged``), by their graphs.
    _merged_graphs: dict[tuple[ox.NamedNode, ...], ox.NamedNode] = field(
        default_factory=dict, repr=False
    )
    _waivers_located: bool = field(default=False, repr=False)
    #: Whether the compiled shapes are known to give SHACL's verdict on this store: each
    #: compiles, and no literal a shape reads as written is held in another form
    #: (``engine.validating_engine``, asked once).
    validates_as_written: bool = field(default=False, repr=False)
    #: Each blank node of the data graph with the label the reference engine gives it,
    #: once a query's ORDER BY has met one (``_blank_label``).
    _blank_labels: dict[ox.BlankNode, str] | None = field(default=None, repr=False)
    _labelling: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _names: Graph | None = field(default=None, repr=False)
    _data: Graph | None = field(default=None, repr=False)
    #: The bytes of each data file as read, when the load was deferred (``sources``).
    _sources: list[bytes] | None = field(default=None, repr=False)
    #: The closure (``none``, ``rdfs``, ``owlrl``) held in the store's ``INFERRED``
    #: graph, seen by queries with the data and by validation (see ``infer``).
    inference: str = "none"

    @property
    def store(self) -> ox.Store:
        """The store with every graph: data, ontology, the vocabulary skeleton, shapes
        (the rules are parsed by pyoxigraph and added on first use)."""
        return self._with_rules(_RULE_GRAPHS)

    def _with_rules(self, graphs: Iterable[ox.NamedNode]) -> ox.Store:
        """The store, with the rule graphs among ``graphs`` copied in on first use: a
        validation without inference copies none (``_data_with_vocabulary``; the bundled
        rules' 1,189 triples cost ~2.5 ms to copy)."""
        missing = [g for g in graphs if g in _RULE_GRAPHS and g not in self._rules_in_store]
        for graph in missing:
            # Two threads copying one graph at once add the same quads (a set).
            self._store.extend(ox.Quad(s, p, o, graph) for s, p, o in self._rule_triples(graph))
            self._rules_in_store.add(graph)
        return self._store

    def _rule_triples(self, graph: ox.NamedNode) -> Sequence[RuleTriple]:
        """The triples of the rule graph ``graph`` (ontology, vocabulary or shapes), as
        the rules parsed them (not read from the store)."""
        from .ruleset import vocabulary_triples

        ontology = self.rules.ontology_triples
        if graph == ONTOLOGY:
            return ontology
        return vocabulary_triples(ontology) if graph == VOCABULARY else self.rules.shape_triples

    @property
    def waivers(self) -> Graph:
        """``rules.waivers``; where each is written is then in ``locations``."""
        if not self._waivers_located:
            for node, where in self.rules.locations.items():
                self.locations.setdefault(node, where)
            self._waivers_located = True
        return self.rules.waivers

    def __post_init__(self) -> None:
        if self._loaded is None and self._sources is None:
            raise ValueError("an Oxigraph engine needs its store or the bytes to parse it from")
        if self._loaded is None:
            _DEFERRED[id(self)] = self
        _ENGINES[id(self)] = self

    @property
    def _store(self) -> ox.Store:
        """The store with the data (``store``: and the rules), parsed from the bytes
        read when the load was deferred, on first use (once, whatever thread asks)."""
        store = self._loaded
        if store is None:
            with self._loading:
                if self._loaded is None:
                    loaded = ox.Store()
                    files = cast(TurtleFiles, self.data_files)  # as load_fast made it
                    sources = cast(list[bytes], self._sources)  # (``__post_init__``)
                    _parse_all(loaded, files, sources, self.base)
                    self._loaded = loaded
                    _DEFERRED.pop(id(self), None)
                store = self._loaded
        return store

    @property
    def loaded(self) -> bool:
        """Whether the data is in the store (deferred, it is not until first used)."""
        return self._loaded is not None

    def sources(self) -> list[bytes] | None:
        """The bytes of each data file (in ``data_files`` order) as read when the load
        was deferred, which the store is parsed from, else None: a caller that parses
        the files again (the site's model) reads what the store holds, once."""
        return self._sources

    def normalize(self, node: str) -> str:
        """An IRI as a prefixed name where a bound prefix fits, else ``<iri>`` (rdflib's
        answer; the tool's own prefixes are written without asking it)."""
        fast = prefixed_name(node, self.base)
        if fast is not None:
            return fast
        if self._names is None:
            from rdflib import Graph

            from .namespaces import bind_prefixes

            self._names = bind_prefixes(Graph(), self.base)
        return self._names.namespace_manager.normalizeUri(node)

    def identifier(self, node: Term) -> str | None:
        """The ``dcterms:identifier`` of ``node`` (an rdflib or a pyoxigraph term); of
        several (rule 8 reports them), the least by its text, as the reference engine
        takes it."""
        subject = _as_ox(node)
        if isinstance(subject, ox.Literal):
            return None
        with self._access.reading():
            quads = self._store.quads_for_pattern(subject, _IDENTIFIER, None, DATA)
        return min((_text(quad.object) for quad in quads), default=None)

    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        from .terms import from_ox

        with self._access.reading():
            quads = self._store.quads_for_pattern(None, _IDENTIFIER, None, DATA)
        for quad in quads:
            yield from_ox(quad.subject), _text(quad.object)

    def identified(self, text: str) -> Iterator[Node]:
        """The nodes whose identifier is ``text``."""
        from .terms import from_ox

        with self._access.reading():
            quads = self._store.quads_for_pattern(None, _IDENTIFIER, ox.Literal(text), DATA)
        for quad in quads:
            yield from_ox(quad.subject)

    @overload
    def referrers(self, node: Node) -> set[Node]: ...

    @overload
    def referrers(self, node: OxTerm) -> set[OxTerm]: ...

    def referrers(self, node: Term) -> set[Node] | set[OxTerm]:
        """The subjects of the data's quads whose object is ``node``, terms of the
        library ``node`` is a term of."""
        with self._access.reading():
            quads = self._store.quads_for_pattern(None, None, _as_ox(node), DATA)
        if isinstance(node, _OX_TERMS):
            subjects: set[OxTerm] = {q.subject for q in quads}
            return subjects
        from .terms import from_ox

        return {from_ox(q.subject) for q in quads}

    @overload
    def objects(self, node: Node) -> set[Node]: ...

    @overload
    def objects(self, node: OxTerm) -> set[OxTerm]: ...

    def objects(self, node: Term) -> set[Node] | set[OxTerm]:
        """The objects of the data's quads whose subject is ``node``, terms of the
        library ``node`` is a term of (none for a literal)."""
        subject = _as_ox(node)
        if isinstance(subject, ox.Literal):
            return set()
        with self._access.reading():
            quads = self._store.quads_for_pattern(subject, None, None, DATA)
        if isinstance(node, _OX_TERMS):
            found: set[OxTerm] = {q.object for q in quads}
            return found
        from .terms import from_ox

        return {from_ox(q.object) for q in quads}

    # -- the graph -----------------------------------------------------------------------

    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        """The quads of ``parts``, each in its part's graph, literals as written.

        The store keeps a numeric literal in canonical form ("007"^^xsd:integer is 7),
        which is right for queries and validation but not for writing the graph back
        out, so the data is read again from its files by pyoxigraph's parser and the
        ontology and shapes are taken from their parsed graphs."""
        check_parts(parts)
        for part in parts:
            if part == "data":
                for path in self.data_files:
                    for quad in parse_quads(read_source(path), path, self.base):
                        yield ox.Quad(quad.subject, quad.predicate, quad.object, DATA)
            else:
                from .terms import to_ox

                name = GRAPHS[part]
                for s, p, o in self.graph(part):
                    yield ox.Quad(to_ox(s), to_ox(p), to_ox(o), name)

    def graph(self, part: str) -> Graph:
        """The rdflib graph of one part (the data read out of the store once, its blank
        nodes labelled from their content), for code that works on rdflib graphs."""
        check_parts((part,))
        if part == "data":
            if self._data is None:
                from rdflib import Graph

                from .bnodes import relabel
                from .namespaces import bind_prefixes
                from .terms import from_ox

                data = bind_prefixes(Graph(), self.base)
                for quad in self.quads(("data",)):
                    data.add((from_ox(quad.subject), from_ox(quad.predicate), from_ox(quad.object)))
                self._data = relabel(data)
            return self._data
        return {"ontology": self.ontology, "shapes": self.shapes}[part]

    def describe(self, node: Node) -> Graph:
        """What the data says of ``node``: its triples, its blank nodes' (nested), the
        triples that point at it, and the identifier of every entry they name."""
        from .loader import describe_with
        from .terms import from_ox, to_ox

        def outgoing(subject: Node) -> Iterator[tuple[Node, Node]]:
            with self._access.reading():
                quads = self._store.quads_for_pattern(to_ox(subject), None, None, DATA)
            for q in quads:
                yield from_ox(q.predicate), from_ox(q.object)

        def incoming(value: Node) -> Iterator[tuple[Node, Node]]:
            with self._access.reading():
                quads = self._store.quads_for_pattern(None, None, to_ox(value), DATA)
            for q in quads:
                yield from_ox(q.subject), from_ox(q.predicate)

        return describe_with(node, outgoing, incoming, self.identifier, self.base)

    # -- queries and validation ----------------------------------------------------------

    def query(
        self,
        text: str,
        bindings: Mapping[str, Node] | None = None,
        source: str | Path | None = None,
        parts: Sequence[str] = PARTS,
        *,
        allow_service: bool = False,
    ) -> QueryResult:
        """Run ``text`` on the union of ``parts`` (a default graph of the data, ontology
        and shapes unless told), parameters bound as RDF terms in a VALUES block
        (pyoxigraph's substitutions only bind projected variables). A query calling a
        remote endpoint (SERVICE) is an AnthologyError unless ``allow_service``, and then
        gives up after ``guards.SERVICE_REQUEST_TIMEOUT`` seconds."""
        from .guards import service_bounded, uses_service
        from .query_result import in_select_star_order
        from .sparql_text import with_values

        bound = with_values(text, bindings or {}, source)

        def answer() -> QueryResult:  # (``_run`` refuses SERVICE unless allowed)
            with self._access.reading():
                graphs = self._default_graph(parts)
                answered = _run(self._store, bound, graphs, source, allow_service=allow_service)
            return converted(self._ordered(answered, bound), as_query_result, source)

        calls_service = allow_service and uses_service(text)

        result = service_bounded(answer, source) if calls_service else answer()
        return in_select_star_order(result, text)

    def store_answer(self, text: str, source: str | Path | None = None) -> StoreAnswer:
        """The store's own answer to ``text`` on the data, ontology and shapes (as
        ``query`` without bindings, SERVICE refused, rows in the same order), no rdflib
        term made: for a caller that writes the terms out (the site); ``as_query_result``
        gives ``query``'s answer from it."""
        with self._access.reading():
            answered = _run(self._store, text, self._default_graph(PARTS), source)
        return self._ordered(answered, text)

    def _ordered(self, answered: Answered, text: str) -> StoreAnswer:
        """``answered``, the store's answer to ``text``, with the rows of its ``ORDER BY``
        in a stable order where they order by a blank node (``OrderedSolutions``)."""
        if not isinstance(answered, ox.QuerySolutions):
            return answered
        from .sparql_text import order_conditions

        conditions = order_conditions(text)
        if not conditions or conditions[0][0] is None:
            return answered
        return OrderedSolutions(answered, conditions, self._blank_label)

    def _blank_label(self, node: ox.BlankNode) -> str:
        """The label the reference engine gives the blank node ``node`` of the data
        graph (``_stable_blank_labels``, worked out on the first call), else its label
        in the store (a node of the rules, already labelled by content)."""
        labels = self._blank_labels
        if labels is None:
            with self._labelling:
                if self._blank_labels is None:
                    with self._access.reading():
                        self._blank_labels = self._stable_blank_labels(set())
                labels = self._blank_labels
        return labels.get(node, node.value)

    def select(self, text: str, parts: Sequence[str] = PARTS) -> list[tuple[OxTerm | None, ...]]:
        """The rows of SELECT ``text`` on the union of ``parts``, as pyoxigraph terms in
        the order of its variables (no rdflib: ``stats`` counts with it); SERVICE
        refused."""
        with self._access.reading():
            result = _run(self._store, text, self._default_graph(parts), None)
        if not isinstance(result, ox.QuerySolutions):
            raise AnthologyError("not a SELECT query")
        variables = result.variables
        return [tuple(row[v] for v in variables) for row in result]

    def triple_count(self, parts: Sequence[str] = ("data",)) -> int:
        """``COUNT(*)`` of ``?s ?p ?o`` on the union of ``parts``, without running it:
        the store's size less the quads of the other graphs (none, or the rules and
        closure, beside the data), ~0.15 s less than the query at 100,000 entries.

        Another thread may add to the store meanwhile (its first query makes a merged
        graph, ``_merged``; the rules copied in): the other graphs' quads are counted
        before and after the size is taken, again until the two counts agree. A read
        sees the store only grow (``StoreAccess`` keeps every removal out), so two equal
        counts are what the other graphs held when the size was taken."""
        with self._access.reading():
            union = self._default_graph(parts)
            outside = self._quads_outside(union)
            while True:
                size = len(self._store)
                before, outside = outside, self._quads_outside(union)
                if outside == before:
                    return size - outside

    def _quads_outside(self, graphs: Sequence[ox.NamedNode]) -> int:
        """The number of the store's quads in none of ``graphs``."""
        others = [g for g in self._store.named_graphs() if g not in graphs]
        return sum(
            sum(1 for _ in self._store.quads_for_pattern(None, None, None, graph))
            for graph in [*others, ox.DefaultGraph()]
        )

    def _default_graph(self, parts: Sequence[str]) -> list[ox.NamedNode]:
        """The graphs of ``parts`` (with the closure, under inference), no triple in
        two of them (``_merged``); a rule graph is copied into the store only where it
        is queried alone."""
        check_parts(parts)
        graphs = [GRAPHS[p] for p in parts]
        if self.inference != "none" and {"data", "ontology"} & set(parts):
            from .inference import INFERRED

            graphs.append(INFERRED)
        merged = self._merged(graphs)
        self._with_rules(merged)  # a rule graph asked for alone is queried in place
        return merged

    def _merged(self, graphs: list[ox.NamedNode]) -> list[ox.NamedNode]:
        """``graphs`` with the rule graphs among them (``_RULE_GRAPHS``, small) replaced
        by one graph of the store holding their triples that no other of ``graphs``
        holds, made on first use: the data and the closure, the large graphs, are
        queried in place (the closure holds no triple of the data or the ontology it
        was inferred from, ``inference.materialize``)."""
        rules = [g for g in graphs if g in _RULE_GRAPHS]
        if not rules or len(graphs) == 1:
            return graphs
        others = [g for g in graphs if g not in _RULE_GRAPHS]
        key = tuple(graphs)
        merged = self._merged_graphs.get(key)
        if merged is None:
            # Named by its graphs: two threads making it at once add the same triples to
            # the same graph (a set), so no lock is held (none is left held in a fork).
            merged = ox.NamedNode(_MERGED + "+".join(g.value for g in graphs))
            # From the rules' own triples: the rule graphs need not be copied in first
            # (~7 ms of a query's ~17 ms to make this graph for the bundled rules).
            store = self._store
            kept = {ox.Triple(s, p, o) for graph in rules for s, p, o in self._rule_triples(graph)}
            store.extend(
                ox.Quad(t.subject, t.predicate, t.object, merged)
                for t in kept
                if not any(ox.Quad(t.subject, t.predicate, t.object, g) in store for g in others)
            )
            self._merged_graphs[key] = merged
        return [*others, merged]

    def infer(self, inference: str) -> None:
        """Hold the ``inference`` closure of the data and ontology in the store (its
        ``INFERRED`` graph, computed by ``inference.materialize``); ``none`` drops it.
        Raises ``InferenceUnsupported`` where the rules there cannot give owlrl's. No
        read of the store starts meanwhile (``StoreAccess``)."""
        if inference == self.inference:
            return
        from .inference import INFERRED, materialize

        with self._access.changing():
            self.store.clear_graph(INFERRED)
            self._forget_merged()
            self.inference = "none"
            if inference != "none":
                materialize(self.store, [DATA, ONTOLOGY], inference, INFERRED)
                self.inference = inference

    def _forget_merged(self) -> None:
        """Drop the merged rule graphs: they leave out what the closure held."""
        for merged in self._merged_graphs.values():
            self.store.remove_graph(merged)
        self._merged_graphs.clear()

    def shacl_rows(self, inference: str = "none") -> list[ResultRow]:
        """Run the compiled shapes on the store's data and vocabulary; with inference,
        on the data, the whole ontology and their closure, as pySHACL validates. Queries
        afterwards see the closure they saw before (``inference`` is this call's own),
        and the data graph as it was: without inference, the vocabulary's triples the
        data lacks are in it while the shapes run (``_data_with_vocabulary``), so no
        other read of the store starts meanwhile (``StoreAccess``: a query in another
        thread waits), and validations in several threads run one at a time."""
        with self._access.changing():
            return self._shacl_rows(inference)

    def _shacl_rows(self, inference: str) -> list[ResultRow]:
        from .shacl import Compiler, run_compiled
        from .shacl.validator import STORE_WORKERS, store_select

        queried_with = self.inference
        lent: list[ox.Quad] = []
        if inference != "none":
            from .inference import INFERRED

            self.infer(inference)
        try:
            if inference != "none":
                graphs = self._merged([DATA, ONTOLOGY, INFERRED])
            else:
                graphs, lent = self._data_with_vocabulary()
            select = store_select(self._store, graphs, ox_terms=True)
            # Compiled again for this store: its class hierarchy picks the fastest forms,
            # or for a large anthology the leanest (see HASH_JOINED_TARGETS_UP_TO).
            small = len(self.data_files) <= HASH_JOINED_TARGETS_UP_TO
            shapes = self.rules.shapes_view
            compiled = Compiler.for_store(shapes, SHAPES.value, select, small).compile()
            if any(has_keyword(c.sparql, k) for c in compiled for k in ("GRAPH", "FROM")):
                self._with_rules(_RULE_GRAPHS)  # a query reads a named graph: all are there
            rows = run_compiled(select, compiled, STORE_WORKERS, self._blank_text(lent))
        finally:
            for quad in lent:
                self._store.remove(quad)
            self.infer(queried_with)  # validating leaves the queries' closure as it was
        return self._literals_as_written(rows)

    def _blank_text(self, lent: Sequence[ox.Quad]) -> Callable[[ox.BlankNode], str]:
        """A blank node's text in a filled message template: the label the reference
        engine's loader gives it (``bnodes.ox_stable_labels`` of the data files' triples
        as written), not the store's, which is new in every load. Worked out on the
        first call only (few messages name a blank node), from the data graph's own
        triples (not the vocabulary ``lent`` to it meanwhile); a node of no data file (the
        vocabulary's, already labelled by content) keeps its label."""
        lock = threading.Lock()
        labels: dict[ox.BlankNode, str] | None = None

        def text(node: ox.BlankNode) -> str:
            nonlocal labels
            with lock:
                if labels is None:
                    labels = self._stable_blank_labels(set(lent))
            return labels.get(node, node.value)

        return text

    def _stable_blank_labels(self, lent: set[ox.Quad]) -> dict[ox.BlankNode, str]:
        """Each blank node of the store's data graph (but the ``lent`` quads) with the
        label the reference engine's loader gives it.

        That loader labels the triples as the files write them; the store holds their
        literals in canonical form ("007"^^xsd:integer is "7"), which a label may hash.
        So the files are read again, their triples labelled as written and, through a
        scratch store, in canonical form too: a canonical label of the store's data
        graph names the written node, and so its label (alike nodes, interchangeable,
        may trade labels)."""
        from .bnodes import ox_stable_labels

        in_store = ox_stable_labels(
            (q.subject, q.predicate, q.object)  # type: ignore[misc]
            for q in self._store.quads_for_pattern(None, None, None, DATA)
            if q not in lent
        )
        if not in_store:
            return {}
        written = dict.fromkeys(
            (q.subject, q.predicate, q.object)
            for path in self.data_files
            for q in parse_quads(read_source(path), path, self.base)
        )
        scratch = ox.Store()
        scratch.extend(ox.Quad(s, p, o) for s, p, o in written)
        canonical = {(q.subject, q.predicate, q.object) for q in scratch}
        if canonical == set(written):  # the store's triples as written: the same labels
            return {node: label.value for node, label in in_store.items()}
        as_written = ox_stable_labels(written)  # type: ignore[arg-type]
        by_canonical = {
            label.value: as_written[node].value
            for node, label in ox_stable_labels(canonical).items()
        }
        return {node: by_canonical.get(label.value, node.value) for node, label in in_store.items()}

    def _data_with_vocabulary(self) -> tuple[list[ox.NamedNode], list[ox.Quad]]:
        """The data graph as the one graph of the data and the vocabulary (the union
        validation runs on), by adding to it the vocabulary's triples it lacks: those
        quads, which the caller takes out again. A query on one graph makes one lookup
        where the union of two makes two: the compiled shapes took ~20% less CPU at
        10,000 entries. The caller holds ``_access`` for a change: no other read sees
        the additions. (Made from the rules' triples, not from the store's vocabulary
        graph, which a validation then need not copy in.)"""
        from .ruleset import vocabulary_triples

        store = self._store
        vocabulary = vocabulary_triples(self.rules.ontology_triples)
        lent = [q for s, p, o in vocabulary if (q := ox.Quad(s, p, o, DATA)) not in store]
        store.extend(lent)
        return [DATA], lent

    def _literals_as_written(self, rows: list[ResultRow]) -> list[ResultRow]:
        """``rows`` with each value the literal as its entry's file writes it: the store
        gives a typed literal in canonical form ("007"^^xsd:integer is "7"), so the focus
        entry's file is read again and a value mapped back to the one literal there with
        that canonical form (``shacl.literals_as_written``). Only rows with such a value
        cost."""
        by_file: dict[Path, list[int]] = {}
        data_folder = self.root / "data"
        for index, row in enumerate(rows):
            value = row.value
            if (
                isinstance(value, ox.Literal)
                and value.language is None
                and value.datatype.value != _XSD_STRING
            ):
                located = self.location(row.focus)
                if located is not None and located.path.parent == data_folder:
                    by_file.setdefault(located.path, []).append(index)
        if not by_file:
            return rows
        from .shacl import literals_as_written

        rows = list(rows)
        for path, indexes in sorted(by_file.items()):
            quads = parse_quads(read_source(path), path, self.base)
            written = (q.object for q in quads if isinstance(q.object, ox.Literal))
            mapped = literals_as_written([rows[i] for i in indexes], written)
            for index, row in zip(indexes, mapped, strict=True):
                rows[index] = row
        return rows


def compile_shapes(shapes: Graph | ShapesGraph) -> list[CompiledConstraint]:
    """``shapes`` compiled to SPARQL for a store that holds them in its shapes graph
    (``$shapesGraph``); raises ``Unsupported`` for shapes the compiler refuses. (The
    constraints carry the terms of the library ``shapes`` is read with.)"""
    from .shacl import Compiler

    return Compiler(shapes, SHAPES.value).compile()


def load_fast(
    root: Path | None = None,
    *,
    base: str = DEFAULT_BASE,
    extra_shapes: Sequence[Path] = (),
    rules: Rules | None = None,
    inference: str = "none",
    layout: bool = False,
    deferred: bool = False,
) -> OxigraphEngine:
    """Load the anthology at ``root`` into a pyoxigraph store (``rules``, when the
    caller has them already), with the ``inference`` closure
    (``OxigraphEngine.infer``); with ``layout``, the text of each file, read once, is
    also scanned for ``layout_warnings``.

    ``deferred``: the files are read now (an unreadable one is an error now) and their
    bytes kept (``sources``); they are parsed into the store when it is first used
    (at once for a closure). So a forked child may parse them while this process does
    other work with the same bytes (the site: its model); a file that is not Turtle is
    then an error of that first use. Not with ``layout``."""
    if deferred and layout:
        raise ValueError("a deferred load scans no layout")
    root = (root or resources.find_root()).resolve()
    rules = rules or load_rules(root, base, extra_shapes)
    data_files = TurtleFiles.of(root / "data")
    scan = LayoutScan(data_files) if layout else None
    store: ox.Store | None
    sources: list[bytes] | None
    if deferred:
        store, sources = None, [data for _, _, data in _read(data_files, "reading")]
    else:
        store, sources = ox.Store(), None
        for index, path, data in _read(data_files, "loading"):
            text = _parse(store, data, index, path, data_files, base)
            if scan is not None:
                scan.add(index, data_files.names[index], text)
    engine = OxigraphEngine(
        root=root,
        _loaded=store,
        rules=rules,
        data_files=data_files,
        base=base,
        layout_suspects=scan.suspects() if scan is not None else None,
        _sources=sources,
    )
    engine.infer(inference)
    return engine


#: The engines whose store is not parsed yet (``load_fast(deferred=True)``): a child
#: forked while another thread parses one gets a lock of its own, not the copy of one
#: held for good (its store is then parsed in the child on first use, as in a thread).
_DEFERRED: weakref.WeakValueDictionary[int, OxigraphEngine] = weakref.WeakValueDictionary()
#: Every engine alive: a forked child gives each a fresh access (``_fresh_locks``).
_ENGINES: weakref.WeakValueDictionary[int, OxigraphEngine] = weakref.WeakValueDictionary()


def _fresh_locks() -> None:
    """In the child: locks of its own, not the copies of ones other threads held. A fork
    does not wait for a validation another thread runs (an at-fork hook that blocks
    holds up every fork of the process, ``subprocess`` with ``preexec_fn`` included, for
    as long as validations follow one another): a child forked meanwhile has the
    vocabulary's lent triples in its copy of the data graph."""
    for engine in list(_DEFERRED.values()):
        engine._loading = threading.Lock()
    for engine in list(_ENGINES.values()):
        engine._access = StoreAccess()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks)


def _read(data_files: TurtleFiles, label: str) -> Iterator[tuple[int, str, bytes]]:
    """Each data file's index, path and bytes, read as the reference engine's loader
    reads them (the strict parser's verdict and messages), with a progress bar."""
    # Each file's path as text: a Path object per file costs more than reading it.
    folder = os.path.join(data_files.folder, "")
    for index, name in enumerate(track(data_files.names, label)):
        path = folder + name
        try:
            yield index, path, read_source(path, listed_regular=data_files.listed_regular(name))
        except AnthologyError as exc:
            exc.path = data_files[index]  # the file as a Path, as every loader names it
            raise


def _parse(
    store: ox.Store, data: bytes, index: int, path: str, data_files: TurtleFiles, base: str
) -> str:
    """Parse the bytes of data file ``index`` (at ``path``) into the store's data
    graph; its text."""
    try:
        text = load_into(store, data, path, base, DATA)
        refuse_rdf12_terms(data, path, base)  # as the reference engine does
    except AnthologyError as exc:
        exc.path = data_files[index]
        raise
    return text


def _parse_all(store: ox.Store, data_files: TurtleFiles, sources: list[bytes], base: str) -> None:
    """Parse every data file's bytes, read before (``load_fast(deferred=True)``)."""
    folder = os.path.join(data_files.folder, "")
    for index in track(range(len(sources)), "loading"):
        _parse(store, sources[index], index, folder + data_files.names[index], data_files, base)


T = TypeVar("T")
#: What a pyoxigraph store answers to a query.
Answered = ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples


@dataclass
class OrderedSolutions:
    """The solutions of a SELECT whose ``ORDER BY`` starts with a projected variable:
    iterated, the rows in the store's order but where such a condition (up to the first
    that is an expression or a variable not projected) meets blank nodes, which the
    store orders by labels new in every load; those are put in the order of ``label``
    (the reference engine's labels, which it orders them by), so that the same anthology
    gives the same rows in the same order, on both engines. Read on iteration, in the
    caller's thread (``converted``)."""

    solutions: ox.QuerySolutions
    #: ``sparql_text.order_conditions`` of the query.
    conditions: list[tuple[str | None, bool]]
    label: Callable[[ox.BlankNode], str]

    @property
    def variables(self) -> list[ox.Variable]:
        return self.solutions.variables

    def __iter__(self) -> Iterator[tuple[OxTerm | None, ...]]:
        names = [variable.value for variable in self.solutions.variables]
        rows = [tuple(solution) for solution in self.solutions]
        keys: list[tuple[int, bool]] = []
        for variable, descending in self.conditions:
            if variable not in names:  # an expression, or a variable not projected: the
                break  # rows' order by it is the store's to give, and by what follows
            keys.append((names.index(variable), descending))
        columns = [column for column, _ in keys]
        if not any(isinstance(row[c], ox.BlankNode) for row in rows for c in columns):
            return iter(rows)  # (most answers: no pass over their rows in Python)
        return iter(_blank_runs_ordered(rows, keys, self.label))


def _blank_runs_ordered(
    rows: list[tuple[OxTerm | None, ...]],
    keys: Sequence[tuple[int, bool]],
    label: Callable[[ox.BlankNode], str],
) -> list[tuple[OxTerm | None, ...]]:
    """``rows``, ordered by the columns ``keys`` (index, descending) as SPARQL orders
    them, with the blank nodes of a key, which come together (SPARQL 15.1: after unbound
    values, before IRIs), ordered by ``label`` instead, and each node's rows by the keys
    after it, across the rows of a tie (``_ordered_alike``: ``1`` and ``1.0``). Equal
    values keep their rows' order."""
    if not keys or len(rows) < 2:
        return rows
    (column, descending), after = keys[0], keys[1:]
    ordered: list[tuple[OxTerm | None, ...]] = []
    start = 0
    while start < len(rows):
        value = rows[start][column]
        end = start + 1
        if isinstance(value, ox.BlankNode):
            while end < len(rows) and isinstance(rows[end][column], ox.BlankNode):
                end += 1
            by_node: dict[ox.BlankNode, list[tuple[OxTerm | None, ...]]] = {}
            for row in rows[start:end]:
                by_node.setdefault(cast(ox.BlankNode, row[column]), []).append(row)
            for node in sorted(by_node, key=label, reverse=descending):
                ordered += _blank_runs_ordered(by_node[node], after, label)
        else:
            tied = _ordered_alike(value)
            while end < len(rows) and _ordered_alike(rows[end][column]) == tied:
                end += 1
            ordered += _blank_runs_ordered(rows[start:end], after, label)
        start = end
    return ordered


#: SPARQL's numeric datatypes (17.1): xsd:integer, decimal, float, double and the types
#: derived from xsd:integer.
_NUMERIC = frozenset(
    f"http://www.w3.org/2001/XMLSchema#{name}"
    for name in ("integer", "decimal", "float", "double", "nonPositiveInteger")
    + ("negativeInteger", "long", "int", "short", "byte", "nonNegativeInteger")
    + ("unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte", "positiveInteger")
)


def _ordered_alike(term: OxTerm | None) -> object:
    """What the store's ORDER BY ties ``term`` with: a number by its value (``1`` and
    ``1.0`` are equal, and the next key orders them), a date-time with a time zone by
    its instant (``…T00:00:00Z`` and ``…T01:00:00+01:00``), any other term by itself."""
    if not isinstance(term, ox.Literal):
        return term
    datatype = term.datatype.value
    try:
        if datatype in _NUMERIC:
            return float(term.value)
        if datatype == _XSD_DATE_TIME:
            instant = datetime.fromisoformat(term.value)
            if instant.tzinfo is not None:
                return instant.astimezone(timezone.utc)
    except ValueError:  # (an ill-typed one, or past what Python reads: itself)
        pass
    return term


#: The store's answer, its solutions read in a stable order where it has an ORDER BY.
StoreAnswer = ox.QueryBoolean | ox.QueryTriples | ox.QuerySolutions | OrderedSolutions


def converted(
    answer: StoreAnswer, convert: Callable[[StoreAnswer], T], source: str | Path | None
) -> T:
    """``convert(answer)``, the store's answer to the query at ``source``; its
    AnthologyError (a triple term in the answer, ``terms.from_ox``) raised at ``source``,
    free of the frames that hold the solutions, which are dropped here: pyoxigraph
    refuses to drop them in another thread than theirs (``bounded`` runs a query in a
    thread of its own, and the error travels to the caller's)."""
    try:
        return convert(answer)
    except AnthologyError as exc:
        refused = AnthologyError(exc.message, exc.path or source)
    except (RuntimeError, OSError) as exc:  # pyoxigraph's evaluation error (OSError: an
        # allowed SERVICE's store answering with an error), as the answer is read
        refused = AnthologyError(f"query failed: {_one_line(exc)}", source)
    del answer
    raise refused


def as_query_result(result: StoreAnswer) -> QueryResult:
    """The store's answer as a QueryResult of rdflib terms."""
    from .query_result import QueryResult, graph_from_ox, rows_from_ox

    if isinstance(result, ox.QueryBoolean):
        return QueryResult(kind="ask", boolean=bool(result))
    if isinstance(result, ox.QueryTriples):
        return QueryResult(kind="graph", graph=graph_from_ox(result))
    variables = [v.value for v in result.variables]
    # A solution iterates its values in the order of the variables, None where unbound.
    return QueryResult(kind="select", variables=variables, rows=rows_from_ox(result))


def _run(
    store: ox.Store,
    text: str,
    default_graph: Sequence[ox.NamedNode],
    source: str | Path | None,
    *,
    allow_service: bool = False,
) -> ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples:
    """``store.query`` with ``default_graph`` and no named graph (the anthology is one
    default graph: GRAPH matches nothing, and the store's own graph names stay its own);
    its errors are AnthologyErrors at ``source``. A query calling a remote endpoint
    (SERVICE) is one unless ``allow_service``: every query of this engine comes here."""
    from .guards import refuse_service
    from .sparql_text import refuse_deep_nesting

    refuse_service(text, source, allow_service)
    refuse_deep_nesting(text, source)
    graphs: list[ox.NamedNode | ox.BlankNode | ox.DefaultGraph] = list(default_graph)
    try:
        return store.query(text, default_graph=graphs, named_graphs=[])
    except SyntaxError as exc:
        raise sparql_error(
            exc, source, text, partial(_rdflib_refusal, text), partial(_rdflib_place, text)
        ) from None
    except (OSError, RuntimeError) as exc:  # RuntimeError: an unknown custom function
        raise AnthologyError(f"query failed: {_one_line(exc)}", source) from None


def refuse_unparsed(text: str, source: str | Path | None) -> None:
    """An AnthologyError at ``source``, as running ``text`` would give, where it is no
    query pyoxigraph parses: for a query not run now (a site's stored query that takes
    parameters, its variables unbound). pyoxigraph parses a query as it runs it: run on
    an empty store, its answer not read. A query calling SERVICE is the caller's to
    refuse or skip (``guards.uses_service``): it would be refused here."""
    _run(ox.Store(), text, (), source)


def _rdflib_refusal(text: str) -> str | None:
    """``rdflib_sparql.refusal`` of ``text``: rdflib (~0.3 s to import, its grammar
    ~0.8 s to run) read only when a refused text's error names no reason."""
    from .rdflib_sparql import refusal

    return refusal(text)


def _rdflib_place(text: str) -> tuple[int, int] | None:
    """``rdflib_sparql.syntax_error_place`` of ``text``: rdflib read only when pyoxigraph
    places a refused text's error at its end, where it stopped reading."""
    from .rdflib_sparql import syntax_error_place

    return syntax_error_place(text)


def _one_line(error: Exception) -> str:
    """pyoxigraph's message, its lines joined (a store's error names its payload on the
    next lines): an error is one line."""
    return " ".join(str(error).split())
