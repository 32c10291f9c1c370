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
