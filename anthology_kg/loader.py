"""Loading an anthology: its data, the ontology, the shapes and the query folders.

``load_anthology(root)`` reads every ``data/*.ttl`` of ``root`` into one graph and
remembers, for each subject, the file and line where it is first written. The
bundled ontology, shapes and queries are always used; ``root``'s own
``ontology/shapes/`` and ``queries/`` are added to them.
"""

from __future__ import annotations

import functools
import hashlib
import os
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, overload

import pyoxigraph as ox
from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.term import Node

from . import resources
from .bnodes import relabel
from .config import did_you_mean
from .errors import AnthologyError
from .layout import (
    LayoutScan,
    LayoutWarning,
    anthology_layout_warnings,
    layout_warnings,
    suspect_entries,
)
from .literals import literals_as_written
from .namespaces import DCTERMS, DEFAULT_BASE, bind_prefixes
from .progress import track
from .queries import QueryResult
from .sourcemap import subject_lines
from .sources import parse_turtle_file, to_graph
from .terms import GRAPHS, PARTS, to_ox

if TYPE_CHECKING:
    from .shacl import ResultRow

WAIVERS_FILE = "waivers.ttl"


@dataclass(frozen=True)
class Location:
    """A place in a source file: the file and a 1-based line."""

    path: Path
    line: int


@dataclass
class Rules:
    """What every engine reads besides the data: ontology, shapes, waivers, queries
    (``load_rules``), held by the engine as one value."""

    ontology: Graph
    shapes: Graph
    shape_files: list[Path]
    query_dirs: list[Path]
    waivers: Graph
    #: Where each waiver is written (waivers.ttl), for reports on waivers.
    locations: dict[Node, Location]


@dataclass(kw_only=True)
class EntryIndex(ABC):
    """What every engine's anthology shares: the rules, and the lookups of entries built
    on two primitives each engine gives, ``identifier(node)`` and ``referrers(node)``,
    with ``identified(text)`` and ``identifier_pairs()``."""

    root: Path
    rules: Rules
    data_files: Sequence[Path]
    base: str = DEFAULT_BASE
    locations: dict[Node, Location] = field(default_factory=dict)
    _owners: dict[Node, Node | None] = field(default_factory=dict, repr=False)
    #: The data files the loader's layout scan found worth parsing (``layout.LayoutScan``),
    #: when it was asked to scan; None: ``layout_warnings`` reads the files itself.
    layout_suspects: list[Path] | None = field(default=None, repr=False)

    def layout_warnings(self) -> list[LayoutWarning]:
        """The data files that break the layout rule (``layout.layout_warnings``)."""
        if self.layout_suspects is None:
            return anthology_layout_warnings(self.root, self.base)
        return layout_warnings(suspect_entries(self.layout_suspects, self.base), self.base)

    @property
    def ontology(self) -> Graph:
        return self.rules.ontology

    @property
    def shapes(self) -> Graph:
        return self.rules.shapes

    @property
    def waivers(self) -> Graph:
        return self.rules.waivers

    @property
    def shape_files(self) -> list[Path]:
        return self.rules.shape_files

    @property
    def query_dirs(self) -> list[Path]:
        return self.rules.query_dirs

    def entries(self) -> Iterator[tuple[Node, str]]:
        """Every node that has an identifier, with it, sorted by identifier."""
        yield from sorted(set(self.identifier_pairs()), key=lambda pair: (pair[1], str(pair[0])))

    def owner(self, node: Node) -> Node | None:
        """The entry ``node`` belongs to: itself if it has an identifier, else the
        nearest entry that points at it (a claim, an arm, a takeaway...)."""
        if node not in self._owners:
            self._owners[node] = find_owner(node, self.identifier, self.referrers)
        return self._owners[node]

    @abstractmethod
    def identifier(self, node: Node) -> str | None:
        """The ``dcterms:identifier`` of ``node`` in the data, if it has one."""

    @abstractmethod
    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        """Every (node, identifier) of the data."""

    @abstractmethod
    def identified(self, text: str) -> Iterator[Node]:
        """The nodes whose identifier is ``text``."""

    @abstractmethod
    def referrers(self, node: Node) -> set[Node]:
        """The subjects of the data's triples whose object is ``node``."""

    @abstractmethod
    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        """The triples of ``parts`` as pyoxigraph quads, each in its part's graph."""

    def resolve_entry(self, text: str) -> URIRef:
        """The entry named by an identifier (``LIT-168``) or a full IRI.

        Raises AnthologyError when the anthology has no such entry.
        """
        for subject in self.identified(text):
            if isinstance(subject, URIRef):
                return subject
        iri = URIRef(text)
        if "://" in text and self.identifier(iri) is not None:
            return iri
        known = {identifier for _, identifier in self.identifier_pairs()}
        raise AnthologyError(f"no entry {text!r} in the anthology{did_you_mean(text, known)}")


def describe_with(
    node: Node,
    outgoing: Callable[[Node], Iterable[tuple[Node, Node]]],
    incoming: Callable[[Node], Iterable[tuple[Node, Node]]],
    identifier: Callable[[Node], str | None],
    base: str,
) -> Graph:
    """What is said of ``node`` (see ``Engine.describe``), from three lookups."""
    graph = bind_prefixes(Graph(), base)
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


@dataclass(kw_only=True)
class Anthology(EntryIndex):
    """The reference engine: the anthology loaded by rdflib into one data graph,
    validated by pySHACL, queried by rdflib's SPARQL engine."""

    name: ClassVar[str] = "reference"
    data: Graph
    #: With ``rdfs`` or ``owlrl``, queries see the closure of the data and ontology
    #: (owlrl, as pySHACL applies it); validation takes its own ``inference``.
    inference: str = "none"
    _closure: Graph | None = field(default=None, repr=False)

    def identifier(self, node: Node) -> str | None:
        """The ``dcterms:identifier`` of ``node`` in the data, if it has one."""
        value = self.data.value(node, DCTERMS.identifier)
        return str(value) if value is not None else None

    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        for s, o in self.data.subject_objects(DCTERMS.identifier):
            yield s, str(o)

    def identified(self, text: str) -> Iterator[Node]:
        """The nodes whose identifier is ``text``."""
        return self.data.subjects(DCTERMS.identifier, Literal(text))

    def referrers(self, node: Node) -> set[Node]:
        """The subjects of the triples whose object is ``node``."""
        return set(self.data.subjects(None, node))

    def location(self, node: Node) -> Location | None:
        """Where ``node`` is first written as a subject, or else where its owner is."""
        if node in self.locations:
            return self.locations[node]
        owner = self.owner(node)
        return self.locations.get(owner) if owner is not None else None

    def normalize(self, node: URIRef) -> str:
        """An IRI as a prefixed name where a bound prefix fits, else ``<iri>``."""
        return self.data.namespace_manager.normalizeUri(node)

    def union(self, *, shapes: bool = False) -> Graph:
        """A new graph of the data and the ontology (and the shapes, if asked)."""
        return self._union(("data", "ontology", "shapes") if shapes else ("data", "ontology"))

    def _union(self, parts: Sequence[str]) -> Graph:
        graph = bind_prefixes(Graph(), self.base)
        for part in parts:
            graph += self.graph(part)
        return graph

    def graph(self, part: str) -> Graph:
        """The rdflib graph of one part: ``data``, ``ontology`` or ``shapes``."""
        return {"data": self.data, "ontology": self.ontology, "shapes": self.shapes}[part]

    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        """The triples of ``parts`` as pyoxigraph quads, each in its part's graph."""
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
    ) -> QueryResult:
        """Run ``text`` with rdflib on the union of ``parts``."""
        from .queries import evaluate  # rdflib's SPARQL engine: loaded by the reference engine only

        with literals_as_written():
            graph = self.data if tuple(parts) == ("data",) else self._union(parts)
            if self.inference != "none" and {"data", "ontology"} & set(parts):
                graph = self._union(parts) + self.closure()
            return evaluate(graph, text, dict(bindings or {}), source)

    def closure(self) -> Graph:
        """The data, the ontology and their ``inference`` closure (owlrl, with pySHACL's
        RDFS rules: no copies of triples for literals of equal value), computed once."""
        if self._closure is None:
            from owlrl import DeductiveClosure, OWLRL_Semantics
            from pyshacl.inference import CustomRDFSSemantics

            closure = self._union(("data", "ontology"))
            semantics = OWLRL_Semantics if self.inference == "owlrl" else CustomRDFSSemantics
            DeductiveClosure(semantics).expand(closure)
            self._closure = closure
        return self._closure

    def shacl_rows(self, inference: str = "none") -> list[ResultRow]:
        """Run pySHACL over the data with the shapes; return its results as rows."""
        from .reference_shacl import rows_from_report, shacl_report  # pySHACL: loaded here only

        # Inference needs the whole ontology; without it, the vocabulary's skeleton will
        # do and keeps pySHACL from validating every axiom of the ontology as data.
        if inference == "none":
            data, ontology = self.data + vocabulary(self.ontology), None
        else:
            data, ontology = self.data, self.ontology
        report = shacl_report(data, self.shapes, ontology, inference, allow_warnings=True)[1]
        return rows_from_report(report, self.shapes)


def find_owner(node: Node, identifier, referrers) -> Node | None:
    """The nearest node, ``node`` first, then its referrers breadth first, that has an
    identifier; ties go to the smallest IRI, so the answer never depends on order."""
    if isinstance(node, Literal):
        return None
    seen, todo = {node}, deque([node])
    while todo:
        current = todo.popleft()
        if identifier(current) is not None:
            return current
        for subject in sorted(referrers(current), key=str):
            if subject not in seen:
                seen.add(subject)
                todo.append(subject)
    return None


def vocabulary(ontology: Graph) -> Graph:
    """The ontology's rdf:type and rdfs:subClassOf triples.

    Enough for sh:targetClass and sh:class to see subclass instances, and for rule 9 to
    tell a concept of the ontology (ak:method) from a name nothing defines.
    """
    skeleton = Graph()
    for predicate in (RDF.type, RDFS.subClassOf):
        for triple in ontology.triples((None, predicate, None)):
            skeleton.add(triple)
    return skeleton


def parse_turtle(path: Path, base: str = DEFAULT_BASE) -> tuple[Graph, str]:
    """Parse one Turtle file, relative IRIs against ``base``; return the graph and text.

    Raises AnthologyError with the file and line for unreadable or invalid Turtle. The
    strict parser (pyoxigraph, as the fast engine) decides what is valid, so both
    engines accept and refuse the same files with the same message; literals keep
    their lexical form as written.
    """
    quads, text, _ = parse_turtle_file(path, base)
    return to_graph(quads), text


class TurtleFiles(Sequence[Path]):
    """The ``*.ttl`` files of a folder, sorted by name, held as the folder and the names
    (a Path is made on access): a Path object each would hold ~250 bytes per file for the
    life of a command, 24 MB at 100,000 entries."""

    def __init__(self, folder: Path, names: Iterable[str] = ()) -> None:
        self.folder = folder
        self.names = tuple(names)

    @classmethod
    def of(cls, folder: Path) -> TurtleFiles:
        """The folder's files named ``*.ttl`` (as ``folder.glob("*.ttl")``); none if
        ``folder`` is not a folder."""
        if not folder.is_dir():
            return cls(folder)
        try:
            return cls(folder, sorted(n for n in os.listdir(folder) if n.endswith(".ttl")))
        except OSError as exc:
            raise AnthologyError(f"cannot list the folder: {exc.strerror}", folder) from None

    @overload
    def __getitem__(self, index: int) -> Path: ...

    @overload
    def __getitem__(self, index: slice) -> list[Path]: ...

    def __getitem__(self, index: int | slice) -> Path | list[Path]:
        if isinstance(index, slice):
            return [self.folder / name for name in self.names[index]]
        return self.folder / self.names[index]

    def __len__(self) -> int:
        return len(self.names)

    def __iter__(self) -> Iterator[Path]:
        folder = self.folder
        return (folder / name for name in self.names)

    def __repr__(self) -> str:
        return f"TurtleFiles({str(self.folder)!r}, {len(self.names)} files)"


def _rule_graphs(
    ontology_file: Path, shape_files: Sequence[Path], base: str
) -> tuple[Graph, Graph]:
    """The ontology and the shapes (``shape_files`` merged), blank nodes relabelled.

    Every command and every engine reads the same bundled rules: they are parsed once per
    process for the same file contents and base, and each caller gets its own copy."""
    files = [ontology_file, *shape_files]
    if not all(path.is_file() for path in files):  # (not a regular file: parsed to fail)
        return _parsed_rule_graphs(ontology_file, tuple(shape_files), base)
    try:
        digests = tuple(hashlib.sha256(path.read_bytes()).digest() for path in files)
    except OSError:
        return _parsed_rule_graphs(ontology_file, tuple(shape_files), base)
    ontology, shapes = _cached_rule_graphs(ontology_file, tuple(shape_files), base, digests)
    return _copy(ontology), _copy(shapes)


@functools.lru_cache(maxsize=8)
def _cached_rule_graphs(
    ontology_file: Path, shape_files: tuple[Path, ...], base: str, digests: tuple[bytes, ...]
) -> tuple[Graph, Graph]:
    """``_parsed_rule_graphs``, kept for files of these contents (``digests``)."""
    return _parsed_rule_graphs(ontology_file, shape_files, base)


def _parsed_rule_graphs(
    ontology_file: Path, shape_files: tuple[Path, ...], base: str
) -> tuple[Graph, Graph]:
    ontology, _ = parse_turtle(ontology_file, base)
    shapes = bind_prefixes(Graph(), base)
    for path in shape_files:
        shapes += parse_turtle(path, base)[0]
    return bind_prefixes(relabel(ontology), base), relabel(shapes)


def _copy(graph: Graph) -> Graph:
    """A new graph with the triples and the prefix bindings of ``graph``."""
    out = Graph(bind_namespaces="none")
    for prefix, namespace in graph.namespaces():
        out.namespace_manager.bind(prefix, namespace, override=True, replace=True)
    out += graph
    return out


def _turtle_files(folder: Path) -> list[Path]:
    return list(TurtleFiles.of(folder))


def _distinct_dirs(*folders: Path) -> list[Path]:
    seen: list[Path] = []
    for folder in folders:
        if folder.is_dir() and folder.resolve() not in [s.resolve() for s in seen]:
            seen.append(folder)
    return seen


def load_anthology(
    root: Path | None = None,
    *,
    base: str = DEFAULT_BASE,
    extra_shapes: Sequence[Path] = (),
    layout: bool = False,
) -> Anthology:
    """Load the anthology at ``root`` (default: ``resources.find_root()``); with
    ``layout``, scan the files' text for ``layout_warnings`` as they are read.

    Every file is parsed before anything is merged, so a broken file raises
    AnthologyError and leaves nothing half-loaded.
    """
    root = (root or resources.find_root()).resolve()
    data_dir = root / "data"
    if not data_dir.is_dir():
        raise AnthologyError("no data/ folder here: not an anthology", root)

    data = bind_prefixes(Graph(), base)
    locations: dict[Node, Location] = {}
    data_files = TurtleFiles.of(data_dir)
    scan = LayoutScan(data_files) if layout else None
    for index, path in enumerate(track(data_files, "loading")):
        graph, text = parse_turtle(path, base)
        data += graph
        for subject, line in subject_lines(text, base).items():
            locations.setdefault(subject, Location(path, line))
        if scan is not None:
            scan.add(index, path.name, text)

    rules = load_rules(root, base, extra_shapes)
    return Anthology(
        root=root,
        data=relabel(data),
        rules=rules,
        data_files=data_files,
        base=base,
        locations={**rules.locations, **locations},
        layout_suspects=scan.suspects() if scan is not None else None,
    )


def load_rules(root: Path, base: str = DEFAULT_BASE, extra_shapes=()) -> Rules:
    """The bundled ontology, shapes and queries, with ``root``'s own shapes, queries
    and waivers added."""
    if not (root / "data").is_dir():
        raise AnthologyError("no data/ folder here: not an anthology", root)
    shape_dirs = _distinct_dirs(resources.bundled_shapes_dir(), root / "ontology" / "shapes")
    shape_files = [p for folder in shape_dirs for p in _turtle_files(folder)]
    shape_files += [Path(p) for p in extra_shapes]
    ontology, shapes = _rule_graphs(resources.ontology_file(), shape_files, base)
    waivers = Graph()
    locations: dict[Node, Location] = {}
    if (root / WAIVERS_FILE).is_file():
        waivers, text = parse_turtle(root / WAIVERS_FILE, base)
        for subject, line in subject_lines(text, base).items():
            locations[subject] = Location(root / WAIVERS_FILE, line)
    return Rules(
        ontology=ontology,
        shapes=shapes,
        shape_files=shape_files,
        query_dirs=_distinct_dirs(resources.bundled_queries_dir(), root / "queries"),
        waivers=waivers,
        locations=locations,
    )
