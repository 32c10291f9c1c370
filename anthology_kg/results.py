"""SPARQL results written in the W3C formats (CSV, TSV, JSON, XML) and as a table for people.

pyoxigraph writes the W3C formats (SPARQL 1.1 Query Results CSV and TSV, JSON, and the
XML Format). Two fixes of its XML are ours, each proven by tests/test_hardening.py, not
by the W3C tests (which pyoxigraph's writers pass as the old hand-written ones did): a
value holding a character XML 1.0 cannot carry (export_writers.NOT_XML, which the RDF/XML
writer refuses too) is refused (pyoxigraph writes it raw, which is not well-formed
XML), and a CR is written as ``&#13;`` (pyoxigraph writes it raw, which an XML reader
reads back as LF). Blank nodes are labelled b0, b1, ... in the order they first
appear, so the same rows always give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pyoxigraph as ox
from rdflib import BNode, Graph
from rdflib.term import Node

from .choices import DEFAULT_BASE
from .choices import RESULT_FORMATS as RESULT_FORMATS
from .errors import AnthologyError
from .layout import printable
from .query_result import QueryResult
from .terms import to_ox


class _BlankLabels:
    """Stable labels for blank nodes: b0, b1, ... by first appearance."""

    def __init__(self) -> None:
        self.labels: dict[BNode, str] = {}

    def __call__(self, node: BNode) -> str:
        return self.labels.setdefault(node, f"b{len(self.labels)}")


def _nt_text(node: Node, label: _BlankLabels) -> str:
    """A term in pyoxigraph's N-Triples syntax, a blank node under its stable label."""
    return str(ox.BlankNode(label(node)) if isinstance(node, BNode) else to_ox(node))


def _solutions(result: QueryResult) -> ox.QuerySolutions | ox.QueryBoolean:
    """``result`` as pyoxigraph's query results, for its writers.

    pyoxigraph builds QuerySolutions only from a query or by reading results, so the rows
    go to its reader as TSV: each term in pyoxigraph's own N-Triples syntax (``str`` of
    the term, tabs and line ends escaped), which is TSV's term syntax.
    """
    if result.kind == "ask":
        document = json.dumps({"head": {}, "boolean": bool(result.boolean)})
        return ox.parse_query_results(document, ox.QueryResultsFormat.JSON)
    label = _BlankLabels()
    lines = ["\t".join(f"?{v}" for v in result.variables)]
    lines += [
        "\t".join("" if n is None else _nt_text(n, label) for n in row) for row in result.rows
    ]
    return ox.parse_query_results("".join(line + "\n" for line in lines), ox.QueryResultsFormat.TSV)


def _write(result: QueryResult, form: ox.QueryResultsFormat) -> str:
    written = _solutions(result).serialize(format=form)
    assert written is not None  # (no output file given: the bytes are returned)
    text = written.decode("utf-8")
    # pyoxigraph ends no JSON or XML document (nor an ASK answer) with a line end.
    return text if text.endswith("\n") else text + "\n"


def to_csv(result: QueryResult) -> str:
    """SPARQL 1.1 CSV: header of names, CRLF line ends, bare values (no types)."""
    return _write(result, ox.QueryResultsFormat.CSV)


def to_tsv(result: QueryResult) -> str:
    """SPARQL 1.1 TSV: ``?name`` header, terms in Turtle syntax, LF line ends."""
    return _write(result, ox.QueryResultsFormat.TSV)


def to_json(result: QueryResult) -> str:
    """SPARQL 1.1 JSON: ``head.vars`` and ``results.bindings``, or ``boolean`` for ASK."""
    return _write(result, ox.QueryResultsFormat.JSON)


def _refuse_non_xml(result: QueryResult) -> None:
    from .export_writers import NOT_XML  # (the export writers' module: loaded for XML only)

    for number, row in enumerate(result.rows, start=1):
        for variable, node in zip(result.variables, row, strict=True):
            bad = NOT_XML.search(str(node)) if node is not None else None
            if bad:
                raise AnthologyError(
                    f"row {number}, ?{variable} holds U+{ord(bad.group()):04X}, which XML 1.0 "
                    "cannot carry; use --format json, csv or tsv"
                )


def to_xml(result: QueryResult) -> str:
    """The SPARQL Query Results XML Format. A value holding a character XML 1.0 cannot
    carry (U+0001, say) is an AnthologyError: the document would not be well-formed."""
    from .export_writers import CR_REFERENCE

    _refuse_non_xml(result)
    # pyoxigraph writes CR raw, read back as LF; it writes no line ends of its own, so
    # every CR is a value's: written as the XML writers write it (export_writers.CR_REFERENCE).
    return _write(result, ox.QueryResultsFormat.XML).replace("\r", CR_REFERENCE)


def to_table(result: QueryResult, show: Callable[[Node], str], count: bool = True) -> str:
    """Aligned columns for people, then ``(N rows)`` unless ``count`` is false (--quiet:
    the rows only); ``show`` renders a term (entries by identifier), its line ends and
    other control characters shown escaped (layout.printable)."""
    if result.kind == "ask":
        return ("yes" if result.boolean else "no") + "\n"
    label = _BlankLabels()

    def cell(node: Node | None) -> str:
        if node is None:
            return ""
        if isinstance(node, BNode):
            return "_:" + label(node)
        return printable(show(node))

    header = list(result.variables)
    body = [[cell(n) for n in row] for row in result.rows]
    widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body]
    if count:
        lines.append(f"({len(body)} row{'s' if len(body) != 1 else ''})")
    return "\n".join(lines) + "\n"


def graph_to_turtle(graph: Graph, base: str = DEFAULT_BASE) -> str:
    """A CONSTRUCT or DESCRIBE answer as the tool's canonical Turtle (``turtle``): the
    same bytes for the same graph, on every engine and run (``id:`` bound to ``base``)."""
    from .turtle import canonical_turtle

    return canonical_turtle(graph, base=base)
