"""A SPARQL syntax error inside an OPTIONAL, MINUS, GRAPH, a sub-SELECT or an EXISTS is
placed within it, at the clause at fault, alike on both engines: rdflib's grammar placed
it at the outer construct's opening (pyparsing reports the alternative it backtracked
to: the OPTIONAL keyword, the sub-SELECT's brace, the FILTER of the EXISTS), which the
reference engine said and the fast engine took where pyoxigraph's own place was the end
of the text; and a text whose group is not closed was placed on a line it has not."""

from __future__ import annotations

import pytest
from conftest import ENGINES, run_cli, sparql_refused

#: A clause neither parser reads, and no common mistake (sparql_text.common_mistake).
BAD = "FILTER(regex(?r))"

#: (the text, the line and column of the error: the FILTER of BAD)
INNER = [
    ("SELECT * WHERE {\n  ?s ?p ?o .\n  OPTIONAL {\n    ?s ?q ?r " + BAD + "\n  }\n}\n", 4, 14),
    ("SELECT * WHERE {\n  ?s ?p ?o .\n  MINUS {\n    ?s ?q ?r " + BAD + "\n  }\n}\n", 4, 14),
    ("SELECT * WHERE {\n  GRAPH ?g {\n    ?s ?q ?r " + BAD + "\n  }\n}\n", 3, 14),
    (
        "SELECT * WHERE {\n  ?s ?p ?o .\n  { SELECT ?s WHERE {\n    ?s ?q ?r "
        + BAD
        + "\n  } }\n}\n",
        4,
        14,
    ),
    (
        "SELECT * WHERE {\n  ?s ?p ?o .\n  FILTER EXISTS {\n    ?s ?q ?r " + BAD + "\n  }\n}\n",
        4,
        14,
    ),
    (
        "SELECT * WHERE {\n  ?s ?p ?o .\n  FILTER NOT EXISTS {\n    ?s ?q ?r " + BAD + "\n  }\n}\n",
        4,
        14,
    ),
    (  # two deep, and the error's group followed by a triple pattern
        "SELECT * WHERE {\n  OPTIONAL {\n    ?s ?p ?o .\n    OPTIONAL {\n      ?s ?q ?r "
        + BAD
        + "\n    }\n  }\n}\n",
        5,
        16,
    ),
    (  # pyoxigraph's place: the line of the OPTIONAL's '}'
        "SELECT * WHERE {\n  ?s ?p ?o .\n  OPTIONAL {\n    ?s ?q ?r LIMIT 3\n  }\n}\n",
        4,
        14,
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "line", "column"), INNER)
def test_an_error_in_an_inner_group_is_placed_within_it(anthology, engine, text, line, column):
    said = sparql_refused(engine, text)
    assert said.startswith(f"<stdin>:{line}: SPARQL syntax error at column {column}: ")


def test_the_reference_parser_places_an_unclosed_group_on_a_line_the_text_has():
    from anthology_kg.rdflib_sparql import syntax_error_place

    assert syntax_error_place("ASK {\n ?s ?p ?o\n") == (2, 10)  # (was 3:1, past the end)
    assert syntax_error_place("ASK {\n ?s ?p ?o\n\n  \n") == (2, 10)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unclosed_group_is_said_at_the_last_line_the_text_has(anthology, engine):
    result = run_cli("sparql", "-", "--engine", engine, input="ASK {\n ?s ?p ?o\n")
    assert result.exit_code == 2
    assert result.stderr == (
        "<stdin>:2: SPARQL syntax error at column 10: "
        "the text ends where the '{' of line 1, column 5 is open: a '}' is missing\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * WHERE { ?s ?p <http://ex.org/a%zz> }",
        "SELECT * WHERE { ?s ?p <http://ex.org/a%zz> } LIMIT 1",
    ],
)
def test_pyoxigraph_s_place_before_a_brace_stays_where_rdflib_finds_no_fault(anthology, text):
    """pyoxigraph places the ill-formed IRI after it, before the '}': rdflib's grammar
    reads the text whole, so pyoxigraph's place is kept (not the end of the text)."""
    result = run_cli("sparql", "-", input=text)
    assert result.exit_code == 2
    assert result.stderr == (
        "<stdin>:1: SPARQL syntax error at column 44: expected IRI parsing failed\n"
    )
