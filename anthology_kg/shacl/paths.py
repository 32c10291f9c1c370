"""SHACL 2.3.1 Property paths: a ``sh:path`` value as a SPARQL property path.

Every path form of the specification: a predicate IRI, a sequence (an RDF list),
``sh:alternativePath``, ``sh:inversePath``, ``sh:zeroOrMorePath``, ``sh:oneOrMorePath``,
``sh:zeroOrOnePath``, nested in any way. A node that is both a list and another path form
is read as the list (the W3C suite's path-strange tests).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .errors import Unsupported
from .graph import ShapesGraph as Graph
from .vocabulary import SH
from .vocabulary import Term as Node

if TYPE_CHECKING:
    import rdflib

_REPEATS = ((SH.zeroOrMorePath, "*"), (SH.oneOrMorePath, "+"), (SH.zeroOrOnePath, "?"))


def is_list(g: Graph, node: Node) -> bool:
    return g.is_list(node)


def path_text(g: Graph, node: Node) -> str:
    """The SPARQL 1.1 property path for the SHACL path ``node``."""
    if isinstance(node, ox.NamedNode):
        return str(node)
    if is_list(g, node):
        steps = g.items(node)
        if not steps:
            raise Unsupported("an empty sequence path")
        return "(" + "/".join(path_text(g, step) for step in steps) + ")"
    for predicate, suffix in _REPEATS:
        inner = g.value(node, predicate)
        if inner is not None:
            if suffix == "+":
                # p/p*, not p+: the same nodes, but Virtuoso 7.2 answers p+ from a bound
                # node without that node when a cycle leads back to it (tests/test_pushdown).
                step = path_text(g, inner)
                return f"({step}/({step})*)"
            return f"({path_text(g, inner)}){suffix}"
    inverse = g.value(node, SH.inversePath)
    if inverse is not None:
        return f"^({path_text(g, inverse)})"
    alternative = g.value(node, SH.alternativePath)
    if alternative is not None:
        options = g.items(alternative)
        if not options:
            raise Unsupported("an empty alternative path")
        return "(" + "|".join(path_text(g, option) for option in options) + ")"
    raise Unsupported(f"sh:path {node.value} is not a SHACL path")


def path_triples(g: Graph, subject: str, path: Node, obj: str, fresh: Callable[[], str]) -> str:
    """``subject path obj`` as graph patterns. A chain of predicates and inverse
    predicates is spelled out as triple patterns, which engines evaluate far faster
    inside EXISTS than the same property path; any other path stays a property path."""
    if isinstance(path, ox.NamedNode):
        return f"{subject} {path} {obj} ."
    inverse = g.value(path, SH.inversePath)
    if isinstance(inverse, ox.NamedNode) and not is_list(g, path):
        return f"{obj} {inverse} {subject} ."
    if is_list(g, path):
        steps = g.items(path)
        if steps and all(_simple_step(g, step) for step in steps):
            nodes = [subject] + [fresh() for _ in steps[:-1]] + [obj]
            return " ".join(
                path_triples(g, a, step, b, fresh)
                for a, step, b in zip(nodes, steps, nodes[1:], strict=False)
            )
    return f"{subject} {path_text(g, path)} {obj} ."


def _simple_step(g: Graph, step: Node) -> bool:
    return isinstance(step, ox.NamedNode) or (
        not is_list(g, step) and isinstance(g.value(step, SH.inversePath), ox.NamedNode)
    )


def exists_value(g: Graph, subject: str, path: Node, fresh: Callable[[], str]) -> str:
    """EXISTS a value of ``path`` from ``subject``. A chain of steps becomes nested
    EXISTS, one step each, which keeps engines from joining the whole chain first."""
    steps = g.items(path) if is_list(g, path) else [path]
    if len(steps) > 1 and all(_simple_step(g, step) for step in steps):
        return _exists_steps(g, subject, steps, fresh)
    return f"EXISTS {{ {path_triples(g, subject, path, fresh(), fresh)} }}"


def _exists_steps(g: Graph, subject: str, steps: list[Node], fresh: Callable[[], str]) -> str:
    if len(steps) == 1:
        return f"EXISTS {{ {path_triples(g, subject, steps[0], fresh(), fresh)} }}"
    middle = fresh()
    return (
        f"EXISTS {{ {path_triples(g, subject, steps[0], middle, fresh)} "
        f"FILTER ({_exists_steps(g, middle, steps[1:], fresh)}) }}"
    )


def copy_path(
    source: rdflib.Graph, node: rdflib.term.Node, target: rdflib.Graph
) -> rdflib.term.Node:
    """The path ``node`` of the rdflib graph ``source`` copied into ``target`` as SHACL
    reads it (a list node keeps only its list), for a result's ``sh:resultPath``."""
    from rdflib import RDF as RDF_
    from rdflib import BNode, URIRef

    if not isinstance(node, BNode):
        return node
    if node == RDF_.nil or (node, RDF_.first, None) in source:
        for p in (RDF_.first, RDF_.rest):
            for o in source.objects(node, p):
                target.add((node, p, copy_path(source, o, target)))
        return node
    for form in (SH.inversePath, SH.alternativePath, *(p for p, _ in _REPEATS)):
        predicate = URIRef(form.value)
        for o in source.objects(node, predicate):
            target.add((node, predicate, copy_path(source, o, target)))
    return node
