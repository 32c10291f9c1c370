"""``ak:trainedWith`` is a confounder property by the contract (DESIGN.md), so the ontology
says so: an anthology given by ``--root`` does not read the bundled data (where ADR-032
declares it), and ``confounders`` must still find an arm that lacks it (hunt3 F7)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from conftest import run_cli
from rdflib import RDF, Graph, Namespace

from anthology_kg.resources import ontology_file

AK = Namespace("https://w3id.org/anthology-kg/ns#")
ID = "https://w3id.org/anthology-kg/id/"

# Two arms, one trained with a codebase and one not; no confounder property declared,
# no decision record: only the ontology can say that ak:trainedWith is one.
ANTHOLOGY = """\
@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .

id:COMPARISON-x a ak:Comparison ;
    dcterms:identifier "COMPARISON-x" ;
    ak:arm id:COMPARISON-x-grpo, id:COMPARISON-x-ppo .

id:COMPARISON-x-grpo a ak:Arm ;
    ak:algorithm ak:GRPO ;
    ak:trainedWith id:CODEBASE-x .

id:COMPARISON-x-ppo a ak:Arm ;
    ak:algorithm ak:PPO .

id:CODEBASE-x a ak:Codebase ;
    dcterms:identifier "CODEBASE-x" .
"""


def test_the_ontology_declares_trained_with_a_confounder_property():
    ontology = Graph().parse(ontology_file(), format="turtle")
    assert (AK.trainedWith, RDF.type, AK.ConfounderProperty) in ontology


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "x.ttl").write_text(ANTHOLOGY, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_confounders_on_a_root_anthology_without_adr_032(root, engine):
    result = run_cli(
        "--root", str(root), "query", "confounders", "--engine", engine, "--format", "csv"
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["comparison"], r["arm"], r["algorithm"], r["property"]) for r in rows] == [
        (ID + "COMPARISON-x", ID + "COMPARISON-x-ppo", str(AK.PPO), str(AK.trainedWith))
    ]
    assert (rows[0]["checkpoints"], rows[0]["question"], rows[0]["address"]) == ("", "", "")
