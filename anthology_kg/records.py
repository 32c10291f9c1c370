"""The printed form of an entry (shared/RECORD_FORMAT.md): parse it into triples, print it back.

``parse_record`` turns the text into the entry's graph and the file's ``Layout`` (line
endings, what follows the status line, a byte order mark); ``render_record`` prints an
entry of a graph in that form. For a record the parser accepts, rendering its graph with
its layout gives back the same bytes. Without a layout the printed form has LF line
endings and ends at its status line, with no final newline, as the anthology prints it.
``read_records`` parses every record of a folder, all or none.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, XSD, NamespaceManager
from rdflib.term import Node

from . import formatting
from .errors import AnthologyError, clipped, display_path, printable
from .files import not_a_folder, write_all, write_atomic
from .loader import TurtleFiles, parse_turtle
from .namespaces import AK, DEFAULT_BASE, bind_prefixes
from .resources import data_folder, find_root, ontology_file
from .sources import decode_utf8, list_folder, not_read, read_source, require_regular_file
from .turtle import canonical_turtle

if TYPE_CHECKING:
    from .engine import Engine

TAKEAWAYS, PRACTICES, STANDING = "Key takeaways", "Practices", "Standing in the anthology"
DASH = " — "
BOM = "\ufeff"
#: The category words of RECORD_FORMAT.md; an anthology's decision records may admit more.
CATEGORY_WORDS = ("method", "evaluation", "infrastructure")
# Digits are [0-9]: Python's \d matches any script's digits ("LIT-１２３"), which the
# rules' patterns and xsd:gYear do not admit. _MENTION's lookarounds keep \w and \d
# Unicode: a letter or digit of any script beside an identifier makes it no mention.
IDENTIFIER_CLASSES = {
    r"LIT-[0-9]{3}": AK.LiteratureRecord,
    r"ADR-[0-9]{3}": AK.DecisionRecord,
    r"SOTA-[0-9]{3}": AK.SotaRecord,
    r"NOTE-[0-9]{3}": AK.Note,
    r"ARXIV-[0-9]{4}\.[0-9]{4,5}": AK.Reference,
}
_HEADING = re.compile(r"^(?P<authors>.+) \((?P<year>[0-9]{4})\) — (?P<identifier>\S+)$")
_MENTION = re.compile(r"(?<![\w.-])(?:" + "|".join(IDENTIFIER_CLASSES) + r")(?![\w-]|\.\d)")
_WITHHELD = re.compile(r"Carries no practice, deliberately — (ADR-[0-9]{3})\.")
#: Where a "Carries no practice" sentence starts (the Standing prose, line breaks read as
#: spaces): each must be a ``_WITHHELD`` there, as each "Filed as" must be a ``_FILED``.
#: Any case and "practices" too at the start of a sentence; mid-sentence, "carries no
#: practice" in lower case is prose (DESIGN.md's rule 2 says so of an entry).
_WITHHELD_AT = re.compile(r"(?<!\w)carries\s+no\s+practices?(?!\w)", re.IGNORECASE)
_WITHHELD_FORM = "'Carries no practice, deliberately — ADR-nnn.'"
#: xsd:integer's lexical form (whitespace collapsed); int() also takes "１", "1_0".
_INTEGER = re.compile(r"[ \t\n\r]*[+-]?[0-9]+[ \t\n\r]*")
# Every "Filed as" is read, so that a wrong word or form is an error, not a silent omission:
# _FILED_AT finds each, _FILED_WORDS reads its words whatever follows them, and _FILED is
# the sentence's grammar, which must match where _FILED_AT found it. They read the Standing
# prose with its line breaks, which may wrap a sentence: a reason runs to the first "."
# that ends a line ("e.g." or "vs." inside it are its text, not its end), within its
# paragraph; its line breaks are read as spaces.
_FILED_AT = re.compile(r"(?<!\w)Filed[ \n]as\b")
_FILED_WORDS = re.compile(
    r"Filed[ \n]as[ \n](?:an?[ \n])?(?P<category>[^\s:.,;]+)"
    r"(?:[ \n]rather[ \n]than[ \n]as[ \n]an?[ \n](?P<rejected>[^\s:.,;]+))?"
)
_FILED = re.compile(
    _FILED_WORDS.pattern + r"(?:\.(?=\s|\Z)|:[ \n](?P<reason>(?:[^\n]|\n(?!\n))+?)\.(?=\n|\Z))"
)
_FILED_FORMS = (
    "'Filed as <category>.' or 'Filed as <category>[ rather than as a <category>]: <reason>.'"
)
_UNREAD = "Unread — no NOTE."
_READ = re.compile(r"^Read — (\S+)\.$")


@dataclass
class Layout:
    """How a printed record was laid out in its file, beyond what the graph keeps.

    ``newline`` is its line ending (LF or CRLF), ``tail`` what follows the status line
    (``"\\n"`` for a final newline), ``bom`` whether it began with a UTF-8 byte order mark.
    """

    newline: str = "\n"
    tail: str = ""
    bom: bool = False

    def apply(self, printed: str) -> str:
        """``printed`` (LF, ending at its status line) laid out as the file was."""
        text = printed + self.tail
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return (BOM if self.bom else "") + text


@dataclass
class Record:
    """A parsed printed entry: its identifier, IRI, triples, file layout and notes.

    ``notes`` says what the parser changed on the way in (a byte order mark skipped),
    for the caller to show.
    """

    identifier: str
    iri: URIRef
    graph: Graph
    layout: Layout = field(default_factory=Layout)
    notes: list[str] = field(default_factory=list)
    path: Path | None = None


def entry_class(identifier: str) -> URIRef | None:
    """The class an identifier's form names, or None if it has no known form."""
    for pattern, cls in IDENTIFIER_CLASSES.items():
        if re.fullmatch(pattern, identifier):
            return cls
    return None


#: What a file must hold to name one of the terms ``known_categories`` reads (ak:Category,
#: ak:admitsCategory, ak:admittedCategory): the word itself, a ``\\u``/``\\U`` escape (an
#: IRI may write any character so), or an IRI written in ``<...>`` that ends inside the
#: word (``<...#admitsCat>`` as a prefix or base, its local name holding the rest).
#: Nothing else can: the word lies in the terms' fragment (after ``#``), and a fragment
#: comes from the text of one ``<...>`` IRI, possibly followed by a local name whose
#: characters are written as they are (Turtle's local-name escapes are punctuation only,
#: and a relative IRI never takes the base's fragment, RFC 3986 5.2.2).
_MAY_NAME_CATEGORY = re.compile(rb"Category|\\[uU]|C(?:a(?:t(?:e(?:g(?:o(?:r)?)?)?)?)?)?>")


def anthology_categories(root: Path | None = None, base: str = DEFAULT_BASE) -> set[str]:
    """``known_categories`` of the anthology at ``root`` (default: ``find_root()``):
    its data and the bundled ontology, read without loading every entry. Only the data
    files that could name the terms it reads are parsed (see ``_MAY_NAME_CATEGORY``);
    the others cannot change the answer."""
    root = (root or find_root()).resolve()
    data_dir = data_folder(root)
    words = _ontology_categories(base)
    graph = Graph()
    for path in TurtleFiles.of(data_dir):
        if _MAY_NAME_CATEGORY.search(read_source(path)):
            parse_turtle(path, base, into=graph)
    return known_categories(graph) | words


def _ontology_categories(base: str) -> frozenset[str]:
    """``known_categories`` of the bundled ontology, parsed once per process for the
    same bytes and ``base``: each of its patterns reads one triple, so the words of the
    ontology and of the data, each read alone, are those of the two merged."""
    path = ontology_file()
    return _categories_in(path, hashlib.sha256(read_source(path)).digest(), base)


@functools.lru_cache(maxsize=4)
def _categories_in(path: Path, digest: bytes, base: str) -> frozenset[str]:
    """``known_categories`` of the Turtle file ``path``, whose bytes have ``digest`` (the
    cache key with ``base``)."""
    return frozenset(known_categories(parse_turtle(path, base)[0]))


def known_categories(graph: Graph) -> set[str]:
    """The category words a record may use: RECORD_FORMAT.md's, the ontology's categories
    and every category a decision record of ``graph`` admits (in either form)."""
    words = set(CATEGORY_WORDS)
    nodes = set(graph.subjects(RDF.type, AK.Category))
    nodes |= set(graph.objects(None, AK.admitsCategory))
    nodes |= set(graph.objects(None, AK.admittedCategory))
    words |= {str(n)[len(str(AK)) :] for n in nodes if str(n).startswith(str(AK))}
    return words


def _split_layout(text: str, path: Path | str) -> tuple[str, Layout, list[str]]:
    """The text with LF line endings and no byte order mark, and the layout it had."""
    layout, notes = Layout(), []
    if text.startswith(BOM):
        text = text[1:]
        layout.bom = True
        notes.append(f"{path}: skipped the UTF-8 byte order mark (BOM) at the start of the file")
    if "\r" in text:
        lines = text.split("\n")
        crlf = [line.endswith("\r") for line in lines[:-1]]
        for number, line in enumerate(lines, start=1):
            if "\r" in line.rstrip("\r") or line.endswith("\r\r"):
                raise AnthologyError(
                    "a carriage return (CR) inside a line: line endings are LF or CRLF",
                    path,
                    number,
                )
        if lines[-1].endswith("\r"):
            raise AnthologyError(
                "the file ends with a carriage return (CR) without a line feed: line endings "
                "are LF or CRLF",
                path,
                len(lines),
            )
        if not all(crlf):
            number = crlf.index(False) + 1 if crlf[0] else crlf.index(True) + 1
            raise AnthologyError(
                "mixed line endings: some lines end with CRLF, others with LF", path, number
            )
        layout.newline = "\r\n"
        text = text.replace("\r\n", "\n")
    return text, layout, notes


def _trailing_space_error(line: str, what: str, path: Path | str, number: int) -> None:
    """Raise a clear error when ``line`` is ``what`` but for whitespace at its end."""
    if line != line.rstrip():
        raise AnthologyError(f"trailing whitespace after {what}", path, number)


def parse_record(
    text: str,
    path: Path | str = "<record>",
    base: str = DEFAULT_BASE,
    categories: Iterable[str] = CATEGORY_WORDS,
    *,
    value_nodes: bool = True,
) -> Record:
    """Parse a printed entry. A mistake is an AnthologyError with the file and line.

    ``categories`` are the words "Filed as" may name (see ``known_categories``). Without
    ``value_nodes`` the graph leaves out the takeaway and practice nodes (their lines
    are read and checked all the same): what ``render``'s read-back compares.
    """
    text, layout, notes = _split_layout(text, path)
    lines = text.split("\n")
    allowed = set(categories)

    def fail(number: int, message: str) -> NoReturn:
        raise AnthologyError(message, path, number)

    heading = _HEADING.match(lines[0]) if lines else None
    if not heading:
        if _HEADING.match(lines[0].rstrip()):
            _trailing_space_error(lines[0], "the heading's identifier", path, 1)
        fail(1, "expected the heading '<authors> (<year>) — <identifier>'")
    identifier = heading["identifier"]
    cls = entry_class(identifier)
    if cls is None:
        fail(
            1,
            f"identifier {clipped(identifier)} has none of the forms LIT-nnn, ADR-nnn, SOTA-nnn, "
            "NOTE-nnn, ARXIV-nnnn.nnnnn",
        )
    if len(lines) < 2 or lines[1] != TAKEAWAYS:
        if len(lines) >= 2 and lines[1].rstrip() == TAKEAWAYS:
            _trailing_space_error(lines[1], f"the section heading {TAKEAWAYS!r}", path, 2)
        fail(2, f"expected the section heading {TAKEAWAYS!r}")

    status_index = max((i for i, line in enumerate(lines) if line.strip()), default=0)
    layout.tail = (
        "\n" + "\n".join(lines[status_index + 1 :]) if status_index + 1 < len(lines) else ""
    )
    takeaways: list[str] = []
    practices: list[str] = []
    current = takeaways
    practices_line = 0  # the line of the Practices heading, once read
    index = 2
    while index < status_index and lines[index] != STANDING:
        line = lines[index]
        if line.rstrip() in (PRACTICES, STANDING) and line != line.rstrip():
            _trailing_space_error(line, f"the section heading {line.rstrip()!r}", path, index + 1)
        if line == PRACTICES and practices_line:
            fail(
                index + 1, f"a second section {PRACTICES!r} (the first is on line {practices_line})"
            )
        if line == PRACTICES:
            current, practices_line = practices, index + 1
        elif line.startswith("- ") and line[2:].strip():
            current.append(line[2:])
        elif not line.strip():
            fail(index + 1, "blank line inside a list section")
        else:
            fail(
                index + 1,
                f"unknown section {clipped(line)} "
                f"(expected '- item', {PRACTICES!r} or {STANDING!r})",
            )
        index += 1
    if index >= status_index:
        fail(index + 1, f"no section {STANDING!r} before the status line")
    if practices_line and not practices:
        # Not printed back (no practice, no heading): the round trip would fail instead.
        fail(
            practices_line,
            f"the section {PRACTICES!r} has no items: write '- practice' lines under it, "
            "or leave the heading out",
        )
    standing_lines = lines[index + 1 : status_index]
    if standing_lines and not any(line.strip() for line in standing_lines):
        fail(
            index + 2,
            f"the section {STANDING!r} holds only blank lines: leave it empty or write its prose",
        )
    standing = "\n".join(standing_lines)
    status = lines[status_index]

    iri = URIRef(base + identifier)
    graph = bind_prefixes(Graph(), base)
    graph.add((iri, RDF.type, cls))
    graph.add((iri, DCTERMS.identifier, Literal(identifier)))
    graph.add((iri, AK.authors, Literal(heading["authors"])))
    graph.add((iri, DCTERMS.issued, Literal(heading["year"], datatype=XSD.gYear)))
    # Takeaways and practices: a node each, numbered in the record's order.
    for link, kind, text, values in (
        (AK.takeaway, AK.Takeaway, RDF.value, takeaways if value_nodes else []),
        (AK.carriesPractice, AK.Practice, RDFS.label, practices if value_nodes else []),
    ):
        for position, value in enumerate(values, start=1):
            node = BNode()
            graph.add((iri, link, node))
            graph.add((node, RDF.type, kind))
            graph.add((node, AK.position, Literal(position)))
            graph.add((node, text, Literal(value)))
    graph.add((iri, AK.standing, Literal(standing)))
    prose = standing.replace("\n", " ")
    for start in _WITHHELD_AT.finditer(prose):  # never a malformed one read as prose
        before = prose[: start.start()].rstrip()
        if start[0][0].islower() and before and before[-1] not in ".!?":
            continue  # prose about practices, mid-sentence
        if not _WITHHELD.match(prose, start.start()):
            fail(
                index + 2 + standing[: start.start()].count("\n"),
                f"a 'Carries no practice' sentence of no known form: expected {_WITHHELD_FORM}",
            )
    withheld = _WITHHELD.search(prose)
    if withheld and practices:
        fail(
            index + 2 + standing[: withheld.start()].count("\n"),
            f"the entry carries practices (section {PRACTICES!r}, line {practices_line}) "
            "and says here that it carries none",
        )
    for adr in _WITHHELD.findall(prose):
        graph.add((iri, AK.practiceWithheldBy, URIRef(base + adr)))
    for filed in _filings(
        standing,
        lambda at, message: fail(index + 2 + standing[:at].count("\n"), message),
        allowed,
    ):
        graph.add((iri, AK.category, AK[filed["category"]]))
        if filed["rejected"]:
            graph.add((iri, AK.ratherThan, AK[filed["rejected"]]))
        if filed["reason"]:
            graph.add((iri, AK.filingReason, Literal(_reason(filed))))
    # Any identifier anywhere in the entry is a mention, except the entry's own (the
    # status line's note: below).
    for mention in _MENTION.findall("\n".join([*takeaways, *practices, standing])):
        if mention != identifier:
            graph.add((iri, DCTERMS.references, URIRef(base + mention)))

    if status == _UNREAD:
        graph.add((iri, AK.readingStatus, AK.unread))
    else:
        read = _READ.match(status)
        if not read:
            if status.rstrip() == _UNREAD or _READ.match(status.rstrip()):
                _trailing_space_error(status, "the status line", path, status_index + 1)
            fail(status_index + 1, f"expected the status line {_UNREAD!r} or 'Read — NOTE-nnn.'")
        note = read.group(1)
        if entry_class(note) != AK.Note:
            fail(status_index + 1, f"the status line names {clipped(note)}, not a note (NOTE-nnn)")
        graph.add((iri, AK.readingStatus, AK.read))
        graph.add((iri, AK.hasNote, URIRef(base + note)))
        # The status line is the entry's too: its note is a mention, as any identifier.
        graph.add((iri, DCTERMS.references, URIRef(base + note)))
    return Record(identifier=identifier, iri=iri, graph=graph, layout=layout, notes=notes)


def _filings(
    standing: str,
    fail: Callable[[int, str], NoReturn],
    allowed: Iterable[str] | None = None,
) -> list[re.Match[str]]:
    """Each "Filed as" sentence of the Standing prose, as a match of ``_FILED`` (groups
    ``category``, ``rejected``, ``reason``), in order. A "Filed as" in another form, or
    naming a word not in ``allowed`` (when given), calls ``fail`` with its offset in
    ``standing`` and what is wrong; a "Filed as" inside a matched reason is its text."""
    found: list[re.Match[str]] = []
    position = 0
    while start := _FILED_AT.search(standing, position):
        words = _FILED_WORDS.match(standing, start.start())
        if words is not None and allowed is not None:
            for word in (words["category"], words["rejected"]):
                if word is not None and word not in allowed:
                    hint = (
                        f"category words are lower case ({clipped(word.lower())})"
                        if word.lower() in allowed
                        else "known categories: " + ", ".join(sorted(allowed))
                    )
                    fail(
                        start.start(), f"{clipped(word)} after 'Filed as' is not a category: {hint}"
                    )
        filed = _FILED.match(standing, start.start())
        if filed is None:
            fail(start.start(), f"a 'Filed as' sentence of no known form: expected {_FILED_FORMS}")
        found.append(filed)
        position = filed.end()
    return found


def _reason(filed: re.Match[str]) -> str:
    """The filing reason of a "Filed as" sentence, a wrapped one's line breaks as spaces."""
    return filed["reason"].replace("\n", " ")


def record_files(folder: Path) -> list[Path]:
    """The printed records of ``folder``: its ``*.txt`` files but hidden ones (an
    editor's lock file: ``sources.listed_name``), sorted by name. One that is not a
    regular file (a symlink loop, a dangling symlink, a FIFO, a device, a folder) is an
    AnthologyError naming it, and is never opened: a folder is imported all or none."""
    paths = [folder / name for name, _ in list_folder(folder, ".txt")[0]]
    for path in paths:
        require_regular_file(path)
    return paths


def record_file_warnings(folder: Path) -> list[str]:
    """What ``record_files`` passes over in ``folder`` that is almost surely a record: a
    file named ``*.TXT`` (``.txt`` in any other case, hidden names aside), as
    ``FILE: warning: ...`` lines."""
    return [
        f"{display_path(folder / name)}: warning: {not_read(name, '.txt', 'printed records')}"
        for name in list_folder(folder, ".txt")[1]
    ]


def read_record(
    path: Path, base: str = DEFAULT_BASE, categories: Iterable[str] = CATEGORY_WORDS
) -> Record:
    """Read and parse one printed record file; not UTF-8 is an AnthologyError."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise AnthologyError(f"cannot read: {error.strerror}", path) from None
    text = decode_utf8(data, path)  # not UTF-8: FILE:LINE, as a data file's
    record = parse_record(text, path, base, categories)
    record.path = path
    return record


def read_records(
    paths: Iterable[Path], base: str = DEFAULT_BASE, categories: Iterable[str] = CATEGORY_WORDS
) -> list[Record]:
    """Parse every record of ``paths``, all or none: the first error is raised, and two
    records of the same identifier are an error."""
    categories = tuple(categories)
    records: list[Record] = []
    seen: dict[str, Path] = {}
    for path in paths:
        record = read_record(path, base, categories)
        if record.identifier in seen:
            raise AnthologyError(
                f"{record.identifier} is printed in {printable(seen[record.identifier].name)} "
                "as well",
                path,
                1,
            )
        seen[record.identifier] = path
        records.append(record)
    return records


def write_records(
    records: list[Record], folder: Path, base: str = DEFAULT_BASE, replace: bool = False
) -> list[Path]:
    """Write each record's Turtle to ``folder``/ID.ttl, all or none: each file is first
    written beside its target under a temporary name of its own, then all are moved into
    place.

    Unless ``replace``, a file that exists already is refused: an AnthologyError names
    every one, and nothing is written; a name another process takes while this call writes
    is an AnthologyError too. On any failure (that one, a full disk, Ctrl-C) the files this
    call wrote are removed and those it replaced put back before the error is raised."""
    if not folder.is_dir():
        raise not_a_folder(folder, "not a folder to write into")
    targets = [folder / f"{record.identifier}.ttl" for record in records]
    texts = [canonical_turtle(record.graph, base=base) for record in records]
    write_all(targets, texts, folder, replace)
    return targets


def write_record(
    record: Record, target: Path, base: str = DEFAULT_BASE, replace: bool = False
) -> None:
    """Write one record's Turtle to ``target``, a file of any name, by the rule of
    ``write_records``: unless ``replace``, a file (or link) there already is refused with
    an AnthologyError and nothing is written; with it, the file is replaced atomically
    (files.write_atomic: a symbolic link is written through, as ``-o`` does elsewhere)."""
    text = canonical_turtle(record.graph, base=base)
    if replace:
        write_atomic(target, text)
        return
    if not target.parent.is_dir():
        raise not_a_folder(target.parent)
    write_all([target], [text], target)


def ordered_values(
    graph: Graph, subject: Node, predicate: URIRef, text: URIRef, name: str | None = None
) -> list[Node]:
    """The ``text`` of each ``predicate`` value of ``subject`` (``name``: the entry's
    identifier), in ``ak:position`` order; a value with no ``text`` is an AnthologyError
    (the printed form has no line for it, and leaving it out would print another graph),
    and so are positions other than 1, 2, … n, each once (the printed form numbers its
    lines so: an import would read back positions the graph does not state)."""
    items: list[tuple[int | None, str, Node]] = []
    for node in graph.objects(subject, predicate):
        position = _one_value(graph, node, AK.position, f"<{subject}>")
        value = _one_value(graph, node, text, f"<{subject}>")
        if value is None:
            raise AnthologyError(
                f"{name or f'<{subject}>'} cannot be printed: a value of its "
                f"{predicate.n3(graph.namespace_manager)} has no "
                f"{text.n3(graph.namespace_manager)}, so the printed form has no line for it"
            )
        if isinstance(position, Literal) and not _INTEGER.fullmatch(str(position)):
            raise AnthologyError(  # an ill-formed "abc"^^xsd:integer, say
                f"<{subject}>: ak:position {str(position)!r} is not an integer"
            )
        number = int(str(position)) if isinstance(position, Literal) else None
        items.append((number, str(value), value))
    numbers = sorted(number for number, _, _ in items if number is not None)
    if numbers != list(range(1, len(items) + 1)):
        shown = [str(number) for number in numbers] + ["none"] * (len(items) - len(numbers))
        listed = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
        raise AnthologyError(
            f"{name or f'<{subject}>'} cannot be printed: the ak:position of its "
            f"{len(items)} {predicate.n3(graph.namespace_manager)} values are {listed}, and "
            f"its printed form numbers them 1 to {len(items)} in order, which an import "
            "would read back as positions the graph does not state"
        )
    return [value for number, _, value in sorted(items, key=lambda item: item[0] or 0)]


def render_entry(anthology: Engine, entry: URIRef) -> str:
    """``render_record`` of what ``anthology`` says of ``entry`` (``Engine.describe``),
    Python's cyclic collector paused meanwhile (``export.collector_paused``): an entry
    of 32,000 takeaways is millions of rdflib objects, none in a cycle, and each full
    collection walked them all, a cost that grew faster than the entry (0.05, 0.17,
    0.51 and 1.4 s at 8,000 to 64,000 takeaways)."""
    from .export import collector_paused

    with collector_paused():
        return render_record(anthology.describe(entry), entry)


def render_record(graph: Graph, entry: URIRef, layout: Layout | None = None) -> str:
    """The printed form of ``entry``, laid out as ``layout`` says (by default LF line
    endings, ending at the status line). What the graph lacks, and a value the printed
    form cannot carry as it is (a line break in a one-line field, a year of other than
    four digits, a language tag, text an import would read back as other triples), is an
    AnthologyError naming the entry and the field: never a print that reads back as
    another graph."""
    identifier = _one_value(graph, entry, DCTERMS.identifier, str(entry))
    name = str(identifier or entry)
    authors = _one_value(graph, entry, AK.authors, name)
    issued = _one_value(graph, entry, DCTERMS.issued, name)
    standing = _one_value(graph, entry, AK.standing, name)
    status = _one_value(graph, entry, AK.readingStatus, name)  # the status line prints it
    missing = [
        field
        for field, value in (
            ("dcterms:identifier", identifier),
            ("ak:authors", authors),
            ("dcterms:issued", issued),
            ("ak:standing", standing),
            ("ak:readingStatus", status),
        )
        if value is None
    ]
    if missing:
        raise AnthologyError(f"{name} cannot be printed: it has no {', '.join(missing)}")

    def refuse(what: str, value: Node | None, why: str) -> NoReturn:
        raise AnthologyError(
            f"{name} cannot be printed: its {what} {_shown(value)} {why}, which the printed "
            "form cannot carry as it is"
        )

    takeaways = ordered_values(graph, entry, AK.takeaway, RDF.value, name)
    practices = ordered_values(graph, entry, AK.carriesPractice, RDFS.label, name)
    for what, value, one_line in (
        ("ak:authors", authors, True),
        *((f"takeaway {n}", v, True) for n, v in enumerate(takeaways, start=1)),
        *((f"practice {n}", v, True) for n, v in enumerate(practices, start=1)),
        ("ak:standing", standing, False),
    ):
        why = _unprintable_text(value, one_line)
        if why:
            refuse(what, value, why)
    if not (
        isinstance(issued, Literal)
        and issued.datatype == XSD.gYear
        and re.fullmatch(r"[0-9]{4}", str(issued))
    ):
        refuse("dcterms:issued", issued, "is not a year of four digits (xsd:gYear)")
    lines = [f"{authors} ({issued}){DASH}{identifier}", TAKEAWAYS]
    lines += [f"- {t}" for t in takeaways]
    if practices:
        lines.append(PRACTICES)
        lines += [f"- {p}" for p in practices]
    lines.append(STANDING)
    if str(standing):  # an empty Standing section has no line of prose
        lines.append(str(standing))
    _refuse_a_standing_the_graph_contradicts(graph, entry, name, str(standing))
    notes = set(graph.objects(entry, AK.hasNote)) | set(graph.subjects(AK.noteOn, entry))
    names = sorted(str(graph.value(n, DCTERMS.identifier) or str(n).rsplit("/")[-1]) for n in notes)
    if status == AK.read:
        if not names:
            raise AnthologyError(f"{identifier} is marked read but has no note to print")
        if len(names) > 1:
            raise AnthologyError(
                f"{identifier} cannot be printed: it has {len(names)} notes "
                f"({', '.join(names)}; ak:hasNote or ak:noteOn), and its status line "
                "'Read — NOTE-nnn.' names one"
            )
        lines.append(f"Read — {names[0]}.")
    else:
        if names:
            # The printed form has no status line for an unread entry with a note: "no
            # NOTE" would deny the note, "Read — NOTE-nnn." the status.
            marked = _shown(status, graph.namespace_manager)
            raise AnthologyError(
                f"{name} cannot be printed: it is marked {marked} but has "
                f"{'a note' if len(names) == 1 else f'{len(names)} notes'} "
                f"({', '.join(names)}; ak:hasNote or ak:noteOn), and its status line "
                f"{_UNREAD!r} says it has none"
            )
        lines.append(_UNREAD)
    printed = "\n".join(lines)
    _refuse_a_print_that_reads_back_otherwise(graph, entry, name, printed, notes)
    return layout.apply(printed) if layout is not None else printed


def _one_value(graph: Graph, subject: Node, predicate: URIRef, name: str) -> Node | None:
    """The value of a field the printed form has room for once, or None; several are an
    AnthologyError naming ``name``, the property and the values (one printed would drop
    the others without a word)."""
    values = sorted(graph.objects(subject, predicate), key=str)
    if len(values) > 1:
        prefixed = predicate.n3(graph.namespace_manager)
        raise AnthologyError(
            f"{name} cannot be printed: it has {len(values)} values of {prefixed} "
            f"({', '.join(_shown(v, graph.namespace_manager) for v in values)}), and its "
            "printed form has room for one"
        )
    return values[0] if values else None


def _shown(value: Node | None, names: NamespaceManager | None = None) -> str:
    """``value`` as a message shows it: a literal's text quoted, an IRI as ``names``
    abbreviates it (else in N-Triples)."""
    if isinstance(value, Literal):
        return repr(str(value))
    return str(value and value.n3(names))


def _unprintable_text(value: Node | None, one_line: bool) -> str | None:
    """Why the printed form cannot carry ``value`` as the text of a field, or None. An
    import reads every field back as a plain string: a language tag or another datatype
    would be lost, a line break in a one-line field would start a line of its own."""
    if not isinstance(value, Literal):
        return "is not text"
    if value.language is not None:
        return f"has a language tag (@{value.language})"
    if value.datatype not in (None, XSD.string):
        return f"is typed {value.datatype.n3()}, not a plain string"
    text = str(value)
    if "\r" in text:
        return "holds a carriage return (CR)"
    if one_line and "\n" in text:
        return "holds a line break"
    if one_line and not text.strip():
        return "is empty" if not text else "is only whitespace"
    return None


def _refuse_a_print_that_reads_back_otherwise(
    graph: Graph, entry: URIRef, identifier: str, printed: str, notes: set[Node]
) -> None:
    """Read ``printed`` back as ``import`` would, and refuse it (an AnthologyError) if it
    does not parse, or gives a triple of the entry that ``graph`` does not state: the
    printed form may say less than the graph (a title, a claim), never other. A note a
    "Read — NOTE-nnn." names may be linked either way: ``notes`` are the entry's, by
    ``ak:hasNote`` or ``ak:noteOn``."""
    if not str(entry).endswith(identifier):
        raise AnthologyError(
            f"{identifier} cannot be printed: an import builds its IRI from the identifier, "
            f"and <{entry}> does not end with it"
        )
    base = str(entry)[: -len(identifier)]
    words = {
        str(o)[len(str(AK)) :]
        for p in (AK.category, AK.ratherThan)
        for o in graph.objects(entry, p)
        if str(o).startswith(str(AK))
    }
    try:
        # Without the takeaway and practice nodes: their texts are those printed, each
        # checked by render_record (at 32,000 takeaways the nodes were 150 MB).
        record = parse_record(
            printed, "<printed>", base, {*CATEGORY_WORDS, *words}, value_nodes=False
        )
    except AnthologyError as error:
        raise AnthologyError(
            f"{identifier} cannot be printed: its printed form would not read back "
            f"(line {error.line}: {error.message})"
        ) from None
    names = record.graph.namespace_manager
    for predicate, value in record.graph.predicate_objects(entry):
        if predicate in (AK.hasNote, DCTERMS.references) and value in notes:
            continue  # the note the status line names: the graph states it (or noteOn)
        if (entry, predicate, value) not in graph and (
            # "x" and "x"^^xsd:string are one term in RDF 1.1; rdflib tells them apart
            not isinstance(value, Literal)
            or (entry, predicate, Literal(str(value), datatype=XSD.string)) not in graph
        ):
            raise AnthologyError(
                f"{identifier} cannot be printed: its printed form would read back "
                f"{predicate.n3(names)} {_shown(value, names)}, which the graph does not state"
            )


def _standing_facts(identifier: str, standing: str) -> dict[str, set[str]]:
    """What the Standing prose's sentences say, as ``parse_record`` reads them: the ADRs
    withholding a practice, and the category, the one rejected and the filing reason.
    A "Filed as" an import would refuse is an AnthologyError naming the entry."""

    def fail(at: int, message: str) -> NoReturn:
        line = standing[:at].count("\n") + 1
        raise AnthologyError(
            f"{identifier} cannot be printed: line {line} of its ak:standing has {message}"
        )

    prose = standing.replace("\n", " ")
    filed = _filings(standing, fail)
    return {
        "ak:practiceWithheldBy": set(_WITHHELD.findall(prose)),
        "ak:category": {f["category"] for f in filed},
        "ak:ratherThan": {f["rejected"] for f in filed if f["rejected"]},
        "ak:filingReason": {_reason(f) for f in filed if f["reason"]},
    }


def _graph_facts(graph: Graph, entry: URIRef) -> dict[str, set[str]]:
    """The same facts as the graph states them, in the words the prose uses."""

    def named(values: Iterable[Node]) -> set[str]:
        return {
            str(graph.value(v, DCTERMS.identifier) or str(v).rsplit("/", 1)[-1]) for v in values
        }

    def words(values: Iterable[Node]) -> set[str]:
        return {str(v)[len(str(AK)) :] if str(v).startswith(str(AK)) else str(v) for v in values}

    return {
        "ak:practiceWithheldBy": named(graph.objects(entry, AK.practiceWithheldBy)),
        "ak:category": words(graph.objects(entry, AK.category)),
        "ak:ratherThan": words(graph.objects(entry, AK.ratherThan)),
        "ak:filingReason": {str(v) for v in graph.objects(entry, AK.filingReason)},
    }


def _refuse_a_standing_the_graph_contradicts(
    graph: Graph, entry: URIRef, identifier: str, standing: str
) -> None:
    """The Standing prose is printed as stored, and its sentences ("Filed as …", "Carries
    no practice, deliberately — ADR-nnn.") are what an import reads back: where they say
    other than the graph's triples, the printed entry would contradict the graph, and is
    refused (an AnthologyError naming the property and both sides)."""
    said, stated = _standing_facts(identifier, standing), _graph_facts(graph, entry)
    for name in said:
        if said[name] != stated[name]:
            raise AnthologyError(
                f"{identifier} cannot be printed: its ak:standing says {name} "
                f"{_listed(said[name])}, the graph says {_listed(stated[name])} "
                "(make the Standing prose and the triples agree)"
            )
    if said["ak:practiceWithheldBy"] and any(graph.objects(entry, AK.carriesPractice)):
        raise AnthologyError(
            f"{identifier} cannot be printed: its ak:standing says it carries no practice, "
            "and the graph gives it ak:carriesPractice"
        )


def _listed(values: set[str]) -> str:
    return ", ".join(repr(v) for v in sorted(values)) if values else "nothing"


def unified_diff(expected: str, printed: str, name: str) -> str:
    """A unified diff from the record as written to the record as printed back."""
    return formatting.unified_diff(expected, printed, name, f"{name} (printed back)")


@dataclass(frozen=True)
class RoundTrip:
    """A record's file and the unified diff from it to the record printed back from its
    graph (``render_record``); the diff is empty when the two are byte-identical."""

    path: Path
    diff: str


def round_trips(records: Iterable[Record]) -> Iterator[RoundTrip]:
    """Each record read from a file (``read_records``) printed back and compared with
    that file byte for byte, one at a time in the order given."""
    for record in records:
        if record.path is None:
            raise ValueError(f"{record.identifier} was not read from a file")
        text = record.path.read_bytes().decode("utf-8")
        printed = render_record(record.graph, record.iri, record.layout)
        diff = "" if printed == text else unified_diff(text, printed, str(record.path))
        yield RoundTrip(record.path, diff)
