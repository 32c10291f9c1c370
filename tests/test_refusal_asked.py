"""The reference engine's reading of a text the fast engine refuses is asked only where
pyoxigraph gives no reason (review46 #3, #7, after 3a47eb0): it was asked for every
refused text, so an ill-formed absolute IRI, which pyoxigraph says is one at its line
and column ('IRI parsing failed'), was said to be 'no absolute IRI, and no BASE resolves
it' at no line, and every syntax error (a typo after LIMIT) imported rdflib and ran its
grammar (~1 s) before anything was said. A BIND of a variable in scope and a relative IRI
with no BASE, which pyoxigraph refuses naming a token only, still get its reason."""

import pytest
from conftest import run_cli

from anthology_kg import rdflib_sparql


@pytest.fixture
def unasked(monkeypatch):
    def refusal(text):
        raise AssertionError(f"the reference engine was asked about {text!r}")

    monkeypatch.setattr(rdflib_sparql, "refusal", refusal)


def said(tmp_path, query: str) -> str:
    (tmp_path / "q.rq").write_text(query + "\n", encoding="utf-8")
    result = run_cli("sparql", str(tmp_path / "q.rq"))
    assert result.exit_code == 2, result.output
    return result.stderr


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (
            "SELECT * WHERE { <http://ex.org/a%zz> ?p ?o }",
            "q.rq:1: SPARQL syntax error at column 38: ",
        ),
        (
            "SELECT * WHERE { ?s ?p ?o } ORDER BY ASC ?o",  # (LIMIT x: said in words)
            "q.rq:1: SPARQL syntax error at column 29: expected",
        ),
    ],
)
def test_pyoxigraph_s_own_words_at_their_place_and_no_other_reading(
    tmp_path, unasked, query, words
):
    message = said(tmp_path, query)
    assert words in message, message
    assert "IRI parsing failed" in message or "isBLANK" in message, message  # (its list)


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        (
            "SELECT ?x WHERE { BIND(1 AS ?x) BIND(2 AS ?x) }",
            "?x is bound by BIND where it is in scope already",
        ),
        ("SELECT * WHERE { <a> ?p ?o }", "<a> is no absolute IRI, and no BASE resolves it"),
    ],
)
def test_a_refusal_naming_no_reason_gets_the_reference_engine_s(tmp_path, query, reason):
    assert f"q.rq: SPARQL syntax error: {reason}" in said(tmp_path, query)
