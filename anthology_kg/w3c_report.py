"""The W3C SHACL validation report (``sh:ValidationReport``, SHACL 3.6) as a file:
canonical Turtle or JSON-LD, byte-stable, for other SHACL tools and dashboards.

The report's triples are written as N-Triples text straight from the engine's rows and
the shapes graph's pyoxigraph terms (``report_lines``), and the export's canonical
writers label its blank nodes (RDFC-1.0) and write them: no rdflib graph is built
(that took 7 times the time and 10 times the memory of ``--format json``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .prefixes import PREFIXES

if TYPE_CHECKING:
    from .export import Export
    from .shacl.graph import ShapesGraph
    from .shacl.validator import ResultRow
    from .validation import Report

_SH, _RDF = PREFIXES["sh"], PREFIXES["rdf"]
_TYPE = f"<{_RDF}type>"
_FIRST, _REST = ox.NamedNode(_RDF + "first"), ox.NamedNode(_RDF + "rest")
#: The path forms a blank ``sh:resultPath`` keeps besides a list's (``shacl.paths``):
#: what SHACL reads of a path node, as ``shacl.paths.copy_path`` copies it.
_PATH_FORMS = tuple(
    ox.NamedNode(_SH + name)
    for name in (
        "inversePath",
        "alternativePath",
        "zeroOrMorePath",
        "oneOrMorePath",
        "zeroOrOnePath",
    )
)
_BOOLEAN = f"<{PREFIXES['xsd']}boolean>"


def _sh(name: str) -> str:
    return f"<{_SH}{name}>"


def _text(term: object) -> str:
    """A row's or the shapes' term in N-Triples. A blank node of theirs gets the label
    it has with ``e`` before it, so that none is one of the report's own (``_:root``,
    ``_:r1`` ...): the writers relabel every blank node, these labels are never seen."""
    if not isinstance(term, ox.NamedNode | ox.BlankNode | ox.Literal):
        from .terms import from_ox, to_ox

        if isinstance(term, ox.Triple):
            from_ox(term)  # an AnthologyError: RDF 1.2 triple terms are not supported
        term = to_ox(term)  # type: ignore[arg-type]  # an rdflib term (the reference engine's)
    return f"_:e{term.value}" if isinstance(term, ox.BlankNode) else str(term)


class _ShapeCopies:
    """The triples of the shapes graph a report repeats: a blank result path as SHACL
    reads it, and the description of a blank source shape or constraint (its triples,
    nested blank nodes followed), as pySHACL copies them; each node is copied once."""

    def __init__(self, shapes: ShapesGraph, lines: dict[str, None]) -> None:
        self.shapes = shapes
        self.lines = lines
        self.paths: set[object] = set()
        self.described: set[object] = set()

    def _node(self, term: object) -> object:
        from .shacl.vocabulary import ox_term

        return ox_term(term)

    def path(self, term: object) -> str:
        """``term``'s text, its path triples added to the report where it is blank."""
        node = self._node(term)
        todo = [node]
        while todo:
            current = todo.pop()
            if not isinstance(current, ox.BlankNode) or current in self.paths:
                continue
            self.paths.add(current)
            forms = (_FIRST, _REST) if self.shapes.is_list(current) else _PATH_FORMS
            for predicate in forms:
                for value in self.shapes.objects(current, predicate):
                    self.lines[f"{_text(current)} {predicate} {_text(value)}"] = None
                    todo.append(value)
        return _text(node)

    def describe(self, term: object) -> None:
        """Add the triples of the blank node ``term`` and of the blank nodes they reach."""
        todo = [self._node(term)]
        while todo:
            current = todo.pop()
            if not isinstance(current, ox.BlankNode) or current in self.described:
                continue
            self.described.add(current)
            subject = _text(current)
            for predicate in self.shapes.predicates(current):
                for value in self.shapes.objects(current, predicate):
                    self.lines[f"{subject} {predicate} {_text(value)}"] = None
                    todo.append(value)


def report_lines(rows: Iterable[ResultRow], shapes: ShapesGraph) -> list[str]:
    """The W3C validation report of ``rows`` (on either library's terms) as N-Triples
    lines without their `` .`` (``export.Export``'s), each once: one ``sh:result`` per
    row, a row given twice giving two; result paths, and blank source shapes and
    constraints, copied from ``shapes``. The same graph as ``shacl.report_graph``."""
    lines: dict[str, None] = {}
    copies = _ShapeCopies(shapes, lines)
    root = "_:root"
    lines[f"{root} {_TYPE} {_sh('ValidationReport')}"] = None
    count = 0
    for count, row in enumerate(rows, start=1):
        result = f"_:r{count}"
        own = [
            f"{root} {_sh('result')} {result}",
            f"{result} {_TYPE} {_sh('ValidationResult')}",
            f"{result} {_sh('focusNode')} {_text(row.focus)}",
            f"{result} {_sh('resultSeverity')} {_text(row.severity)}",
            f"{result} {_sh('sourceShape')} {_text(row.source_shape)}",
            f"{result} {_sh('sourceConstraintComponent')} {_text(row.source_constraint_component)}",
        ]
        if row.value is not None:
            own.append(f"{result} {_sh('value')} {_text(row.value)}")
        if row.path is not None:
            own.append(f"{result} {_sh('resultPath')} {copies.path(row.path)}")
        if row.source_constraint is not None:
            own.append(f"{result} {_sh('sourceConstraint')} {_text(row.source_constraint)}")
            copies.describe(row.source_constraint)
        copies.describe(row.source_shape)
        own += [f"{result} {_sh('resultMessage')} {_text(m)}" for m in row.messages]
        lines.update(dict.fromkeys(own))
    lines[f'{root} {_sh("conforms")} "{str(count == 0).lower()}"^^{_BOOLEAN}'] = None
    return list(lines)


def _export(report: Report, base: str) -> Export:
    from .export import Export

    if report.engine is None:
        raise ValueError("the report carries no SHACL report graph")
    return Export(report_lines(report.rows, report.engine.rules.shapes_view), [], base, "none")


def shacl_turtle(report: Report, base: str) -> str:
    """The engine's report graph in the project's canonical Turtle."""
    from .export_writers import to_turtle

    return to_turtle(_export(report, base))


def shacl_jsonld(report: Report, base: str) -> str:
    """The engine's report graph as expanded JSON-LD, nodes and values sorted."""
    from .export_writers import to_jsonld

    return to_jsonld(_export(report, base))


WRITERS = {"turtle": shacl_turtle, "jsonld": shacl_jsonld}
