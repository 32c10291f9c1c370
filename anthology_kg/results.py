"""SPARQL results written in the W3C formats (CSV, TSV, JSON, XML) and as a table for people.

The W3C writers follow the SPARQL 1.1 Query Results CSV and TSV Formats, JSON Format
and XML Format recommendations. Blank nodes are labelled b0, b1, ... in the order they
first appear, so the same rows always give the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from xml.etree import ElementTree as ET

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import XSD
from rdflib.term import Node

from .choices import RESULT_FORMATS as RESULT_FORMATS
from .errors import AnthologyError
from .queries import QueryResult

SPARQL_RESULTS_NS = "http://www.w3.org/2005/sparql-results#"
_TURTLE_NUMBER = {
    XSD.integer: re.compile(r"^[+-]?[0-9]+$"),
    XSD.decimal: re.compile(r"^[+-]?[0-9]*\.[0-9]+$"),
    XSD.double: re.compile(r"^[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)[eE][+-]?[0-9]+$"),
    XSD.boolean: re.compile(r"^(?:true|false)$"),
}


class _BlankLabels:
    """Stable labels for blank nodes: b0, b1, ... by first appearance."""

    def __init__(self) -> None:
        self.labels: dict[BNode, str] = {}

    def __call__(self, node: BNode) -> str:
        return self.labels.setdefault(node, f"b{len(self.labels)}")


def _csv_field(text: str) -> str:
    if any(c in text for c in ',"\r\n') or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def to_csv(result: QueryResult) -> str:
    """SPARQL 1.1 CSV: header of names, CRLF line ends, bare values (no types)."""
    if result.kind == "ask":
        return "_askResult\r\n" + ("true" if result.boolean else "false") + "\r\n"
    label = _BlankLabels()

    def value(node: Node | None) -> str:
        if node is None:
            return ""
        if isinstance(node, BNode):
            return "_:" + label(node)
        return _csv_field(str(node))

    lines = [",".join(_csv_field(v) for v in result.variables)]
    lines += [",".join(value(n) for n in row) for row in result.rows]
    return "".join(line + "\r\n" for line in lines)


def _tsv_string(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )
    return f'"{escaped}"'


def tsv_term(node: Node, label: Callable[[BNode], str]) -> str:
    """An RDF term in Turtle syntax, as the TSV format writes it."""
    if isinstance(node, URIRef):
        return f"<{node}>"
    if isinstance(node, BNode):
        return "_:" + label(node)
    assert isinstance(node, Literal)
    lexical = str(node)
    if node.language:
        return f"{_tsv_string(lexical)}@{node.language}"
    if node.datatype is None or node.datatype == XSD.string:
        return _tsv_string(lexical)
    pattern = _TURTLE_NUMBER.get(node.datatype)
    if pattern and pattern.match(lexical):
        return lexical
    return f"{_tsv_string(lexical)}^^<{node.datatype}>"


def to_tsv(result: QueryResult) -> str:
    """SPARQL 1.1 TSV: ``?name`` header, terms in Turtle syntax, LF line ends."""
    if result.kind == "ask":
        return "?_askResult\n" + ("true" if result.boolean else "false") + "\n"
    label = _BlankLabels()
    lines = ["\t".join(f"?{v}" for v in result.variables)]
    lines += [
        "\t".join("" if n is None else tsv_term(n, label) for n in row) for row in result.rows
    ]
    return "".join(line + "\n" for line in lines)


def json_term(node: Node, label: Callable[[BNode], str]) -> dict[str, str]:
    """An RDF term as a SPARQL 1.1 JSON binding object."""
    if isinstance(node, URIRef):
        return {"type": "uri", "value": str(node)}
    if isinstance(node, BNode):
        return {"type": "bnode", "value": label(node)}
    assert isinstance(node, Literal)
    term = {"type": "literal", "value": str(node)}
    if node.language:
        term["xml:lang"] = node.language
    elif node.datatype is not None and node.datatype != XSD.string:
        term["datatype"] = str(node.datatype)
    return term


def to_json(result: QueryResult) -> str:
    """SPARQL 1.1 JSON: ``head.vars`` and ``results.bindings``, or ``boolean`` for ASK."""
    if result.kind == "ask":
        document: dict[str, object] = {"head": {}, "boolean": bool(result.boolean)}
    else:
        label = _BlankLabels()
        bindings = [
            {
                v: json_term(n, label)
                for v, n in zip(result.variables, row, strict=True)
                if n is not None
            }
            for row in result.rows
        ]
        document = {"head": {"vars": result.variables}, "results": {"bindings": bindings}}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


#: Characters XML 1.0 cannot carry, not even as a character reference.
_NOT_XML = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _refuse_non_xml(result: QueryResult) -> None:
    for number, row in enumerate(result.rows, start=1):
        for variable, node in zip(result.variables, row, strict=True):
            bad = _NOT_XML.search(str(node)) if node is not None else None
            if bad:
                raise AnthologyError(
                    f"row {number}, ?{variable} holds U+{ord(bad.group()):04X}, which XML 1.0 "
                    "cannot carry; use --format json, csv or tsv"
                )


def to_xml(result: QueryResult) -> str:
    """The SPARQL Query Results XML Format. A value holding a character XML 1.0 cannot
    carry (U+0001, say) is an AnthologyError: the document would not be well-formed."""
    _refuse_non_xml(result)
    ns = "{" + SPARQL_RESULTS_NS + "}"
    ET.register_namespace("", SPARQL_RESULTS_NS)
    root = ET.Element(ns + "sparql")
    head = ET.SubElement(root, ns + "head")
    if result.kind == "ask":
        ET.SubElement(root, ns + "boolean").text = "true" if result.boolean else "false"
    else:
        for v in result.variables:
            ET.SubElement(head, ns + "variable", name=v)
        results = ET.SubElement(root, ns + "results")
        label = _BlankLabels()
        for row in result.rows:
            element = ET.SubElement(results, ns + "result")
            for v, node in zip(result.variables, row, strict=True):
                if node is None:
                    continue
                binding = ET.SubElement(element, ns + "binding", name=v)
                if isinstance(node, URIRef):
                    ET.SubElement(binding, ns + "uri").text = str(node)
                elif isinstance(node, BNode):
                    ET.SubElement(binding, ns + "bnode").text = label(node)
                else:
                    assert isinstance(node, Literal)
                    literal = ET.SubElement(binding, ns + "literal")
                    literal.text = str(node)
                    if node.language:
                        literal.set("{http://www.w3.org/XML/1998/namespace}lang", node.language)
                    elif node.datatype is not None and node.datatype != XSD.string:
                        literal.set("datatype", str(node.datatype))
    ET.indent(root)
    # A raw CR in text would be read back as LF (XML end-of-line handling): write it as a
    # character reference. ET.indent writes no CR of its own, so every CR is a value's.
    body = ET.tostring(root, "unicode").replace("\r", "&#13;")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def to_table(result: QueryResult, show: Callable[[Node], str]) -> str:
    """Aligned columns for people; ``show`` renders a term (entries by identifier)."""
    if result.kind == "ask":
        return ("yes" if result.boolean else "no") + "\n"
    label = _BlankLabels()

    def cell(node: Node | None) -> str:
        if node is None:
            return ""
        if isinstance(node, BNode):
            return "_:" + label(node)
        return show(node).replace("\n", " ")

    header = list(result.variables)
    body = [[cell(n) for n in row] for row in result.rows]
    widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body]
    lines.append(f"({len(body)} row{'s' if len(body) != 1 else ''})")
    return "\n".join(lines) + "\n"


def graph_to_turtle(graph: Graph) -> str:
    """A CONSTRUCT or DESCRIBE answer as Turtle."""
    return graph.serialize(format="turtle")
