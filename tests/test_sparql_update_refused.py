"""An update given where a query is run is said to be one, at its keyword, alike on both
engines (hunt20 #14): pyoxigraph said 'expected CONSTRUCT' at column 10 of `DELETE
WHERE {…}`, rdflib 'Expected {SelectQuery | …}' at column 1; neither said that only
queries are run."""

from __future__ import annotations

import pytest
from conftest import ENGINES, run_cli

from anthology_kg.sparql_text import update_error

SAID = "opens a SPARQL Update, not a query: queries only are run (SELECT, ASK, CONSTRUCT, DESCRIBE)"

#: An update of each operation of SPARQL 1.1 Update's grammar, and the line its keyword is on.
UPDATES = {
    "DELETE WHERE": ("DELETE WHERE { ?s ?p ?o }", 1),
    "INSERT DATA": ("PREFIX ex: <http://ex.org/>\nINSERT DATA { ex:a ex:b ex:c }", 2),
    "DELETE DATA": ("DELETE DATA { <http://ex.org/a> <http://ex.org/b> 1 }", 1),
    "WITH": (
        "BASE <http://ex.org/>\n# a comment\nWITH <g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
        3,
    ),
    "LOAD": ("LOAD <http://ex.org/a.ttl>", 1),
    "CLEAR": ("clear all", 1),
    "DROP": ("DROP GRAPH <http://ex.org/g>", 1),
    "CREATE": ("CREATE GRAPH <http://ex.org/g>", 1),
    "ADD": ("ADD DEFAULT TO <http://ex.org/g>", 1),
    "MOVE": ("MOVE DEFAULT TO <http://ex.org/g>", 1),
    "COPY": ("COPY DEFAULT TO <http://ex.org/g>", 1),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("update", UPDATES.values(), ids=UPDATES.keys())
def test_an_update_run_as_a_query_is_said_to_be_one(nothing, engine, update):
    text, line = update
    word = text.splitlines()[line - 1].split()[0].upper()
    result = run_cli("--root", str(nothing), "sparql", "-", "--engine", engine, input=text)
    expected = f"<stdin>:{line}: SPARQL syntax error at column 1: {word} {SAID}\n"
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected)


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * WHERE { ?s ?p }",  # a query's own error
        "# DELETE WHERE { ?s ?p ?o }\nSELECT ?s WHERE { ?s ?p }",  # in a comment
        'SELECT ("DELETE" AS ?x) WHERE {',  # in a string
        "PREFIX delete: <http://ex.org/>\nSELECT * WHERE { ?s delete:p }",  # a prefix
    ],
)
def test_a_query_that_names_an_update_keyword_is_no_update(text):
    assert update_error(text) is None
