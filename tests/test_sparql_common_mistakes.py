"""A SPARQL text with a common mistake is refused in words at the mistake's place, alike
on both engines (sparql_text.common_mistake): `sparql -` of 'SELECT * WHERE { ?s ?p }'
said 'expected one of LATERAL, SERVICE, [_]' on the fast engine and 'Expected
SelectQuery' on the reference engine, words that say nothing of a triple pattern lacking
its object; 'expected OPTIONAL' for a missing '.', a misspelt keyword or a FILTER
without parentheses."""

from __future__ import annotations

import pytest
from conftest import ENGINES, own_shapes, run_cli, sparql_refused

from anthology_kg.resources import bundled_dir

#: (the text, what is said, line, column)
MISTAKES = [
    ("SELECT * WHERE { ?s ?p }", "the triple pattern '?s ?p' lacks its object", 1, 18),
    ("SELECT * WHERE { ?s ?p . }", "the triple pattern '?s ?p' lacks its object", 1, 18),
    (
        "PREFIX ak: <https://w3id.org/anthology-kg/ns#>\n"
        "SELECT * WHERE {\n  ?s ?p ?o .\n  ?s ak:p\n}",
        "the triple pattern '?s ak:p' lacks its object",
        4,
        3,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o OPTIONAL { ?s ?q } }",
        "the triple pattern '?s ?q' lacks its object",
        1,
        38,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER NOT EXISTS {\n ?s ?q } }",
        "the triple pattern '?s ?q' lacks its object",
        2,
        2,
    ),
    ("SELECT * WHERE { ?s }", "the triple pattern '?s' has no predicate and no object", 1, 18),
    (
        "SELECT * WHERE { ?s ?p ?o ; ?q }",
        "the predicate '?q' after ';' lacks its object",
        1,
        29,
    ),
    ("SELECT * WHERE { ?s <p>/<q>* ?o , }", "',' is followed by no object", 1, 33),
    (
        "SELECT * WHERE { ?s ?p ?o ?s2 ?p2 ?o2 }",
        "'?s2' follows the triple pattern '?s ?p ?o' with no '.' (or ';' or ',') between them",
        1,
        27,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o OPTINAL { ?s ?q ?r } }",
        "'OPTINAL' is no keyword of SPARQL; did you mean 'OPTIONAL'?",
        1,
        27,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o } LIMT 3",
        "'LIMT' is no keyword of SPARQL; did you mean 'LIMIT'?",
        1,
        29,
    ),
    (
        "SELECT * WHERE {\n  ?s ?p ?o . FILTER ?o > 3 }",
        "FILTER takes its condition in parentheses, FILTER(…)",
        2,
        14,
    ),
    (
        "SELECT * { ?s ?p ?o . OPTIONAL ?s ?q ?r }",
        "OPTIONAL takes a group pattern in braces, OPTIONAL { … }",
        1,
        23,
    ),
    ("SELECT * WHERE { ?s ?p ?o FILTER(?o >= ) }", "'>=' lacks its right operand", 1, 37),
    (
        'SELECT * WHERE { ?s ?p "abc }',
        "a string opened here is not closed on its line (one of several lines is written "
        'between """)',
        1,
        24,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER(?o > 3 }",
        "'}' where the '(' of line 1, column 33 is open: a ')' is missing before it",
        1,
        41,
    ),
    ("SELECT ?s WHERE { ?s ?p ?o }}", "this '}' closes nothing opened", 1, 29),
    (
        "ASK {\n ?s ?p ?o\n",  # (at the end of the last line the text has)
        "the text ends where the '{' of line 1, column 5 is open: a '}' is missing",
        2,
        10,
    ),
    (
        "SELECT ?s, ?p WHERE { ?s ?p ?o }",
        "the variables a SELECT projects are separated by blanks, not commas",
        1,
        10,
    ),
    (
        "SELECT (COUNT(?s) ?n) WHERE { ?s ?p ?o }",
        "an expression a SELECT projects is written (expression AS ?name): its AS ?name is missing",
        1,
        8,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER(?o > 3 3) }",
        "'3' follows '3' with no operator (or ',') between them",
        1,
        41,
    ),
    (
        'SELECT * WHERE { ?s ?p ?o FILTER(regex(?o "x")) }',
        "'\"x\"' follows '?o' with no operator (or ',') between them",
        1,
        43,
    ),
    (
        "SELECT * WHERE {\n  OPTIONAL {\n    ?s ?q ?r LIMIT 3\n  }\n}",
        "LIMIT is a solution modifier: it follows the '}' closing a query's or a sub-SELECT's "
        "WHERE clause, not a pattern",
        3,
        14,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o . ORDER BY ?s }",
        "ORDER is a solution modifier: it follows the '}' closing a query's or a sub-SELECT's "
        "WHERE clause, not a pattern",
        1,
        29,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o } ORDER ?s",
        "ORDER is followed by BY: ORDER BY and what it orders by",
        1,
        29,
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "said", "line", "column"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_common_mistake_is_said_at_its_place_on_both_engines(
    anthology, engine, text, said, line, column
):
    said_there = f"<stdin>:{line}: SPARQL syntax error at column {column}: {said}\n"
    assert sparql_refused(engine, text) == said_there


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stored_query_s_mistake_is_at_its_file_and_line(anthology, engine):
    (anthology / "queries").mkdir(exist_ok=True)
    (anthology / "queries" / "broken.rq").write_text(
        "#+ summary: Broken\nSELECT ?e WHERE {\n  ?e a ?t .\n  ?e <urn:x:title>\n}\n",
        encoding="utf-8",
    )
    result = run_cli("query", "broken", "--engine", engine)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "queries/broken.rq:4: SPARQL syntax error at column 3: "
        "the triple pattern '?e <urn:x:title>' lacks its object\n"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shape_s_select_mistake_is_said_at_its_line_of_the_select(tmp_path, engine):
    shapes = (
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "@prefix ex: <http://ex.org/> .\n"
        "ex:S a sh:NodeShape ; sh:targetNode ex:a ;\n"
        '  sh:sparql [ sh:select """SELECT $this WHERE {\n  $this ?p ?o .\n  $this ?q\n}""" ] .\n'
    )
    args = own_shapes(tmp_path, shapes, "<http://ex.org/a> <http://ex.org/p> 1 .\n")
    result = run_cli(*args, "--engine", engine)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.endswith(
        "sh:select: not a SPARQL SELECT query: at line 3, column 3: "
        "the triple pattern '$this ?q' lacks its object (a syntax rule of SHACL)\n"
    ), result.stderr


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * WHERE { ?s ?p ?o FILTER(?o -1 > 0) }",  # (?o - 1)
        "SELECT * WHERE { ?s ?p ?o FILTER(?o<?a&&?b>?s) }",  # (<?a&&?b> no IRI)
        "SELECT * WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 3",
        "SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } LIMIT 3 } }",
    ],
)
def test_no_mistake_is_found_in_a_good_text(text):
    from anthology_kg.sparql_text import common_mistake

    assert common_mistake(text) is None


def test_no_mistake_is_found_in_the_bundled_queries_and_shapes():
    """The reader says nothing of a text the parsers take: the bundled queries and the
    SPARQL of the bundled shapes (the W3C SPARQL 1.0, 1.1 and 1.2 test suites' 1,136
    query texts pyoxigraph takes were read too, with none found)."""
    from rdflib import Graph
    from rdflib.namespace import SH

    from anthology_kg.sparql_text import common_mistake

    texts = [path.read_text(encoding="utf-8") for path in (bundled_dir() / "queries").glob("*.rq")]
    shapes = Graph()
    for path in (bundled_dir() / "ontology").rglob("*.ttl"):
        shapes.parse(path)
    texts += [str(o) for p in (SH.select, SH.ask) for o in shapes.objects(None, p)]
    assert len(texts) > 20
    assert [t for t in texts if common_mistake(t) is not None] == []
