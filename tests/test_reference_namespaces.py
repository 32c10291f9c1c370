"""anthology_kg.reference_shacl: while pySHACL runs, rdflib's ``Graph.query`` reads a
graph's prefixes once for as long as its store binds the same ones (``_namespaces``):
the prefixes a query is given are the graph's own, also after a prefix is bound anew,
and rdflib's ``Graph.query`` is its own again afterwards."""

from __future__ import annotations

from rdflib import Graph, Literal, URIRef

from anthology_kg.reference_shacl import _namespaces, _parsed_queries_cached

QUERY = "SELECT ?o WHERE { ?s ex:p ?o }"


def test_a_query_reads_the_graphs_prefixes_as_they_are_bound_now():
    query = Graph.query
    graph = Graph()
    graph.add((URIRef("urn:a#s"), URIRef("urn:a#p"), Literal("a")))
    graph.add((URIRef("urn:b#s"), URIRef("urn:b#p"), Literal("b")))
    with _parsed_queries_cached():
        assert Graph.query is not query
        for namespace, value in (("urn:a#", "a"), ("urn:b#", "b"), ("urn:a#", "a")):
            graph.bind("ex", namespace, override=True, replace=True)
            assert _namespaces(graph) == dict(graph.namespaces())
            assert list(graph.namespaces()) == list(_namespaces(graph).items())
            assert [row[0] for row in graph.query(QUERY)] == [Literal(value)]
        # Prefixes given to the query are the ones it reads.
        given = {"ex": URIRef("urn:b#")}
        assert [row[0] for row in graph.query(QUERY, initNs=given)] == [Literal("b")]
    assert Graph.query is query
