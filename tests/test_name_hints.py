"""The hints a new user gets for a name that names nothing (hunt21 #15): "did you mean"
lists every name as close as the closest, a prefixed name of one's own shape gets its
IRI, `rules` lists one's own shapes in one form, and a pyproject.toml table written in
anthology-kg.toml is named as such."""

from __future__ import annotations

import pytest
from conftest import run_cli

from anthology_kg.config import did_you_mean

OWN = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix my: <https://example.org/my-shapes#> .

my:LitHasAuthors a sh:NodeShape ;
    sh:targetClass ak:LiteratureRecord ;
    ak:enforces id:ADR-032 ;
    sh:property [ sh:path ak:authors ; sh:minCount 1 ] .

my:TakeawayHasOnePosition a sh:NodeShape ;
    sh:targetClass ak:Takeaway ;
    ak:ruleNumber 11 ;
    sh:property [ sh:path ak:position ; sh:maxCount 1 ] .
"""


@pytest.fixture
def own(anthology):
    (anthology / "ontology" / "shapes").mkdir(parents=True)
    (anthology / "ontology" / "shapes" / "own.ttl").write_text(OWN, encoding="utf-8")
    return anthology


@pytest.mark.parametrize(
    ("word", "choices", "said"),
    [
        ("AK01", ["AK000", "AK001", "AK002", "AK010"], "; did you mean 'AK001' or 'AK010'?"),
        ("AK01", ["AK001", "AK010", "AK011"], "; did you mean 'AK001', 'AK010' or 'AK011'?"),
        ("AK0001", ["AK001", "AK002"], "; did you mean 'AK001'?"),
        ("abc", ["abd", "abe", "abf"], "; did you mean 'abd', 'abe' or 'abf'?"),
        ("zzz", ["abd"], ""),
        ("Method", ["evaluation", "method"], "; did you mean 'method'?"),
    ],
)
def test_did_you_mean_names_each_of_the_closest(word, choices, said):
    """Before, the last of the closest in reverse alphabetical order alone: 'AK010' for
    AK01, where AK001 is as close (and rule 1's code)."""
    assert did_you_mean(word, choices) == said


def test_a_waiver_naming_a_code_of_too_few_digits_is_offered_both(anthology):
    (anthology / "waivers.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        '<waiver/w> a ak:Waiver ; ak:waives <LIT-168> ; ak:rule "AK01" ;\n'
        '    rdfs:comment "to decide" ; ak:expires "2099-01-01"^^xsd:date .\n',
        encoding="utf-8",
    )
    result = run_cli("check")
    assert result.exit_code == 1, result.output
    assert (
        "Waiver: the waiver names no rule 'AK01'; did you mean 'AK001' or 'AK010'?" in result.stdout
    ), result.stdout


def test_rules_lists_ones_own_shapes_in_one_form(own):
    """Before: `https://example.org/my-shapes#LitHasAuthors` (no rule number) and
    `<https://example.org/my-shapes#TakeawayHasOnePosition>` (rule 11) in one listing;
    --select takes the bare IRI of both."""
    result = run_cli("rules")
    assert result.exit_code == 0, result.output
    names = [line.split("\t")[0] for line in result.stdout.splitlines()]
    assert "https://example.org/my-shapes#LitHasAuthors" in names
    assert "https://example.org/my-shapes#TakeawayHasOnePosition" in names
    for name in names[:2] + names[-1:]:
        assert run_cli("check", "--select", name).exit_code in (0, 1), name


def test_a_prefixed_name_of_ones_own_shape_is_offered_its_iri(own):
    result = run_cli("check", "--select", "my:LitHasAuthors")
    assert result.exit_code == 2
    assert result.stderr == (
        "anthology-kg: --select: 'my:LitHasAuthors' names no rule; did you mean"
        " 'https://example.org/my-shapes#LitHasAuthors'? (`anthology-kg rules` lists their"
        " codes and shapes)\n"
    )


def test_a_pyproject_table_in_anthology_kg_toml_is_named(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "anthology-kg.toml").write_text(
        '[tool.anthology-kg]\nfail-on = "warning"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert result.exit_code == 2
    assert result.stderr == (
        "anthology-kg.toml:1: unknown setting 'tool': [tool.anthology-kg] is a table of"
        " pyproject.toml; anthology-kg.toml holds the settings as top-level keys"
        ' (fail-on = "warning"); known: base, fail-on, format, ignore, root, select\n'
    )
