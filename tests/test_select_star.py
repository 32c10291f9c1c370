"""SELECT *: both engines give the same columns in the same order, the order of first
use in the query, as the W3C's result-format tests list them, so the CSV of either is
the same bytes (review3 R7: the fast engine gave pyoxigraph's order, by name)."""

from __future__ import annotations

from conftest import run_cli

QUERY = (
    "SELECT * WHERE { ?zeta a ?type ; <http://purl.org/dc/terms/identifier> ?alpha }\n"
    "ORDER BY ?alpha ?type\n"
)


def test_select_star_gives_the_same_csv_bytes_on_both_engines(tmp_path):
    query = tmp_path / "star.rq"
    query.write_text(QUERY, encoding="utf-8")
    fast, reference = (
        run_cli("sparql", str(query), "--engine", engine, "--format", "csv")
        for engine in ("fast", "reference")
    )
    assert fast.exit_code == reference.exit_code == 0, reference.output
    assert fast.stdout.splitlines()[0] == "zeta,type,alpha"
    assert fast.stdout == reference.stdout and len(fast.stdout.splitlines()) > 5
