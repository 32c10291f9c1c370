"""``sparql FILE`` and ``sparql -`` read a query that starts with a UTF-8 byte order mark
(Notepad's, PowerShell's ``Get-Content x.rq |``) as a stored query with one is read (hunt1
F6: 'SPARQL syntax error at column 10: expected CONSTRUCT', exit 2)."""

from __future__ import annotations

import codecs

import pytest
from conftest import run_cli

QUERY = "#+ summary: The triples, counted\nSELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }\n"


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_query_with_a_byte_order_mark_runs_as_the_stored_one(bundled_copy, monkeypatch, engine):
    (bundled_copy / "queries").mkdir()
    stored = bundled_copy / "queries" / "counted.rq"
    stored.write_bytes(codecs.BOM_UTF8 + QUERY.encode())
    monkeypatch.chdir(bundled_copy)
    expected = run_cli("query", "counted", "--engine", engine)
    assert expected.exit_code == 0, expected.output
    from_file = run_cli("sparql", str(stored), "--engine", engine)
    assert from_file.exit_code == 0, from_file.output
    from_stdin = run_cli("sparql", "-", "--engine", engine, input="\ufeff" + QUERY)
    assert from_stdin.exit_code == 0, from_stdin.output
    assert from_file.stdout == from_stdin.stdout == expected.stdout
    assert expected.stdout.startswith("n\n") and "(1 row)" in expected.stdout, expected.stdout
