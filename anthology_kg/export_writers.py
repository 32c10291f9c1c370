"""The export's writers, one a format (``WRITERS``): canonical Turtle (``turtle.py``'s,
the inferred triples in a marked section), sorted N-Triples and N-Quads, expanded
JSON-LD and RDF/XML, each byte-stable for the same ``Export``; and ``export_bytes``,
a writer's text as UTF-8 chunks.
"""

from __future__ import annotations

import functools
import re
import xml.parsers.expat
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain, islice
from json.encoder import encode_basestring as _json_string  # json.dumps's, in C
from operator import eq
from typing import TypeVar

from .errors import AnthologyError, CanonicalizationTooCostly, nesting_followed
from .export import INFERRED_GRAPH, Export, collector_paused
from .layout import printable
from .prefixes import NAME_CHARS, NAME_START_CHARS, PREFIXES
from .turtle import Statement, literal_parts, turtle_section_pieces

_XSD_STRING = PREFIXES["xsd"] + "string"
_LANG_STRING = PREFIXES["rdf"] + "langString"
_TYPE_TOKEN = f"<{PREFIXES['rdf']}type>"


Written = TypeVar("Written")


def _paused(write: Callable[[Export], Written]) -> Callable[[Export], Written]:
    """A writer that runs with the collector paused (``export.collector_paused``), its
    refusal to canonicalize placed at a data file where the export can say
    (``Export.locate``); blank nodes nested too deep for Python to follow are an
    AnthologyError (``errors.nesting_followed``)."""

    @functools.wraps(write)
    def writer(export: Export) -> Written:
        with collector_paused(), nesting_followed():
            try:
                return write(export)
            except CanonicalizationTooCostly as error:
                raise export.locate(error) from None

    return writer


def _inferred_header(export: Export) -> str:
    """The comment line that heads the inferred section of an export's Turtle."""
    return (
        f"# Inferred ({export.inference} closure, as owlrl computes it): entailed by the "
        "ontology, not asserted in data/."
    )


def to_turtle(export: Export) -> str:
    """Canonical Turtle; inferred triples follow in a section of their own, marked by a
    comment (Turtle has no named graphs).

    >>> from anthology_kg import FolderSource, build_export
    >>> from anthology_kg.resources import bundled_dir
    >>> turtle = to_turtle(build_export(FolderSource(bundled_dir()), ("data",)))
    >>> print(turtle[turtle.index("id:LIT-168 a"):].split(" ;")[0])
    id:LIT-168 a ak:LiteratureRecord
    """
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


@_paused
def to_ntriples(export: Export) -> str:
    """Sorted N-Triples of the asserted and the inferred triples together.

    >>> from anthology_kg import FolderSource, build_export
    >>> from anthology_kg.resources import bundled_dir
    >>> export = build_export(FolderSource(bundled_dir()), ("data",), inference="rdfs")
    >>> lines = to_ntriples(export).splitlines()
    >>> lines == sorted(set(lines)), len(export.asserted_lines) < len(lines)
    (True, True)
    """
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


#: The namespace XML binds to no prefix. (xml's, ``…/XML/1998/namespace``, ends in a
#: name character, so no predicate is split into it and a local name.)
_XMLNS = "http://www.w3.org/2000/xmlns/"


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
    namespace = predicate[: match.start()]
    if namespace == _XMLNS:
        raise AnthologyError(
            f"RDF/XML cannot write the predicate <{predicate}>: no prefix may be declared "
            "for its namespace (Namespaces in XML, section 3); export it as turtle, "
            "ntriples, nquads or jsonld"
        )
    return namespace, match.group(0)


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
