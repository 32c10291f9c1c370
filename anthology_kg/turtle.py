"""Canonical Turtle: the one way the tool writes Turtle, byte-stable for the same graph.

Prefixes are the tool's fixed set, those used, sorted by name. Subjects are sorted by
IRI; ``rdf:type`` comes first, then predicates sorted by IRI, objects sorted by kind and
value (numbers by value). A blank node used once as an object is written nested as
``[ ... ]`` (a well-formed list as ``( ... )``); any other blank node gets a label derived
from its content (bnodes.py), so no hash seed or parse order changes the output.
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal, InvalidOperation

from rdflib import RDF, BNode, Graph, Literal, URIRef
from rdflib.namespace import XSD
from rdflib.term import Node

from .bnodes import relabel
from .namespaces import DEFAULT_BASE, PREFIXES

INDENT = "    "
_LOCAL = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?$")
_SHORTHAND = {
    XSD.integer: re.compile(r"^[+-]?[0-9]+$"),
    XSD.decimal: re.compile(r"^[+-]?[0-9]*\.[0-9]+$"),
    XSD.boolean: re.compile(r"^(true|false)$"),
}


def _escape_short(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t")
    )


def _escape_long(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")


class _Writer:
    def __init__(self, graph: Graph, prefixes: dict[str, str]):
        self.graph = relabel(graph)
        self.prefixes = prefixes
        self.used: set[str] = set()
        self.inbound: dict[Node, int] = defaultdict(int)
        for _, _, o in self.graph:
            if isinstance(o, BNode):
                self.inbound[o] += 1
        self.nested: set[BNode] = set()
        self.nestable = self._nestable_blank_nodes()

    def _nestable_blank_nodes(self) -> set[BNode]:
        """Blank nodes used once as an object and reachable from a written subject
        (a cycle of blank nodes with no way in keeps its labels)."""
        once = {n for n, count in self.inbound.items() if count == 1}
        roots = [s for s in set(self.graph.subjects()) if s not in once]
        found: set[BNode] = set()
        while roots:
            node = roots.pop()
            for o in self.graph.objects(node, None):
                if o in once and o not in found:
                    found.add(o)
                    roots.append(o)
        return found

    # -- terms -------------------------------------------------------------------------
    def iri(self, node: URIRef) -> str:
        text = str(node)
        best = None
        for prefix, namespace in self.prefixes.items():
            if text.startswith(namespace) and _LOCAL.match(text[len(namespace) :]):
                if best is None or len(namespace) > len(self.prefixes[best]):
                    best = prefix
        if best is None:
            return f"<{text}>"
        self.used.add(best)
        return f"{best}:{text[len(self.prefixes[best]) :]}"

    def literal(self, node: Literal) -> str:
        lexical = str(node)
        if node.language:
            return f'"{_escape_short(lexical)}"@{node.language}'
        pattern = _SHORTHAND.get(node.datatype)
        if pattern and pattern.match(lexical):
            return lexical
        if "\n" in lexical:
            quoted = f'"""{_escape_long(lexical)}"""'
        else:
            quoted = f'"{_escape_short(lexical)}"'
        if node.datatype is None or node.datatype == XSD.string:
            return quoted
        return f"{quoted}^^{self.iri(URIRef(node.datatype))}"

    def is_nestable(self, node: Node) -> bool:
        return node in self.nestable

    def as_list(self, node: BNode) -> list[Node] | None:
        """The members of a well-formed RDF list starting at ``node``, else None."""
        members, current, seen = [], node, set()
        while current != RDF.nil:
            if current in seen or not isinstance(current, BNode):
                return None
            seen.add(current)
            predicates = set(self.graph.predicates(current, None))
            firsts = list(self.graph.objects(current, RDF.first))
            rests = list(self.graph.objects(current, RDF.rest))
            if predicates != {RDF.first, RDF.rest} or len(firsts) != 1 or len(rests) != 1:
                return None
            if current != node and current not in self.nestable:
                return None
            members.append(firsts[0])
            current = rests[0]
        return members

    def term(self, node: Node, depth: int) -> str:
        if isinstance(node, URIRef):
            return self.iri(node)
        if isinstance(node, Literal):
            return self.literal(node)
        if self.is_nestable(node):
            members = self.as_list(node)
            if members is not None:
                self._mark_list(node)
                return "( " + " ".join(self.term(m, depth + 1) for m in members) + " )"
            self.nested.add(node)
            body = self.predicate_lines(node, depth + 1)
            if not body:
                return "[]"
            pad = INDENT * (depth + 1)
            return "[\n" + " ;\n".join(pad + line for line in body) + "\n" + INDENT * depth + "]"
        return f"_:{node}"

    def _mark_list(self, node: Node) -> None:
        while node != RDF.nil:
            self.nested.add(node)
            node = self.graph.value(node, RDF.rest)

    # -- ordering ----------------------------------------------------------------------
    def sort_key(self, node: Node, depth: int = 0) -> tuple:
        if isinstance(node, URIRef):
            return (0, str(node), 0, "", ())
        if isinstance(node, BNode):
            if depth > 8 or not self.is_nestable(node):
                return (1, str(node), 0, "", ())
            inner = tuple(
                (str(p), self.sort_key(o, depth + 1))
                for p, o in sorted(self.graph.predicate_objects(node), key=lambda po: str(po[0]))
            )
            return (1, "", 0, "", inner)
        value = 0
        try:
            if node.datatype in (XSD.integer, XSD.decimal, XSD.double, XSD.float):
                value = Decimal(str(node))
        except InvalidOperation:
            value = 0
        return (2, str(node.datatype or ""), value, str(node), (node.language or "",))

    def predicate_lines(self, subject: Node, depth: int) -> list[str]:
        predicates = sorted(
            set(self.graph.predicates(subject, None)),
            key=lambda p: (p != RDF.type, str(p)),
        )
        lines = []
        for predicate in predicates:
            objects = sorted(self.graph.objects(subject, predicate), key=self.sort_key)
            rendered = [self.term(o, depth) for o in objects]
            verb = "a" if predicate == RDF.type else self.iri(predicate)
            lines.append(f"{verb} " + ", ".join(rendered))
        return lines

    def statement(self, subject: Node) -> str:
        head = self.term(subject, 0) if isinstance(subject, URIRef) else f"_:{subject}"
        lines = self.predicate_lines(subject, 0)
        return head + " " + f" ;\n{INDENT}".join(lines) + " .\n"


def canonical_turtle(
    graph: Graph,
    *,
    base: str = DEFAULT_BASE,
    comments: dict[Node, str] | None = None,
    header: str = "",
) -> str:
    """The canonical Turtle of ``graph``; ``comments`` (``# ...`` lines) are written
    before the statement of their subject, ``header`` before everything else."""
    prefixes = {p: (base if p == "id" else ns) for p, ns in PREFIXES.items()}
    writer = _Writer(graph, prefixes)
    comments = comments or {}
    subjects = sorted({s for s in writer.graph.subjects() if isinstance(s, URIRef)}, key=str)
    statements = [(s, writer.statement(s)) for s in subjects]
    # Blank-node subjects that could not be nested (shared or cyclic) come last.
    for subject in sorted({s for s in writer.graph.subjects() if isinstance(s, BNode)}, key=str):
        if not writer.is_nestable(subject):
            statements.append((subject, writer.statement(subject)))
    blocks = []
    for subject, text in statements:
        note = comments.get(subject, "")
        blocks.append((note.rstrip("\n") + "\n" if note else "") + text)
    prefix_lines = "".join(f"@prefix {p}: <{prefixes[p]}> .\n" for p in sorted(writer.used))
    parts = [header.rstrip("\n") + "\n\n" if header else "", prefix_lines]
    if blocks:
        parts.append("\n" + "\n".join(blocks))
    return "".join(parts)
