"""The values the rules read are of the kind the vocabulary names (hunt23), with
--inference as without, on both engines: an arm's or a range figure's ak:algorithm is an
ak:Algorithm (rules 10 and 6).

Under --inference a closure types every IRI value of ak:algorithm an ak:Algorithm
(rdfs:range, rdfs3), a category or an entry included: there only a text is found, as
README says."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

RULES = FIXTURES / "rules"


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
@pytest.mark.parametrize(
    "fixture, code", [("rule6-algorithm", "AK006"), ("rule10-algorithm", "AK010")]
)
def test_an_algorithm_given_as_a_text_is_found_under_inference(engine, inference, fixture, code):
    args = ("check", "--engine", engine, "--inference", inference)
    bad = run_cli("--root", str(RULES / f"{fixture}-bad"), *args)
    assert bad.exit_code == 1, bad.output
    found = [line for line in bad.stdout.splitlines() if f"{code} Violation" in line]
    assert len(found) == 1 and found[0].endswith("ak:algorithm PPO)"), bad.stdout
    good = run_cli("--root", str(RULES / f"{fixture}-good"), *args)
    assert good.exit_code == 0, good.output
