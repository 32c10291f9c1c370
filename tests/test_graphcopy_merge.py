"""graphcopy.merge_into_memory_store adds a graph's triples to a union as ``+=`` does:
the same Memory store state, index orders included (rdflib's SPARQL engine answers in
the order it reads them), on the reference engine's own unions."""

from __future__ import annotations

from rdflib import RDF, RDFS, BNode, Graph, Literal, URIRef

from anthology_kg.graphcopy import add_graph, copy_memory_store, merge_into_memory_store
from anthology_kg.loader import load_anthology
from anthology_kg.resources import bundled_dir

_STATE = (
    "_Memory__spo",
    "_Memory__pos",
    "_Memory__osp",
    "_Memory__tripleContexts",
)


def _ordered(value: object) -> object:
    """A nested dict as nested lists of its items, in order (dict == ignores order)."""
    if isinstance(value, dict):
        return [(key, _ordered(inner)) for key, inner in value.items()]
    return value


def _state(graph: Graph) -> tuple:
    """The store's indexes and context bookkeeping, ``graph``'s own context named "own"."""
    from rdflib.plugins.stores.memory import Memory

    fresh = vars(graph.store)
    own = Memory._Memory__ctx_to_str(graph.store, graph)  # type: ignore[attr-defined]

    def named(name: str | None) -> str | None:
        return "own" if name == own else name

    defaults = fresh["_Memory__defaultContexts"] or {}
    return (
        tuple(_ordered(fresh[name]) for name in _STATE),
        [(named(name), quoted) for name, quoted in defaults.items()],
        {named(name): triples for name, triples in fresh["_Memory__contextTriples"].items()},
    )


def _unions(first: Graph, *others: Graph) -> tuple[Graph, Graph]:
    """``first`` copied (``copy_memory_store``, as ``add_graph`` does), then ``others``
    merged and added by ``+=``."""
    merged, added = Graph(), Graph()
    assert copy_memory_store(first, into=merged)
    assert copy_memory_store(first, into=added)
    for other in others:
        assert merge_into_memory_store(other, into=merged)
        added += other
    return merged, added


def test_a_merge_leaves_the_store_as_adding_one_by_one_does():
    shared = BNode("b1")
    first, second = Graph(), Graph()
    first.add((URIRef("urn:a"), RDF.type, RDFS.Class))
    first.add((URIRef("urn:a"), RDFS.label, Literal("a")))
    first.add((shared, RDFS.comment, Literal("1", datatype=RDFS.Literal)))
    second.add((URIRef("urn:a"), RDFS.label, Literal("a")))  # in both
    second.add((URIRef("urn:a"), RDFS.label, Literal("a", lang="en")))
    second.add((shared, RDFS.seeAlso, URIRef("urn:a")))
    second.add((URIRef("urn:c"), RDF.type, RDFS.Class))
    merged, added = _unions(first, second)
    assert _state(merged) == _state(added)
    assert len(merged) == len(added) == 6
    assert set(merged) == set(added)


def test_the_reference_engines_union_is_the_one_adding_one_by_one_makes():
    anthology = load_anthology(bundled_dir())
    parts = [anthology.graph(part) for part in ("data", "ontology", "shapes")]
    merged, added = _unions(*parts)
    assert _state(merged) == _state(added)
    union = anthology.union(shapes=True)
    assert list(union.triples((None, RDF.type, None))) == list(
        added.triples((None, RDF.type, None))
    )


def test_a_store_with_other_contexts_is_merged_one_by_one():
    into = Graph()
    into.add((URIRef("urn:a"), RDF.type, RDFS.Class))
    into.store.add((URIRef("urn:b"), RDF.type, RDFS.Class), Graph(identifier=URIRef("urn:g")))
    other = Graph()
    other.add((URIRef("urn:c"), RDF.type, RDFS.Class))
    assert not merge_into_memory_store(other, into=into)
    add_graph(other, into=into)
    assert (URIRef("urn:c"), RDF.type, RDFS.Class) in into


def test_the_reference_engines_unions_take_the_fast_paths(monkeypatch):
    """Every part of the engine's unions is copied or merged by index, never added one
    triple at a time: a change of rdflib (or of how the union is made) that sends it to
    ``+=`` would give the same triples, only ~5 times slower, and nothing else would say."""
    anthology = load_anthology(bundled_dir())

    def refused(self, other):
        raise AssertionError("a union part was added one triple at a time")

    monkeypatch.setattr(Graph, "__iadd__", refused)
    union = anthology.union(shapes=True)
    parts = [set(anthology.graph(part)) for part in ("data", "ontology", "shapes")]
    assert set(union) == set.union(*parts)
