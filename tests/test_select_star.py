"""SELECT *: both engines give the same columns in the same order, the variables by name
as pyoxigraph orders them (the fast engine, the Oxigraph server and the site's
in-browser engine), so the CSV of either is the same bytes (review3 R7: the reference
engine put them in the order of first use)."""

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
    assert fast.stdout.splitlines()[0] == "alpha,type,zeta"
    assert fast.stdout == reference.stdout and len(fast.stdout.splitlines()) > 5
