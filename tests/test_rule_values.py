"""The values the rules read are of the kind the vocabulary names (hunt23), with
--inference as without, on both engines: an arm's or a range figure's ak:algorithm is an
ak:Algorithm (rules 10 and 6); what an open question concerns is named by an IRI (rule 9);
a decision record's status is one of the ontology's (rule 10).

Under --inference a closure types every IRI value of ak:algorithm an ak:Algorithm
(rdfs:range, rdfs3), a category or an entry included: there only a text is found, as
README says."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

RULES = FIXTURES / "rules"


def found_under_inference(fixture: str, code: str, engine: str, inference: str) -> list[str]:
    """The ``code`` violation lines ``check`` prints for ``fixture``-bad under
    ``inference`` on ``engine`` (exit 1), once ``fixture``-good has conformed there."""
    args = ("check", "--engine", engine, "--inference", inference)
    good = run_cli("--root", str(RULES / f"{fixture}-good"), *args)
    assert good.exit_code == 0, good.output
    bad = run_cli("--root", str(RULES / f"{fixture}-bad"), *args)
    assert bad.exit_code == 1, bad.output
    return [line for line in bad.stdout.splitlines() if f"{code} Violation" in line]


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
@pytest.mark.parametrize(
    "fixture, code", [("rule6-algorithm", "AK006"), ("rule10-algorithm", "AK010")]
)
def test_an_algorithm_given_as_a_text_is_found_under_inference(engine, inference, fixture, code):
    found = found_under_inference(fixture, code, engine, inference)
    assert len(found) == 1 and found[0].endswith("ak:algorithm PPO)"), found


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
def test_what_a_question_concerns_given_as_a_text_is_found_under_inference(engine, inference):
    """Rule 9: ak:concerns and ak:concernsProperty are named by an IRI (no range in the
    ontology, so no closure types their values)."""
    found = found_under_inference("rule9-concerns", "AK009", engine, inference)
    assert [line.rsplit(", ", 1)[1] for line in found] == [
        "ak:concerns COMPARISON-x-a)",
        'ak:concerns "COMPARISON-x"@en)',
        "ak:concernsProperty trainedWith)",
    ], found


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_property_a_question_asks_for_is_no_blank_node(engine, tmp_path):
    """No blank node is a property of an arm: one as ak:concernsProperty takes the
    question from every arm, as a text does. (Not a rule fixture: test_engines compares
    the standing questions' answers, and a blank node's label differs between engines.)"""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "QUESTION-z.ttl").write_text(
        "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n"
        "id:QUESTION-z a ak:OpenQuestion ;\n"
        '    dcterms:identifier "QUESTION-z" ;\n'
        '    rdfs:label "Which code were the arms run on?" ;\n'
        '    ak:concernsProperty [ rdfs:label "trained with" ] .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(tmp_path), "check", "--engine", engine)
    assert result.exit_code == 1, result.output
    found = [line for line in result.stdout.splitlines() if "AK009 Violation" in line]
    assert len(found) == 1, result.stdout
    assert "data/QUESTION-z.ttl:6:1: " in found[0]
    assert found[0].endswith("(QUESTION-z, ak:concernsProperty [] of QUESTION-z)")


def test_the_statuses_rule_10_knows_are_the_ontologys():
    """aks:Rule10KnownStatus lists the ontology's decision statuses (its members of
    ak:DecisionStatus): one added to the ontology and not to the list would be refused;
    and rule 1's statuses out of force are among them."""
    from rdflib import RDF, Graph, Namespace
    from rdflib.collection import Collection
    from rdflib.namespace import SH

    from anthology_kg import resources

    ak = Namespace("https://w3id.org/anthology-kg/ns#")
    aks = Namespace("https://w3id.org/anthology-kg/shapes#")
    ontology = Graph().parse(resources.ontology_file())
    statuses = set(ontology.subjects(RDF.type, ak.DecisionStatus))
    shapes_dir = resources.bundled_dir() / "ontology" / "shapes"
    shapes = Graph().parse(shapes_dir / "integrity.ttl")
    listed = Collection(shapes, shapes.value(aks.Rule10KnownStatus, SH["in"]))
    assert len(statuses) == 4 and set(listed) == statuses
    rule1 = Graph().parse(shapes_dir / "adr-032.ttl")
    query = " ".join(str(q) for q in rule1.objects(None, SH.select))
    out_of_force = query[query.index("?status IN (") :].split(")")[0]
    assert out_of_force.count("ak:") == 3
    assert all(f"ak:{name}" in out_of_force for name in ("proposed", "superseded", "deprecated"))


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
def test_a_status_that_is_none_of_the_ontologys_is_found_under_inference(engine, inference):
    found = found_under_inference("rule10-status", "AK010", engine, inference)
    assert [line.rsplit(", ", 1)[1] for line in found] == [
        "ak:status superseded)",
        'ak:status "deprecated"@en)',
        "ak:status https://example.org/retired)",
    ], found
