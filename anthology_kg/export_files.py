"""Reading an anthology's files for an export: the ``Source`` an export reads and
``FolderSource``, which reads the Turtle files of an anthology folder straight (no
engine), batch by batch, with the checks every loader makes (UTF-8, no RDF 1.2 triple
term, Turtle syntax) and their messages, file by file.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox

from . import resources
from .choices import DEFAULT_BASE
from .errors import AnthologyError
from .parts import PARTS
from .sourcemap import may_hold_rdf12_term, refuse_rdf12_terms
from .sources import decode_utf8, listed_name, read_source, turtle_errors
from .turtle import graph_quads, statement_lines

# The common export reads the files with pyoxigraph: rdflib and the loader are imported
# only by the calls that need them (shapes, and the owlrl closure).
if TYPE_CHECKING:
    from rdflib import Graph

    from .loader import Anthology

_TURTLE = ox.RdfFormat.TURTLE


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
    a regular file: ``_turtle_files``), one list per file, blank nodes given fresh labels
    per file; a file that cannot be read, is not UTF-8, is not Turtle or holds a triple
    term raises AnthologyError at that file, with ``parse_quads``' message. The parse is
    written out rather than using ``turtle_errors`` so that ten thousand files do not
    cost ten thousand context managers (a parse error is translated after the fact); one
    list per file lets a caller chaining them (``itertools.chain``, in C) run no Python
    code per quad."""
    for path, listed_regular in files:
        data = read_source(path, listed_regular=listed_regular)
        decode_utf8(data, path)
        try:
            quads = list(ox.parse(data, format=_TURTLE, base_iri=base, rename_blank_nodes=True))
        except (SyntaxError, ValueError, MemoryError):
            with turtle_errors(path, base):
                raise
        refuse_rdf12_terms(data, path, base, quads)
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
    marked = may_hold_rdf12_term(joined)
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
            refuse_rdf12_terms(data, path, base)
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
        resources.data_folder(self.root)
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
