"""`queries` refuses a stored query whose text does not parse, at its file and line, as
`query NAME` and `site` do: it listed it and exited 0, saying nothing, where both of
those then refused it (exit 2)."""

from __future__ import annotations

import pytest
from conftest import run_cli

BROKEN = "#+ summary: Broken\nSELECT * WHERE {\n  ?s ?p\n}\n"
SAID = (
    "queries/broken.rq:3: SPARQL syntax error at column 3: "
    "the triple pattern '?s ?p' lacks its object\n"
)


@pytest.mark.parametrize("fmt", [(), ("--format", "json")], ids=["text", "json"])
def test_a_query_that_does_not_parse_is_refused_at_its_line(anthology, fmt):
    (anthology / "queries").mkdir(exist_ok=True)
    (anthology / "queries" / "broken.rq").write_text(BROKEN, encoding="utf-8")
    listed = run_cli("queries", *fmt)
    assert (listed.exit_code, listed.stdout, listed.stderr) == (2, "", SAID)
    ran = run_cli("query", "broken")
    assert (ran.exit_code, ran.stderr) == (2, SAID)


def test_a_query_taking_parameters_is_parsed_with_them_unbound(anthology):
    (anthology / "queries").mkdir(exist_ok=True)
    text = "#+ summary: Broken\nSELECT * WHERE {\n  ?_x ?p ?o . FILTER(?o = )\n}\n"
    (anthology / "queries" / "broken.rq").write_text(text, encoding="utf-8")
    listed = run_cli("queries")
    assert listed.exit_code == 2
    assert listed.stderr == (
        "queries/broken.rq:3: SPARQL syntax error at column 25: '=' lacks its right operand\n"
    )


def test_the_bundled_queries_and_a_service_call_are_listed(anthology):
    """A query calling SERVICE is listed, not parsed: parsing runs it, which would call
    the service (here a port nothing listens on: a call would fail the listing)."""
    (anthology / "queries").mkdir(exist_ok=True)
    text = (
        "#+ summary: Remote\nSELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }\n"
    )
    (anthology / "queries" / "remote.rq").write_text(text, encoding="utf-8")
    listed = run_cli("queries")
    assert listed.exit_code == 0, listed.stderr
    names = [line.split("\t")[0] for line in listed.stdout.splitlines()]
    assert "remote" in names and "depends-on" in names and "unread" in names
