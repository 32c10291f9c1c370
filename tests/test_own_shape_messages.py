"""A shape of one's own that gives no sh:message: its results say which constraint
fails (``fails sh:minCount 1``), and both engines say the same, in the reports and in
the W3C report graph. The text was empty on the Oxigraph engine and pySHACL's own
("Less than 1 values on id:LIT-001->dcterms:title") on the reference engine."""

from __future__ import annotations

import pytest
from conftest import rules_fixture_copy, run_cli

SHAPES = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <http://example.org/shapes#> .
ex:Title a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:property [ sh:path dcterms:title ; sh:minCount 1 ] .
ex:Class a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ; sh:class ak:Reference .
ex:Query a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:sparql [ sh:select "SELECT $this WHERE { }" ] .
"""


@pytest.fixture
def root(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule1-good", SHAPES)
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("fmt", ["text", "json", "turtle"])
def test_both_engines_say_the_same_of_a_shape_without_a_message(root, fmt):
    fast = run_cli("validate", "--format", fmt)
    reference = run_cli("validate", "--format", fmt, "--engine", "reference")
    assert fast.exit_code == reference.exit_code == 1, fast.output + reference.output
    assert fast.stdout == reference.stdout
    assert "Less than 1 values" not in reference.stdout


def test_the_message_names_the_constraint_that_fails(root):
    lines = run_cli("validate").stdout.splitlines()
    # Tagged as the anthology's own, not as the record's integrity rules.
    assert [line.split(" [own shape] ")[1] for line in lines if "LIT-001.ttl" in line] == [
        "fails sh:class ak:Reference (LIT-001)",
        "fails a SPARQL constraint (sh:sparql) (LIT-001)",
        "fails sh:minCount 1 (LIT-001, dcterms:title)",
    ]
