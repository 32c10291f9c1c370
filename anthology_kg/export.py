"""The export model: what an export holds and how it is built from a source.

An export is a pyoxigraph dataset: the asserted triples in its default graph, the inferred
ones in ``INFERRED_GRAPH``, blank nodes labelled by RDF Dataset Canonicalization
(RDFC-1.0). Every writer (``export_writers``) orders its output itself (subjects,
predicates, objects), so the same graph gives the same bytes whatever the hash seed, the
engine or the order the files were parsed in. Inferred triples are kept apart: a named
graph in N-Quads and JSON-LD, a marked section in Turtle. The files are read by
``export_files``; owlrl's closure is ``export_inference``'s.
"""

from __future__ import annotations

import contextlib
import gc
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .choices import DEFAULT_BASE, GRAPH_BASE
from .choices import INFERENCE_CHOICES as INFERENCE
from .errors import AnthologyError, CanonicalizationTooCostly
from .export_files import FolderSource, Source
from .parts import PARTS
from .sourcemap import subject_iris
from .sources import read_source
from .turtle import Statement, canonical_line_groups, graph_quads, split_lines, statement_lines

# The common export (no inference, no shapes) reads the files with pyoxigraph and writes
# text: rdflib, owlrl and the loader are imported only by the calls that need them.
if TYPE_CHECKING:
    from rdflib import Graph

INFERRED_GRAPH = GRAPH_BASE + "inferred"
#: An entry's name as a data file's: no folder, nothing hidden.
_PLAIN_NAME = re.compile(r"[^/\\.][^/\\]*")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
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
    #: The anthology folder read, if any: a refusal to canonicalize names its file.
    root: Path | None = None

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

    def locate(self, error: CanonicalizationTooCostly) -> CanonicalizationTooCostly:
        """``error`` placed at the data file and line of the entry its blank nodes hang
        from, where ``root`` has the file its IRI names (``data/ID.ttl`` for the IRI
        base + ID) and the file writes that subject; else as it was."""
        iri = error.where[0][1:-1] if error.where and error.where[0][0] == "<" else ""
        name = iri[len(self.base) :] if iri.startswith(self.base) else ""
        if self.root is None or error.path is not None or not _PLAIN_NAME.fullmatch(name):
            return error
        path = self.root / "data" / f"{name}.ttl"
        try:
            text = read_source(path).decode("utf-8")
        except (AnthologyError, UnicodeDecodeError):
            return error
        line = subject_iris(text, self.base).get(iri)
        if line is not None:
            error.path, error.line = path, line
        return error

    def canonical(self) -> tuple[list[Statement], list[Statement]]:
        """Asserted and inferred triples, blank nodes labelled by RDFC-1.0 over both."""
        asserted, inferred = self.canonical_lines()
        return split_lines(asserted), split_lines(inferred)


def graph_export(graph: Graph, base: str = DEFAULT_BASE) -> Export:
    """An export of one rdflib graph (asserted, nothing inferred)."""
    return Export(statement_lines(graph_quads(graph)), [], base, "none")


def parse_include(text: str) -> tuple[str, ...]:
    """``"data,ontology"`` to ``("data", "ontology")``, each part once (``data,data`` is
    ``("data",)``); an unknown part is an error."""
    parts = tuple(dict.fromkeys(p.strip() for p in text.split(",") if p.strip()))
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise AnthologyError(f"--include takes a comma list of {', '.join(PARTS)}, not {text!r}")
    return parts


def build_export(
    source: Source, include: Sequence[str] = ("data", "ontology"), inference: str = "none"
) -> Export:
    """The triples an export writes. Without inference, the included parts' quads as the
    engine gives them; with it, the closure is computed over data and ontology together
    in a pyoxigraph store (``inference.inferred_triples``, owlrl's closure where the
    rules there cannot give it), and the new triples are kept apart. A part included
    twice is read once: each reading mints its own blank nodes.

    >>> from anthology_kg.resources import bundled_dir
    >>> source = FolderSource(bundled_dir())
    >>> len(build_export(source, ("data",)).asserted_lines)
    160
    >>> closed = build_export(source, ("data",), inference="rdfs")
    >>> len(closed.asserted_lines), len(closed.inferred_lines) > 0
    (160, True)
    >>> build_export(source, "data")  # a sequence of parts, not one name
    Traceback (most recent call last):
    ValueError: include is a sequence of parts (data, ontology, shapes): 'data'
    """
    if inference not in INFERENCE:
        raise AnthologyError(f"--inferred takes one of {', '.join(INFERENCE)}")
    if isinstance(include, str) or not set(include) <= set(PARTS):
        raise ValueError(f"include is a sequence of parts ({', '.join(PARTS)}): {include!r}")
    include = tuple(dict.fromkeys(include))
    if inference == "none":
        with collector_paused():
            if isinstance(source, FolderSource):
                lines = source.statement_lines(include)
            else:
                lines = statement_lines(source.quads(include))
            return Export(lines, [], source.base, inference, _root(source))
    from .inference import InferenceUnsupported, inferred_triples

    parts = {part: list(source.quads((part,))) for part in {*include, "data", "ontology"}}
    try:
        inferred = inferred_triples(parts, include, inference)
    except InferenceUnsupported:  # an OWL construct the fast rules lack: owlrl's closure
        return owlrl_export(source, include, inference)
    asserted = [quad for part in include for quad in parts[part]]
    return Export(
        statement_lines(asserted), statement_lines(inferred), source.base, inference, _root(source)
    )


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
    from .export_inference import infer  # rdflib's, imported only here

    inferred = infer(graphs["data"], graphs["ontology"], asserted, inference)
    return Export(
        statement_lines(graph_quads(asserted)),
        statement_lines(graph_quads(inferred)),
        source.base,
        inference,
        _root(source),
    )


def _root(source: Source) -> Path | None:
    """The anthology folder ``source`` reads, if it reads one."""
    return source.root if isinstance(source, FolderSource) else None
