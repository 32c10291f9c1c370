"""A data file holding an RDF 1.2 triple term, which rdflib's graph cannot hold, is
refused by the reference engine at its file and line (review3 R4: no file, no line). The
fast engine keeps such data (export writes it where the format has triple terms)."""

from __future__ import annotations

import pytest
from conftest import run_cli

WRITTEN = [
    "ak:noteOn id:LIT-168 ~ id:r1 .",
    'ak:noteOn id:LIT-168 {| dcterms:source "a talk" |} .',
    "ak:noteOn id:LIT-168 .\n<< id:NOTE-900 ak:noteOn id:LIT-168 >> dcterms:source id:LIT-168 .",
]


@pytest.mark.parametrize("written", WRITTEN, ids=["reifier", "annotation", "reified"])
def test_the_reference_engine_refuses_a_triple_term_at_its_file_and_line(bundled_copy, written):
    note = bundled_copy / "data" / "NOTE-900.ttl"
    note.write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n\n"
        'id:NOTE-900 a ak:Note ;\n    dcterms:identifier "NOTE-900" ;\n'
        f"    {written}\n",
        encoding="utf-8",
    )
    result = run_cli("--root", str(bundled_copy), "check", "--engine", "reference")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.startswith(f"{note}:5: RDF-star triple terms are not supported: ")
