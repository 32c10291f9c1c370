"""The rules an anthology is read with: the ontology, the shapes, the waivers and the
stored-query folders, the bundled ones with the anthology's own added.

``load_rules(root)`` finds the files at once and parses them on first use. The Oxigraph
engine reads them as pyoxigraph triples (``ontology_triples``, ``shape_triples``, the
``shapes_view`` the SHACL compiler reads, ``waivers_view``): ``check`` loads no rdflib.
The ontology, shapes and waivers as rdflib graphs are there for the reference engine
and for callers that ask; both forms give each blank node the same label (``bnodes``).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import resources
from .choices import DEFAULT_BASE
from .entries import Location
from .errors import AnthologyError, display_path
from .graphcopy import add_graph
from .sources import TurtleFiles

if TYPE_CHECKING:
    import pyoxigraph as ox
    from rdflib import Graph
    from rdflib.term import Node

    from .shacl.graph import ShapesGraph

    Triple = tuple[
        ox.NamedNode | ox.BlankNode, ox.NamedNode, ox.NamedNode | ox.BlankNode | ox.Literal
    ]

WAIVERS_FILE = "waivers.ttl"


class Rules:
    """What every engine reads besides the data: ontology, shapes, waivers, queries
    (``load_rules``), held by the engine as one value. The files are known at once;
    the graphs are parsed when first asked for (an error in them is raised then)."""

    def __init__(
        self,
        *,
        ontology_file: Path,
        shape_files: list[Path],
        query_dirs: list[Path],
        waivers_file: Path | None,
        base: str,
    ) -> None:
        self.ontology_file = ontology_file
        self.shape_files = shape_files
        self.query_dirs = query_dirs
        self.waivers_file = waivers_file
        self.base = base

    @functools.cached_property
    def _rule_graphs(self) -> tuple[Graph, Graph]:
        self._rule_triples  # noqa: B018 (where the shapes' syntax is checked, for every engine)
        return _rule_graphs(self.ontology_file, self.shape_files, self.base)

    @functools.cached_property
    def _rule_triples(self) -> tuple[tuple[Triple, ...], tuple[Triple, ...]]:
        return _rule_triples(self.ontology_file, self.shape_files, self.base)

    @property
    def ontology_triples(self) -> tuple[Triple, ...]:
        """The ontology's triples as pyoxigraph terms (no rdflib)."""
        return self._rule_triples[0]

    @property
    def shape_triples(self) -> tuple[Triple, ...]:
        """The shapes' triples (every shape file merged) as pyoxigraph terms."""
        return self._rule_triples[1]

    @functools.cached_property
    def shapes_view(self) -> ShapesGraph:
        """The shapes as the SHACL compiler reads them (pyoxigraph terms, no rdflib)."""
        from .shacl.graph import ShapesGraph

        return ShapesGraph(self.shape_triples)

    @functools.cached_property
    def waivers_view(self) -> ShapesGraph:
        """The waivers (``waivers.ttl``; empty when there is none), on pyoxigraph terms."""
        from .shacl.graph import ShapesGraph
        from .sources import parse_turtle_file

        if self.waivers_file is None:
            return ShapesGraph(())
        quads, _, _ = parse_turtle_file(self.waivers_file, self.base)
        return ShapesGraph((q.subject, q.predicate, q.object) for q in quads)  # type: ignore[misc]

    @property
    def ontology(self) -> Graph:
        """The bundled ontology."""
        return self._rule_graphs[0]

    @property
    def shapes(self) -> Graph:
        """The SHACL shapes, bundled and the anthology's own, merged."""
        return self._rule_graphs[1]

    @functools.cached_property
    def waiver_lines(self) -> dict[str, Location]:
        """Where each waiver is written (waivers.ttl), by IRI: a scan of the text, no
        RDF library (``locations`` gives the same keyed by rdflib terms)."""
        from .sourcemap import subject_iris
        from .sources import read_text

        if self.waivers_file is None:
            return {}
        lines = subject_iris(read_text(self.waivers_file), self.base)
        return {iri: Location(self.waivers_file, line) for iri, line in lines.items()}

    @functools.cached_property
    def _waivers(self) -> tuple[Graph, dict[Node, Location]]:
        from rdflib import Graph, URIRef

        if self.waivers_file is None:
            return Graph(), {}
        waivers, _ = parse_turtle(self.waivers_file, self.base)
        return waivers, {URIRef(iri): where for iri, where in self.waiver_lines.items()}

    @property
    def waivers(self) -> Graph:
        """The waivers (``waivers.ttl``; empty when there is none)."""
        return self._waivers[0]

    @property
    def locations(self) -> dict[Node, Location]:
        """Where each waiver is written (waivers.ttl), for reports on waivers."""
        return self._waivers[1]

    @property
    def parsed(self) -> bool:
        """Whether the ontology and shapes have been parsed (asked for) yet."""
        return "_rule_graphs" in self.__dict__ or "_rule_triples" in self.__dict__


def parse_turtle(
    path: Path, base: str = DEFAULT_BASE, into: Graph | None = None
) -> tuple[Graph, str]:
    """Parse one Turtle file, relative IRIs against ``base``; return the graph and text.
    With ``into``, the triples are added to that graph (returned), not to a new one; on
    an error it may hold some of them.

    Raises AnthologyError with the file and line for unreadable or invalid Turtle. The
    strict parser (pyoxigraph, as the fast engine) decides what is valid, so both
    engines accept and refuse the same files with the same message; literals keep
    their lexical form as written.
    """
    from .sourcemap import refuse_rdf12_terms
    from .sources import parse_turtle_file, to_graph

    quads, text, data = parse_turtle_file(path, base)
    refuse_rdf12_terms(data, path, base, quads)  # which rdflib's graphs cannot hold
    return to_graph(quads, into), text


def check_shape_syntax(
    shape_files: Sequence[Path],
    shapes: Sequence[Triple],
    base: str,
    ontology: Sequence[Triple] = (),
) -> None:
    """Raise AnthologyError, at the file and line where the first ill-formed shape is
    written, when ``shapes`` (read from ``shape_files``) break a syntax rule of SHACL
    (``shacl.syntax``), name a term of SHACL's namespace SHACL does not define
    (``shacl.syntax.undefined_terms``) or a class or property of the ontology's namespace
    that ``ontology`` does not declare (``undeclared_terms``), or hold an
    ``ak:ruleNumber`` that is not one rule's number (``rules.RULE_NUMBER_RULES``); each
    further problem on a line of its own."""
    from .rules import RULE_NUMBER_RULES
    from .shacl.syntax import explain, syntax_results, undefined_terms

    explained = [
        (row, f"{explain(row)} (a syntax rule of SHACL)") for row in syntax_results(shapes)
    ]
    said = {(row.focus, row.path, row.value) for row, _ in explained}  # (said once)
    explained += [
        (row, str(getattr(row.messages[0], "value", "")))
        for row in undefined_terms(shapes)
        if (row.focus, row.path, row.value) not in said
    ]
    explained += undeclared_terms(shapes, ontology, base)
    explained += [
        (row, explain(row, RULE_NUMBER_RULES))
        for row in syntax_results(shapes, own=RULE_NUMBER_RULES)
    ]
    _refuse_at_lines(shape_files, shapes, base, explained)


#: The properties by which a shape names a class, and those by which it names a property
#: (besides sh:path, whose every step is one), by their local names in SHACL's namespace.
_NAMING_A_CLASS = ("targetClass", "class")
_NAMING_A_PROPERTY = (
    "targetSubjectsOf",
    "targetObjectsOf",
    "equals",
    "disjoint",
    "lessThan",
    "lessThanOrEquals",
)
#: What a path node holds its parts by (in SHACL's namespace but the list's two).
_PATH_PARTS = (
    "inversePath",
    "alternativePath",
    "zeroOrMorePath",
    "oneOrMorePath",
    "zeroOrOnePath",
)


def undeclared_terms(
    shapes: Sequence[Triple], ontology: Sequence[Triple], base: str
) -> list[tuple[Any, str]]:
    """Where ``shapes`` name, as a class (sh:targetClass, sh:class) or as a property
    (each step of a sh:path; sh:targetSubjectsOf, sh:targetObjectsOf, sh:equals,
    sh:disjoint, sh:lessThan, sh:lessThanOrEquals), an IRI of the ontology's namespace
    (``ak:``) that ``ontology`` does not declare as one (a misspelt
    ``ak:LiteratureRecrod`` targets nothing, and the shape checks nothing): each as a
    syntax result row (the triple that names it) and what it says, with the closest
    term of the kind asked for, where one is close."""
    import pyoxigraph as ox

    from .config import did_you_mean
    from .rules import AK
    from .shacl.graph import ShapesGraph
    from .shacl.syntax import problem_row
    from .shacl.vocabulary import OWL, RDF, RDFS, SH

    kinds = {
        "class": (OWL.Class, RDFS.Class),
        "property": (
            OWL.ObjectProperty,
            OWL.DatatypeProperty,
            OWL.AnnotationProperty,
            RDF.Property,
        ),
    }
    declared: dict[str, set[Any]] = {kind: set() for kind in kinds}
    for subject, predicate, value in ontology:
        if predicate == RDF.type:
            for kind, types in kinds.items():
                if value in types:
                    declared[kind].add(subject)

    naming = {SH[local]: "class" for local in _NAMING_A_CLASS}
    naming.update({SH[local]: "property" for local in _NAMING_A_PROPERTY})
    parts = (RDF.first, RDF.rest, *(SH[local] for local in _PATH_PARTS))
    graph = ShapesGraph(shapes)
    named: list[tuple[Any, Any, Any, Any, str]] = []
    for subject, predicate, value in shapes:
        if predicate in naming:
            named.append((subject, predicate, value, predicate, naming[predicate]))
        elif predicate == SH.path:
            seen: set[Any] = set()
            todo: list[tuple[Any, Any, Any]] = [(subject, predicate, value)]
            while todo:
                holder, step, node = todo.pop()
                if isinstance(node, ox.NamedNode):
                    named.append((holder, step, node, SH.path, "property"))
                elif node not in seen:
                    seen.add(node)
                    todo += [(node, part, o) for part in parts for o in graph.objects(node, part)]

    found = []
    for holder, step, term, by, kind in named:
        if not isinstance(term, ox.NamedNode) or not term.value.startswith(AK.iri):
            continue
        if term in declared[kind]:
            continue
        other = "property" if kind == "class" else "class"
        said = f"sh:{by.value.removeprefix(SH.iri)} {_name(term, base)}: " + (
            f"a {other} of the ontology, not a {kind}"
            if term in declared[other]
            else f"not a {kind} the ontology declares"
            + did_you_mean(
                term.value.removeprefix(AK.iri),
                sorted(
                    t.value.removeprefix(AK.iri)
                    for t in declared[kind]
                    if t.value.startswith(AK.iri)
                ),
                prefix="ak:",
            )
        )
        row = problem_row("OntologyShape", holder, step, term, said)
        found.append((row, said))
    return found


def check_reference_shapes(rules: Rules) -> None:
    """Raise AnthologyError, at the file and line where it is written, for a shape the
    reference engine (pySHACL) cannot run though it is well-formed
    (``shacl.syntax.reference_results``: ``$shapesGraph``), before pySHACL crashes on it."""
    from .shacl.syntax import explain, reference_results

    shapes = rules.shape_triples
    explained = [(row, explain(row)) for row in reference_results(shapes)]
    _refuse_at_lines(rules.shape_files, shapes, rules.base, explained)


def where_shape_written(rules: Rules, shape: object) -> str | None:
    """``file:line`` where the IRI ``shape`` starts as a subject in the shapes files (the
    anthology's own searched first); None for a blank node or where no file writes it."""
    import pyoxigraph as ox

    from .sourcemap import file_positions, locate

    if not isinstance(shape, ox.NamedNode):
        return None
    for path in reversed(rules.shape_files):  # the anthology's own first
        at = locate(file_positions(path, rules.base, ox_terms=True), shape, shape, None, None)
        if at is not None:
            return f"{display_path(path)}:{at[0]}"
    return None


def _refuse_at_lines(
    shape_files: Sequence[Path], shapes: Sequence[Triple], base: str, explained: list[Any]
) -> None:
    """An AnthologyError for the rows of ``explained`` (each with what it says), at the
    file and line of the first, each further one on a line of its own; none without rows."""
    from .shacl.graph import ShapesGraph

    if not explained:
        return
    graph = ShapesGraph(shapes)  # its index by object finds the shape a node is nested in
    # The anthology's own files first (the bundled ones come first in ``shape_files``).
    order = {path: -index for index, path in enumerate(shape_files)}
    problems: dict[tuple[int, int, str, Path | None], None] = {}
    for row, said in explained:
        owners = _owners(graph, row.focus)
        written = _where_written(shape_files, owners, row, base)
        shape = (
            _name(row.focus, base)
            if row.focus in owners
            else f"a shape in {_name(owners[0], base) if owners else 'a blank node'}"
        )
        note = (
            " (written in more than one shapes file: their triples merge)"
            if len({p for p, _ in written}) > 1
            else ""
        )
        message = f"{shape}: {said}{note}"
        for path, line in written or [(None, 0)]:
            problems[(order.get(path, 1) if path else 1, line, message, path)] = None
    if problems:
        found = sorted(problems, key=lambda p: p[:3])
        _, line, message, file = found[0]
        more = [
            f"{display_path(f)}:{n}: {m}" if f and n else f"{display_path(f)}: {m}" if f else m
            for _, n, m, f in found[1:]
        ]
        raise AnthologyError("\n".join([message, *more]), file, line or None)


def _name(node: object, base: str) -> str:
    from .prefixes import prefixed_name

    value = str(getattr(node, "value", node))  # a pyoxigraph IRI
    return prefixed_name(value, base) or f"<{value}>"


def _owners(graph: ShapesGraph, node: Any) -> list[Any]:
    """The IRIs ``node`` is, or is nested in (followed back through blank nodes)."""
    import pyoxigraph as ox

    owners, seen, todo = [], {node}, [node]
    while todo:
        current = todo.pop()
        if isinstance(current, ox.NamedNode):
            owners.append(current)
            continue
        for subject in graph.subjects(None, current):
            if subject not in seen:
                seen.add(subject)
                todo.append(subject)
    return sorted(owners, key=str)


def _where_written(
    shape_files: Sequence[Path], owners: Sequence[Any], row: Any, base: str
) -> list[tuple[Path | None, int]]:
    """The files and lines where the triple of ``row`` is written (its first value where
    it has several), else where the shape holding it starts."""
    import pyoxigraph as ox

    from .sourcemap import file_positions, locate, nested_triples

    found: list[tuple[Path | None, int]] = []
    for path in shape_files:
        positions = file_positions(path, base, ox_terms=True)
        for owner in owners:
            if owner not in positions.subjects:
                continue
            # A blank node is matched as any value: its label here is not the file's.
            value = None if isinstance(row.value, ox.BlankNode) else row.value
            at = locate(positions, row.focus, owner, row.path, value)
            if row.focus != owner:
                nested = nested_triples(positions, owner, row.path, value)
                if nested:
                    at = min((w.line, w.column) for w in nested)
            found.append((path, at[0] if at else 0))
    return found


def vocabulary(ontology: Graph) -> Graph:
    """The ontology's rdf:type and rdfs:subClassOf triples.

    Enough for sh:targetClass and sh:class to see subclass instances, and for rule 9 to
    tell a concept of the ontology (ak:method) from a name nothing defines.
    """
    from rdflib import RDF, RDFS, Graph

    skeleton = Graph()
    for predicate in (RDF.type, RDFS.subClassOf):
        for triple in ontology.triples((None, predicate, None)):
            skeleton.add(triple)
    return skeleton


def _digests(files: Sequence[Path]) -> tuple[bytes, ...] | None:
    """The SHA-256 of each file's bytes; None when one is not a regular file or cannot be
    read (parsing it then says why)."""
    if not all(path.is_file() for path in files):
        return None
    try:
        return tuple(hashlib.sha256(path.read_bytes()).digest() for path in files)
    except OSError:
        return None


def _rule_graphs(
    ontology_file: Path, shape_files: Sequence[Path], base: str
) -> tuple[Graph, Graph]:
    """The ontology and the shapes (``shape_files`` merged), blank nodes relabelled.

    Every command and every engine reads the same bundled rules: they are parsed once per
    process for the same file contents and base, and each caller gets its own copy."""
    files = _RuleFiles.read(ontology_file, shape_files, base)
    if files is None:
        return _parsed_rule_graphs(ontology_file, tuple(shape_files), base)
    ontology, shapes = _cached_rule_graphs(files)
    return _copy(ontology), _copy(shapes)


@dataclasses.dataclass(frozen=True)
class _RuleFiles:
    """Rule files as a cache key: equal when they hold the same bytes, in the same order,
    read against the same base, wherever they are (a copy of the bundled rules in another
    anthology is parsed once). The paths are kept to parse them and to name them in an
    error; a file that fails to parse raises, and nothing is kept for it."""

    ontology_file: Path = dataclasses.field(compare=False)
    shape_files: tuple[Path, ...] = dataclasses.field(compare=False)
    base: str
    digests: tuple[bytes, ...]

    @classmethod
    def read(cls, ontology_file: Path, shape_files: Sequence[Path], base: str) -> _RuleFiles | None:
        """The key of these files; None when one cannot be read (``_digests``)."""
        digests = _digests([ontology_file, *shape_files])
        if digests is None:
            return None
        return cls(ontology_file, tuple(shape_files), base, digests)


@functools.lru_cache(maxsize=8)
def _cached_rule_graphs(files: _RuleFiles) -> tuple[Graph, Graph]:
    """``_parsed_rule_graphs`` of the files of the first key equal to ``files``."""
    return _parsed_rule_graphs(files.ontology_file, files.shape_files, files.base)


def _parsed_rule_graphs(
    ontology_file: Path, shape_files: tuple[Path, ...], base: str
) -> tuple[Graph, Graph]:
    from rdflib import Graph

    from .bnodes import relabel
    from .namespaces import bind_prefixes

    ontology, _ = parse_turtle(ontology_file, base)
    shapes = bind_prefixes(Graph(), base)
    for path in shape_files:
        parse_turtle(path, base, shapes)
    return bind_prefixes(relabel(ontology), base), relabel(shapes)


def vocabulary_triples(ontology: Sequence[Triple]) -> list[Triple]:
    """``vocabulary`` of the ontology's pyoxigraph triples."""
    from .shacl.vocabulary import RDF, RDFS

    kept = (RDF.type, RDFS.subClassOf)
    return [t for t in ontology if t[1] in kept]


def _rule_triples(
    ontology_file: Path, shape_files: Sequence[Path], base: str
) -> tuple[tuple[Triple, ...], tuple[Triple, ...]]:
    """``_rule_graphs`` as pyoxigraph triples: the same triples, the same blank-node
    labels (``bnodes.ox_stable_labels``), parsed once per process for the same files."""
    files = _RuleFiles.read(ontology_file, shape_files, base)
    if files is None:
        return _parsed_rule_triples(ontology_file, tuple(shape_files), base)
    return _cached_rule_triples(files)


@functools.lru_cache(maxsize=8)
def _cached_rule_triples(
    files: _RuleFiles,
) -> tuple[tuple[Triple, ...], tuple[Triple, ...]]:
    """``_parsed_rule_triples`` of the files of the first key equal to ``files``; the
    triples are tuples (immutable), so every caller may share them."""
    return _parsed_rule_triples(files.ontology_file, files.shape_files, files.base)


def _parsed_rule_triples(
    ontology_file: Path, shape_files: tuple[Path, ...], base: str
) -> tuple[tuple[Triple, ...], tuple[Triple, ...]]:
    from .bnodes import ox_stable_labels
    from .sourcemap import refuse_rdf12_terms
    from .sources import parse_turtle_file

    def triples(paths: Sequence[Path]) -> tuple[Triple, ...]:
        # A set of triples, as an rdflib graph holds them (the order as first read).
        found: dict[Triple, None] = {}
        for path in paths:
            quads, _, data = parse_turtle_file(path, base)
            refuse_rdf12_terms(data, path, base, quads)  # as the reference engine does
            for quad in quads:
                found[(quad.subject, quad.predicate, quad.object)] = None  # type: ignore[index]
        labels: dict[Any, Any] = dict(ox_stable_labels(found))
        return tuple((labels.get(s, s), p, labels.get(o, o)) for s, p, o in found)

    ontology, shapes = triples([ontology_file]), triples(shape_files)
    bundled = resources.bundled_shapes_dir().resolve()
    # The bundled shapes alone are well-formed (tests/test_shape_syntax.py): no cost.
    if any(path.parent.resolve() != bundled for path in shape_files):
        check_shape_syntax(shape_files, shapes, base, ontology)
    return ontology, shapes


def _copy(graph: Graph) -> Graph:
    """A new graph with the triples and the prefix bindings of ``graph``, sharing no
    mutable state with it (a caller may add to either)."""
    from .namespaces import prefixed_like

    out = prefixed_like(graph)
    add_graph(graph, into=out)
    return out


def _distinct_dirs(*folders: Path) -> list[Path]:
    seen: list[Path] = []
    for folder in folders:
        if folder.is_dir() and folder.resolve() not in [s.resolve() for s in seen]:
            seen.append(folder)
    return seen


def _distinct_files(paths: Iterable[Path]) -> list[Path]:
    """``paths`` but a file whose bytes are those of an earlier one: an anthology holding a
    copy of the bundled shapes (a checkout of this repository, run by another installed
    version) would otherwise have every shape twice, a named shape with two ``sh:path``."""
    seen: set[bytes] = set()
    distinct = []
    for path in paths:
        read = _digests([path])
        digest = read[0] if read else str(path).encode()  # kept: parsing says why it fails
        if digest not in seen:
            seen.add(digest)
            distinct.append(path)
    return distinct


def load_rules(root: Path, base: str = DEFAULT_BASE, extra_shapes: Sequence[Path] = ()) -> Rules:
    """The bundled ontology, shapes and queries, with ``root``'s own shapes, queries
    and waivers added (the graphs parsed on first use: see ``Rules``)."""
    resources.data_folder(root)
    shape_dirs = _distinct_dirs(resources.bundled_shapes_dir(), root / "ontology" / "shapes")
    shape_files = _distinct_files(p for folder in shape_dirs for p in TurtleFiles.of(folder))
    shape_files += [Path(p) for p in extra_shapes]
    waivers = root / WAIVERS_FILE
    return Rules(
        ontology_file=resources.ontology_file(),
        shape_files=shape_files,
        query_dirs=_distinct_dirs(resources.bundled_queries_dir(), root / "queries"),
        # Anything by that name is read (a folder or a dangling link is an error then,
        # not a file of no waivers).
        waivers_file=waivers if os.path.lexists(waivers) else None,
        base=base,
    )
