"""A result on a blank node that no entry holds and no IRI points at, written as a
top-level subject (``_:b ex:p …``, ``[] ex:p …``, ``[ ex:p … ] .``), is placed at that
subject's line on both engines (hunt18 #7: ``<graph>``, no file, where ``diff`` placed
the same node). Two such nodes written alike cannot be told apart: they stay unplaced."""

from __future__ import annotations

import pytest
from conftest import ENGINES, run_cli

SHAPES = (
    "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
    "<http://example.org/S> a sh:NodeShape ; sh:targetSubjectsOf <http://example.org/q> ;\n"
    "  sh:property [ sh:path <http://example.org/missing> ; sh:minCount 1 ] .\n"
)
DATA = (
    "@prefix ex: <http://example.org/> .\n"
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
    "ex:a ex:p 1 .\n"
    '_:b ex:q "x" ; ex:r ex:o .\n'
    '[] ex:q "007"^^xsd:integer .\n'
    '[ ex:q "z"@en ] .\n'
    '_:c ex:q "twice" .\n'
    '_:d ex:q "twice" .\n'
)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_blank_subject_no_entry_holds_is_placed_where_it_is_written(tmp_path, engine):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "X-1.ttl").write_text(DATA, encoding="utf-8")
    (tmp_path / "s.ttl").write_text(SHAPES, encoding="utf-8")
    result = run_cli(
        "--root", str(tmp_path), "validate", "--shapes", str(tmp_path / "s.ttl"), "--engine", engine
    )
    assert result.exit_code == 1, result.output
    said = result.stdout.replace(f"{tmp_path}/", "")
    places = sorted(line.split(" ", 1)[0] for line in said.splitlines()[:-1])
    assert places == [
        "<graph>:",
        "<graph>:",
        "data/X-1.ttl:4:1:",
        "data/X-1.ttl:5:1:",
        "data/X-1.ttl:6:1:",
    ]
