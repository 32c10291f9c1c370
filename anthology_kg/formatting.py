"""``fmt``: data files rewritten in the canonical Turtle style, never changing their meaning."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph
from rdflib.compare import isomorphic

from .errors import AnthologyError
from .files import write_atomic
from .loader import parse_turtle
from .namespaces import DEFAULT_BASE
from .sourcemap import scan
from .turtle import canonical_turtle


@dataclass(frozen=True)
class Formatted:
    """A data file and its canonical text."""

    path: Path
    original: str
    canonical: str

    @property
    def changed(self) -> bool:
        return self.original != self.canonical


def format_file(path: Path, base: str = DEFAULT_BASE) -> Formatted:
    """The canonical text of one Turtle file, keeping the comments written before each
    statement. Raises AnthologyError if the result would not be the same graph."""
    graph, text = parse_turtle(path, base)
    found = scan(text, base)
    canonical = canonical_turtle(graph, base=base, comments=found.comments, header=found.header)
    again = Graph().parse(data=canonical, format="turtle", publicID=base)
    if not isomorphic(graph, again):
        raise AnthologyError("formatting would change the graph; file left as it is", path)
    return Formatted(path=path, original=text, canonical=canonical)


def format_anthology(root: Path, base: str = DEFAULT_BASE, write: bool = True) -> list[Formatted]:
    """Format every ``data/*.ttl`` of ``root``; with ``write``, rewrite those that change.

    All files are formatted before any is written, so a broken file stops the run with
    nothing rewritten.
    """
    files = [format_file(p, base) for p in sorted((root / "data").glob("*.ttl"))]
    if write:
        for item in files:
            if item.changed:
                write_atomic(item.path, item.canonical)
    return files
