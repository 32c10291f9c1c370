"""The printed form of an entry (shared/RECORD_FORMAT.md): parse it into triples, print it back.

``parse_record`` turns the text into the entry's graph; ``render_record`` prints an
entry of a graph in that form. For a record the parser accepts, rendering its graph
gives back the same bytes. The printed form ends at its status line, with no final
newline, as the anthology prints it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, XSD
from rdflib.term import Node

from .errors import AnthologyError
from .namespaces import AK, DEFAULT_BASE, bind_prefixes

TAKEAWAYS, PRACTICES, STANDING = "Key takeaways", "Practices", "Standing in the anthology"
DASH = " — "
IDENTIFIER_CLASSES = {
    r"LIT-\d{3}": AK.LiteratureRecord,
    r"ADR-\d{3}": AK.DecisionRecord,
    r"SOTA-\d{3}": AK.SotaRecord,
    r"NOTE-\d{3}": AK.Note,
    r"ARXIV-\d{4}\.\d{4,5}": AK.Reference,
}
_HEADING = re.compile(r"^(?P<authors>.+) \((?P<year>\d{4})\) — (?P<identifier>\S+)$")
_MENTION = re.compile(r"(?<![\w.-])(?:" + "|".join(IDENTIFIER_CLASSES) + r")(?![\w-]|\.\d)")
_WITHHELD = re.compile(r"Carries no practice, deliberately — (ADR-\d{3})\.")
_FILED = re.compile(
    r"Filed as (?:an? )?(?P<category>[a-z][a-z-]*)"
    r"(?: rather than as an? (?P<rejected>[a-z][a-z-]*))?"
    r"(?:\.|: (?P<reason>.+?)\.(?= |$))"
)
_UNREAD = "Unread — no NOTE."
_READ = re.compile(r"^Read — (\S+)\.$")


@dataclass
class Record:
    """A parsed printed entry: its identifier, its IRI and its triples."""

    identifier: str
    iri: URIRef
    graph: Graph


def entry_class(identifier: str) -> URIRef | None:
    """The class an identifier's form names, or None if it has no known form."""
    for pattern, cls in IDENTIFIER_CLASSES.items():
        if re.fullmatch(pattern, identifier):
            return cls
    return None


def parse_record(text: str, path: Path | str = "<record>", base: str = DEFAULT_BASE) -> Record:
    """Parse a printed entry. A mistake is an AnthologyError with the file and line."""
    lines = text.split("\n")

    def fail(number: int, message: str) -> NoReturn:
        raise AnthologyError(message, path, number)

    heading = _HEADING.match(lines[0]) if lines else None
    if not heading:
        fail(1, "expected the heading '<authors> (<year>) — <identifier>'")
    identifier = heading["identifier"]
    cls = entry_class(identifier)
    if cls is None:
        fail(
            1,
            f"identifier {identifier!r} has none of the forms LIT-nnn, ADR-nnn, SOTA-nnn, "
            "NOTE-nnn, ARXIV-nnnn.nnnnn",
        )
    if len(lines) < 2 or lines[1] != TAKEAWAYS:
        fail(2, f"expected the section heading {TAKEAWAYS!r}")

    status_index = max((i for i, line in enumerate(lines) if line.strip()), default=0)
    takeaways: list[str] = []
    practices: list[str] = []
    current = takeaways
    index = 2
    while index < status_index and lines[index] != STANDING:
        line = lines[index]
        if line == PRACTICES and current is takeaways and not practices:
            current = practices
        elif line.startswith("- ") and line[2:].strip():
            current.append(line[2:])
        elif not line.strip():
            fail(index + 1, "blank line inside a list section")
        else:
            fail(
                index + 1,
                f"unknown section {line!r} (expected '- item', {PRACTICES!r} or {STANDING!r})",
            )
        index += 1
    if index >= status_index:
        fail(index + 1, f"no section {STANDING!r} before the status line")
    standing = "\n".join(lines[index + 1 : status_index])
    status = lines[status_index]

    iri = URIRef(base + identifier)
    graph = bind_prefixes(Graph(), base)
    graph.add((iri, RDF.type, cls))
    graph.add((iri, DCTERMS.identifier, Literal(identifier)))
    graph.add((iri, AK.authors, Literal(heading["authors"])))
    graph.add((iri, DCTERMS.issued, Literal(heading["year"], datatype=XSD.gYear)))
    for position, value in enumerate(takeaways, start=1):
        node = BNode()
        graph.add((iri, AK.takeaway, node))
        graph.add((node, RDF.type, AK.Takeaway))
        graph.add((node, AK.position, Literal(position)))
        graph.add((node, RDF.value, Literal(value)))
    for position, label in enumerate(practices, start=1):
        node = BNode()
        graph.add((iri, AK.carriesPractice, node))
        graph.add((node, RDF.type, AK.Practice))
        graph.add((node, AK.position, Literal(position)))
        graph.add((node, RDFS.label, Literal(label)))
    graph.add((iri, AK.standing, Literal(standing)))
    prose = standing.replace("\n", " ")
    for adr in _WITHHELD.findall(prose):
        graph.add((iri, AK.practiceWithheldBy, URIRef(base + adr)))
    for filed in _FILED.finditer(prose):
        graph.add((iri, AK.category, AK[filed["category"]]))
        if filed["rejected"]:
            graph.add((iri, AK.ratherThan, AK[filed["rejected"]]))
        if filed["reason"]:
            graph.add((iri, AK.filingReason, Literal(filed["reason"])))
    for mention in _MENTION.findall(standing):
        if mention != identifier:  # an entry does not reference itself
            graph.add((iri, DCTERMS.references, URIRef(base + mention)))

    if status == _UNREAD:
        graph.add((iri, AK.readingStatus, AK.unread))
    else:
        read = _READ.match(status)
        if not read:
            fail(status_index + 1, f"expected the status line {_UNREAD!r} or 'Read — NOTE-nnn.'")
        note = read.group(1)
        if entry_class(note) != AK.Note:
            fail(status_index + 1, f"the status line names {note!r}, not a note (NOTE-nnn)")
        graph.add((iri, AK.readingStatus, AK.read))
        graph.add((iri, AK.hasNote, URIRef(base + note)))
    return Record(identifier=identifier, iri=iri, graph=graph)


def ordered_values(graph: Graph, subject: Node, predicate: URIRef, text: URIRef) -> list[str]:
    """The ``text`` of each ``predicate`` value of ``subject``, in ``ak:position`` order."""
    items = []
    for node in graph.objects(subject, predicate):
        position = graph.value(node, AK.position)
        value = graph.value(node, text)
        if value is not None:
            number = int(position) if isinstance(position, Literal) else 0
            items.append((number, str(value)))
    return [value for _, value in sorted(items)]


def render_record(graph: Graph, entry: URIRef) -> str:
    """The printed form of ``entry``; an AnthologyError names what the graph lacks."""
    identifier = graph.value(entry, DCTERMS.identifier)
    authors = graph.value(entry, AK.authors)
    issued = graph.value(entry, DCTERMS.issued)
    standing = graph.value(entry, AK.standing)
    missing = [
        name
        for name, value in (
            ("dcterms:identifier", identifier),
            ("ak:authors", authors),
            ("dcterms:issued", issued),
            ("ak:standing", standing),
        )
        if value is None
    ]
    if missing:
        raise AnthologyError(f"{entry} cannot be printed: it has no {', '.join(missing)}")
    lines = [f"{authors} ({str(issued)[:4]}){DASH}{identifier}", TAKEAWAYS]
    lines += [f"- {t}" for t in ordered_values(graph, entry, AK.takeaway, RDF.value)]
    practices = ordered_values(graph, entry, AK.carriesPractice, RDFS.label)
    if practices:
        lines.append(PRACTICES)
        lines += [f"- {p}" for p in practices]
    lines.append(STANDING)
    lines.append(str(standing))
    if graph.value(entry, AK.readingStatus) == AK.read:
        notes = set(graph.objects(entry, AK.hasNote)) | set(graph.subjects(AK.noteOn, entry))
        names = sorted(
            str(graph.value(n, DCTERMS.identifier) or str(n).rsplit("/")[-1]) for n in notes
        )
        if not names:
            raise AnthologyError(f"{identifier} is marked read but has no note to print")
        lines.append(f"Read — {names[0]}.")
    else:
        lines.append(_UNREAD)
    return "\n".join(lines)


def unified_diff(expected: str, printed: str, name: str) -> str:
    """A unified diff from the record as written to the record as printed back."""
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        printed.splitlines(keepends=True),
        fromfile=name,
        tofile=f"{name} (printed back)",
    )
    lines = [
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff
    ]
    return "".join(lines)
