"""Loading an anthology: its data, the ontology, the shapes and the query folders.

``load_anthology(root)`` reads every ``data/*.ttl`` of ``root`` into one graph and
remembers, for each subject, the file and line where it is first written. The
bundled ontology, shapes and queries are always used; ``root``'s own
``ontology/shapes/`` and ``queries/`` are added to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import NamespaceManager
from rdflib.term import Node

from . import resources
from .bnodes import ox_stable_labels
from .entries import EntryIndex as EntryIndex
from .entries import Location as Location
from .entries import check_parts
from .entries import find_owner as find_owner
from .graphcopy import add_graph
from .layout import LayoutScan
from .literals import literals_as_written
from .namespaces import DCTERMS, DEFAULT_BASE, bind_prefixes
from .progress import track
from .query_result import QueryResult
from .ruleset import WAIVERS_FILE as WAIVERS_FILE
from .ruleset import Rules as Rules
from .ruleset import load_rules as load_rules
from .ruleset import parse_turtle as parse_turtle
from .ruleset import vocabulary as vocabulary
from .sourcemap import refuse_rdf12_terms
from .sources import TurtleFiles as TurtleFiles
from .sources import check_base, parse_turtle_file, to_graph
from .terms import GRAPHS, PARTS, rdflib_term, to_ox

if TYPE_CHECKING:
    from .bnodes import OxObject
    from .kinds import Term
    from .shacl import ResultRow


class PrefixedOnDemand(Graph):
    """A graph whose namespaces are those of ``bind_prefixes(Graph(), prefixes_base)``
    (rdflib's and the tool's), bound when its namespace manager is first asked for (to
    bind, name, serialize or list them), not when the graph is made: ``render`` reads an
    entry's graph without them, and binding them cost ~0.19 ms a graph (rdflib's ~30
    namespaces bound one by one, then ours), a tenth of describing an entry. Its store's
    own namespace table is empty until then."""

    def __init__(self, *, prefixes_base: str | None = None, store: str = "default") -> None:
        self._prefixes_base = prefixes_base  # (read by the property, which may be asked first)
        super().__init__(store=store)

    @property
    def namespace_manager(self) -> NamespaceManager:
        manager = Graph.namespace_manager.fget(self)  # type: ignore[attr-defined]
        base, self._prefixes_base = self._prefixes_base, None
        if base is not None:
            bind_prefixes(self, base)
        return manager  # type: ignore[no-any-return]

    @namespace_manager.setter
    def namespace_manager(self, manager: NamespaceManager) -> None:
        self._prefixes_base = None
        Graph.namespace_manager.fset(self, manager)  # type: ignore[attr-defined]


#: ``PrefixedOnDemand`` overrides rdflib 7's ``Graph.namespace_manager`` property.
_NAMESPACE_MANAGER_IS_A_PROPERTY = isinstance(getattr(Graph, "namespace_manager", None), property)


def describe_with(
    node: Node,
    outgoing: Callable[[Node], Iterable[tuple[Node, Node]]],
    incoming: Callable[[Node], Iterable[tuple[Node, Node]]],
    identifier: Callable[[Node], str | None],
    base: str,
) -> Graph:
    """What is said of ``node`` (see ``Engine.describe``), from three lookups; the
    graph's prefixes are the tool's (``PrefixedOnDemand``)."""
    # SimpleMemory: no contexts to index, which an entry's graph never has; adding its
    # triples took a third less time (render of an entry of 32,000 takeaways).
    graph = (
        PrefixedOnDemand(prefixes_base=base, store="SimpleMemory")
        if _NAMESPACE_MANAGER_IS_A_PROPERTY
        else bind_prefixes(Graph(store="SimpleMemory"), base)  # rdflib made it something else
    )
    seen: set[Node] = set()
    todo = [node]
    neighbours: set[Node] = set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for predicate, value in outgoing(current):
            graph.add((current, predicate, value))
            if isinstance(value, BNode):
                todo.append(value)
            elif isinstance(value, URIRef):
                neighbours.add(value)
    for subject, predicate in incoming(node):
        graph.add((subject, predicate, node))
        neighbours.add(subject)
    for neighbour in neighbours - seen:
        text = identifier(neighbour)
        if text is not None:
            graph.add((neighbour, DCTERMS.identifier, Literal(text)))
    return graph


def _rdflib_term(node: Term) -> Node | None:
    """``node`` as an rdflib term (validation asks with pyoxigraph's); None for a
    pyoxigraph triple term, which no rdflib graph holds (the data says nothing of it)."""
    return None if isinstance(node, ox.Triple) else rdflib_term(node)


@dataclass(kw_only=True)
class Anthology(EntryIndex):
    """The reference engine: the anthology loaded by rdflib into one data graph,
    validated by pySHACL, queried by rdflib's SPARQL engine."""

    name: ClassVar[str] = "reference"
    #: pySHACL adds to the ontology and shapes graphs as it validates.
    answers_beside: ClassVar[bool] = False
    data: Graph
    #: With ``rdfs`` or ``owlrl``, queries see the closure of the data and ontology
    #: (owlrl, as pySHACL applies it); validation takes its own ``inference``.
    inference: str = "none"
    _closure: Graph | None = field(default=None, repr=False)
    _queried: dict[tuple[tuple[str, ...], str, tuple[int, ...]], Graph] = field(
        default_factory=dict, repr=False
    )

    def identifier(self, node: Term) -> str | None:
        """The ``dcterms:identifier`` of ``node`` in the data, if it has one (``node``:
        an rdflib or a pyoxigraph term, as each lookup here takes); of several (rule 8
        reports them), the least by its text, as the Oxigraph engine takes it."""
        subject = _rdflib_term(node)
        if subject is None:
            return None
        return min((str(o) for o in self.data.objects(subject, DCTERMS.identifier)), default=None)

    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        for s, o in self.data.subject_objects(DCTERMS.identifier):
            yield s, str(o)

    def identified(self, text: str) -> Iterator[Node]:
        """The nodes whose identifier is ``text``."""
        return self.data.subjects(DCTERMS.identifier, Literal(text))

    def referrers(self, node: Term) -> set[Node]:
        """The subjects of the triples whose object is ``node``."""
        value = _rdflib_term(node)
        return set(self.data.subjects(None, value)) if value is not None else set()

    def objects(self, node: Term) -> set[Node]:
        """The objects of the triples whose subject is ``node``."""
        subject = _rdflib_term(node)
        return set(self.data.objects(subject)) if subject is not None else set()

    def normalize(self, node: str) -> str:
        """An IRI as a prefixed name where a bound prefix fits, else ``<iri>``."""
        return self.data.namespace_manager.normalizeUri(node)

    def union(self, *, shapes: bool = False) -> Graph:
        """A new graph of the data and the ontology (and the shapes, if asked)."""
        return self._union(("data", "ontology", "shapes") if shapes else ("data", "ontology"))

    def _union(self, parts: Sequence[str], store: str = "default") -> Graph:
        """A new graph of ``parts``' triples in ``store``, with the tool's prefixes. The
        first part's Memory indexes are copied (``graphcopy.copy_memory_store``: the data
        of 140 entries 19 -> 7 ms), the others' merged into them
        (``graphcopy.merge_into_memory_store``)."""
        graph = bind_prefixes(Graph(store=store), self.base)
        for part in parts:
            add_graph(self.graph(part), into=graph)
        return graph

    def triple_count(self, parts: Sequence[str] = ("data",)) -> int:
        """``COUNT(*)`` of ``?s ?p ?o`` on the union of ``parts`` (``engine.Engine``),
        without running it: the size of the graph the query runs on (a set of triples),
        ~0.09 s less than rdflib's query at 1,000 entries."""
        return len(self._queried_graph(tuple(parts)))

    def graph(self, part: str) -> Graph:
        """The rdflib graph of one part: ``data``, ``ontology`` or ``shapes``."""
        check_parts((part,))
        return {"data": self.data, "ontology": self.ontology, "shapes": self.shapes}[part]

    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        """The triples of ``parts`` as pyoxigraph quads, each in its part's graph."""
        check_parts(parts)
        for part in parts:
            name = GRAPHS[part]
            for s, p, o in self.graph(part):
                yield ox.Quad(to_ox(s), to_ox(p), to_ox(o), name)

    def describe(self, node: Node) -> Graph:
        """What the data says of ``node``: its triples, its blank nodes' (nested), the
        triples that point at it, and the identifier of every entry they name."""
        return describe_with(
            node,
            self.data.predicate_objects,
            self.data.subject_predicates,
            self.identifier,
            self.base,
        )

    def query(
        self,
        text: str,
        bindings: Mapping[str, Node] | None = None,
        source: str | Path | None = None,
        parts: Sequence[str] = PARTS,
        *,
        allow_service: bool = False,
    ) -> QueryResult:
        """Run ``text`` with rdflib on the union of ``parts``. A query calling a remote
        endpoint (SERVICE) is an AnthologyError unless ``allow_service``, and then each
        of its requests gives up after ``guards.SERVICE_REQUEST_TIMEOUT`` seconds."""
        from .guards import refuse_service, service_timeout

        # rdflib's SPARQL engine: loaded by the reference engine only
        from .rdflib_sparql import evaluate
        from .sparql_text import with_describe_pattern

        calls_service = refuse_service(text, source, allow_service)
        if bindings:  # (rdflib ignores them in a DESCRIBE without a WHERE clause)
            text = with_describe_pattern(text)
        with literals_as_written(), service_timeout(calls_service):
            graph = self._queried_graph(tuple(parts))
            return evaluate(graph, text, dict(bindings or {}), source)

    def _queried_graph(self, parts: tuple[str, ...]) -> Graph:
        """The graph the queries on ``parts`` run on: the data itself, or the union of
        ``parts`` (and the closure, under inference) copied once, not once a query, and
        again when a part has grown (pySHACL adds a few triples to the ontology and
        shapes as it validates; nothing removes any, and queries only read)."""
        inferred = self.inference != "none" and bool({"data", "ontology"} & set(parts))
        if parts == ("data",) and not inferred:
            return self.data
        key = (parts, self.inference, tuple(len(self.graph(part)) for part in parts))
        graph = self._queried.get(key)
        if graph is None:
            graph = self._union(parts) + self.closure() if inferred else self._union(parts)
            for stale in [k for k in self._queried if k[:2] == key[:2]]:
                del self._queried[stale]  # a copy at an earlier size is not asked for again
            self._queried[key] = graph
        return graph

    def closure(self) -> Graph:
        """The data, the ontology and their ``inference`` closure (owlrl, with pySHACL's
        RDFS rules: no copies of triples for literals of equal value), computed once; its
        RDF triples only (``owlrl_linear.rdf_triples``)."""
        if self._closure is None:
            from owlrl import DeductiveClosure

            from .owlrl_linear import OWLRLSemantics, rdf_triples
            from .reference_shacl import PySHACLRDFSSemantics

            # SimpleMemory (no contexts to index): owlrl ~20% faster, the same triples.
            closure = self._union(("data", "ontology"), store="SimpleMemory")
            semantics = OWLRLSemantics if self.inference == "owlrl" else PySHACLRDFSSemantics
            DeductiveClosure(semantics).expand(closure)
            self._closure = rdf_triples(closure)
        return self._closure

    def shacl_rows(self, inference: str = "none") -> list[ResultRow]:
        """Run pySHACL over the data with the shapes; return its results as rows."""
        from .reference_shacl import rows_from_report, shacl_report  # pySHACL: loaded here only
        from .ruleset import check_reference_shapes

        check_reference_shapes(self.rules)  # what pySHACL would crash on, at its line
        # Inference needs the whole ontology; without it, the vocabulary's skeleton will
        # do and keeps pySHACL from validating every axiom of the ontology as data.
        if inference == "none":
            data, ontology = self.data + vocabulary(self.ontology), None
        else:
            data, ontology = self.data, self.ontology
        report = shacl_report(data, self.shapes, ontology, inference, allow_warnings=True)[1]
        return rows_from_report(report, self.shapes)


def load_anthology(
    root: Path | str | None = None,
    *,
    base: str = DEFAULT_BASE,
    extra_shapes: Sequence[Path] = (),
    layout: bool = False,
    rules: Rules | None = None,
) -> Anthology:
    """Load the anthology at ``root`` (default: ``resources.find_root()``) with ``rules``
    (``load_rules``' of ``root``, ``base`` and ``extra_shapes`` unless the caller has
    them already); with ``layout``, scan the files' text for ``layout_warnings`` as they
    are read.

    Every file is parsed before anything is merged, so a broken file raises
    AnthologyError and leaves nothing half-loaded.

    >>> from anthology_kg.resources import bundled_dir
    >>> anthology = load_anthology(bundled_dir())
    >>> sorted(identifier for _, identifier in anthology.identifier_pairs())[:2]
    ['ADR-032', 'ARXIV-2409.19256']
    >>> anthology.triple_count()  # of the data; the ontology and shapes apart
    160
    """
    check_base(base)  # entries are base + identifier, which a base like …/id# breaks
    root = (Path(root) if root is not None else resources.find_root()).resolve()
    data_dir = resources.data_folder(root)

    # The triples as pyoxigraph parsed them, a set in the order first read; the blank
    # nodes are labelled (``bnodes.ox_stable_labels``: rdflib's ``relabel`` labels) before
    # rdflib's graph is built, once: relabelling that graph built it again, triple by
    # triple (~a fifth of the load).
    found: dict[tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode, OxObject], None] = {}
    data_files = TurtleFiles.of(data_dir)
    scan = LayoutScan(data_files) if layout else None
    for index, path in enumerate(track(data_files, "loading")):
        quads, text, source = parse_turtle_file(path, base)
        refuse_rdf12_terms(source, path, base, quads)  # which rdflib's graphs cannot hold
        for quad in quads:
            found[(quad.subject, quad.predicate, quad.object)] = None  # type: ignore[index]
        if scan is not None:
            scan.add(index, path.name, text)
    labels = ox_stable_labels(found)
    data = to_graph(
        [
            ox.Quad(
                labels.get(s, s) if isinstance(s, ox.BlankNode) else s,
                p,
                labels.get(o, o) if isinstance(o, ox.BlankNode) else o,
            )
            for s, p, o in found
        ],
        bind_prefixes(Graph(), base),
    )

    rules = rules or load_rules(root, base, extra_shapes)
    return Anthology(
        root=root,
        data=data,
        rules=rules,
        data_files=data_files,
        base=base,
        locations=dict(rules.locations),
        layout_suspects=scan.suspects() if scan is not None else None,
    )
