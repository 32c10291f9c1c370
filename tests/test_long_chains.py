"""Long chains a query or a shape may hold: pyoxigraph plans a join in time that grows with
the cube of its length or faster and by recursion as deep (a 3,000-step ``sh:path`` crashed
``check``), so a long sequence path compiles to one pattern, a query joining more than
MAX_PATTERNS triple patterns in one group is refused (exit 2), and the shapes' syntax
rules bind each focus node once (a shape of n property shapes cost n*n)."""

from __future__ import annotations

import shutil

import pyoxigraph as ox
import pytest
from conftest import REPO, run_cli
from rdflib import Graph

from anthology_kg.shacl import Compiler, run_compiled, store_select
from anthology_kg.shacl.paths import SPELLED_OUT_STEPS
from anthology_kg.shacl.syntax import _FOCUS, _rules, syntax_results
from anthology_kg.sparql_text import (
    MAX_PATTERNS,
    most_patterns,
    nesting_depth,
    too_deep,
)

_SH = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"


def _path_shape(steps: str) -> Graph:
    return Graph().parse(
        data=_SH + "<urn:S> a sh:NodeShape ; sh:targetSubjectsOf <urn:i> ; sh:property "
        f"[ sh:path ( {steps} ) ; sh:minCount 1 ; sh:maxCount 1 ] .\n",
        format="turtle",
    )


@pytest.mark.parametrize("bound_paths", [False, True])
def test_a_long_sequence_path_is_one_pattern_not_a_join(bound_paths):
    """3,000 steps were 3,000 triple patterns joined (and, for sh:minCount, 3,000 nested
    EXISTS): a segfault in pyoxigraph. Now a few patterns, shallow, and no guard refuses."""
    steps = " ".join("<urn:p>" if i % 2 else "[ sh:inversePath <urn:q> ]" for i in range(3000))
    compiled = Compiler(_path_shape(steps), bound_paths=bound_paths).compile()
    assert max(most_patterns(c.sparql) for c in compiled) <= 8
    assert max(nesting_depth(c.sparql) for c in compiled) <= 40  # log2(3,000): 12 levels
    assert [too_deep(c.sparql) for c in compiled] == [None] * len(compiled)


@pytest.mark.parametrize("bound_paths", [False, True])
def test_a_long_sequence_path_finds_what_the_short_one_does(bound_paths):
    """urn:i is the identity (a loop on every node): p / i x SPELLED_OUT_STEPS / ^i / p,
    written whole, has the values of p / p, spelled out: n0 two (maxCount 1), n3 none."""
    identity = ["<urn:i>"] * SPELLED_OUT_STEPS + ["[ sh:inversePath <urn:i> ]"]
    store, data = ox.Store(), ox.NamedNode("urn:data")
    p, i = ox.NamedNode("urn:p"), ox.NamedNode("urn:i")
    nodes = [ox.NamedNode(f"urn:n{k}") for k in range(4)]
    for a, b in ((0, 1), (1, 2), (1, 3), (2, 0)):
        store.add(ox.Quad(nodes[a], p, nodes[b], data))
    for node in nodes:
        store.add(ox.Quad(node, i, node, data))
    found = []
    for steps in (["<urn:p>", *identity, "<urn:p>"], ["<urn:p>", "<urn:p>"]):
        compiled = Compiler(_path_shape(" ".join(steps)), bound_paths=bound_paths).compile()
        rows = run_compiled(store_select(store, [data], ox_terms=True), compiled)
        found.append(sorted((str(r.focus), str(r.source_constraint_component)) for r in rows))
    assert found[0] == found[1]
    assert [focus for focus, _ in found[0]] == ["<urn:n0>", "<urn:n3>"]


@pytest.mark.parametrize(
    ("text", "patterns"),
    [
        ("SELECT * WHERE { ?s <urn:p> ?o . ?o <urn:p> ?x . ?x <urn:p> ?y }", 3),
        ("SELECT * WHERE { ?s <urn:p> ?o ; <urn:q> ?x , ?y . }", 3),
        ("SELECT * WHERE { ?s <urn:p> 1.5 . { ?s <urn:q> ?o . } FILTER (f(?s, ?o)) }", 2),
        ('SELECT * WHERE { ?s <urn:p> "a . b ; c" . } # . ; ,', 1),  # strings and comments
        ("SELECT * WHERE { VALUES (?a ?b) { (1 2) (3 4) } ?a <urn:p> ?b }", 1),
        # groups within a group are joined with it; a UNION's, an OPTIONAL's are not
        ("SELECT * WHERE { { ?a :p ?b . ?b :p ?c } { ?c :p ?d . ?d :p ?e } ?e :p ?f }", 5),
        ("SELECT * WHERE { ?a :p ?b . { ?b :p ?c . { ?c :p ?d . ?d :p ?e } } }", 4),
        ("SELECT * WHERE { { ?a :p ?b . ?b :p ?c } UNION { ?c :p ?d . ?d :p ?e } }", 2),
        ("SELECT * WHERE { ?a :p ?b . OPTIONAL { ?b :p ?c . ?c :p ?d } }", 2),
        ("SELECT * WHERE { ?a :p ?b FILTER NOT EXISTS { ?b :p ?c . ?c :p ?d } }", 2),
        ("CONSTRUCT { ?a :p ?b . ?b :p ?c . ?c :p ?d } WHERE { ?a :p ?b }", 1),
        # the last pattern of a group, which needs no end; one-pattern groups joined;
        # a sequence path's steps, which the algebra joins (read-through of 6420525)
        ("SELECT * WHERE { { ?a :p ?b } { ?b :p ?c } { ?c :p ?d } }", 3),
        ("SELECT * WHERE { ?a :p/:q/:r ?b . ?b (:p/:q)* ?c }", 4),
        ("SELECT * WHERE { ?s :q [ :p ?o ] }", 2),
    ],
)
def test_the_patterns_of_one_group_are_counted_by_what_ends_them(text, patterns):
    assert most_patterns(text) == patterns


def test_a_large_values_block_is_no_chain():
    values = " ".join(f'"v{k}"' for k in range(50_000))
    assert too_deep(f"SELECT ?v WHERE {{ VALUES ?v {{ {values} }} ?s ?p ?v . }}") is None


def test_a_query_joining_patterns_past_the_limit_is_exit_2_not_minutes(tmp_path):
    """1,000 chained triple patterns planned for 30-50 s, 2,000 ran to the 300 s timeout."""
    length = MAX_PATTERNS + 1
    query = tmp_path / "chain.rq"
    chain = " ".join(f"?v{k} <urn:p> ?v{k + 1} ." for k in range(length))
    query.write_text(f"SELECT ?v0 WHERE {{ {chain} }}\n", encoding="utf-8")
    result = run_cli("sparql", str(query))
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert (
        f"{query}: the query joins {length} triple patterns in one group; "
        f"at most {MAX_PATTERNS} are planned" in result.stderr
    )


def test_a_shape_query_joining_patterns_past_the_limit_is_refused_at_its_line(tmp_path):
    root = tmp_path / "a"
    shutil.copytree(REPO / "tests" / "fixtures" / "minimal" / "data", root / "data")
    (root / "ontology" / "shapes").mkdir(parents=True)
    chain = " ".join(f"?v{k} <urn:p> ?v{k + 1} ." for k in range(MAX_PATTERNS))
    (root / "ontology" / "shapes" / "mine.ttl").write_text(
        _SH + "<urn:S> a sh:NodeShape ; sh:targetNode <urn:x> ;\n"
        f'  sh:sparql [ sh:select "SELECT $this WHERE {{ $this <urn:p> ?v0 . {chain} }}" ] .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "check")
    assert result.exit_code == 2, result.output
    assert "mine.ttl:3:" in result.stderr
    assert f"it joins {MAX_PATTERNS + 1} triple patterns in one group" in result.stderr


def test_the_syntax_rules_bind_each_focus_node_once():
    """A node with n values of a sh:targetSubjectsOf (a shape with n sh:property) was a
    focus node n times of SHACL-SHACL's ShapeShape, whose sh:xone pyoxigraph tested on
    each before dropping the repeats: 16,000 property shapes took 68 s. A rule shape
    named by an IRI reads them from the focus graph, one triple each, put there by a
    DISTINCT query of its targets that tests nothing."""
    _, compiled, _, focus_queries = _rules(None)
    given = f"GRAPH <{_FOCUS.value}>"
    ungrouped = [c for c in compiled if "} GROUP BY ?this }" not in c.sparql]
    assert ungrouped and all(given in c.sparql for c in ungrouped)
    assert all(
        query.startswith("SELECT DISTINCT ?this WHERE {") and "FILTER" not in query
        for _, query in focus_queries
    )


def test_a_shape_of_many_property_shapes_gives_the_one_syntax_row():
    counts = ['"x"' if k == 150 else "1" for k in range(300)]
    properties = ",\n ".join(
        f"[ sh:path <urn:p{k}> ; sh:maxCount {count} ]" for k, count in enumerate(counts)
    )
    text = _SH + f"<urn:S> a sh:NodeShape ; sh:targetClass <urn:C> ;\n sh:property {properties} .\n"
    triples = [(q.subject, q.predicate, q.object) for q in ox.parse(text, ox.RdfFormat.TURTLE)]
    rows = syntax_results(triples)
    assert [(row.path, row.value) for row in rows] == [
        (ox.NamedNode("http://www.w3.org/ns/shacl#maxCount"), ox.Literal("x"))
    ]


@pytest.mark.parametrize(
    "body",
    [
        # one pattern a group: no "." ends any (read-through of 6420525: counted 0)
        " ".join(f"{{ ?v{k} <urn:p> ?v{k + 1} }}" for k in range(MAX_PATTERNS + 1)),
        # one pattern, a path of as many steps, which the algebra joins step by step
        "?v0 " + "/".join(["<urn:p>"] * (MAX_PATTERNS + 1)) + " ?v1",
    ],
    ids=["one-pattern groups", "a long sequence path"],
)
def test_joins_written_without_dots_count_too(tmp_path, body):
    query = tmp_path / "joins.rq"
    query.write_text(f"SELECT ?v0 WHERE {{ {body} }}\n", encoding="utf-8")
    result = run_cli("sparql", str(query))
    assert result.exit_code == 2, result.output
    assert f"at most {MAX_PATTERNS} are planned" in result.stderr
