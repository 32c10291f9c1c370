"""A read-only shapes graph on pyoxigraph terms: the few lookups the compiler makes.

The triples are read once (from a pyoxigraph store's named graph, or converted from an
rdflib graph) into two indexes, by subject and by object: the compiler asks thousands
of small questions, which a dictionary answers faster than a store's pattern lookup.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .vocabulary import RDF, Term

if TYPE_CHECKING:
    from rdflib import Graph


class ShapesGraph:
    """The triples of a shapes graph, looked up by subject and predicate or by object."""

    def __init__(self, triples: Iterable[tuple[Term, ox.NamedNode, Term]]) -> None:
        # The objects of a subject and predicate as the keys of a dict: in the order read,
        # and each found again at once (a shape of 16,000 sh:property values: a list
        # searched for each took 3 s to read).
        self._out: dict[Term, dict[ox.NamedNode, dict[Term, None]]] = {}
        self._in: dict[Term, list[tuple[Term, ox.NamedNode]]] = {}
        for s, p, o in triples:
            objects = self._out.setdefault(s, {}).setdefault(p, {})
            if o not in objects:
                objects[o] = None
                self._in.setdefault(o, []).append((s, p))

    @classmethod
    def of_store(cls, store: ox.Store, graph: ox.NamedNode) -> ShapesGraph:
        """The named graph ``graph`` of ``store``."""
        return cls(
            (q.subject, q.predicate, q.object)  # type: ignore[misc]
            for q in store.quads_for_pattern(None, None, None, graph)
        )

    @classmethod
    def of_rdflib(cls, graph: Graph) -> ShapesGraph:
        """The triples of the rdflib graph ``graph``, blank nodes keeping their labels."""
        from ..terms import to_ox

        return cls((to_ox(s), to_ox(p), to_ox(o)) for s, p, o in graph)

    def __iter__(self) -> Iterator[tuple[Term, ox.NamedNode, Term]]:
        for s, by_predicate in self._out.items():
            for p, objects in by_predicate.items():
                for o in objects:
                    yield s, p, o

    def objects(self, subject: Term, predicate: ox.NamedNode) -> list[Term]:
        """The objects of ``subject predicate ?o``, in the order first read."""
        return list(self._out.get(subject, {}).get(predicate, ()))

    def value(self, subject: Term, predicate: ox.NamedNode) -> Term | None:
        """One object of ``subject predicate ?o`` (the first read), or None."""
        objects = self._out.get(subject, {}).get(predicate)
        return next(iter(objects)) if objects else None

    def predicates(self, subject: Term) -> list[ox.NamedNode]:
        """The predicates of ``subject``'s triples."""
        return list(self._out.get(subject, {}))

    def subjects(self, predicate: ox.NamedNode | None, obj: Term | None = None) -> list[Term]:
        """The distinct subjects of ``?s predicate obj`` (None: any), in the order read."""
        if obj is not None:
            found = (s for s, p in self._in.get(obj, ()) if predicate is None or p == predicate)
        else:
            assert predicate is not None
            found = (s for s, by_predicate in self._out.items() if predicate in by_predicate)
        return list(dict.fromkeys(found))

    def has(self, subject: Term, predicate: ox.NamedNode, obj: Term | None = None) -> bool:
        """Whether ``subject predicate obj`` (None: any object) is a triple."""
        objects = self._out.get(subject, {}).get(predicate, ())
        return bool(objects) if obj is None else obj in objects

    def is_list(self, node: Term) -> bool:
        """Whether ``node`` is an RDF list (rdf:nil, or a node with an rdf:first)."""
        return node == RDF.nil or self.has(node, RDF.first)

    def items(self, node: Term) -> list[Term]:
        """The members of the RDF list ``node``, in order (a cycle ends the list)."""
        members, seen = [], set()
        while node != RDF.nil and node not in seen:
            seen.add(node)
            first = self.value(node, RDF.first)
            if first is not None:
                members.append(first)
            rest = self.value(node, RDF.rest)
            if rest is None:
                break
            node = rest
        return members
