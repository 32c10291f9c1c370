"""An entry with two identifiers (rule 8 reports it) is named by the same one on both
engines, the least by its text: the reference engine took the first rdflib gave, the
Oxigraph engine the first of its index, and every result of the entry differed."""

import json

import pytest
from conftest import run_cli

ENTRY = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    '<LIT-400> a ak:LiteratureRecord ; dcterms:identifier "LIT-409", "LIT-400", "LIT-405" ;\n'
    "  ak:category ak:method, ak:evaluation .\n"
)


@pytest.fixture
def anthology(bundled_copy):
    (bundled_copy / "data" / "LIT-400.ttl").write_text(ENTRY, encoding="utf-8")
    return bundled_copy


def test_both_engines_name_the_entry_by_its_least_identifier(anthology):
    root = ("--root", str(anthology))
    fast = run_cli(*root, "validate", "--format", "json")
    reference = run_cli(*root, "validate", "--format", "json", "--engine", "reference")
    assert fast.exit_code == reference.exit_code == 1, fast.output
    assert fast.stdout == reference.stdout
    named = {r["focus"] for r in json.loads(fast.stdout)["results"] if "LIT-40" in r["focus"]}
    assert named == {"LIT-400"}, named
