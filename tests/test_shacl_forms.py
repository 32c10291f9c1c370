"""The forms the compiler writes for a pyoxigraph store (Compiler.for_store: the class
hierarchy read first) give the results of the plain rdf:type/rdfs:subClassOf* form."""

from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Graph
from rdflib.namespace import SH

from anthology_kg.shacl import Compiler, Unsupported, run_compiled, store_select, validate_graphs
from anthology_kg.terms import to_ox

SUITE = Path(__file__).parent / "w3c" / "shacl-tests"


def _store(graph: Graph):
    store, data = ox.Store(), ox.NamedNode("urn:test:data")
    store.extend(ox.Quad(to_ox(s), to_ox(p), to_ox(o), data) for s, p, o in graph)
    return store_select(store, [data])


def _rows(rows) -> list[str]:
    return sorted(map(str, rows))


def test_the_store_forms_give_the_path_results_on_the_w3c_tests_with_a_hierarchy():
    cases = sorted(p for p in SUITE.rglob("*.ttl") if "subClassOf" in p.read_text("utf-8"))
    assert len(cases) >= 10
    compared = 0
    for path in cases:
        graph = Graph().parse(path, format="turtle", publicID=path.as_uri())
        select = _store(graph)
        try:
            by_path = run_compiled(select, Compiler(graph).compile())
        except Unsupported:
            continue
        by_store = run_compiled(select, Compiler.for_store(graph, None, select).compile())
        assert _rows(by_store) == _rows(by_path), path.name
        # the leaner forms of a large anthology (fast.HASH_JOINED_TARGETS_UP_TO)
        lean = Compiler.for_store(graph, None, select, path_targets=False).compile()
        assert _rows(run_compiled(select, lean)) == _rows(by_path), path.name
        compared += 1
    assert compared >= 10


SHAPES = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:Named a sh:NodeShape ; sh:targetClass ex:C ;
    sh:property [ sh:path ex:name ; sh:minCount 1 ] .
ex:Linked a sh:NodeShape ; sh:targetClass ex:Thing ;
    sh:property [ sh:path ex:link ; sh:class ex:C ] .
"""


@pytest.mark.parametrize(
    "data, focus",
    [
        # a class without subclasses: one rdf:type
        ("ex:x a ex:C .", ["http://example.org/x"]),
        # a subclass and a sub-subclass
        (
            "ex:D rdfs:subClassOf ex:C . ex:E rdfs:subClassOf ex:D . ex:x a ex:E . ex:y a ex:D .",
            ["http://example.org/x", "http://example.org/y"],
        ),
        # a blank node class below ex:C: no query can name it, the path finds it
        ("_:b rdfs:subClassOf ex:C . ex:x a _:b .", ["http://example.org/x"]),
        # ex:x typed twice within the hierarchy: one result, not two
        ("ex:D rdfs:subClassOf ex:C . ex:x a ex:C, ex:D .", ["http://example.org/x"]),
    ],
)
def test_class_targets_and_sh_class_through_the_hierarchy(data, focus):
    prefixes = "@prefix ex: <http://example.org/> .\n"
    prefixes += "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    graph = Graph().parse(
        data=prefixes + data + "\nex:t a ex:Thing ; ex:link ex:x .", format="turtle"
    )
    shapes = Graph().parse(data=SHAPES, format="turtle")
    conforms, report = validate_graphs(graph, shapes)
    assert not conforms
    found = sorted(
        str(report.value(r, SH.focusNode))
        for r in report.subjects(SH.sourceConstraintComponent, SH.MinCountConstraintComponent)
    )
    assert found == focus
    # ex:t links to ex:x, an instance of ex:C in every case: sh:class holds
    assert (None, SH.sourceConstraintComponent, SH.ClassConstraintComponent) not in report


TWICE = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:Counted a sh:NodeShape ; sh:targetSubjectsOf ex:type ;
    sh:sparql [ sh:select \"\"\"
        SELECT $this WHERE { $this <http://example.org/link> ?link }
        GROUP BY $this HAVING (COUNT(?link) > 1)
    \"\"\" ] .
ex:Dangling a sh:NodeShape ; sh:targetSubjectsOf ex:type ;
    sh:sparql [ sh:select \"\"\"
        SELECT $this ?value WHERE { $this <http://example.org/link> ?value
            FILTER NOT EXISTS { ?value ?p ?o } }
    \"\"\" ] .
ex:Named a sh:NodeShape ; sh:targetSubjectsOf ex:type ;
    sh:property [ sh:path ex:name ; sh:minCount 1 ; sh:maxCount 1 ] .
"""


def test_a_focus_node_bound_twice_by_its_target_gives_each_result_once():
    """ex:x is a subject of ex:type twice: the target binds it twice where the query's
    answer is a set (no DISTINCT over every focus node), once where an aggregate counts."""
    data = Graph().parse(
        data="@prefix ex: <http://example.org/> .\n"
        "ex:x ex:type ex:A, ex:B ; ex:link ex:gone ; ex:name 'a', 'b' .",
        format="turtle",
    )
    shapes = Graph().parse(data=TWICE, format="turtle")
    queries = {
        (str(c.shape).rsplit("/", 1)[-1], str(c.component).rsplit("#", 1)[-1]): c.sparql
        for c in Compiler(shapes).compile()
    }
    assert "SELECT DISTINCT ?this WHERE" in queries["Counted", "SPARQLConstraintComponent"]
    assert "SELECT DISTINCT ?this WHERE" not in queries["Dangling", "SPARQLConstraintComponent"]
    rows = run_compiled(_store(data), Compiler(shapes).compile())
    # one ex:link: counted once, not twice as it would be by a focus node joined twice
    assert not [r for r in rows if str(r.source_shape) == "http://example.org/Counted"]
    dangling = [r for r in rows if str(r.source_shape) == "http://example.org/Dangling"]
    assert [(str(r.focus), str(r.value)) for r in dangling] == [
        ("http://example.org/x", "http://example.org/gone")
    ]
    too_many = [
        r
        for r in rows
        if str(r.source_constraint_component).endswith("MaxCountConstraintComponent")
    ]
    assert [str(r.focus) for r in too_many] == ["http://example.org/x"]


EXISTS_IN_PROJECTION = """
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/> .
ex:Unnamed a sh:NodeShape ; sh:targetSubjectsOf ex:type ;
    sh:sparql [ sh:select \"\"\"
        SELECT $this (EXISTS { $this <http://example.org/link> ?any } AS ?linked)
        WHERE { <http://example.org/flag> <http://example.org/is> "on" }
    \"\"\" ] .
"""


def test_the_focus_nodes_are_bound_in_the_where_clause_not_in_the_projection():
    """The focus nodes' VALUES block goes into the WHERE clause (SHACL 5.2.2: $this is
    pre-bound in the whole query): put into the first group written, the projection's
    EXISTS, it left the WHERE clause without it, and a WHERE clause that does not name
    $this then answered with $this unbound (fixquery's note on where_group)."""
    data = Graph().parse(
        data="@prefix ex: <http://example.org/> .\nex:flag ex:is 'on' .\n"
        "ex:a ex:type ex:A .\nex:b ex:type ex:A ; ex:link ex:x .",
        format="turtle",
    )
    shapes = Graph().parse(data=EXISTS_IN_PROJECTION, format="turtle")
    rows = run_compiled(_store(data), Compiler(shapes).compile())
    assert sorted(str(r.focus) for r in rows) == ["http://example.org/a", "http://example.org/b"]
