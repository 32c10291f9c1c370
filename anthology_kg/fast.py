"""The fast engine: the anthology in a pyoxigraph store, shapes run as compiled SPARQL.

``load_fast(root)`` parses the data files with pyoxigraph's Turtle parser into one store
(data, ontology, the vocabulary skeleton and shapes in named graphs) and gives the same
interface the validator and the query runner use on the reference ``Anthology``. Its
validation report is a SHACL ``sh:ValidationReport`` graph like pySHACL's, so every
writer, waiver and source location works the same on either engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS
from rdflib.term import Node

from . import resources
from .errors import AnthologyError
from .loader import EntryIndex, Location, load_rules, vocabulary
from .namespaces import DEFAULT_BASE, bind_prefixes
from .progress import track
from .queries import QueryResult, with_values
from .shacl import report_graph, validate_graphs, validate_store
from .sourcemap import subject_lines
from .sources import load_into, read_source
from .terms import from_ox, to_ox

DATA = ox.NamedNode("urn:anthology-kg:graph:data")
VOCABULARY = ox.NamedNode("urn:anthology-kg:graph:vocabulary")
ONTOLOGY = ox.NamedNode("urn:anthology-kg:graph:ontology")
SHAPES = ox.NamedNode("urn:anthology-kg:graph:shapes")
_IDENTIFIER = ox.NamedNode(str(DCTERMS.identifier))
_IDENTIFIER_TEXT = re.compile(
    r'(?:dcterms:identifier|<http://purl\.org/dc/terms/identifier>)\s+"([^"\\]+)"'
)


def add_graph(store: ox.Store, graph: Graph, name) -> None:
    """Copy an rdflib graph into a named graph of ``store``."""
    store.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), name) for s, p, o in graph)


@dataclass(kw_only=True)
class FastAnthology(EntryIndex):
    """An anthology in a pyoxigraph store, with the reference Anthology's interface."""

    store: ox.Store
    _scanned: set = field(default_factory=set, repr=False)
    _names: Graph = field(default_factory=Graph, repr=False)
    _identifier_files: dict | None = field(default=None, repr=False)

    def __post_init__(self):
        bind_prefixes(self._names, self.base)

    def normalize(self, node: URIRef) -> str:
        return self._names.namespace_manager.normalizeUri(node)

    def identifier(self, node: Node) -> str | None:
        if isinstance(node, Literal):
            return None
        for quad in self.store.quads_for_pattern(to_ox(node), _IDENTIFIER, None, DATA):
            return quad.object.value
        return None

    def identifier_pairs(self):
        for quad in self.store.quads_for_pattern(None, _IDENTIFIER, None, DATA):
            yield from_ox(quad.subject), quad.object.value

    def identified(self, text: str):
        """The nodes whose identifier is ``text``."""
        for quad in self.store.quads_for_pattern(None, _IDENTIFIER, ox.Literal(text), DATA):
            yield from_ox(quad.subject)

    def referrers(self, node: Node) -> set[Node]:
        """The subjects of the data's quads whose object is ``node``."""
        return {
            from_ox(q.subject) for q in self.store.quads_for_pattern(None, None, to_ox(node), DATA)
        }

    def _scan(self, path: Path) -> None:
        if path in self._scanned or not path.is_file():
            return
        self._scanned.add(path)
        text = path.read_text(encoding="utf-8")
        for subject, line in subject_lines(text, self.base).items():
            self.locations.setdefault(subject, Location(path, line))

    def _files_by_identifier(self) -> dict[str, Path]:
        """Which file writes ``identifier "X"``, read once with a plain text search."""
        if self._identifier_files is None:
            self._identifier_files = {}
            for path in self.data_files:
                for match in _IDENTIFIER_TEXT.finditer(path.read_text(encoding="utf-8")):
                    self._identifier_files.setdefault(match.group(1), path)
        return self._identifier_files

    def location(self, node: Node) -> Location | None:
        """Found lazily: the file named by the owner's identifier is scanned first; when
        the entry is not there, the files whose text holds its identifier."""
        owner = self.owner(node)
        identifier = self.identifier(owner) if owner is not None else None
        if identifier:
            self._scan(self.root / "data" / f"{identifier}.ttl")
        if node not in self.locations and (owner is None or owner not in self.locations):
            if identifier in self._files_by_identifier():
                self._scan(self._files_by_identifier()[identifier])
            else:
                for path in self.data_files:
                    self._scan(path)
        if node in self.locations:
            return self.locations[node]
        return self.locations.get(owner) if owner is not None else None


def load_fast(
    root: Path | None = None, *, base: str = DEFAULT_BASE, extra_shapes=()
) -> FastAnthology:
    """Load the anthology at ``root`` into a pyoxigraph store."""
    root = (root or resources.find_root()).resolve()
    rules = load_rules(root, base, extra_shapes)
    store = ox.Store()
    data_files = sorted((root / "data").glob("*.ttl"))
    for path in track(data_files, "loading"):
        # The strict parser's verdict and messages, as the reference engine's loader.
        load_into(store, read_source(path), path, base, DATA)
    add_graph(store, rules.ontology, ONTOLOGY)
    add_graph(store, vocabulary(rules.ontology), VOCABULARY)
    add_graph(store, rules.shapes, SHAPES)
    return FastAnthology(
        root=root,
        store=store,
        ontology=rules.ontology,
        shapes=rules.shapes,
        waivers=rules.waivers,
        data_files=data_files,
        shape_files=rules.shape_files,
        query_dirs=rules.query_dirs,
        base=base,
        locations=dict(rules.locations),
    )


# -- validation --------------------------------------------------------------------------


def fast_report(data: Graph, shapes: Graph, vocabulary: Graph | None = None) -> tuple[bool, Graph]:
    """The fast engine on rdflib graphs (the W3C suite's way in): see shacl.validate_graphs."""
    return validate_graphs(data, shapes, vocabulary)


def fast_shacl(anthology: FastAnthology) -> Graph:
    """Validate a FastAnthology; return the report graph."""
    rows = validate_store(anthology.store, anthology.shapes, [DATA, VOCABULARY], SHAPES.value)
    return report_graph(rows, anthology.shapes)


# -- queries -------------------------------------------------------------------------------


def run_store_query(anthology: FastAnthology, text: str, bindings=None, source=None) -> QueryResult:
    """Run a query on the store's data, ontology and shapes (as one default graph),
    parameters bound as RDF terms in a VALUES block (pyoxigraph's substitutions only bind
    projected variables)."""
    text = with_values(text, bindings or {})
    try:
        result = anthology.store.query(text, default_graph=[DATA, ONTOLOGY, SHAPES])
    except SyntaxError as exc:
        raise AnthologyError(f"SPARQL syntax error: {exc}", source) from None
    except OSError as exc:
        raise AnthologyError(f"query failed: {exc}", source) from None
    if isinstance(result, ox.QueryBoolean):
        return QueryResult(kind="ask", boolean=bool(result))
    if isinstance(result, ox.QueryTriples):
        graph = Graph()
        for triple in result:
            graph.add((from_ox(triple.subject), from_ox(triple.predicate), from_ox(triple.object)))
        return QueryResult(kind="graph", graph=graph)
    variables = [v.value for v in result.variables]
    rows = [
        tuple(from_ox(row[v]) if row[v] is not None else None for v in variables) for row in result
    ]
    return QueryResult(kind="select", variables=variables, rows=rows)
