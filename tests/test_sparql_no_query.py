"""A SPARQL text that holds no query (an empty file, a query commented out, declarations
alone) is said to be one, alike on both engines (hunt22 #11): the fast engine said
'expected [_]', the reference engine 'Expected {SelectQuery | …}'."""

from __future__ import annotations

import pytest
from conftest import ENGINES, run_cli

CASES = {
    "empty": ("", "1: SPARQL syntax error at column 1", "only comments and blanks"),
    "a comment": (
        "# SELECT * { ?s ?p ?o }\n",
        "1: SPARQL syntax error at column 24",
        "only comments and blanks",
    ),
    "declarations": (
        "PREFIX ex: <http://example.org/>\nBASE <http://example.org/>\n\n# later\n",
        "4: SPARQL syntax error at column 8",
        "only PREFIX and BASE declarations",
    ),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_text_with_no_query_is_said_to_hold_none(tmp_path, engine, case):
    text, place, said = CASES[case]
    (tmp_path / "data").mkdir()  # an anthology of no entries
    query = tmp_path / "q.rq"
    query.write_text(text, encoding="utf-8")
    result = run_cli("--root", str(tmp_path), "sparql", str(query), "--engine", engine)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"{query}:{place}: no query in the text: {said}\n"


def test_a_misspelt_form_is_not_taken_for_no_query(tmp_path):
    (tmp_path / "data").mkdir()
    result = run_cli("--root", str(tmp_path), "sparql", "-", input="SELEC * WHERE { ?s ?p ?o }")
    assert result.exit_code == 2 and "no query in the text" not in result.stderr
