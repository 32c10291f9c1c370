"""Content labels of blank nodes never depend on the labels the parser gave: graphs
that differ only in their blank-node labels are written the same, also when two blank
nodes are alike to the hashed depth (``bnodes._DEPTH``) and differ only beyond it."""

from __future__ import annotations

import random

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef

from anthology_kg.bnodes import _DEPTH, ox_stable_labels, relabel, stable_labels

EX = "http://example.org/"

#: Triples with blank nodes named by strings; each test names them in several ways.
Shape = list[tuple[str, str, object]]


def _chains(ends: tuple[int, int]) -> Shape:
    """Two chains of blank nodes under ``ex:s``, alike for ``_DEPTH + 2`` links and
    ending in different values, so that their heads hash alike."""
    triples: Shape = []
    for chain, end in zip("ab", ends, strict=True):
        triples.append(("ex:s", "p", f"{chain}0"))
        for link in range(_DEPTH + 2):
            triples.append((f"{chain}{link}", "next", f"{chain}{link + 1}"))
        triples.append((f"{chain}{_DEPTH + 2}", "value", end))
    return triples


def _cycles(sizes: tuple[int, ...]) -> Shape:
    """Cycles of blank nodes (``p`` links), every node hanging from ``ex:hub``: colour
    refinement cannot tell a six-cycle's nodes from two three-cycles' ones."""
    triples: Shape = []
    for index, size in enumerate(sizes):
        for step in range(size):
            triples.append((f"c{index}_{step}", "p", f"c{index}_{(step + 1) % size}"))
            triples.append(("ex:hub", "has", f"c{index}_{step}"))
    return triples


def _names(shape: Shape) -> list[str]:
    found = {t for s, _, o in shape for t in (s, o) if isinstance(t, str) and ":" not in t}
    return sorted(found)


def _rdflib(shape: Shape, labels: dict[str, str]) -> Graph:
    def term(value: object) -> BNode | URIRef | Literal:
        if isinstance(value, str) and value.startswith("ex:"):
            return URIRef(EX + value[3:])
        if isinstance(value, str):
            return BNode(labels[value])
        return Literal(value)

    graph = Graph()
    for s, p, o in shape:
        graph.add((term(s), URIRef(EX + p), term(o)))
    return graph


def _oxigraph(shape: Shape, labels: dict[str, str]) -> list[tuple]:
    def term(value: object) -> ox.BlankNode | ox.NamedNode | ox.Literal:
        if isinstance(value, str) and value.startswith("ex:"):
            return ox.NamedNode(EX + value[3:])
        if isinstance(value, str):
            return ox.BlankNode(labels[value])
        return ox.Literal(
            str(value), datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
        )

    return [(term(s), ox.NamedNode(EX + p), term(o)) for s, p, o in shape]


def _relabelled_text(graph: Graph) -> str:
    return "".join(sorted(f"{s.n3()} {p.n3()} {o.n3()} .\n" for s, p, o in relabel(graph)))


def _labellings(shape: Shape, count: int) -> list[dict[str, str]]:
    """``count`` labellings of the shape's blank nodes: in name order, in reverse
    order, then shuffled (seeded), so the parser's label order is each way round."""
    names = _names(shape)
    orders = [names, names[::-1]]
    rng = random.Random(20261204)
    while len(orders) < count:
        orders.append(rng.sample(names, len(names)))
    return [{name: f"n{index:03d}" for index, name in enumerate(order)} for order in orders]


def _assert_label_free(shape: Shape, count: int = 8) -> str:
    texts = set()
    by_ox = set()
    for labels in _labellings(shape, count):
        graph = _rdflib(shape, labels)
        texts.add(_relabelled_text(graph))
        # pyoxigraph's triples get the labels rdflib's graph gets
        found = {k.value: v.value for k, v in ox_stable_labels(_oxigraph(shape, labels)).items()}
        assert found == {str(k): str(v) for k, v in stable_labels(graph).items()}
        by_ox.add(tuple(sorted(found.values())))
    assert len(texts) == 1, texts
    assert len(by_ox) == 1
    return texts.pop()


def test_chains_alike_to_the_hashed_depth_get_the_same_labels_in_either_parse_order():
    text = _assert_label_free(_chains((1, 2)))
    heads = {
        line.split()[2] for line in text.splitlines() if line.startswith("<http://example.org/s>")
    }
    assert len(heads) == 2 and all(head.endswith(("x0", "x1")) for head in heads)


def test_blank_nodes_told_apart_only_by_what_points_at_them_get_stable_labels():
    shape: Shape = [
        ("ex:s", "p", "a"),
        ("ex:s", "p", "b"),
        ("a", "value", 1),
        ("b", "value", 1),
    ]
    # a and b alike in content and in context to any depth but one: the deep chains
    # pointing at each (through "points") differ only at their far end
    for name, end in (("a", 1), ("b", 2)):
        previous = name
        for link in range(_DEPTH + 2):
            shape.append((f"{name}{link}", "points", previous))
            previous = f"{name}{link}"
        shape.append((previous, "value", end))
    _assert_label_free(shape)


def test_interchangeable_blank_nodes_give_one_text_whichever_gets_which_label():
    """Blank nodes no depth tells apart (an automorphism swaps them): any order of
    their labels writes the same text."""
    shape: Shape = [("ex:s", "p", name) for name in "abcd"]
    shape += [(name, "value", 1) for name in "abcd"]
    text = _assert_label_free(shape, count=24)
    assert text.count("x3 <http://example.org/value>") == 1


def test_graphs_colour_refinement_cannot_split_still_get_label_free_text():
    """A six-cycle and two three-cycles of blank nodes under one IRI: every node hashes
    alike and refines alike, yet the six-cycle's nodes are not interchangeable with the
    three-cycles' ones."""
    text = _assert_label_free(_cycles((6, 3, 3)), count=12)
    assert text.count("x11 <http://example.org/p>") == 1


def test_labels_without_ties_are_the_content_hash_alone():
    shape: Shape = [("ex:s", "p", "a"), ("a", "value", 1), ("ex:s", "p", "b"), ("b", "value", 2)]
    labels = stable_labels(_rdflib(shape, {"a": "a", "b": "b"}))
    assert all(len(str(label)) == 17 and "x" not in str(label) for label in labels.values())


def test_chains_alike_to_their_ends_are_interchangeable_in_any_parse_order():
    _assert_label_free(_chains((1, 1)), count=16)
