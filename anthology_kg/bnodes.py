"""Blank-node labels derived from content, so that output never depends on parse order.

A blank node's label is a hash of what it says (its outgoing triples, nested blank
nodes included) and of where it hangs (the subjects and predicates pointing at it).
Two blank nodes that the hash cannot tell apart get a suffix in sorted order.

``first_degree_labels`` gives the labels of RDF Dataset Canonicalization (RDFC-1.0)
where its first step settles them all, the exports' common case.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

# rdflib only for ``stable_labels`` and ``relabel`` (rdflib graphs): the writers' RDFC-1.0
# labels work on text, and ``export`` runs without loading rdflib.
if TYPE_CHECKING:
    from rdflib import BNode, Graph
    from rdflib.term import Node

_DEPTH = 6


def stable_labels(graph: Graph) -> dict[Node, BNode]:
    """A new label for every blank node of ``graph``, from its content and context."""
    from rdflib import BNode

    outgoing: dict[BNode, list[tuple[Node, Node]]] = defaultdict(list)
    incoming: dict[BNode, list[tuple[Node, Node]]] = defaultdict(list)
    for s, p, o in graph:
        if isinstance(s, BNode):
            outgoing[s].append((p, o))
        if isinstance(o, BNode):
            incoming[o].append((s, p))
    if not outgoing and not incoming:
        return {}

    @cache
    def content(node: BNode, depth: int) -> str:
        if depth == 0:
            return "_"
        parts = sorted(
            f"{p.n3()} {content(o, depth - 1) if isinstance(o, BNode) else o.n3()}"
            for p, o in outgoing[node]
        )
        return "[" + ";".join(parts) + "]"

    @cache
    def context(node: BNode, depth: int) -> str:
        if depth == 0:
            return "_"
        parts = sorted(
            f"{context(s, depth - 1) if isinstance(s, BNode) else s.n3()} {p.n3()}"
            for s, p in incoming[node]
        )
        return "<" + ";".join(parts) + ">"

    groups: dict[str, list[BNode]] = defaultdict(list)
    for node in set(outgoing) | set(incoming):
        text = context(node, _DEPTH) + content(node, _DEPTH)
        groups[hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]].append(node)
    labels: dict[Node, BNode] = {}
    for digest, nodes in groups.items():
        for index, node in enumerate(sorted(nodes, key=str)):
            labels[node] = BNode(f"b{digest}" + (f"x{index}" if len(nodes) > 1 else ""))
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
