"""Exporting the graph: what to include, what to infer, and byte-stable writers.

An export is a pyoxigraph dataset: the asserted triples in its default graph, the inferred
ones in ``INFERRED_GRAPH``, blank nodes labelled by RDF Dataset Canonicalization
(RDFC-1.0). Every writer orders its output itself (subjects, predicates, objects), so the
same graph gives the same bytes whatever the hash seed, the engine or the order the files
were parsed in. Inferred triples are kept apart: a named graph in N-Quads and JSON-LD, a
marked section in Turtle.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
import xml.parsers.expat
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, islice
from json.encoder import encode_basestring as _json_string  # json.dumps's, in C
from operator import eq
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pyoxigraph as ox

from . import resources
from .choices import DEFAULT_BASE, GRAPH_BASE
from .choices import INFERENCE_CHOICES as INFERENCE
from .errors import AnthologyError
from .layout import printable
from .prefixes import NAME_CHARS, NAME_START_CHARS, PREFIXES
from .sourcemap import may_hold_triple_term, refuse_triple_terms
from .sources import decode_utf8, listed_name, read_source, turtle_errors
from .turtle import (
    Statement,
    canonical_line_groups,
    graph_quads,
    literal_parts,
    split_lines,
    statement_lines,
    turtle_section_pieces,
)

# The common export (no inference, no shapes) reads the files with pyoxigraph and writes
# text: rdflib, owlrl and the loader are imported only by the calls that need them.
if TYPE_CHECKING:
    from rdflib import Graph
    from rdflib.term import Node

    from .loader import Anthology

PARTS = ("data", "ontology", "shapes")
INFERRED_GRAPH = GRAPH_BASE + "inferred"
_XSD_STRING = PREFIXES["xsd"] + "string"
_LANG_STRING = PREFIXES["rdf"] + "langString"
_TYPE_TOKEN = f"<{PREFIXES['rdf']}type>"
_TURTLE = ox.RdfFormat.TURTLE


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Within the block, Python's cyclic garbage collector does not run; it is put back
    as it was at the end. An export makes hundreds of thousands of tuples, lists and
    strings, none in a cycle, so the collector finds nothing to free, yet each of the
    full passes they trigger walks every object the process holds (8% of an export's
    time in a process that has imported the whole package)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


Written = TypeVar("Written")


def _paused(write: Callable[[Export], Written]) -> Callable[[Export], Written]:
    """A writer that runs with the collector paused (``_collector_paused``)."""

    @functools.wraps(write)
    def writer(export: Export) -> Written:
        with _collector_paused():
            return write(export)

    return writer


def __getattr__(name: str) -> Any:
    """``nt_term``, where callers have always found it (it writes rdflib terms: imported
    on first use)."""
    if name == "nt_term":
        from .terms import nt_term

        return nt_term
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Source(Protocol):
    """What an export reads from an engine: the parts of the graph as pyoxigraph quads
    (fast), or as rdflib graphs (for the owlrl closure), blank nodes labelled alike."""

    base: str

    def quads(self, parts: Sequence[str]) -> Iterator[ox.Quad]:
        """The triples of ``parts`` as pyoxigraph quads."""
        ...

    def graph(self, part: str) -> Graph:
        """One part as an rdflib graph."""
        ...


def _turtle_files(folder: Path) -> list[tuple[str, bool]]:
    """The ``*.ttl`` files of ``folder`` but hidden ones (``sources.listed_name``), sorted
    by name, each with whether the listing showed it as a regular file (not a symbolic
    link): ``read_source`` then opens it without a stat first. Listed with os.scandir,
    as text: a Path object per file costs more than parsing it."""
    with os.scandir(folder) as entries:
        return sorted(
            (entry.path, entry.is_file(follow_symlinks=False))
            for entry in entries
            if listed_name(entry.name)
        )


def _parsed_files(files: Iterable[tuple[str, bool]], base: str) -> Iterator[list[ox.Quad]]:
    """The quads of each Turtle file (its path, and whether its folder's listing showed
    a regular file: ``_turtle_files``), as ``sources.iter_turtle_file`` gives them: the
    same checks and messages, written out here so that ten thousand files do not cost
    ten thousand context managers (a parse error is translated after the fact). A
    file's quads come as one list, so that a caller chaining them (``itertools.chain``,
    in C) runs no Python code per quad, and a parse error is raised here, at its file."""
    for path, listed_regular in files:
        data = read_source(path, listed_regular=listed_regular)
        decode_utf8(data, path)
        try:
            quads = list(ox.parse(data, format=_TURTLE, base_iri=base, rename_blank_nodes=True))
        except (SyntaxError, ValueError, MemoryError):
            with turtle_errors(path, base):
                raise
        refuse_triple_terms(data, path, base, quads)
        yield quads


#: Files read, checked, decoded and split at a time (``_file_lines``): a few hundred kB
#: of N-Triples, not the whole graph's text held three times over.
_FILES_AT_A_TIME = 64
#: A batch stops at the file that brings its bytes to this many: a batch holds the
#: files' bytes, their joined copy and its decoded text at once (64 files of 3.6 MB
#: each made the peak RSS 10% higher).
_BYTES_AT_A_TIME = 1 << 22


def _file_lines(files: Iterable[tuple[str, bool]], base: str) -> list[str]:
    """``statement_lines`` of the triples of the Turtle ``files`` (as ``_parsed_files``
    reads them, with the same checks and messages), each file serialized as N-Triples
    by pyoxigraph straight from its parser: no list of quads is made, and a parse error
    is raised at its file."""
    lines: list[str] = []
    listed = iter(files)
    while True:
        batch, unread = _read_batch(listed)
        if not batch and unread is None:
            return lines
        lines += _group_lines(batch, base, unread)


def _read_batch(
    listed: Iterator[tuple[str, bool]],
) -> tuple[list[tuple[str, bytes]], AnthologyError | None]:
    """The next files of ``listed`` read, each with its path: ``_FILES_AT_A_TIME`` of
    them or up to the one that brings their bytes to ``_BYTES_AT_A_TIME``, and the
    error of a file that could not be read, which ends the batch (None if none)."""
    batch: list[tuple[str, bytes]] = []
    size = 0
    for path, listed_regular in listed:
        try:
            data = read_source(path, listed_regular=listed_regular)
        except AnthologyError as error:
            return batch, error
        batch.append((path, data))
        size += len(data)
        if len(batch) == _FILES_AT_A_TIME or size >= _BYTES_AT_A_TIME:
            break
    return batch, None


def _group_lines(
    batch: list[tuple[str, bytes]], base: str, unread: AnthologyError | None
) -> list[str]:
    """``_file_lines`` of a batch of files read (``_read_batch``). The checks every
    file needs, that it is UTF-8 and holds no mark of a triple term, are made once on
    their joined bytes (the two calls per file cost 1.6 ms per thousand files); the
    files are checked one by one only where these fail. The errors come as file by
    file: ``unread``, a file that could not be read, is raised after the files before
    it are checked."""
    # Joined by a line end, which no mark holds: none is made of two files' bytes.
    joined = b"\n".join([data for _, data in batch])
    marked = may_hold_triple_term(joined)
    try:
        joined.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        utf8 = False
    del joined
    texts: list[bytes] = []
    for path, data in batch:
        if not utf8:
            decode_utf8(data, path)
        if marked:
            refuse_triple_terms(data, path, base)
        try:
            parsed = ox.parse(data, format=_TURTLE, base_iri=base, rename_blank_nodes=True)
            texts.append(ox.serialize(parsed, format=ox.RdfFormat.N_TRIPLES) or b"")
        except (SyntaxError, ValueError, MemoryError):
            with turtle_errors(path, base):
                raise
    if unread is not None:
        raise unread
    return _split_statements(texts)


def _split_statements(texts: list[bytes]) -> list[str]:
    """The statements of N-Triples ``texts``, one string each without its `` .``."""
    lines = b"".join(texts).decode("utf-8").split(" .\n")
    lines.pop()  # after the last statement (or the empty text)
    return lines


class FolderSource:
    """An export's source read straight from an anthology folder (no engine): data files
    parsed by pyoxigraph (every literal as written), the rules' graphs as loaded, and,
    only for inference, the reference engine's rdflib graphs."""

    def __init__(self, root: Path | None = None, base: str = DEFAULT_BASE):
        self.root = (root or resources.find_root()).resolve()
        if not (self.root / "data").is_dir():
            raise AnthologyError("no data/ folder here: not an anthology", self.root)
        self.base = base
        self._anthology: Anthology | None = None  # for the owlrl closure only

    def quads(self, parts: Sequence[str]) -> Iterator[ox.Quad]:
        """The quads of ``parts``, file by file as they are parsed (lazily: a writer
        that consumes them as they come holds one file's at a time)."""
        return chain.from_iterable(self._part_quads(parts))

    def _part_quads(self, parts: Sequence[str]) -> Iterator[list[ox.Quad]]:
        for part in parts:
            if part == "data":
                yield from _parsed_files(_turtle_files(self.root / "data"), self.base)
            elif part == "ontology":
                yield from _parsed_files([(str(resources.ontology_file()), False)], self.base)
            elif part == "shapes":  # bundled and the anthology's own, as the loader finds them
                from .loader import load_rules

                yield graph_quads(load_rules(self.root, self.base).shapes)
            else:
                raise ValueError(f"unknown part {part!r}: one of {', '.join(PARTS)}")

    def statement_lines(self, parts: Sequence[str]) -> list[str]:
        """``turtle.statement_lines`` of ``quads(parts)``, the files' triples
        serialized as they are parsed (``_file_lines``)."""
        lines: list[str] = []
        for part in parts:
            if part == "data":
                lines += _file_lines(_turtle_files(self.root / "data"), self.base)
            elif part == "ontology":
                lines += _file_lines([(str(resources.ontology_file()), False)], self.base)
            else:
                lines += statement_lines(self.quads((part,)))
        return lines

    def graph(self, part: str) -> Graph:
        if self._anthology is None:
            from .loader import load_anthology

            self._anthology = load_anthology(self.root, base=self.base)
        return {
            "data": self._anthology.data,
            "ontology": self._anthology.ontology,
            "shapes": self._anthology.shapes,
        }[part]


@dataclass(frozen=True)
class Export:
    """What an export writes: the asserted triples and, apart, the inferred ones, each
    as one N-Triples line without its `` .`` (pyoxigraph's serialization: the writers
    work on this text, which costs less than a Python object per term); blank-node
    labels are as parsed until a writer relabels them (``canonical_lines``)."""

    asserted_lines: list[str]
    inferred_lines: list[str]
    base: str
    inference: str

    @property
    def asserted(self) -> list[Statement]:
        """The asserted triples as the N-Triples text of their terms."""
        return split_lines(self.asserted_lines)

    @property
    def inferred(self) -> list[Statement]:
        """The inferred triples as the N-Triples text of their terms."""
        return split_lines(self.inferred_lines)

    def canonical_lines(self) -> tuple[list[str], list[str]]:
        """Asserted and inferred lines, blank nodes labelled by RDFC-1.0 over both."""
        asserted, inferred = canonical_line_groups([self.asserted_lines, self.inferred_lines])
        return asserted, inferred

    def canonical(self) -> tuple[list[Statement], list[Statement]]:
        """Asserted and inferred triples, blank nodes labelled by RDFC-1.0 over both."""
        asserted, inferred = self.canonical_lines()
        return split_lines(asserted), split_lines(inferred)


def graph_export(graph: Graph, base: str = DEFAULT_BASE) -> Export:
    """An export of one rdflib graph (asserted, nothing inferred)."""
    return Export(statement_lines(graph_quads(graph)), [], base, "none")


def parse_include(text: str) -> tuple[str, ...]:
    """``"data,ontology"`` to ``("data", "ontology")``; an unknown part is an error."""
    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise AnthologyError(f"--include takes a comma list of {', '.join(PARTS)}, not {text!r}")
    return parts


def infer(data: Graph, ontology: Graph, asserted: Graph, inference: str) -> Graph:
    """The triples the ``inference`` closure (owlrl's, run by ``owlrl_linear``) of data
    and ontology adds to ``asserted`` about the anthology's own entries and terms: no
    axioms about the RDF, RDFS, OWL, XSD, SKOS or SHACL vocabularies."""
    import owlrl  # only here: the fast path infers without it
    from rdflib import RDF, BNode, Graph, Literal

    from .inference import REFLEXIVE, STANDARD_NAMESPACES, TRIVIAL_OBJECTS, TRIVIAL_TYPES
    from .owlrl_linear import OWLRLSemantics, RDFSSemantics

    def about_the_anthology(triple: tuple[Node, Node, Node]) -> bool:
        """An inferred triple worth exporting: about a subject the export asserts
        something of (or a blank node), and neither trivial nor about a standard
        vocabulary."""
        s, p, o = triple
        if isinstance(s, Literal) or str(s).startswith(STANDARD_NAMESPACES):
            return False
        if s not in subjects and not isinstance(s, BNode):
            return False
        if p in REFLEXIVE and s == o:
            return False
        return o not in TRIVIAL_OBJECTS and not (p == RDF.type and o in TRIVIAL_TYPES)

    # rdflib's SimpleMemory store (no contexts to index): owlrl's closure ~20% faster, the
    # same triples.
    closure = Graph(store="SimpleMemory")
    closure += data
    closure += ontology
    semantics = OWLRLSemantics if inference == "owlrl" else RDFSSemantics
    owlrl.DeductiveClosure(semantics, axiomatic_triples=False).expand(closure)
    subjects = set(asserted.subjects())  # a set: one lookup per inferred triple
    inferred = Graph()
    for triple in closure:
        if triple not in asserted and about_the_anthology(triple):
            inferred.add(triple)
    return inferred


def build_export(
    source: Source, include: Sequence[str] = ("data", "ontology"), inference: str = "none"
) -> Export:
    """The triples an export writes. Without inference, the included parts' quads as the
    engine gives them; with it, the closure is computed over data and ontology together
    in a pyoxigraph store (``inference.inferred_triples``, owlrl's closure where the
    rules there cannot give it), and the new triples are kept apart."""
    if inference not in INFERENCE:
        raise AnthologyError(f"--inferred takes one of {', '.join(INFERENCE)}")
    if isinstance(include, str) or not set(include) <= set(PARTS):
        raise ValueError(f"include is a sequence of parts ({', '.join(PARTS)}): {include!r}")
    if inference == "none":
        with _collector_paused():
            if isinstance(source, FolderSource):
                lines = source.statement_lines(include)
            else:
                lines = statement_lines(source.quads(include))
            return Export(lines, [], source.base, inference)
    from .inference import InferenceUnsupported, inferred_triples

    parts = {part: list(source.quads((part,))) for part in {*include, "data", "ontology"}}
    try:
        inferred = inferred_triples(parts, include, inference)
    except InferenceUnsupported:  # an OWL construct the fast rules lack: owlrl's closure
        return owlrl_export(source, include, inference)
    asserted = [quad for part in include for quad in parts[part]]
    return Export(statement_lines(asserted), statement_lines(inferred), source.base, inference)


def owlrl_export(
    source: Source, include: Sequence[str] = ("data", "ontology"), inference: str = "owlrl"
) -> Export:
    """``build_export`` with owlrl's closure computed on rdflib graphs (the reference
    the fast closure is tested against, and its fallback)."""
    from rdflib import Graph

    graphs = {part: source.graph(part) for part in {*include, "data", "ontology"}}
    asserted = Graph()
    for part in include:
        asserted += graphs[part]
    inferred = infer(graphs["data"], graphs["ontology"], asserted, inference)
    return Export(
        statement_lines(graph_quads(asserted)),
        statement_lines(graph_quads(inferred)),
        source.base,
        inference,
    )


def _inferred_header(export: Export) -> str:
    return (
        f"# Inferred ({export.inference} closure, as owlrl computes it): entailed by the "
        "ontology, not asserted in data/."
    )


def to_turtle(export: Export) -> str:
    """Canonical Turtle; inferred triples follow in a section of their own, marked by a
    comment (Turtle has no named graphs)."""
    return "".join(_turtle_pieces(export))


@_paused
def _turtle_pieces(export: Export) -> list[str]:
    """``to_turtle``'s text in pieces, in order."""
    sections = [("", export.asserted_lines)]
    if export.inferred_lines:
        sections.append((_inferred_header(export), export.inferred_lines))
    return turtle_section_pieces(sections, base=export.base)


def _nt_text(lines: list[str], graph: str = "") -> str:
    """Sorted distinct N-Triples (or, in ``graph``, N-Quads) text of ``lines`` (each a
    statement without its `` .``)."""
    if not lines:
        return ""
    suffix = f" {graph} .\n" if graph else " .\n"
    # Sorted without the suffix, then joined with it: the same order, as a space sorts
    # before any character that can follow a line that is another's beginning. Sorted as
    # a list, not as a set: the lines come nearly in order, which the sort takes
    # advantage of; a statement given twice is then next to itself.
    lines = sorted(lines)
    if any(map(eq, lines, islice(lines, 1, None))):
        lines = list(dict.fromkeys(lines))
    lines.append("")  # the last line's suffix, in the one copy of the text join makes
    return suffix.join(lines)


def graph_ntriples(graph: Graph) -> str:
    """Sorted N-Triples of one rdflib graph, its blank-node labels kept (for a store)."""
    return _nt_text(statement_lines(graph_quads(graph)))


@_paused
def to_ntriples(export: Export) -> str:
    """Sorted N-Triples of the asserted and the inferred triples together."""
    asserted, inferred = export.canonical_lines()
    return _nt_text(asserted + inferred)


@_paused
def to_nquads(export: Export) -> str:
    """Sorted N-Quads: asserted triples in the default graph, inferred ones in
    ``<https://w3id.org/anthology-kg/graph/inferred>``."""
    asserted, inferred = export.canonical_lines()
    return _nt_text(asserted) + _nt_text(inferred, f"<{INFERRED_GRAPH}>")


def _json_value(token: str, pad: str) -> str:
    """The JSON-LD value object of an N-Triples object term, as ``json.dumps`` with
    ``indent=2`` writes it where its keys are indented by ``pad``."""
    if token[0] == '"':
        lexical, datatype, language = literal_parts(token)
        members = [f'"@value": {_json_string(lexical)}']
        if language:
            members.append(f'"@language": {_json_string(language)}')
        elif datatype and datatype not in (_XSD_STRING, _LANG_STRING):
            members.append(f'"@type": {_json_string(datatype)}')
    elif token[0] == "<" and token[1] != "<":
        members = [f'"@id": {_json_string(token[1:-1])}']
    elif token[0] == "_":
        members = [f'"@id": {_json_string(token)}']
    else:
        raise AnthologyError(f"JSON-LD cannot write the triple term {token}")
    return "{\n" + pad + f",\n{pad}".join(members) + "\n" + pad[2:] + "}"


def _is_type(predicate: str, token: str) -> bool:
    """Whether a triple goes into its subject's ``@type``: an rdf:type whose object is an
    IRI or a blank node. JSON-LD 1.1 (Serialize RDF as JSON-LD) writes rdf:type as
    ``@type`` only for those; a literal object stays an rdf:type value object."""
    return predicate == _TYPE_TOKEN and (token[0] == "_" or (token[0] == "<" and token[1] != "<"))


def _type_value(token: str) -> str:
    """What an rdf:type object (``_is_type``) gives ``@type``: an IRI, or a blank node
    identifier with its ``_:`` (without it, a reader takes it for a relative IRI)."""
    return token if token[0] == "_" else token[1:-1]


def _jsonld_nodes(triples: Iterable[Statement], level: int) -> list[str]:
    """Expanded JSON-LD node objects of ``triples``, one per subject (sorted by its
    N-Triples text), each as ``json.dumps(node, indent=2, ensure_ascii=False)`` writes
    it ``level`` lists and objects deep: subjects, predicates and values sorted.

    Written out rather than by ``json.dumps``: with ``indent`` it encodes in Python,
    object by object, and took most of a large export's time. The strings are encoded
    by json's own C encoder; tests hold the text equal to ``json.dumps``'s.
    """
    by_subject: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s, p, o in dict.fromkeys(triples):
        by_subject[s].append((p, o))
    pad = "  " * (level + 1)  # a node's keys
    inner = pad + "  "  # the items of its lists
    value_pad = inner + "  "  # the keys of a value object
    values: dict[str, str] = {}  # a value object's text, by the object's N-Triples
    nodes = []
    for subject in sorted(by_subject):
        edges = by_subject[subject]
        node_id = subject if subject[0] == "_" else subject[1:-1]
        members = [f'"@id": {_json_string(node_id)}']
        types = sorted(_type_value(o) for p, o in edges if _is_type(p, o))
        if types:
            listed = f",\n{inner}".join(map(_json_string, types))
            members.append(f'"@type": [\n{inner}{listed}\n{pad}]')
        objects: dict[str, list[str]] = defaultdict(list)
        for p, o in edges:
            if not _is_type(p, o):
                objects[p[1:-1]].append(o)
        for predicate in sorted(objects):
            texts = []
            for o in sorted(objects[predicate]):
                text = values.get(o)
                if text is None:
                    text = values[o] = _json_value(o, value_pad)
                texts.append(text)
            listed = f",\n{inner}".join(texts)
            members.append(f"{_json_string(predicate)}: [\n{inner}{listed}\n{pad}]")
        nodes.append("{\n" + pad + f",\n{pad}".join(members) + "\n" + pad[2:] + "}")
    return nodes


@_paused
def to_jsonld(export: Export) -> str:
    """Expanded JSON-LD 1.1, nodes and values sorted; inferred triples in a named graph."""
    asserted, inferred = export.canonical()
    nodes = _jsonld_nodes(asserted, 1)
    if inferred:
        graph = ",\n      ".join(_jsonld_nodes(inferred, 3))
        nodes.append(
            f'{{\n    "@id": {_json_string(INFERRED_GRAPH)},\n'
            f'    "@graph": [\n      {graph}\n    ]\n  }}'
        )
    if not nodes:
        return "[]\n"
    return "[\n  " + ",\n  ".join(nodes) + "\n]\n"


#: Characters XML 1.0 cannot carry at all: its Char production (XML 1.0, section 2.2)
#: leaves out U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, the surrogates, U+FFFE and
#: U+FFFF, and a character reference must name a Char too (section 4.1, "WFC: Legal
#: Character"), so ``&#1;`` is not well-formed either (XML 1.1 allows it, but the
#: writers here write XML 1.0, the version every RDF/XML and SPARQL results reader
#: reads). A writer of data refuses a value holding one (written raw, the document is
#: not XML; dropped, the data would change); the JUnit report, text for people, shows
#: it escaped (layout.printable).
NOT_XML = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: How the XML writers write CR: a raw CR is read back as LF (XML 1.0's end-of-line
#: handling, section 2.11), a character reference as CR.
CR_REFERENCE = "&#13;"


def xml_escape(text: str) -> str:
    """``text`` as XML 1.0 character data: ``&``, ``<`` and ``>`` escaped, CR written
    as CR_REFERENCE. A character of NOT_XML is the caller's to refuse.

    Written out rather than ``xml.sax.saxutils.escape``: that module imports urllib's
    HTTP client, an import export skips."""
    text = text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    return text.replace("\r", CR_REFERENCE)


def _iri_attribute(iri: str) -> str:
    """An IRI as a double-quoted attribute value: of the characters XML escapes, an IRI
    can hold only ``&`` (RFC 3987 leaves out ``<``, ``>``, ``"``, white space and
    controls, and pyoxigraph reads valid IRIs only)."""
    return iri.replace("&", "&amp;")


def _refuse_non_xml(subject: str, predicate: str, literal: str, lexical: str) -> None:
    """An AnthologyError if ``lexical``, the lexical form of ``literal`` (the object of
    ``subject predicate``), holds a character of NOT_XML."""
    bad = NOT_XML.search(lexical)
    if bad:
        raise AnthologyError(
            f"RDF/XML cannot write {printable(f'{subject} <{predicate}> {literal}')}: it "
            f"holds U+{ord(bad.group()):04X}, which XML 1.0 cannot carry, not even as a "
            "character reference; export it as turtle, ntriples, nquads or jsonld"
        )


#: The longest XML NCName ending a predicate, of ASCII characters (what names mostly
#: are; the same split as before non-ASCII names were read); ``_ncname`` for the others.
_NCNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*$")


@functools.cache
def _ncname() -> re.Pattern[str]:
    """The longest XML NCName ending a predicate, of any characters XML 1.0 (fifth
    edition) names have (compiled when first needed: its Unicode classes take
    milliseconds)."""
    return re.compile(f"[{NAME_START_CHARS}_][{NAME_CHARS}.]*$")


def _readable_name(predicate: str) -> re.Match[str] | None:
    """The longest NCName ending ``predicate`` that XML readers of the fourth edition's
    narrower name characters read too: expat (rdflib's RDF/XML parser) and the JDK's
    Xerces (Jena, Protégé) refuse U+3400 or U+1F600 in a name, which the fifth edition
    allows; expat is asked, name by name, shortest last. None when none is."""
    widest = _ncname().search(predicate)
    if widest is None:
        return None
    for start in range(widest.start(), len(predicate)):
        local = predicate[start:]
        parser = xml.parsers.expat.ParserCreate()
        try:
            parser.Parse(f"<{local}/>", True)
        except xml.parsers.expat.ExpatError:
            continue
        return _ncname().search(predicate, start)
    return None


#: The rdf: names RDF/XML reserves for its own syntax (RDF 1.1 XML Syntax 7.2.2-7.2.5):
#: no property element may have them; rdf:li is read back as rdf:_1, rdf:_2, ...
_NOT_PROPERTY_ELEMENTS = {
    PREFIXES["rdf"] + name
    for name in (
        "RDF ID about parseType resource nodeID datatype Description li "
        "aboutEach aboutEachPrefix bagID"
    ).split()
}


def _split_predicate(predicate: str) -> tuple[str, str]:
    """``predicate`` as the namespace and local name of an XML element; an
    AnthologyError if RDF/XML cannot write it as a property element."""
    match = _NCNAME.search(predicate) or _readable_name(predicate)
    if not match or match.start() == 0:
        raise AnthologyError(f"RDF/XML cannot write the predicate <{predicate}>")
    if predicate in _NOT_PROPERTY_ELEMENTS:
        raise AnthologyError(
            f"RDF/XML cannot write the predicate <{predicate}>: RDF/XML keeps that name "
            "for its own syntax; export it as turtle, ntriples, nquads or jsonld"
        )
    return predicate[: match.start()], match.group(0)


@_paused
def to_rdfxml(export: Export) -> str:
    """RDF/XML, one rdf:Description per subject, subjects, properties and values sorted.

    Written here rather than by rdflib, whose writer walks subjects in hash order (and
    from the N-Triples text: pyoxigraph terms cost more to make than the writing). A
    literal holding a character XML 1.0 cannot carry (U+0001, say) is an AnthologyError
    naming its triple (NOT_XML); CR is written as ``&#13;``, so the graph reads back the same.
    """
    asserted, inferred = export.canonical()
    by_subject: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for s, p, o in dict.fromkeys(chain(asserted, inferred)):
        by_subject[s].append((p[1:-1], o))
    predicates = {p for edges in by_subject.values() for p, _ in edges}
    namespaces = sorted({_split_predicate(p)[0] for p in predicates} | {PREFIXES["rdf"]})
    known = {ns: prefix for prefix, ns in PREFIXES.items()}
    known[export.base] = "id"
    names: dict[str, str] = {}
    for index, ns in enumerate(namespaces):
        names[ns] = known.get(ns, f"ns{index}")
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<rdf:RDF"]
    lines += [
        f'   xmlns:{names[ns]}="{_iri_attribute(ns)}"'
        for ns in sorted(namespaces, key=names.__getitem__)
    ]
    lines[-1] += ">"
    tags: dict[str, str] = {}  # a predicate's element name, by its IRI
    for p in predicates:
        ns, local = _split_predicate(p)
        tags[p] = f"{names[ns]}:{local}"
    for subject in sorted(by_subject):
        if subject[0] == "_":
            lines.append(f'  <rdf:Description rdf:nodeID="{subject[2:]}">')
        else:
            lines.append(f'  <rdf:Description rdf:about="{_iri_attribute(subject[1:-1])}">')
        for p, o in sorted(by_subject[subject]):
            tag = tags[p]
            if o[0] == '"':
                lexical, datatype, language = literal_parts(o)
                # str.isprintable (in C) is False for each character of NOT_XML, and
                # for line ends: the search runs for the few literals holding one. IRIs
                # need none (pyoxigraph reads valid IRIs only, which hold none).
                if not lexical.isprintable():
                    _refuse_non_xml(subject, p, o, lexical)
                attrs = ""
                if language:
                    attrs = f' xml:lang="{language}"'
                elif datatype:
                    attrs = f' rdf:datatype="{_iri_attribute(datatype)}"'
                lines.append(f"    <{tag}{attrs}>{xml_escape(lexical)}</{tag}>")
            elif o[0] == "_":
                lines.append(f'    <{tag} rdf:nodeID="{o[2:]}"/>')
            elif o[1] != "<":
                lines.append(f'    <{tag} rdf:resource="{_iri_attribute(o[1:-1])}"/>')
            else:
                raise AnthologyError(f"RDF/XML cannot write the triple term {o}")
        lines.append("  </rdf:Description>")
    lines.append("</rdf:RDF>")
    return "\n".join(lines) + "\n"


WRITERS = {
    "turtle": to_turtle,
    "ntriples": to_ntriples,
    "nquads": to_nquads,
    "jsonld": to_jsonld,
    "rdfxml": to_rdfxml,
}


def export_bytes(export: Export, fmt: str) -> Iterator[bytes]:
    """The UTF-8 bytes of ``WRITERS[fmt](export)``, in chunks of about 1 MiB for a
    writer to write one at a time. Turtle is encoded from its pieces, so neither the
    joined text nor its encoded copy is ever whole in memory (peak RSS of a
    100,000-entry export 747 -> 674 MiB); the other formats are written as one text, encoded by
    the chunk."""
    pieces = _turtle_pieces(export) if fmt == "turtle" else [WRITERS[fmt](export)]
    yield from _utf8_chunks(pieces)


def _utf8_chunks(pieces: list[str], size: int = 1 << 20) -> Iterator[bytes]:
    """The UTF-8 encoding of ``"".join(pieces)`` in chunks of about ``size``
    characters (a piece longer than that is cut; a str slice never splits a character,
    so the chunks concatenate to the whole encoding). ``pieces`` is emptied as it is
    read, so a piece written is a piece freed.

    A chunk is the pieces up to the one that brings it to ``size``, found by bisection
    in the running total of their lengths (in C): a loop over the pieces, tens of
    thousands of them, cost more than the encoding."""
    ends = list(accumulate(map(len, pieces)))
    done = 0  # the pieces written so far
    while pieces:
        reached = bisect_left(ends, (ends[done - 1] if done else 0) + size, done)
        count = min(reached - done + 1, len(pieces))
        text = "".join(pieces[:count])
        del pieces[:count]
        done += count
        if len(text) <= 2 * size:
            yield text.encode("utf-8")
            continue
        for start in range(0, len(text), size):
            yield text[start : start + size].encode("utf-8")
