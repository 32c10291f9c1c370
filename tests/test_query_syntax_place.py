"""A stored query's SPARQL syntax error is placed at a line the file has (hunt21 #11):
pyoxigraph's position for most errors is where it stopped reading, the end of the text,
so ``query broken`` said ``broken.rq:6`` of a 5-line file (the reference engine: line
4). Where the fast engine's place is the end of the text, the reference parser's is
given, as written (a tab one column, as pyoxigraph counts); a place in the text stays
pyoxigraph's."""

from __future__ import annotations

import re

import pytest
from conftest import ENGINES, run_cli

BROKEN = "#+ summary: Broken\nSELECT ?e WHERE {\n  ?e ?p ?a\n  FILTER(?a = )\n}\n"


def _place(stderr: str) -> tuple[str, int, int]:
    found = re.match(r"(.*):(\d+): SPARQL syntax error at column (\d+): ", stderr)
    assert found is not None, stderr
    return found[1], int(found[2]), int(found[3])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stored_query_error_is_at_a_line_of_the_file(anthology, engine):
    (anthology / "queries").mkdir(exist_ok=True)
    (anthology / "queries" / "broken.rq").write_text(BROKEN, encoding="utf-8")
    result = run_cli("query", "broken", "--engine", engine)
    assert result.exit_code == 2 and result.stdout == ""
    assert _place(result.stderr) == ("queries/broken.rq", 4, 13)  # FILTER's '=', alone
    assert result.stderr.endswith(": '=' lacks its right operand\n")


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("SELECT * WHERE { ?s ?p ?o . ?s ?p }\n", 1, 29),  # the triple with no object
        ("SELECT * WHERE {\n\t?s ?p ?o . ?s ?p }", 2, 13),  # a tab is one column
        ("SELECT ?e WHERE {\n  ?e ?p ?o .\n} LIMT 3\n", 3, 3),  # pyoxigraph: 3:9, the end
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_the_place_is_in_the_text_on_both_engines(anthology, engine, text, line, column):
    result = run_cli("sparql", "-", "--engine", engine, input=text)
    assert result.exit_code == 2
    assert _place(result.stderr) == ("<stdin>", line, column)


def test_a_place_in_the_text_is_pyoxigraph_s_and_rdflib_is_not_read(anthology, monkeypatch):
    """pyoxigraph's place before the end of the text is said as it is (the typo after
    LIMIT, at the 'x'), and rdflib's grammar (~1 s) is not run for it."""
    from anthology_kg import rdflib_sparql

    def place(text):
        raise AssertionError(f"the reference parser was asked about {text!r}")

    monkeypatch.setattr(rdflib_sparql, "syntax_error_place", place)
    result = run_cli("sparql", "-", input="SELECT * WHERE { ?s ?p ?o } LIMIT x\n")
    assert result.exit_code == 2
    assert _place(result.stderr) == ("<stdin>", 1, 35)
