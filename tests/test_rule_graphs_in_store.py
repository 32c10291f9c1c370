"""The Oxigraph engine copies the rule graphs (ontology, shapes, vocabulary) into its
store as they are asked for: a validation without inference copies none (it lends the
vocabulary's triples to the data graph), unless a shape's query may read a named graph
(``GRAPH``, ``FROM``), which then sees every rule graph; a query of several parts reads
one graph merged from the rules' own triples, a rule part queried alone is copied in."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import own_shapes, run_cli

from anthology_kg.engine import open_engine
from anthology_kg.fast import DATA as GRAPH_DATA
from anthology_kg.fast import ONTOLOGY, SHAPES, VOCABULARY
from anthology_kg.validation import validate

DATA = "@prefix ex: <http://example.org/> .\nex:a ex:p 1 .\n"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
PREFIXES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://example.org/> .\n"
    "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
)


def test_a_validation_copies_no_rule_graph_nor_a_query_of_several_parts(tmp_path):
    shapes = (
        PREFIXES
        + "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
        + "  sh:property [ sh:path ex:p ; sh:maxCount 1 ] .\n"
    )
    args = own_shapes(tmp_path, shapes, DATA)
    engine = open_engine("fast", root=tmp_path, extra_shapes=[tmp_path / "s.ttl"], validates=True)
    assert validate(engine).results == []
    assert engine._rules_in_store == set()
    # Several parts: one merged graph made from the rules' triples, no rule graph copied;
    # the ontology's and the shapes' triples are there all the same.
    seen = "SELECT (COUNT(*) AS ?n) WHERE { ?s a ?class } GROUP BY ?class ORDER BY ?class"
    several = engine.select(seen, parts=("data", "ontology", "shapes"))
    assert engine._rules_in_store == set()
    # One rule part alone is queried in place: copied then.
    alone = engine.select(
        "SELECT ?class WHERE { ?class a owl:Class }".replace(
            "owl:Class", "<http://www.w3.org/2002/07/owl#Class>"
        ),
        parts=("ontology",),
    )
    assert engine._rules_in_store == {ONTOLOGY} and alone
    # The same counts as the union, as a set, of the graphs copied in (the old way).
    store = open_engine("fast", root=tmp_path, extra_shapes=[tmp_path / "s.ttl"]).store
    union = {
        (q.subject, q.predicate, q.object)
        for graph in (GRAPH_DATA, ONTOLOGY, SHAPES, VOCABULARY)
        for q in store.quads_for_pattern(None, None, None, graph)
    }
    counted = Counter(o for _, p, o in union if p.value == RDF_TYPE)
    assert [int(n.value) for (n,) in several] == [counted[c] for c in sorted(counted, key=str)]
    assert run_cli(*args).exit_code == 0


#: A shape's query reading a named graph: the shapes graph ($shapesGraph), and any graph
#: (the ontology's rdfs:comment, which neither the data nor the vocabulary holds).
READING_NAMED_GRAPHS = {
    "shapes graph": "GRAPH $shapesGraph { ?shape <http://www.w3.org/ns/shacl#targetNode> $this }",
    "any graph": "GRAPH ?g { ?class <http://www.w3.org/2000/01/rdf-schema#comment> ?said }",
}


@pytest.mark.parametrize("name", READING_NAMED_GRAPHS)
def test_a_shape_reading_a_named_graph_sees_it(tmp_path, name):
    shapes = PREFIXES + (
        'ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:select """'
        f"SELECT $this WHERE {{ {READING_NAMED_GRAPHS[name]} }}"
        '""" ] .\n'
    )
    result = run_cli(*own_shapes(tmp_path, shapes, DATA))
    assert result.exit_code == 1, result.output
    assert "1 violation(s)" in result.output
