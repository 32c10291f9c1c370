"""A query with a prefix no PREFIX declares and a later syntax error is refused for the
prefix, its first error, on both engines: the reference engine said rdflib's later error
(``Expected end of text``), the fast engine the prefix."""

from __future__ import annotations

import pytest
from conftest import ENGINES, run_cli

#: (a query, the line and column of its undeclared prefix)
QUERIES = {
    "a bad LIMIT": ("SELECT * WHERE { ?s ex:p ?o } LIMIT x", 1, 21),
    "an open FILTER": ("SELECT * WHERE { ?s ex:p ?o . FILTER( }", 1, 21),
    "lines apart": ("SELECT * WHERE {\n  ?s ex:p ?o\n}\nLIMIT x", 2, 6),
    "after an escape": ('SELECT * WHERE { ?s ?p "\\u0041" . ?s ex:p ?o } LIMIT x', 1, 38),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", QUERIES, ids=list(QUERIES))
def test_the_prefix_is_said_first(engine, case):
    text, line, column = QUERIES[case]
    result = run_cli("sparql", "-", "--engine", engine, input=text)
    assert (result.exit_code, result.stdout) == (2, ""), result.stderr
    assert result.stderr == (
        f"<stdin>:{line}: SPARQL syntax error at column {column}: the prefix ex: is "
        "declared by no PREFIX\n"
    )
