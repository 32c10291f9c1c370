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
from .sparql_rewrite import joined
from .vocabulary import SH
from .vocabulary import Term as Node

if TYPE_CHECKING:
    import rdflib

_REPEATS = ((SH.zeroOrMorePath, "*"), (SH.oneOrMorePath, "+"), (SH.zeroOrOnePath, "?"))
#: The most steps of a sequence path written out step by step (a triple pattern, or a
#: nested EXISTS, each). pyoxigraph plans a join in time and memory quadratic in its
#: length and by recursion as deep: a 3,000-step path crashed ``check`` (SIGSEGV), a
#: longer one aborted at 3.9 GB. A longer sequence is one pattern (``_whole_sequence``).
SPELLED_OUT_STEPS = 16


def is_list(g: Graph, node: Node) -> bool:
    return g.is_list(node)


def path_text(g: Graph, node: Node, bound: bool = False) -> str:
    """The SPARQL 1.1 property path for the SHACL path ``node``. A ``sh:oneOrMorePath``
    is ``p/(p)*``, the form Virtuoso 7.2 answers right, or with ``bound`` ``(p)+``, which
    pyoxigraph walks from the node it starts at (see ``_one_or_more``)."""
    if isinstance(node, ox.NamedNode):
        return str(node)
    if is_list(g, node):
        steps = g.items(node)
        if not steps:
            raise Unsupported("an empty sequence path")
        if len(steps) > SPELLED_OUT_STEPS:
            return _whole_sequence([path_text(g, step, bound) for step in steps])
        return "(" + "/".join(path_text(g, step, bound) for step in steps) + ")"
    for predicate, suffix in _REPEATS:
        inner = g.value(node, predicate)
        if inner is not None:
            if suffix == "+" and not bound:
                return _one_or_more(path_text(g, inner, bound))
            return f"({path_text(g, inner, bound)}){suffix}"
    inverse = g.value(node, SH.inversePath)
    if inverse is not None:
        return f"^({path_text(g, inverse, bound)})"
    alternative = g.value(node, SH.alternativePath)
    if alternative is not None:
        options = g.items(alternative)
        if not options:
            raise Unsupported("an empty alternative path")
        return "(" + "|".join(path_text(g, option, bound) for option in options) + ")"
    raise Unsupported(f"sh:path {node.value} is not a SHACL path")


def _whole_sequence(steps: list[str]) -> str:
    """The sequence of the property paths ``steps`` in a form no engine splits into a
    join of one triple pattern a step (SPARQL's algebra splits a sequence at the top of
    a pattern): the alternative of itself (the same nodes, once each), the sequence
    grouped in a balanced tree of parentheses (a flat one is planned and walked by
    recursion as deep as it is long)."""
    sequence = joined(steps, "/", "")
    return f"({sequence}|{sequence})"


def _one_or_more(step: str) -> str:
    """``step`` one or more times, as ``step/(step)*``: the same nodes as ``(step)+``, but
    Virtuoso 7.2 answers p+ from a bound node without that node when a cycle leads back
    to it (tests/test_pushdown). Not pyoxigraph's form: a sequence at the top of a pattern
    is split (``pattern_path``), and its ``(step)*`` walked from every node of the graph."""
    return f"({step}/({step})*)"


def pattern_path(g: Graph, node: Node, bound: bool = False) -> str:
    """``path_text`` for the path of one triple pattern; with ``bound``, in a form
    pyoxigraph walks from the node the pattern starts at.

    SPARQL's algebra splits a sequence at the top of a pattern (``?s a/b* ?o``) into a
    join on a fresh variable (``?s a ?m . ?m b* ?o``), and pyoxigraph hash-joins a ``*``
    path rather than walk it from a node bound by the join (its zero-length match would
    otherwise hold a node of no triple): it walks ``b*`` from every node of the graph,
    each pair of a long list's closure (n*n/2 for an rdf:rest list of n), at every
    evaluation (in an EXISTS, every focus node). So with ``bound`` such a sequence is
    written as the alternative of itself, which the algebra keeps whole and pyoxigraph
    walks from the start, its alternatives a set (the same nodes, once each)."""
    text = path_text(g, node, bound)
    if bound and not _long_sequence(g, node) and _split_with_walk(g, node):
        return f"({text}|{text})"
    return text


def _long_sequence(g: Graph, node: Node) -> bool:
    """Whether ``node`` is a sequence path written whole (``_whole_sequence``)."""
    return is_list(g, node) and len(g.items(node)) > SPELLED_OUT_STEPS


def _split_with_walk(g: Graph, node: Node) -> bool:
    """Whether SPARQL's algebra splits the path ``node`` at the top of a pattern into a
    join holding a step that is not a predicate (or its inverse)."""
    steps = _top_steps(g, node)
    return len(steps) > 1 and not all(isinstance(step, ox.NamedNode) for step in steps)


def _top_steps(g: Graph, node: Node) -> list[Node]:
    """The steps SPARQL's algebra splits the path ``node`` into (through sequences,
    inverses and alternatives of one path, in no particular order): the path itself
    where it is no sequence."""
    if isinstance(node, ox.NamedNode):
        return [node]
    if is_list(g, node) and not _long_sequence(g, node):
        return [step for item in g.items(node) for step in _top_steps(g, item)]
    if any(g.value(node, predicate) is not None for predicate, _ in _REPEATS):
        return [node]
    inverse = g.value(node, SH.inversePath)
    if inverse is not None:
        return _top_steps(g, inverse)
    alternative = g.value(node, SH.alternativePath)
    options = g.items(alternative) if alternative is not None else []
    return _top_steps(g, options[0]) if len(options) == 1 else [node]


def path_triples(
    g: Graph,
    subject: str,
    path: Node,
    obj: str,
    fresh: Callable[[], str],
    bound: bool = False,
) -> str:
    """``subject path obj`` as graph patterns. A chain of predicates and inverse
    predicates is spelled out as triple patterns, which engines evaluate far faster
    inside EXISTS than the same property path; any other path stays a property path
    (``bound``: see ``pattern_path``)."""
    if isinstance(path, ox.NamedNode):
        return f"{subject} {path} {obj} ."
    inverse = g.value(path, SH.inversePath)
    if isinstance(inverse, ox.NamedNode) and not is_list(g, path):
        return f"{obj} {inverse} {subject} ."
    if is_list(g, path) and not _long_sequence(g, path):
        steps = g.items(path)
        if steps and all(_simple_step(g, step) for step in steps):
            nodes = [subject] + [fresh() for _ in steps[:-1]] + [obj]
            return " ".join(
                path_triples(g, a, step, b, fresh, bound)
                for a, step, b in zip(nodes, steps, nodes[1:], strict=False)
            )
    return f"{subject} {pattern_path(g, path, bound)} {obj} ."


def _simple_step(g: Graph, step: Node) -> bool:
    return isinstance(step, ox.NamedNode) or (
        not is_list(g, step) and isinstance(g.value(step, SH.inversePath), ox.NamedNode)
    )


def exists_value(
    g: Graph, subject: str, path: Node, fresh: Callable[[], str], bound: bool = False
) -> str:
    """EXISTS a value of ``path`` from ``subject``. A chain of steps becomes nested
    EXISTS, one step each, which keeps engines from joining the whole chain first."""
    steps = g.items(path) if is_list(g, path) and not _long_sequence(g, path) else [path]
    if len(steps) > 1 and all(_simple_step(g, step) for step in steps):
        return _exists_steps(g, subject, steps, fresh)
    return f"EXISTS {{ {path_triples(g, subject, path, fresh(), fresh, bound)} }}"


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
