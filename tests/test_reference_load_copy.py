"""The reference engine's ontology and shapes: parsed once per process, each load given
its own copy (ruleset._copy), filled by copying rdflib's Memory store indexes when it can
and triple by triple otherwise. Either way the copy holds the same triples and prefixes,
answers every lookup as a graph filled by ``add`` does, and shares nothing mutable.
The data files are parsed into one graph (``parse_turtle(..., into=)``), not each into
its own and then merged."""

from __future__ import annotations

import pytest
from rdflib import RDF, RDFS, BNode, Dataset, Graph, Literal, URIRef

from anthology_kg.errors import AnthologyError
from anthology_kg.graphcopy import copy_memory_store
from anthology_kg.loader import load_anthology
from anthology_kg.resources import bundled_dir
from anthology_kg.ruleset import _copy, _rule_graphs, load_rules, parse_turtle

NEW = (URIRef("urn:test:new"), RDFS.label, Literal("added"))


def _cached(which: int) -> Graph:
    """The process's cached rule graph (ontology 0, shapes 1) the copies are made of."""
    from anthology_kg.ruleset import _cached_rule_graphs, _RuleFiles

    rules = load_rules(bundled_dir())
    files = _RuleFiles.read(rules.ontology_file, rules.shape_files, rules.base)
    assert files is not None
    return _cached_rule_graphs(files)[which]


def _added_one_by_one(graph: Graph) -> Graph:
    out = Graph(bind_namespaces="none")
    for prefix, namespace in graph.namespaces():
        out.namespace_manager.bind(prefix, namespace, override=True, replace=True)
    for triple in graph:
        out.add(triple)
    return out


def _lookups(graph: Graph) -> dict:
    """Every single-term lookup of ``graph`` (by subject, predicate, object), as sets."""
    terms = {term for triple in graph for term in triple}
    return {
        (position, term): set(
            graph.triples(tuple(term if i == position else None for i in range(3)))  # type: ignore[arg-type]
        )
        for position in range(3)
        for term in terms
    }


@pytest.mark.parametrize("which", [0, 1], ids=["ontology", "shapes"])
def test_the_rule_graphs_are_copied_through_the_store_indexes(which):
    source = _cached(which)
    assert copy_memory_store(source, into=Graph())
    copy, expected = _copy(source), _added_one_by_one(source)
    assert len(copy) == len(expected) == len(source) > 0
    assert set(copy) == set(expected)
    assert sorted(copy.namespaces()) == sorted(expected.namespaces())
    assert _lookups(copy) == _lookups(expected)
    assert set(copy.store.contexts()) == {copy}
    assert {c for t in copy for c in copy.store.contexts(t)} == {copy}
    assert copy.serialize(format="turtle") == expected.serialize(format="turtle")
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    assert list(copy.query(query)) == list(expected.query(query))


@pytest.mark.parametrize("which", [0, 1], ids=["ontology", "shapes"])
def test_a_copy_and_its_source_change_apart(which):
    source = _cached(which)
    before = set(source)
    copy, other = _copy(source), _copy(source)
    victim = next(iter(copy))
    copy.add(NEW)
    copy.remove(victim)
    assert set(source) == before and set(other) == before
    assert set(copy) == (before - {victim}) | {NEW}
    assert set(copy.triples((NEW[0], None, None))) == {NEW}
    assert victim not in set(copy.triples((None, victim[1], None)))
    assert victim not in set(copy.triples((None, None, victim[2])))
    assert NEW not in source and NEW not in other and victim in other
    copy.remove((None, None, None))
    assert len(copy) == 0 and set(source) == before
    copy.add(victim)
    assert set(copy) == {victim}


def test_each_reference_load_has_its_own_ontology_and_shapes():
    first, second = load_anthology(bundled_dir()), load_anthology(bundled_dir())
    first.ontology.add(NEW)
    first.shapes.add(NEW)
    assert NEW not in second.ontology and NEW not in second.shapes
    assert set(second.ontology) == set(_cached(0)) and set(second.shapes) == set(_cached(1))
    again = _rule_graphs(first.rules.ontology_file, first.rules.shape_files, first.rules.base)
    assert NEW not in again[0] and NEW not in again[1]


def test_a_graph_sharing_its_store_is_copied_triple_by_triple():
    dataset = Dataset()
    mine = dataset.graph(URIRef("urn:test:mine"))
    mine.add(NEW)
    dataset.graph(URIRef("urn:test:theirs")).add((BNode(), RDF.type, RDFS.Class))
    assert not copy_memory_store(mine, into=Graph())
    copy = _copy(mine)
    assert set(copy) == {NEW}
    copy.add((NEW[0], RDF.type, RDFS.Resource))
    assert set(mine) == {NEW}


def test_a_graph_in_another_store_is_copied_triple_by_triple():
    other = Graph(store="SimpleMemory")
    other.add(NEW)
    assert not copy_memory_store(other, into=Graph())
    assert set(_copy(other)) == {NEW}


def test_an_empty_graph_copies_empty():
    empty = Graph()
    assert copy_memory_store(empty, into=Graph())
    copy = _copy(empty)
    assert len(copy) == 0
    copy.add(NEW)
    assert set(copy) == {NEW} and len(empty) == 0


def test_parse_turtle_adds_to_the_graph_it_is_given(tmp_path):
    first, second = tmp_path / "a.ttl", tmp_path / "b.ttl"
    first.write_text('<urn:a> <urn:p> "1" , <urn:b> .\n', encoding="utf-8")
    second.write_text("<urn:b> <urn:p> <urn:a> .\n<urn:a> <urn:p> <urn:b> .\n", encoding="utf-8")
    graph = Graph()
    graph.add(NEW)
    returned, text = parse_turtle(first, into=graph)
    assert returned is graph and text == first.read_text(encoding="utf-8")
    parse_turtle(second, into=graph)
    assert set(graph) == {NEW} | set(parse_turtle(first)[0]) | set(parse_turtle(second)[0])
    assert len(graph) == 4


def test_a_data_file_with_a_triple_term_is_refused_where_it_is_written(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.ttl").write_text("<urn:a> <urn:p> <urn:b> .\n", encoding="utf-8")
    bad = tmp_path / "data" / "b.ttl"
    bad.write_text("<urn:a> <urn:p> <urn:b> .\n<urn:c> <urn:p> <<( <urn:a> <urn:p> <urn:b> )>> .\n")
    with pytest.raises(AnthologyError) as raised:
        load_anthology(tmp_path)
    assert raised.value.path == bad and raised.value.line == 2


def test_a_memory_store_without_the_internals_read_is_not_index_copied(monkeypatch):
    """The index copy reads rdflib's name-mangled internals: a release without them
    gets the plain copy (``_copy`` then adds triple by triple), not an AttributeError."""
    from rdflib.plugins.stores.memory import Memory

    source = Graph()
    source.add(NEW)
    monkeypatch.delattr(Memory, "_Memory__ctx_to_str")  # (rdflib's own add needs it)
    assert not copy_memory_store(source, into=Graph())


OWN_SHAPE = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <urn:test:> .
ex:Shape a sh:NodeShape ; sh:targetClass ex:Thing ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .
"""


def test_rule_files_alike_in_two_anthologies_are_parsed_and_checked_once(tmp_path, monkeypatch):
    """Both engines' rule graphs are kept by the files' contents and base, not their paths:
    an anthology beside another with the same own shapes (or a copy of the bundled rules)
    is not parsed and syntax-checked again; one byte more is."""
    from anthology_kg import ruleset

    parsed: list[str] = []
    for name in ("_parsed_rule_triples", "_parsed_rule_graphs"):
        parse = getattr(ruleset, name)
        monkeypatch.setattr(
            ruleset, name, lambda *args, _p=parse, _n=name: parsed.append(_n) or _p(*args)
        )
    ruleset._cached_rule_triples.cache_clear()
    ruleset._cached_rule_graphs.cache_clear()
    roots = [tmp_path / name for name in ("a", "b", "c")]
    for root in roots:
        (root / "data").mkdir(parents=True)
        (root / "ontology" / "shapes").mkdir(parents=True)
        (root / "ontology" / "shapes" / "own.ttl").write_text(OWN_SHAPE, "utf-8")
    (roots[2] / "ontology" / "shapes" / "own.ttl").write_text(OWN_SHAPE + "\n", "utf-8")
    loaded = [load_rules(root) for root in roots]
    assert [(r.shape_triples, len(r.shapes)) for r in loaded[:2]] == [
        (loaded[0].shape_triples, len(loaded[0].shapes))
    ] * 2
    assert parsed == ["_parsed_rule_triples", "_parsed_rule_graphs"]
    assert loaded[2].shape_triples == loaded[0].shape_triples and len(loaded[2].shapes)
    assert parsed == ["_parsed_rule_triples", "_parsed_rule_graphs"] * 2
