"""When the fast engine's verdict would differ from SHACL's on literals the store rewrites.

A pyoxigraph store keeps a valid literal of a known XSD datatype as its value: ``1.0``
is held as ``"1"^^xsd:decimal``, ``"01"^^xsd:integer`` as ``1``, ``"42"^^xsd:int`` as
``"42"^^xsd:integer``, ``"1"^^xsd:boolean`` as ``true``, and a store has no option to
keep the lexical form. SHACL compares RDF terms, so a component that reads a value's
term, text or datatype (``sh:in``, ``sh:hasValue``, ``sh:equals``, ``sh:disjoint``,
``sh:pattern``, ``sh:minLength``, ``sh:maxLength``, ``sh:datatype``, and the counts,
which count distinct terms) may give another verdict on the stored value than on the
one written. ``rewritten_literal`` finds, for one store and one shapes graph, the first
such literal that such a component can reach (``watched``), so that ``open_engine``
validates on the reference engine instead; data whose literals are all written in
canonical form costs one query over the watched predicates.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pyoxigraph as ox

from . import resources
from .shacl.graph import ShapesGraph
from .shacl.vocabulary import RDF, SH, Term, short_name
from .sources import decode_utf8, parse_quads, read_source

if TYPE_CHECKING:
    from .engine import Engine
    from .fast import OxigraphEngine

_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_STRING = _XSD + "string"
#: The parameters whose components read a value node's term or text: any rewriting of
#: the literal may change their verdict. sh:in and sh:hasValue only with a literal
#: among their terms (an IRI never equals a literal); the counts count distinct terms
#: (``1.0, 1.00`` are two values as written, one in the store).
_READS_TERMS = (
    SH.pattern,
    SH.minLength,
    SH.maxLength,
    SH.minCount,
    SH.maxCount,
    SH.qualifiedMinCount,
    SH.qualifiedMaxCount,
    SH.equals,
    SH.disjoint,
)
#: The parameters naming shapes whose focus nodes are this shape's value nodes.
_VALUE_SHAPES = (SH.node, SH["not"], SH.qualifiedValueShape)
_VALUE_SHAPE_LISTS = (SH["and"], SH["or"], SH.xone)
#: The parameters whose literal terms the store would compare by value.
_CONSTANTS = (SH.hasValue, SH["in"], SH.targetNode)


@dataclass
class Watch:
    """The predicates whose literal objects a term-reading component may reach, each
    with the shape and component that reads it (for the notice): ``terms`` for any
    rewriting, ``datatypes`` for one that changes the datatype (``sh:datatype``)."""

    terms: dict[str, str] = field(default_factory=dict)
    datatypes: dict[str, str] = field(default_factory=dict)
    #: What reads every literal, if anything: a SPARQL query of the anthology's own
    #: shapes, which may reach any triple and compare terms (``own_queries``).
    everything: str | None = None

    def reader(self, predicate: str, literal: ox.Literal, stored: ox.Literal) -> str | None:
        """What reads ``literal`` (stored as ``stored``) on ``predicate``, if anything."""
        said = self.terms.get(predicate)
        if said is None and literal.datatype != stored.datatype:
            said = self.datatypes.get(predicate)
        return said or self.everything


def watched(shapes: ShapesGraph, own_queries: str | None = None) -> Watch:
    """The predicates of ``shapes``' term-reading constraints (``Watch``).

    Which literals a shape's constraints see: its value nodes are the objects of the
    predicates of its path (every IRI in it, whatever the path's form) and its focus
    nodes; its focus nodes are the objects of its ``sh:targetObjectsOf`` predicates,
    its parent's focus nodes (``sh:property``), or the value nodes of a shape that
    names it (``sh:node``, ``sh:not``, ``sh:qualifiedValueShape``, ``sh:and``/``or``/
    ``xone``). A class or subjects-of target gives no literal. ``own_queries`` names
    the SPARQL-based constraints or components that read every literal, if any."""
    focus: dict[Term, set[str]] = {}
    values: dict[Term, set[str]] = {}
    shapes_of: list[Term] = list(
        dict.fromkeys(
            s
            for s, p, _ in shapes
            if p in (SH.path, SH.property, SH.targetObjectsOf, *_VALUE_SHAPES, *_VALUE_SHAPE_LISTS)
            or p in _READS_TERMS
            or p in (SH.datatype, SH.hasValue, SH["in"])
        )
    )
    known = set(shapes_of)
    for shape in shapes_of:
        focus[shape] = {p.value for p in shapes.objects(shape, SH.targetObjectsOf) if _iri(p)}
    changed = True
    while changed:
        changed = False
        for shape in shapes_of:
            path = shapes.value(shape, SH.path)
            mine = focus.setdefault(shape, set()) | (_path_iris(shapes, path) if path else set())
            values[shape] = mine
            children = [(c, focus[shape]) for c in shapes.objects(shape, SH.property)]
            children += [(c, mine) for p in _VALUE_SHAPES for c in shapes.objects(shape, p)]
            children += [
                (c, mine)
                for p in _VALUE_SHAPE_LISTS
                for listed in shapes.objects(shape, p)
                for c in shapes.items(listed)
            ]
            for child, given in children:
                held = focus.setdefault(child, set())
                if not given <= held:
                    held |= given
                    changed = True
                    if child not in known:
                        known.add(child)
                        shapes_of.append(child)
    watch = Watch(everything=own_queries)
    for shape in shapes_of:
        seen = values.get(shape, set())
        readers = [p for p in _READS_TERMS if shapes.has(shape, p)]
        readers += [
            p
            for p in (SH.hasValue, SH["in"])
            if any(isinstance(t, ox.Literal) for t in _constants(shapes, shape, p))
        ]
        compared = {
            o.value for p in (SH.equals, SH.disjoint) for o in shapes.objects(shape, p) if _iri(o)
        }
        if readers:
            for predicate in seen | compared:
                watch.terms.setdefault(
                    predicate, f"{short_name(readers[0])} of {_name(shapes, shape)}"
                )
        if shapes.has(shape, SH.datatype):
            for predicate in seen:
                watch.datatypes.setdefault(predicate, f"sh:datatype of {_name(shapes, shape)}")
    return watch


def own_queries(shape_files: Sequence[Path], bundled: Path, base: str) -> str | None:
    """The first of the anthology's own shapes files (not under ``bundled``) that holds
    a SPARQL query (``sh:select``, ``sh:ask``), named for a notice, else None. The
    bundled shapes' queries read a literal only for its presence or kind (``isIRI``),
    never its term or text, which ``tests/test_literal_terms.py`` checks."""
    from .errors import display_path

    for path in shape_files:
        if path.resolve().is_relative_to(bundled.resolve()):
            continue
        for quad in parse_quads(read_source(path), path, base):
            if quad.predicate in (SH.select, SH.ask):
                return f"a SPARQL query of {display_path(path)}"
    return None


def _iri(node: Term) -> bool:
    return isinstance(node, ox.NamedNode)


def _name(shapes: ShapesGraph, shape: Term) -> str:
    """``<iri>`` of ``shape``, or of the first named shape it is nested in."""
    todo, seen = [shape], {shape}
    while todo:
        node = todo.pop(0)
        if isinstance(node, ox.NamedNode):
            return f"<{node.value}>" if node == shape else f"a shape in <{node.value}>"
        for subject in shapes.subjects(None, node):
            if subject not in seen:
                seen.add(subject)
                todo.append(subject)
    return "a shape"


def _turtle(literal: ox.Literal) -> str:
    """``literal`` in Turtle, an XSD datatype as ``xsd:name``."""
    datatype = literal.datatype.value
    if datatype.startswith(_XSD):
        return f"{ox.Literal(literal.value)}^^xsd:{datatype[len(_XSD) :]}"
    return str(literal)


def _constants(shapes: ShapesGraph, shape: Term, parameter: ox.NamedNode) -> list[Term]:
    """The terms ``parameter`` gives ``shape`` (an ``sh:in`` list's members)."""
    given = shapes.objects(shape, parameter)
    if parameter == SH["in"]:
        return [member for listed in given for member in shapes.items(listed)]
    return given


def _path_iris(shapes: ShapesGraph, path: Term) -> set[str]:
    """Every IRI in the path expression ``path`` (its predicates, however combined)."""
    found: set[str] = set()
    todo, seen = [path], set()
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        if isinstance(node, ox.NamedNode):
            if node != RDF.nil:
                found.add(node.value)
            continue
        for predicate in shapes.predicates(node):
            todo.extend(shapes.objects(node, predicate))
    return found


@lru_cache(maxsize=4096)
def stored_form(literal: ox.Literal) -> ox.Literal:
    """``literal`` as a pyoxigraph store keeps it (its canonical form, for a valid
    literal of a datatype the store knows; else the literal itself)."""
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode("urn:s"), ox.NamedNode("urn:p"), literal))
    held = next(iter(store)).object
    assert isinstance(held, ox.Literal)
    return held


def rewritable(literal: ox.Literal) -> bool:
    """Whether a store may hold ``literal`` in another form than written: a typed
    literal of the XSD namespace other than xsd:string."""
    datatype = literal.datatype.value
    return datatype.startswith(_XSD) and datatype != _XSD_STRING and literal.language is None


@dataclass(frozen=True)
class Rewritten:
    """A literal written in a form the store does not keep, that a shape reads."""

    path: Path
    line: int
    written: ox.Literal
    stored: ox.Literal
    reader: str

    def notice(self) -> str:
        from .errors import display_path

        return (
            f"{display_path(self.path)}:{self.line}: {_turtle(self.written)} is held as "
            f"{_turtle(self.stored)} in the fast engine's store, and {self.reader} reads "
            "it as written"
        )


def shapes_constant(
    shapes: Sequence[tuple[Term, ox.NamedNode, Term]], files: Sequence[Path], base: str
) -> Rewritten | None:
    """The first literal of ``sh:in``, ``sh:hasValue`` or ``sh:targetNode`` in the
    shapes that the store would compare in another form than written (the compiled
    queries compare their terms by value: ``"01"^^xsd:integer`` would equal ``1``)."""
    graph = ShapesGraph(shapes)
    for subject, predicate, _ in graph:
        if predicate not in _CONSTANTS:
            continue
        for term in _constants(graph, subject, predicate):
            if isinstance(term, ox.Literal) and rewritable(term):
                stored = stored_form(term)
                if stored != term:
                    path, line = _written_at(files, base, term)
                    return Rewritten(path, line, term, stored, short_name(predicate))
    return None


def rewritten_literal(engine: OxigraphEngine, watch: Watch) -> Rewritten | None:
    """The first literal of ``engine``'s data files that its store holds in another form
    than written and that a watched predicate (``watch``) holds, at its file and line.

    The store is asked which subjects hold, on a watched predicate, a literal of a
    datatype it may rewrite; only the files those subjects are written in are read
    again. A deferred load (``load_fast(deferred=True)``) is not parsed for it: the
    bytes kept are searched for a literal written in a form a store may not keep
    (``may_be_rewritten``), and those files parsed. Under inference a triple of the
    closure may carry a literal under another predicate than written, so every
    rewritten literal of those files counts."""
    return next(_rewritten_literals(engine, watch), None)


def store_form_warnings(anthology: Engine, held_by: str) -> list[str]:
    """``FILE:LINE: warning: …`` for each literal of the anthology's files (up to
    ``LISTED_AT``, then how many more) that the store ``held_by`` names holds in another
    form than written (``rewritten_literals``); none for an engine other than the fast
    one, whose store is the one a server loads."""
    from .errors import LISTED_AT, display_path

    if anthology.name != "fast":
        return []
    found = list(
        dict.fromkeys(
            (r.path, r.line, r.written, r.stored)
            for r in rewritten_literals(cast("OxigraphEngine", anthology))
        )
    )
    lines = [
        f"{display_path(path)}:{line}: warning: {_turtle(written)} is held as "
        f"{_turtle(stored)} {held_by}"
        for path, line, written, stored in found[:LISTED_AT]
    ]
    if len(found) > LISTED_AT:
        lines.append(f"anthology-kg: warning: and {len(found) - LISTED_AT} more such literals")
    return lines


def rewritten_literals(engine: OxigraphEngine) -> Iterator[Rewritten]:
    """Each literal of ``engine``'s data files and of the anthology's own shapes files
    that a store keeping literals as values (pyoxigraph's, an Oxigraph server's) holds
    in another form than written, at its file and line, in the files' order: what
    ``publish`` and ``serve`` put in a store other than ``export`` writes it."""
    yield from _rewritten_literals(engine, Watch(everything="a store"))
    bundled = resources.bundled_shapes_dir().resolve()
    for path in engine.rules.shape_files:
        if path.resolve().parent == bundled:
            continue  # (written as the store keeps them: test_literal_terms)
        data = read_source(path)
        if may_be_rewritten(data):
            yield from _in_file(path, data, engine.base)


def _in_file(path: Path, data: bytes, base: str) -> Iterator[Rewritten]:
    """Each literal of the Turtle ``data`` (of ``path``) a store holds in another form."""
    text: str | None = None
    for quad in parse_quads(data, path, base):
        literal = quad.object
        if isinstance(literal, ox.Literal) and rewritable(literal):
            stored = stored_form(literal)
            if stored != literal:
                text = text if text is not None else decode_utf8(data, path)
                yield Rewritten(path, _line_of(text, literal), literal, stored, "a store")


def _rewritten_literals(engine: OxigraphEngine, watch: Watch) -> Iterator[Rewritten]:
    predicates = sorted(set(watch.terms) | set(watch.datatypes))
    if not predicates and watch.everything is None:
        return
    any_reader = watch.everything or next(iter({**watch.datatypes, **watch.terms}.values()))
    inferred = engine.inference != "none"
    for path, data in _files_to_read(engine, predicates, watch.everything is not None):
        text: str | None = None
        for quad in parse_quads(data, path, engine.base):
            literal = quad.object
            if not isinstance(literal, ox.Literal) or not rewritable(literal):
                continue
            stored = stored_form(literal)
            if stored == literal:
                continue
            reader = watch.reader(quad.predicate.value, literal, stored)
            if reader is None and inferred:
                reader = any_reader
            if reader is not None:
                text = text if text is not None else decode_utf8(data, path)
                yield Rewritten(path, _line_of(text, literal), literal, stored, reader)


def _files_to_read(
    engine: OxigraphEngine, predicates: Sequence[str], everything: bool
) -> Iterator[tuple[Path, bytes]]:
    """The data files that may hold a literal written in another form than the store's
    on one of ``predicates`` (or any, ``everything``), with their bytes, in order."""
    sources = None if engine.loaded else engine.sources()
    if sources is not None:
        for path, data in zip(engine.data_files, sources, strict=True):
            if may_be_rewritten(data):
                yield path, data
        return
    values = "" if everything else " ".join(f"<{p}>" for p in predicates)
    query = (
        "SELECT DISTINCT ?s WHERE { "
        + (f"VALUES ?p {{ {values} }} " if values else "")
        # xsd:string first: most literals are strings, and a comparison of terms costs
        # less than STR's text (the query 25 -> 22 ms at 10,000 entries). No isLiteral:
        # DATATYPE of an IRI or a blank node is an error, which the FILTER drops alike,
        # and testing every object first cost more (the query 21.5 -> 20 ms).
        + f"?s ?p ?o FILTER (DATATYPE(?o) != <{_XSD_STRING}> && "
        f'STRSTARTS(STR(DATATYPE(?o)), "{_XSD}")) }}'
    )
    subjects = [row[0] for row in engine.select(query, ("data",)) if row[0] is not None]
    if not subjects:
        return
    places = [engine.location(subject) for subject in subjects]
    files = (
        sorted({place.path for place in places if place is not None})
        if all(place is not None for place in places)
        else list(engine.data_files)  # a subject written nowhere known: read them all
    )
    for path in files:
        yield path, read_source(path)


#: A number written in a form a store may not keep: a sign '+', '-0', a leading zero,
#: a decimal ending in 0 or starting with '.', an exponent (Turtle's numeric tokens
#: follow white space, '(', '[', ',' or ';').
_NUMBER = re.compile(rb"[\s,;(\[](?:\+|-0(?![\d.])|-?0\d|-?\d*\.\d*0(?!\w)|-?\.\d|-?[\d.]+[eE])")
_TYPED = re.compile(rb"xsd:([A-Za-z]+)|<http://www\.w3\.org/2001/XMLSchema#([A-Za-z]+)>")


def may_be_rewritten(data: bytes) -> bool:
    """Whether the Turtle ``data`` may hold a literal a store keeps in another form than
    written: a number written so (``_NUMBER``), or a typed literal that is not a short
    string typed with an XSD datatype the store keeps as written. False for no such
    literal; true may be for a look-alike in a string or a comment."""
    if _NUMBER.search(data):
        return True
    at = data.find(b"^^")
    while at >= 0:
        if not _kept_as_written(data, at):
            return True
        at = data.find(b"^^", at + 2)
    return False


def _kept_as_written(data: bytes, at: int) -> bool:
    """Whether the typed literal whose ``^^`` is at ``at`` is a ``"text"^^xsd:name`` (or
    a datatype IRI of another namespace) that a store keeps as written."""
    typed = _TYPED.match(data, at + 2)
    if typed is None:
        return data[at + 2 : at + 3] == b"<"  # a datatype of another namespace
    start = data.rfind(b'"', 0, at - 1)
    text = data[start + 1 : at - 1]
    if data[at - 1 : at] != b'"' or start < 1 or data[start - 1 : start] in (b'"', b"\\"):
        return False
    if b"\\" in text or b"\n" in text or b"\r" in text:
        return False
    name = (typed[1] or typed[2]).decode("ascii")
    try:
        literal = ox.Literal(text.decode("utf-8"), datatype=ox.NamedNode(_XSD + name))
    except (UnicodeDecodeError, ValueError):
        return False
    return not rewritable(literal) or stored_form(literal) == literal


def _written_at(files: Sequence[Path], base: str, literal: ox.Literal) -> tuple[Path, int]:
    """The shapes file and line where ``literal`` is first written."""
    for path in files:
        data = read_source(path)
        if any(q.object == literal for q in parse_quads(data, path, base)):
            return path, _line_of(decode_utf8(data, path), literal)
    return (files[0] if files else Path("?")), 1


def _line_of(text: str, literal: ox.Literal) -> int:
    """The first line of ``text`` where ``literal``'s lexical form is written as a
    token (for a notice: a comment or string holding the same text may come first)."""
    found = re.search(rf"(?<![\w.:\-]){re.escape(literal.value)}(?![\w.])", text)
    if found is None:
        found = re.search(re.escape(literal.value), text)
    return text.count("\n", 0, found.start()) + 1 if found else 1
