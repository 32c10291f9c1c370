"""A query that is no SPARQL though each token is (a SELECT of a variable its GROUP BY
leaves unbound) is refused with the parser's own reason, not the first 120 characters of
the dozen lines of tokens it would have taken in its place (hunt18 #10)."""

from __future__ import annotations

import pytest
from conftest import run_cli


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "SELECT ?x WHERE { ?s ?p ?x } GROUP BY (?x + 1)",
            "the SELECT contains a variable that is unbound",
        ),
        ("SELECT * WHERE { ?s ?p ?o } GROUP BY ?s", "SELECT * is not authorized with GROUP BY"),
    ],
)
def test_the_parsers_reason_is_said(tmp_path, text, reason):
    query = tmp_path / "q.rq"
    query.write_text(text + "\n", encoding="utf-8")
    result = run_cli("sparql", str(query))
    assert result.exit_code == 2, result.output
    # (no line: pyoxigraph's position is the end of the text, an empty line here)
    assert result.stderr == f"{query}: SPARQL syntax error: {reason}\n"


def test_a_list_of_tokens_is_still_said_as_a_list(tmp_path):
    query = tmp_path / "q.rq"
    # (not a brace left open, nor LIMIT x, which sparql_text.common_mistake says in words)
    query.write_text("SELECT ?x WHERE { ?s ?p ?x } ORDER BY ASC ?x", encoding="utf-8")
    result = run_cli("sparql", str(query))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"{query}:1: SPARQL syntax error at column 30: expected one of")
