"""A stated figure that is no number is still listed by known-unknowns, as stated, its
unknown empty, on both engines: the Oxigraph engine dropped the row (its comparison an
error), rdflib's subtraction from "abc"^^xsd:integer recursed forever (hunt14 finding 1),
and a figure past 64 bits is no number to Oxigraph either."""

import csv
import io

import pytest
from conftest import run_cli

AK = "https://w3id.org/anthology-kg/ns#"


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(
    "written, stated",
    [
        ('"abc"^^<http://www.w3.org/2001/XMLSchema#integer>', "abc"),
        ("99999999999999999999999", "99999999999999999999999"),
    ],
)
def test_a_figure_that_is_no_number_is_listed_as_stated(bundled_copy, written, stated, engine):
    adr = bundled_copy / "data" / "ADR-032.ttl"
    text = adr.read_text(encoding="utf-8")
    assert "ak:backlogTopSize 4 ;" in text
    adr.write_text(text.replace("ak:backlogTopSize 4 ;", f"ak:backlogTopSize {written} ;"))
    result = run_cli(
        "--root",
        str(bundled_copy),
        "query",
        "known-unknowns",
        "--format",
        "csv",
        "--engine",
        engine,
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    (backlog,) = [row for row in rows if row["figure"] == AK + "backlogTopSize"]
    assert backlog["stated"] == stated and backlog["unknown"] == ""
