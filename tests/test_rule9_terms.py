"""Rule 9's description check under inference: a term nothing defines (ak:trainedWth
for ak:trainedWith) is found with --inference rdfs and owlrl as without, on both
engines. A closure states of every IRI it meets that it is an rdfs:Resource (rdfs4b)
and owl:sameAs itself (eq-ref); with those two triples the misspelt term was
"described", and check passed."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

BAD = FIXTURES / "rules" / "rule9-term-bad"
GOOD = FIXTURES / "rules" / "rule9-term-good"


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("inference", ["none", "rdfs", "owlrl"])
def test_a_misspelt_term_is_found_with_and_without_inference(engine, inference):
    result = run_cli("--root", str(BAD), "check", "--engine", engine, "--inference", inference)
    assert result.exit_code == 1, result.output
    found = [line for line in result.stdout.splitlines() if "AK009" in line]
    assert len(found) == 2, result.stdout
    assert "ak:concernsProperty ak:trainedWth" in found[0]
    assert "ak:unknownProperty ak:relasedOn" in found[1]


@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
def test_a_term_described_by_its_type_alone_stays_described_under_inference(inference):
    # ak:ownProperty a owl:ObjectProperty: a type the record states is a description, as
    # a type a range gives is (they cannot be told apart in a closure).
    result = run_cli("--root", str(GOOD), "check", "--inference", inference)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_stated_resource_type_or_same_as_itself_describes_nothing(tmp_path, engine):
    """review49 #5: the two triples a closure states of every IRI describe nothing when a
    record states them either (the shape cannot tell the two apart), without inference
    too: README says so."""
    import shutil

    root = tmp_path / "a"
    shutil.copytree(GOOD, root)
    question = root / "data" / "QUESTION-q.ttl"
    text = question.read_text(encoding="utf-8").replace(
        "ak:concernsProperty ak:trainedWith, ak:ownProperty ;",
        "ak:concernsProperty ak:trainedWith, ak:ownProperty, ak:resTerm, ak:sameTerm ;",
    )
    text += (
        "\nak:resTerm a <http://www.w3.org/2000/01/rdf-schema#Resource> .\n"
        "ak:sameTerm <http://www.w3.org/2002/07/owl#sameAs> ak:sameTerm .\n"
    )
    question.write_text(text, encoding="utf-8")
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 1, result.output
    found = [line for line in result.stdout.splitlines() if "AK009" in line]
    assert len(found) == 2 and "ak:resTerm" in found[0] and "ak:sameTerm" in found[1], found
