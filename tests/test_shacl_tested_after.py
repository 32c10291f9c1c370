"""A SPARQL constraint of a shape on every typed node (sh:targetSubjectsOf rdf:type)
is answered once and its $this tested against the focus nodes after (FILTER EXISTS),
where the query binds $this in its WHERE group itself: the same results as the join
with the focus nodes, which every other query keeps."""

import pyoxigraph as ox
import pytest
from rdflib import Graph

from anthology_kg.shacl import Compiler, run_compiled, store_select
from anthology_kg.shacl.sparql_rewrite import binds_at_top
from anthology_kg.terms import to_ox

PREFIXES = """@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix ex: <http://example.org/> .
"""
DATA = (
    PREFIXES
    + """
ex:a a ex:A, ex:B ; ex:link ex:gone, ex:b, ex:c .
ex:b a ex:A ; ex:link ex:gone ; ex:name "b" .
ex:c ex:link ex:gone, ex:a .
ex:d ex:name "d" .
"""
)
#: Each query (the text of an sh:select) and whether it binds $this in its WHERE group.
QUERIES = {
    # rule 9's form: every value pointed at that names nothing; ex:c has no type
    "Dangling": (
        "SELECT $this ?value WHERE { $this ex:link ?value FILTER NOT EXISTS { ?value ?p ?o } }",
        True,
    ),
    # an aggregate: ex:a has two types, its links are counted once
    "Counted": (
        "SELECT $this WHERE { $this ex:link ?l } GROUP BY $this HAVING (COUNT(?l) > 2)",
        True,
    ),
    # the query's own variable has the name the renamed target's would take first
    "Clash": ("SELECT $this ?value WHERE { $this ex:link ?value . ?value ex:name ?_ts_0 }", True),
    # a nested SELECT of $this
    "Nested": (
        "SELECT $this ?value WHERE { $this ex:link ?value . "
        "{ SELECT $this (COUNT(?x) AS ?n) WHERE { $this ex:link ?x } GROUP BY $this } "
        "FILTER (?n > 1) }",
        True,
    ),
    # $this in no triple of the group itself: joined with the focus nodes as before
    "Union": ("SELECT $this WHERE { { $this ex:link ex:b } UNION { $this ex:name ?n } }", False),
    "Filtered": ("SELECT $this WHERE { FILTER ($this = ex:a) }", False),
    "Optional": (
        "SELECT $this WHERE { OPTIONAL { $this ex:name ?n } FILTER (!bound(?n)) }",
        False,
    ),
    "Bound": ("SELECT $this WHERE { BIND (ex:b AS ?x) FILTER (sameTerm($this, ?x)) }", False),
}


DECLARED = """@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:prefixes sh:declare [ sh:prefix "ex" ; sh:namespace "http://example.org/"^^xsd:anyURI ] .
"""


def _shapes() -> Graph:
    text = PREFIXES + DECLARED
    text += "".join(
        f"ex:{name} a sh:NodeShape ; sh:targetSubjectsOf rdf:type ; sh:sparql [ "
        f'sh:prefixes ex:prefixes ; sh:select """{query}""" ] .\n'
        for name, (query, _) in QUERIES.items()
    )
    return Graph().parse(data=text, format="turtle")


def _select():
    store, graph = ox.Store(), ox.NamedNode("urn:test:data")
    data = Graph().parse(data=DATA, format="turtle")
    store.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), graph) for s, p, o in data)
    return store_select(store, [graph])


def _results(rows) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {name: [] for name in QUERIES}
    for row in rows:
        found[str(row.source_shape).rsplit("/", 1)[-1]].append((str(row.focus), str(row.value)))
    return {name: sorted(pairs) for name, pairs in found.items()}


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_binds_at_top(name):
    query, binds = QUERIES[name]
    assert binds_at_top(query, "this") is binds


def test_tested_after_gives_the_joined_results():
    shapes, select = _shapes(), _select()
    joined = Compiler(shapes).compile()
    tested = Compiler(shapes, tested_after=True).compile()
    for before, after in zip(joined, tested, strict=True):
        name = str(before.shape).rsplit("/", 1)[-1]
        assert "FILTER EXISTS" not in before.sparql
        assert ("} } FILTER EXISTS {" in after.sparql) is QUERIES[name][1], name
    expected = _results(run_compiled(select, joined))
    assert _results(run_compiled(select, tested)) == expected
    # what the cases are there to show
    assert expected["Dangling"] == [
        ("http://example.org/a", "http://example.org/gone"),
        ("http://example.org/b", "http://example.org/gone"),
    ]
    assert [focus for focus, _ in expected["Counted"]] == ["http://example.org/a"]
    assert expected["Clash"] == [("http://example.org/a", "http://example.org/b")]
    # a store's compiler tests after (rule 9 of the anthology's shapes is such a query)
    assert Compiler.for_store(shapes, None, select).tested_after


def test_a_shape_on_other_targets_is_joined_as_before():
    shapes = Graph().parse(
        data=PREFIXES
        + 'ex:S a sh:NodeShape ; sh:targetClass ex:A ; sh:sparql [ sh:select """'
        + 'SELECT $this WHERE { $this <http://example.org/link> ?v }""" ] .',
        format="turtle",
    )
    (compiled,) = Compiler(shapes, tested_after=True).compile()
    assert "FILTER EXISTS" not in compiled.sparql
