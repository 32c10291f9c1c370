"""Blank-node labels derived from content, so that output never depends on parse order.

A blank node's label is a hash of what it says (its outgoing triples, nested blank
nodes included) and of where it hangs (the subjects and predicates pointing at it).
Two blank nodes that the hash cannot tell apart get a suffix in sorted order.

``first_degree_labels`` gives the labels of RDF Dataset Canonicalization (RDFC-1.0)
where its first step settles them all, the exports' common case.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

# rdflib only for ``stable_labels`` and ``relabel`` (rdflib graphs): the writers' RDFC-1.0
# labels work on text, and ``export`` runs without loading rdflib.
if TYPE_CHECKING:
    from rdflib import BNode, Graph
    from rdflib.term import Node

_DEPTH = 6
OxObject = ox.NamedNode | ox.BlankNode | ox.Literal


def stable_labels(graph: Graph) -> dict[Node, BNode]:
    """A new label for every blank node of ``graph``, from its content and context."""
    from rdflib import BNode

    labels = _content_labels(graph, lambda node: isinstance(node, BNode), lambda n: n.n3())
    return {node: BNode(label) for node, label in labels.items()}


_XSD = "http://www.w3.org/2001/XMLSchema#"
_INF_NAN_TYPES = {_XSD + "float", _XSD + "double", _XSD + "decimal"}


def rdflib_n3(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> str:
    """The text rdflib's ``n3()`` gives the same term (a pyoxigraph term here), which
    ``stable_labels`` hashes: the labels of a graph read by either library agree."""
    if isinstance(term, ox.NamedNode):
        return f"<{term.value}>"
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    lexical = term.value
    if "\n" in lexical:
        encoded = lexical.replace("\\", "\\\\")
        if '"""' in lexical:
            encoded = encoded.replace('"""', '\\"\\"\\"')
        if encoded[-1] == '"' and encoded[-2] != "\\":
            encoded = encoded[:-1] + "\\" + '"'
        encoded = encoded.replace("\r", "\\r")
        encoded = f'"""{encoded}"""'
    else:
        escaped = lexical.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")
        encoded = f'"{escaped}"'
    if term.language:
        return f"{encoded}@{term.language}"
    datatype = term.datatype.value
    if datatype == _XSD + "string":
        return encoded
    if datatype in _INF_NAN_TYPES:
        try:
            number = float(lexical)
        except ValueError:
            number = 0.0
        if math.isinf(number):
            encoded = encoded.replace("inf", "INF").replace("Infinity", "INF")
        if math.isnan(number):
            encoded = encoded.replace("nan", "NaN")
    return f"{encoded}^^<{datatype}>"


def ox_stable_labels(
    triples: Iterable[tuple[ox.NamedNode | ox.BlankNode, ox.NamedNode, OxObject]],
) -> dict[ox.BlankNode, ox.BlankNode]:
    """``stable_labels`` for pyoxigraph triples: the same labels as rdflib's graph of
    the same triples gets."""
    labels = _content_labels(triples, lambda node: isinstance(node, ox.BlankNode), rdflib_n3)
    return {node: ox.BlankNode(label) for node, label in labels.items()}


def _content_labels(
    triples: Iterable[tuple[Any, Any, Any]],
    is_blank: Callable[[Any], bool],
    n3: Callable[[Any], str],
) -> dict[Any, str]:
    """A label for every blank node of ``triples``, from its content and context."""
    outgoing: dict[Any, list[tuple[Any, Any]]] = defaultdict(list)
    incoming: dict[Any, list[tuple[Any, Any]]] = defaultdict(list)
    for s, p, o in triples:
        if is_blank(s):
            outgoing[s].append((p, o))
        if is_blank(o):
            incoming[o].append((s, p))
    if not outgoing and not incoming:
        return {}

    @cache
    def content(node: Any, depth: int) -> str:
        if depth == 0:
            return "_"
        parts = sorted(
            f"{n3(p)} {content(o, depth - 1) if is_blank(o) else n3(o)}" for p, o in outgoing[node]
        )
        return "[" + ";".join(parts) + "]"

    @cache
    def context(node: Any, depth: int) -> str:
        if depth == 0:
            return "_"
        parts = sorted(
            f"{context(s, depth - 1) if is_blank(s) else n3(s)} {n3(p)}" for s, p in incoming[node]
        )
        return "<" + ";".join(parts) + ">"

    groups: dict[str, list[Any]] = defaultdict(list)
    for node in set(outgoing) | set(incoming):
        text = context(node, _DEPTH) + content(node, _DEPTH)
        groups[hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]].append(node)
    labels: dict[Any, str] = {}
    for digest, nodes in groups.items():
        # (rdflib's str of a blank node is its label, as pyoxigraph's .value is)
        for index, node in enumerate(sorted(nodes, key=lambda n: n3(n)[2:])):
            labels[node] = f"b{digest}" + (f"x{index}" if len(nodes) > 1 else "")
    return labels


def relabel(graph: Graph) -> Graph:
    """A copy of ``graph`` (same namespaces) with stable blank-node labels."""
    from rdflib import Graph

    labels = stable_labels(graph)
    if not labels:
        return graph
    out = Graph(namespace_manager=graph.namespace_manager)
    for s, p, o in graph:
        out.add((labels.get(s, s), p, labels.get(o, o)))
    return out


#: A quad as the N-Quads text of its subject, predicate, object and graph name ("" for
#: the default graph).
QuadText = tuple[str, str, str, str]


def _first_degree_line(quad: QuadText, node: str) -> str:
    """One quad of ``node`` as RDFC-1.0's Hash First Degree Quads writes it: ``node`` as
    ``_:a``, any other blank node as ``_:z``."""
    s, p, o, g = quad
    if s[0] == "_":
        s = "_:a" if s == node else "_:z"
    if o[0] == "_":
        o = "_:a" if o == node else "_:z"
    return f"{s} {p} {o} {g} .\n" if g else f"{s} {p} {o} .\n"


def first_degree_labels(quads: Iterable[QuadText]) -> dict[str, str] | None:
    """The RDFC-1.0 canonical labels (``_:c14nN``) of the blank nodes of ``quads`` when
    each has a first-degree hash of its own, else None.

    Written here because it is the common case and building a pyoxigraph ``Dataset`` to
    canonicalize costs more than the rest of an export: these are steps 1 to 4 of the
    Canonicalization Algorithm (https://www.w3.org/TR/rdf-canon/#canon-algo-algo), which
    issue every label when no two hashes are equal. When two are, step 5 (Hash N-Degree
    Quads) is needed and the caller asks pyoxigraph (``Dataset.canonicalize``). Terms
    are pyoxigraph's N-Triples text, the form the algorithm hashes; blank nodes only as
    subject or object (a triple term, a blank graph name: the caller's to refuse)."""
    by_node: dict[str, list[QuadText]] = defaultdict(list)
    for quad in quads:
        s, _, o, _ = quad
        if s[0] == "_":
            by_node[s].append(quad)
        if o[0] == "_" and o != s:
            by_node[o].append(quad)
    hashes = {
        hashlib.sha256(
            "".join(sorted([_first_degree_line(q, node) for q in found])).encode("utf-8")
        ).hexdigest(): node
        for node, found in by_node.items()
    }
    if len(hashes) < len(by_node):  # two blank nodes share a hash
        return None
    return {hashes[h]: f"_:c14n{index}" for index, h in enumerate(sorted(hashes))}
