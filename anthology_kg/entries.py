"""What every engine's anthology shares: where things are written (``Location``), and
the lookups of entries built on two primitives each engine gives (``EntryIndex``).

No RDF library is imported here at load time: rdflib's terms come in only with the
calls that take or give them (an entry's owner, resolving an IRI).
"""

from __future__ import annotations

import re
import sys
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar, overload

import pyoxigraph as ox

from .choices import DEFAULT_BASE
from .config import did_you_mean
from .errors import AnthologyError, clipped
from .layout import (
    LayoutWarning,
    anthology_layout_warnings,
    folder_warnings,
    layout_warnings,
    shapes_folder_warnings,
    suspect_entries,
    written_identifiers,
)
from .parts import PARTS
from .sources import TurtleFiles, file_names, read_text

if TYPE_CHECKING:
    from rdflib import Graph, URIRef
    from rdflib.term import Node

    from .kinds import Term
    from .parts import OxTerm
    from .query_result import QueryResult
    from .ruleset import Rules

#: A term of either library: rdflib's (the engines' lookups) or pyoxigraph's (diff.py).
T = TypeVar("T")


def check_parts(parts: Iterable[str]) -> None:
    """An AnthologyError naming the parts there are unless each of ``parts`` is one of
    ``PARTS``: a caller's names, which a type checker does not hold to them, are
    refused alike by every engine."""
    for part in parts:
        if part not in PARTS:
            raise AnthologyError(
                f"no part {part!r} in an anthology: its parts are {', '.join(PARTS)}"
            )


def is_literal(term: object) -> bool:
    """Whether ``term`` is a literal of pyoxigraph or of rdflib (an rdflib term exists
    only once rdflib is loaded: this asks nothing of it before)."""
    if isinstance(term, ox.Literal):
        return True
    rdflib = sys.modules.get("rdflib")
    return rdflib is not None and isinstance(term, rdflib.Literal)


def iri_of(term: object) -> str | None:
    """The IRI of ``term`` (a pyoxigraph NamedNode or an rdflib URIRef) as a string;
    None for a blank node or a literal."""
    if isinstance(term, ox.NamedNode):
        return term.value
    rdflib = sys.modules.get("rdflib")
    return str(term) if rdflib is not None and isinstance(term, rdflib.URIRef) else None


@dataclass(frozen=True)
class Location:
    """A place in a source file: the file and a 1-based line."""

    path: Path
    line: int


@dataclass(kw_only=True)
class EntryIndex(ABC):
    """What every engine's anthology shares: the rules, and the lookups of entries built
    on two primitives each engine gives, ``identifier(node)`` and ``referrers(node)``,
    with ``identified(text)`` and ``identifier_pairs()``."""

    #: Whether validation and queries leave the engine's graphs as they found them and
    #: release Python's lock while the store works, so that they may run beside other
    #: work (in a thread, or in a forked child).
    answers_beside: ClassVar[bool] = False
    root: Path
    rules: Rules
    data_files: Sequence[Path]
    base: str = DEFAULT_BASE
    locations: dict[Node, Location] = field(default_factory=dict)
    _owners: dict[Term, Term | None] = field(default_factory=dict, repr=False)
    #: Each data file's subject IRIs and their first lines, for the files read so far.
    _file_lines: dict[Path, dict[str, int]] = field(default_factory=dict, repr=False)
    #: Where each subject IRI is written, first line of each file in the order of the
    #: files, all data files read (``location``, ``written_in``).
    _written_lines: dict[str, list[Location]] | None = field(default=None, repr=False)
    _identifier_files: dict[str, Path] | None = field(default=None, repr=False)
    _data_file_names: frozenset[str] | None = field(default=None, repr=False)
    #: The data files the loader's layout scan found worth parsing (``layout.LayoutScan``),
    #: when it was asked to scan; None: ``layout_warnings`` reads the files itself.
    layout_suspects: list[Path] | None = field(default=None, repr=False)

    def layout_warnings(self) -> list[LayoutWarning]:
        """The data files that break the layout rule (``layout.layout_warnings``)."""
        if self.layout_suspects is None:
            return anthology_layout_warnings(self.root, self.base)
        found = layout_warnings(suspect_entries(self.layout_suspects, self.base), self.base)
        if isinstance(self.data_files, TurtleFiles):  # as the loaders list them
            found = folder_warnings(self.data_files) + found
        return found

    def folder_warnings(self) -> list[LayoutWarning]:
        """``layout.folder_warnings`` of the data folder (none where the data is a
        store's) and of the anthology's own shapes folder."""
        found = folder_warnings(self.data_files) if isinstance(self.data_files, TurtleFiles) else []
        return found + shapes_folder_warnings(self.root)

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

    @overload
    def owner(self, node: Node) -> Node | None: ...

    @overload
    def owner(self, node: Term) -> Term | None: ...

    def owner(self, node: Term) -> Term | None:
        """The entry ``node`` belongs to: itself if it has an identifier, else the
        nearest entry that points at it (a claim, an arm, a takeaway...); a term of
        the library ``referrers`` answers with (``node`` itself, if it is the entry)."""
        if node not in self._owners:
            self._owners[node] = find_owner(node, self.identifier, self.referrers)
        return self._owners[node]

    @abstractmethod
    def identifier(self, node: Term) -> str | None:
        """The ``dcterms:identifier`` of ``node`` (a term of either library) in the
        data, if it has one."""

    @abstractmethod
    def identifier_pairs(self) -> Iterator[tuple[Node, str]]:
        """Every (node, identifier) of the data."""

    @abstractmethod
    def identified(self, text: str) -> Iterator[Node]:
        """The nodes whose identifier is ``text``."""

    @abstractmethod
    def referrers(self, node: Term) -> Set[Term]:
        """The subjects of the data's triples whose object is ``node`` (a term of either
        library)."""

    @abstractmethod
    def objects(self, node: Term) -> Set[Term]:
        """The objects of the data's triples whose subject is ``node`` (a term of either
        library)."""

    @abstractmethod
    def quads(self, parts: Sequence[str] = PARTS) -> Iterator[ox.Quad]:
        """The triples of ``parts`` as pyoxigraph quads, each in its part's graph."""

    @abstractmethod
    def query(
        self,
        text: str,
        bindings: Mapping[str, Node] | None = None,
        source: str | Path | None = None,
        parts: Sequence[str] = PARTS,
        *,
        allow_service: bool = False,
    ) -> QueryResult:
        """Run SPARQL ``text`` on the union of ``parts`` (``engine.Engine.query``)."""

    def select(self, text: str, parts: Sequence[str] = PARTS) -> list[tuple[OxTerm | None, ...]]:
        """The rows of SELECT ``text`` on the union of ``parts`` as pyoxigraph terms
        (``engine.Engine.select``): here ``query``'s rows converted (SERVICE refused);
        the Oxigraph engine answers from its store without rdflib."""
        from .terms import to_ox

        result = self.query(text, parts=parts)
        if result.kind != "select":
            raise AnthologyError("not a SELECT query")
        rows = result.rows
        return [tuple(None if term is None else to_ox(term) for term in row) for row in rows]

    def triple_count(self, parts: Sequence[str] = ("data",)) -> int:
        """``COUNT(*)`` of ``?s ?p ?o`` on the union of ``parts`` (``engine.Engine``):
        here the query itself; the Oxigraph engine counts from its store's size."""
        rows = self.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", parts)
        (count,) = rows[0]  # an aggregate without GROUP BY: one row, 0 on an empty graph
        assert isinstance(count, ox.Literal), count
        return int(count.value)

    def location(self, node: Term) -> Location | None:
        """Where ``node`` (a term of either library) is written: a waiver where
        waivers.ttl writes it; else, of the data files, its owner's own (named by the
        owner's identifier or by its IRI; else the one that first writes that
        identifier), where ``node`` is a subject there, else its owner; else the first
        file by name that writes ``node``, else its owner. A node in no entry is placed
        by the nearest IRI that points at it. The same on both engines, whatever was
        asked before."""
        iri = iri_of(node)
        if iri is not None and iri in self.rules.waiver_lines:
            return self.rules.waiver_lines[iri]
        owner = self.owner(node)
        if owner is None:  # in no entry: where the nearest IRI that points at it is
            owner = find_owner(node, iri_of, self.referrers)
        owner_iri = iri_of(owner)
        keys = [key for key in (iri, owner_iri) if key is not None]
        identifier = self.identifier(owner) if owner is not None else None
        named = [
            path
            for name in (
                identifier,
                owner_iri[len(self.base) :]
                if owner_iri and owner_iri.startswith(self.base)
                else None,
            )
            if name and (path := self._named_file(name)) is not None
        ]
        found = self._written_in(keys, named)
        if found is None and identifier:
            # Every file's text is searched for the identifier only now: most entries
            # are in the file their identifier names.
            path = self._files_by_identifier().get(identifier)
            found = self._written_in(keys, [path] if path is not None else [])
        if found is not None:
            return found
        written = self._all_written()
        return next((written[key][0] for key in keys if key in written), None)

    def written_in(self, node: Term) -> list[Location]:
        """Every data file that writes the IRI ``node`` as a subject, with its first line
        there, in the order of the files (none for a blank node or a literal). The first
        call reads every data file: ``location`` looks in the owner's file first."""
        iri = iri_of(node)
        return list(self._all_written().get(iri, ())) if iri is not None else []

    def _written_in(self, keys: Sequence[str], paths: Sequence[Path]) -> Location | None:
        """Where the first of ``keys`` is a subject in one of ``paths``, tried in order."""
        for key in keys:
            for path in paths:
                line = self._lines_of(path).get(key)
                if line is not None:
                    return Location(path, line)
        return None

    def _named_file(self, name: str) -> Path | None:
        """``data/NAME.ttl`` when it is one of the data files read, else None. Nothing in
        the data chooses a path outside data/, nor asks the file system about a name
        (one longer than the file system allows would raise)."""
        if not _FILE_NAME.fullmatch(name):
            return None
        if self._data_file_names is None:
            self._data_file_names = frozenset(file_names(self.data_files))
        file_name = f"{name}.ttl"
        return self.root / "data" / file_name if file_name in self._data_file_names else None

    def _files_by_identifier(self) -> dict[str, Path]:
        """Which file writes ``identifier "X"`` first, read once with the layout rule's
        text search (``layout.written_identifiers``)."""
        if self._identifier_files is None:
            self._identifier_files = {}
            for path in self.data_files:
                for identifier in written_identifiers(read_text(path)):
                    self._identifier_files.setdefault(identifier, path)
        return self._identifier_files

    def _lines_of(self, path: Path) -> dict[str, int]:
        """The subject IRIs of data file ``path`` and their first lines (read once)."""
        lines = self._file_lines.get(path)
        if lines is None:
            lines = self._file_lines[path] = _subject_lines(path, self.base)
        return lines

    def _all_written(self) -> dict[str, list[Location]]:
        """Where each subject IRI is written, in the order of the data files (read once)."""
        if self._written_lines is None:
            self._written_lines = {}
            for path in self.data_files:
                lines = self._file_lines.get(path) or _subject_lines(path, self.base)
                for iri, line in lines.items():
                    self._written_lines.setdefault(iri, []).append(Location(path, line))
        return self._written_lines

    def resolve_entry(self, text: str) -> URIRef:
        """The entry named by an identifier (``LIT-168``) or a full IRI.

        Raises AnthologyError when the anthology has no such entry.
        """
        from rdflib import URIRef

        from .sources import utf8_text
        from .terms import is_iri

        utf8_text(text, "the entry")
        for subject in self.identified(text):
            if isinstance(subject, URIRef):
                return subject
        if "://" in text and is_iri(text):
            iri = URIRef(text)
            if self.identifier(iri) is not None:
                return iri
        known = {identifier for _, identifier in self.identifier_pairs()}
        raise AnthologyError(
            f"no entry {clipped(text)} in the anthology{did_you_mean(text, known)}"
        )


#: A name that is a plain file name (``EntryIndex._named_file``).
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _subject_lines(path: Path, base: str) -> dict[str, int]:
    """The subject IRIs of Turtle file ``path`` and their first lines; none if it is
    gone or unreadable since it was loaded."""
    from .sourcemap import subject_iris

    try:
        return subject_iris(read_text(path), base)
    except (OSError, AnthologyError):
        return {}


def find_owner(
    node: T,
    identifier: Callable[[T], str | None],
    referrers: Callable[[T], Iterable[T]],
) -> T | None:
    """The nearest node, ``node`` first, then its referrers breadth first, that has an
    identifier; ties go to the smallest IRI, so the answer never depends on order.
    ``node`` is an rdflib or a pyoxigraph term (a literal has no owner)."""
    if is_literal(node):
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
