"""A BIND in a nested group joins with the outer group's row as SPARQL 1.1 joins
solutions (18.2.2, 18.5: incompatible ones give none), on both engines: the reference
engine (rdflib's lazy join) kept the outer value over the BIND's, so the BIND filtered
nothing and two BINDs of different values gave a row. So does a sub-SELECT, its own
variables its own (18.2.1): rdflib evaluated it with the outer row bound."""

from __future__ import annotations

import pytest
from conftest import answered_alike, own_shapes, validated_alike

RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
#: (a query, what both engines answer: tab-separated, no header)
QUERIES = {
    "two groups": ("SELECT * WHERE { { BIND(1 AS ?x) } { BIND(2 AS ?x) } }", ""),
    "a BIND, then a group": ("SELECT * WHERE { BIND(1 AS ?x) { BIND(2 AS ?x) } }", ""),
    "the same value": ("SELECT * WHERE { BIND(1 AS ?x) { BIND(1 AS ?x) } }", "1\n"),
    "a sub-SELECT's": ("SELECT * WHERE { BIND(1 AS ?x) { SELECT (2 AS ?x) {} } }", ""),
    "an unbound left": (
        "SELECT ?x WHERE { OPTIONAL { BIND(1 AS ?y) } { BIND(2 AS ?x) } }",
        "2\n",
    ),
    "an OPTIONAL's BIND": (
        "SELECT ?x ?n WHERE { VALUES ?x {1 2} OPTIONAL { BIND(2 AS ?x) BIND(4 AS ?n) } }"
        " ORDER BY ?x",
        "1\t\n2\t4\n",
    ),
    "a sub-SELECT's own variable": (
        "SELECT ?x ?n WHERE { VALUES ?x {1 2} { SELECT (COUNT(*) AS ?n)"
        " WHERE { VALUES ?x {1 2 3} } } } ORDER BY ?x",
        "1\t3\n2\t3\n",
    ),
    "a sub-SELECT's in an OPTIONAL": (
        "SELECT ?x ?n WHERE { VALUES ?x {1 2} OPTIONAL { SELECT (COUNT(*) AS ?n)"
        " WHERE { VALUES ?x {1 2 3} } } } ORDER BY ?x",
        "1\t3\n2\t3\n",
    ),
    "a sub-SELECT's projected variable": (
        "SELECT ?x ?n WHERE { VALUES ?x {1 2} { SELECT ?x (COUNT(*) AS ?n)"
        " WHERE { VALUES ?x {2 2 3} } GROUP BY ?x } } ORDER BY ?x",
        "2\t2\n",
    ),
}


@pytest.mark.parametrize("case", QUERIES, ids=list(QUERIES))
def test_a_nested_bind_joins(case):
    text, rows = QUERIES[case]
    printed = answered_alike("sparql", "-", "--format", "tsv", input=text)
    assert printed.split("\n", 1)[1] == rows


def test_a_nested_bind_of_a_bound_predicate_keeps_its_triples():
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o %s }"
    bound = answered_alike("sparql", "-", input=count % f"{{ BIND({RDF_TYPE} AS ?p) }}")
    typed = answered_alike("sparql", "-", input=count % f"FILTER(?p = {RDF_TYPE})")
    everything = answered_alike("sparql", "-", input=count % "")
    assert bound == typed != everything


def test_a_shapes_nested_bind_joins(tmp_path):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix ex: <http://ex.org/> .\n"
        'ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:sparql [ sh:message "got {?value}" ;'
        ' sh:select """SELECT $this ?value WHERE { $this ?p ?value'
        ' { BIND(<http://ex.org/q> AS ?p) } }""" ] .\n'
    )
    data = "<http://ex.org/a> <http://ex.org/p> 1 ; <http://ex.org/q> 2 .\n"
    printed = validated_alike(*own_shapes(tmp_path, shapes, data), "--format", "json")
    assert '"got 2"' in printed and '"got 1"' not in printed, printed
