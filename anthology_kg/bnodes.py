"""Blank-node labels derived from content, so that output never depends on parse order.

A blank node's label is a hash of what it says (its outgoing triples, nested blank
nodes included) and of where it hangs (the subjects and predicates pointing at it).
Two blank nodes that the hash cannot tell apart get a suffix in sorted order.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from functools import cache

from rdflib import BNode, Graph
from rdflib.term import Node

_DEPTH = 6


def stable_labels(graph: Graph) -> dict[Node, BNode]:
    """A new label for every blank node of ``graph``, from its content and context."""
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
    labels = stable_labels(graph)
    if not labels:
        return graph
    out = Graph(namespace_manager=graph.namespace_manager)
    for s, p, o in graph:
        out.add((labels.get(s, s), p, labels.get(o, o)))
    return out
