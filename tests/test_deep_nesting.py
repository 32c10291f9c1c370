"""Blank nodes nested hundreds of levels deep: the Turtle writer, which met Python's
recursion limit (exit 2, "nests too deep"), writes them (it nests from a stack); check
reads them."""

import pytest
from conftest import run_cli

DEPTH = 600


@pytest.fixture
def deep(tmp_path):
    (tmp_path / "data").mkdir()
    nested = "[ <http://p> " * DEPTH + "1" + " ]" * DEPTH
    (tmp_path / "data" / "x.ttl").write_text(f"<http://a> <http://b> {nested} .\n")
    return tmp_path


def test_export_writes_it(deep):
    result = run_cli("--root", str(deep), "export", "--include", "data")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("[") == DEPTH


def test_fmt_writes_it(deep):
    assert run_cli("--root", str(deep), "fmt").exit_code == 0
    assert (deep / "data" / "x.ttl").read_text().count("[") == DEPTH
    assert run_cli("--root", str(deep), "fmt", "--check").exit_code == 0


def test_check_reads_it(deep):
    checked = run_cli("--root", str(deep), "check")
    assert checked.exit_code == 0 and "conforms" in checked.stdout, checked.output


def _groups(depth: int) -> str:
    return "SELECT * WHERE " + "{ " * depth + "?s ?p ?o" + " }" * depth + " LIMIT 1\n"


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_query_nested_past_the_limit_is_exit_2_not_a_crash(tmp_path, engine):
    """pyoxigraph's parser overflowed its stack at ~2,500 nested groups: a segfault, exit
    139 and no word; the fast engine refuses past MAX_NESTING before it parses, rdflib at
    its recursion limit."""
    from anthology_kg.sparql_text import MAX_NESTING

    query = tmp_path / "deep.rq"
    query.write_text(_groups(3 * MAX_NESTING), encoding="utf-8")
    result = run_cli("sparql", str(query), "--engine", engine)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    if engine == "fast":
        assert f"{query}: the query nests {3 * MAX_NESTING} levels deep" in result.stderr


def test_a_query_at_the_limit_runs(tmp_path):
    from anthology_kg.sparql_text import MAX_NESTING

    query = tmp_path / "deep.rq"
    query.write_text(_groups(MAX_NESTING - 1), encoding="utf-8")
    result = run_cli("sparql", str(query), "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "s,p,o"


def test_a_shape_nested_past_the_limit_is_a_syntax_error(tmp_path):
    from anthology_kg.resources import bundled_dir

    root = tmp_path / "a"
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "data").symlink_to(bundled_dir() / "data")
    text = _groups(3000).replace("SELECT *", "SELECT $this").replace("?s", "$this")
    (root / "ontology" / "shapes" / "deep.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n<urn:deep> a sh:NodeShape ; "
        f'sh:targetNode <urn:x> ; sh:sparql [ sh:select "{text.strip()}" ] .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "check")
    assert result.exit_code == 2, result.output
    assert "sh:select: not a query the engines follow: it nests 3000 levels deep" in (result.stderr)


def _minus_chain(length: int) -> str:
    minus = " ".join(f"MINUS {{ ?s <urn:p{i}> ?o }}" for i in range(length))
    return f"SELECT * WHERE {{ ?s ?p ?o {minus} }} LIMIT 1\n"


def test_a_query_chaining_operators_past_the_limit_is_exit_2_not_a_crash(tmp_path):
    """3,000 MINUS in one group crashed pyoxigraph (a segfault, exit 139, no word): a flat
    chain is evaluated by recursion too. The fast engine refuses past MAX_CHAIN."""
    from anthology_kg.sparql_text import MAX_CHAIN

    query = tmp_path / "chain.rq"
    query.write_text(_minus_chain(3 * MAX_CHAIN), encoding="utf-8")
    result = run_cli("sparql", str(query))
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert f"{query}: the query chains {3 * MAX_CHAIN} operators in one group" in result.stderr


def test_a_query_chaining_operators_at_the_limit_runs(tmp_path):
    from anthology_kg.sparql_text import MAX_CHAIN

    query = tmp_path / "chain.rq"
    query.write_text(_minus_chain(MAX_CHAIN), encoding="utf-8")
    result = run_cli("sparql", str(query), "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "s,p,o"


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("SELECT * WHERE { ?s ?p ?o FILTER (?o != 1 || ?o = 2 && !?b) }", 3),  # != is no operator
        ('SELECT ?s WHERE { VALUES ?o { -1 -2 "x"^^<urn:t> } ?s ?p ?o }', 0),  # values, a type
        ("SELECT ?s WHERE { ?s ?p ?o FILTER (?o = 1 -1 -1) BIND (1 AS ?x) }", 2),  # subtracting
        ("SELECT ?s WHERE { { ?s ?p 1 } UNION { ?s ?p 2 } UNION { ?s ?p 3 } }", 2),
        ("SELECT ?s WHERE { ?s ak:not-stated|ak:p/ak:q ?o }", 2),  # a name's hyphen is no minus
        ('SELECT ?s WHERE { ?s ?p "a || b" } # || UNION', 0),  # strings and comments
    ],
)
def test_the_chain_counts_operators_of_one_group(text, chain):
    from anthology_kg.sparql_text import longest_chain

    assert longest_chain(text) == chain
