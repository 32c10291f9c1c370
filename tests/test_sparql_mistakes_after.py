"""More SPARQL mistakes said in words at their place, alike on both engines (after
4508817, 75f3c17 and 111b82c): each of these texts was refused with pyoxigraph's list of
tokens it expected on the fast engine ('expected one of HAVING, OFFSET, OPTIONAL,
VALUES') and rdflib's 'Expected SelectQuery' or 'Expected end of text' on the reference
engine, mostly at other columns: a blank node's predicate lacking its object, what
follows a query's WHERE clause that is no solution modifier, a HAVING's condition
without its parentheses or with two operands side by side, a ',' with no expression
after it, LIMIT or OFFSET without a number, a query that starts with no query form.
An unclosed group is said after the last terminal, not after a comment that follows."""

from __future__ import annotations

import pytest
from conftest import ENGINES, sparql_refused

from anthology_kg.sparql_text import common_mistake

GROUPED = "SELECT ?s (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?s "
NOT_A_MODIFIER = (
    "is no solution modifier: after its WHERE clause a query has only GROUP BY, HAVING, "
    "ORDER BY, LIMIT, OFFSET and VALUES"
)
UNCLOSED = "the text ends where the '{' of line 1, column 16 is open: a '}' is missing"
NO_CONDITION = "is followed by no condition: a variable or an expression in parentheses"
ORDER = (
    "a query's solution modifiers come each once, in the order GROUP BY, HAVING, ORDER BY, "
    "LIMIT and OFFSET (in either order), VALUES"
)
NOTHING = "projects nothing: SELECT * or the variables, SELECT ?s ?o"

#: (the text, what is said, line, column)
MISTAKES = [
    (
        "SELECT * WHERE { ?s ?p [ ?q ] }",
        "the predicate '?q' of the blank node '[ ?q ]' lacks its object",
        1,
        26,
    ),
    (
        "SELECT * WHERE { [ ?q ?o ; ?r ] ?p ?o }",
        "the predicate '?r' of the blank node '[ ?q ?o ; ?r ]' lacks its object",
        1,
        28,
    ),
    (
        "SELECT * WHERE { ?s ?p [ ?q ?o ?x ] }",
        "'?x' follows '?q ?o' in the blank node '[ ?q ?o ?x ]' with no ';' (or ',') between them",
        1,
        32,
    ),
    (  # (test_sparql_inner_place's clause until this commit: placed at its FILTER, 4:14)
        "SELECT * WHERE {\n  ?s ?p ?o .\n  OPTIONAL {\n"
        '    ?s ?q ?r FILTER(regex(?r, "x",))\n  }\n}\n',
        "',' is followed by ')' with no expression between them",
        4,
        34,
    ),
    ("ASK { } true false", f"'true' {NOT_A_MODIFIER}", 1, 9),
    ("SELECT * WHERE { ?s ?p ?o } true false", f"'true' {NOT_A_MODIFIER}", 1, 29),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 3 ?o", f"'?o' {NOT_A_MODIFIER}", 1, 37),
    (
        GROUPED + "HAVING (?n > 1 2)",
        "'2' follows '1' with no operator (or ',') between them",
        1,
        74,
    ),
    (GROUPED + "HAVING 1 2", "HAVING takes its condition in parentheses, HAVING(…)", 1, 59),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER (?o IN (1, 2,)) }",
        "',' is followed by ')' with no expression between them",
        1,
        46,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER (CONCAT(?a,)) }",
        "',' is followed by ')' with no expression between them",
        1,
        44,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER (?o IN (1,, 2)) }",
        "',' follows ',' with no expression between them",
        1,
        44,
    ),
    (
        "SELECT * WHERE { VALUES ?x { 1 } } LIMIT x",
        "LIMIT takes a whole number, LIMIT 10: 'x' is none",
        1,
        42,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o }\nOFFSET",
        "OFFSET takes a whole number, OFFSET 10, and the text ends",
        2,
        7,
    ),
    (
        "VALUES ?x { 1 } LIMIT x",
        "a query starts with SELECT, CONSTRUCT, DESCRIBE or ASK (after its PREFIX and BASE "
        "declarations), not 'VALUES'",
        1,
        1,
    ),
    (
        "PREFIX ex: <http://ex.org/>\nSELEC * WHERE { ?s ?p ?o }",
        "'SELEC' is no keyword of SPARQL; did you mean 'SELECT'?",
        2,
        1,
    ),
    ("SELECT * WHERE { ?s ?p ?o } GROUP BY", f"GROUP BY {NO_CONDITION}", 1, 29),
    ("SELECT * WHERE { ?s ?p ?o } ORDER BY LIMIT 1", f"ORDER BY {NO_CONDITION}", 1, 29),
    ("SELECT * WHERE { ?s ?p ?o } LIMIT 1 LIMIT 2", f"LIMIT follows LIMIT: {ORDER}", 1, 37),
    (
        "SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s GROUP BY ?s",
        f"GROUP BY follows ORDER BY: {ORDER}",
        1,
        42,
    ),
    (
        "SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } ?x ?y ?z } }",
        "'?x' follows a sub-SELECT in its braces: a sub-SELECT is alone in its group, { SELECT … }",
        1,
        49,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o UNION { ?s ?q ?o } }",
        "UNION joins two group patterns in braces, { … } UNION { … }",
        1,
        27,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER (?o NOT IN 1, 2) }",
        "IN takes its values in parentheses, IN (…)",
        1,
        42,
    ),
    ("SELECT * WHERE { ?s ?p ?o FILTER() }", "FILTER() holds no condition", 1, 27),
    ("SELECT WHERE { ?s ?p ?o }", f"SELECT {NOTHING}", 1, 8),
    ("SELECT DISTINCT { ?s ?p ?o }", f"SELECT {NOTHING}", 1, 17),
    (
        "SELECT * WHERE { ?s ?p ?o FILTER(STRLENN(?o) > 1) }",
        "'STRLENN' is no function of SPARQL; did you mean 'STRLEN'?",
        1,
        34,
    ),
    (
        'SELECT * WHERE { ?s ?p ?o FILTER strstart(?o, "a") }',
        "'strstart' is no function of SPARQL; did you mean 'STRSTARTS'?",
        1,
        34,
    ),
    ('SELECT * WHERE { ?s ?p "x"@ }', "'@' is followed by no language tag, \"…\"@en", 1, 27),
    (
        'SELECT * WHERE { ?s ?p "x"^^ . }',
        "'^^' is followed by no datatype IRI, \"…\"^^xsd:integer",
        1,
        27,
    ),
    (
        "SELECT * WHERE { ?s ?p ?o BIND(?o AS 1) }",
        "AS names the variable bound, … AS ?name: '1' is no variable",
        1,
        38,
    ),
    ("SELECT (?o AS) WHERE { ?s ?p ?o }", "AS names the variable bound, … AS ?name", 1, 14),
    ("SELECT * WHERE {\n  ?s ?p ?o .\n  # a comment\n", UNCLOSED, 2, 13),
    ("SELECT * WHERE {\n  ?s ?p ?o . # a comment", UNCLOSED, 2, 13),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "said", "line", "column"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_the_mistake_is_said_at_its_place_on_both_engines(
    anthology, engine, text, said, line, column
):
    said_there = f"<stdin>:{line}: SPARQL syntax error at column {column}: {said}\n"
    assert sparql_refused(engine, text) == said_there


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * WHERE { ?s ?p [ ?q ?o ; ?r ?o2, ?o3 ; ] . [] ?p [ ?q [ ?r ?s ] ] }",
        "SELECT * WHERE { [ ?q ?o ] }",
        GROUPED + "HAVING (COUNT(*) > 1) STRLEN(STR(?s)) ORDER BY DESC(?n) ?s LIMIT 3 OFFSET 1 "
        "VALUES ?s { <urn:x> }",
        "SELECT ?k WHERE { ?s ?p ?o } GROUP BY (STR(?s) AS ?k) <urn:f>(?o) ORDER BY ASC(?k)",
        "SELECT * WHERE { ?s ?p ?o FILTER (?o IN (1, 2) && CONCAT(?a, ?b) != '') }",
        "SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 1 } }",
        "CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1",
        "DESCRIBE <urn:x>",
        "BASE <http://ex.org/>\nASK {} VALUES () { () }",
        "SELECT REDUCED ?s WHERE { { ?s ?p ?o } UNION { ?s ?q ?o } FILTER(?o NOT IN (1)) }",
        "SELECT ?s WHERE { ?s ?p ?o } OFFSET 2 LIMIT 1 VALUES ?s { <urn:x> }",
        "SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } LIMIT 1 VALUES ?s { <urn:x> } } }",
        'SELECT (STRLEN("a"@en-GB) AS ?n) WHERE { ?s ?p "1"^^<urn:t>, "2"^^xsd:integer '
        "FILTER(isIRI(?s) && langMatches(lang(?o), '*') && ADJUST(?d, ?z) != ?d) }",
    ],
)
def test_no_mistake_is_found_in_a_good_text(text):
    assert common_mistake(text) is None
