"""`query NAME` reads NAME's file alone: a malformed stored query of another name does
not stop it, while `queries`, which lists every header, reports that file."""

from __future__ import annotations

import pytest
from conftest import run_cli

BROKEN = "b.rq:1: the header has no '#+ summary:' line"


@pytest.fixture
def anthology(bundled_copy):
    queries = bundled_copy / "queries"
    queries.mkdir()
    (queries / "a.rq").write_text(
        "#+ summary: every entry's identifier\n"
        "PREFIX dcterms: <http://purl.org/dc/terms/>\n"
        'SELECT ?id WHERE { ?e dcterms:identifier ?id FILTER(?id = "LIT-168") }\n',
        encoding="utf-8",
    )
    (queries / "b.rq").write_text("SELECT * WHERE { ?s ?p ?o }\n", encoding="utf-8")
    return bundled_copy


@pytest.mark.parametrize("name", ["a", "confounders"])
def test_a_broken_other_query_does_not_stop_this_one(anthology, name):
    result = run_cli("--root", str(anthology), "query", name)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    if name == "a":
        assert "LIT-168" in result.stdout


def test_the_broken_query_itself_is_reported(anthology):
    result = run_cli("--root", str(anthology), "query", "b")
    assert result.exit_code == 2
    assert result.stderr.endswith(f"{BROKEN}\n")


def test_the_listing_reads_every_header(anthology):
    result = run_cli("--root", str(anthology), "queries")
    assert result.exit_code == 2
    assert result.stderr.endswith(f"{BROKEN}\n")


def test_an_unknown_name_lists_the_broken_one_too(anthology):
    result = run_cli("--root", str(anthology), "query", "c")
    assert result.exit_code == 2
    assert "no stored query 'c'; known: a, b, " in result.stderr
