"""A query joining many triple patterns in one group: pyoxigraph plans a join in time that
grows with the cube of its length or faster (1,000 chained patterns: 30-50 s), so one
joining more than MAX_PATTERNS is refused (exit 2) where it is read."""

from __future__ import annotations

import shutil

import pytest
from conftest import REPO, run_cli

from anthology_kg.sparql_text import MAX_PATTERNS, most_patterns, too_deep

_SH = "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"


@pytest.mark.parametrize(
    ("text", "patterns"),
    [
        ("SELECT * WHERE { ?s <urn:p> ?o . ?o <urn:p> ?x . ?x <urn:p> ?y }", 2),
        ("SELECT * WHERE { ?s <urn:p> ?o ; <urn:q> ?x , ?y . }", 3),
        ("SELECT * WHERE { ?s <urn:p> 1.5 . { ?s <urn:q> ?o . } FILTER (f(?s, ?o)) }", 1),
        ('SELECT * WHERE { ?s <urn:p> "a . b ; c" . } # . ; ,', 1),  # strings and comments
        ("SELECT * WHERE { VALUES (?a ?b) { (1 2) (3 4) } ?a <urn:p> ?b }", 0),
    ],
)
def test_the_patterns_of_one_group_are_counted_by_what_ends_them(text, patterns):
    assert most_patterns(text) == patterns


def test_a_large_values_block_is_no_chain():
    values = " ".join(f'"v{k}"' for k in range(50_000))
    assert too_deep(f"SELECT ?v WHERE {{ VALUES ?v {{ {values} }} ?s ?p ?v . }}") is None


def test_a_query_joining_patterns_past_the_limit_is_exit_2_not_minutes(tmp_path):
    """1,000 chained triple patterns planned for 30-50 s, 2,000 ran to the 300 s timeout."""
    length = MAX_PATTERNS + 1
    query = tmp_path / "chain.rq"
    chain = " ".join(f"?v{k} <urn:p> ?v{k + 1} ." for k in range(length))
    query.write_text(f"SELECT ?v0 WHERE {{ {chain} }}\n", encoding="utf-8")
    result = run_cli("sparql", str(query))
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert (
        f"{query}: the query joins {length} triple patterns in one group; "
        f"at most {MAX_PATTERNS} are planned" in result.stderr
    )


def test_a_shape_query_joining_patterns_past_the_limit_is_refused_at_its_line(tmp_path):
    root = tmp_path / "a"
    shutil.copytree(REPO / "tests" / "fixtures" / "minimal" / "data", root / "data")
    (root / "ontology" / "shapes").mkdir(parents=True)
    chain = " ".join(f"?v{k} <urn:p> ?v{k + 1} ." for k in range(MAX_PATTERNS))
    (root / "ontology" / "shapes" / "mine.ttl").write_text(
        _SH + "<urn:S> a sh:NodeShape ; sh:targetNode <urn:x> ;\n"
        f'  sh:sparql [ sh:select "SELECT $this WHERE {{ $this <urn:p> ?v0 . {chain} }}" ] .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "check")
    assert result.exit_code == 2, result.output
    assert "mine.ttl:3:" in result.stderr
    assert f"it joins {MAX_PATTERNS + 1} triple patterns in one group" in result.stderr
