"""What the standing questions count, read as the rules read the same graph (hunt14):
a claim of a subclass of one's own or typed only by ak:makesClaim's range is a claim, an
entry's own claim is no load of it (rule 4), and one claim or entry is one row whatever
an entailment adds. Each case on both engines, in-process, on a copy of the bundled
anthology with a line or two changed."""

import csv
import io
import json
from pathlib import Path

import pytest
from bundled import QUERY_NAMES
from conftest import run_cli

from anthology_kg.resources import bundled_dir

ID = "https://w3id.org/anthology-kg/id/"
AK = "https://w3id.org/anthology-kg/ns#"
ENGINES = ["fast", "reference"]


def answer(root: Path, name: str, *options: str) -> list[dict[str, str]]:
    result = run_cli("--root", str(root), "query", name, "--format", "csv", *options)
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def load_of(root: Path, *options: str) -> list[tuple[str, str]]:
    """The ak:restsOn rows of ARXIV-2409.19256's depends-on: (dependent, kind)."""
    got = answer(root, "depends-on", "--param", "entry=ARXIV-2409.19256", *options)
    return [(r["dependent"], r["kind"]) for r in got if r["relation"] == AK + "restsOn"]


def stated_load(root: Path, *options: str) -> list[tuple[str, str, str]]:
    """known-unknowns' loadBearingPlaces rows: (stated, known, unknown)."""
    got = answer(root, "known-unknowns", *options)
    return [
        (r["stated"], r["known"], r["unknown"])
        for r in got
        if r["figure"] == AK + "loadBearingPlaces"
    ]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reproducibility_claim_of_a_subclass_of_ones_own_is_listed(bundled_copy, engine):
    (bundled_copy / "data" / "ARXIV-2501.00002.ttl").write_text(
        """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix ex: <https://example.org/> .
ex:Repro rdfs:subClassOf ak:ReproducibilityClaim .
id:ARXIV-2501.00002 a ak:Reference ; dcterms:identifier "ARXIV-2501.00002" ;
    ak:category ak:method ; ak:makesClaim id:ARXIV-2501.00002-r .
id:ARXIV-2501.00002-r a ex:Repro ; ak:restsOn id:ARXIV-2409.19256 .
""",
        encoding="utf-8",
    )
    option = ("--engine", engine)
    claims = {r["claim"] for r in answer(bundled_copy, "reproducibility", *option)}
    assert claims == {ID + "LIT-168-reproducible", ID + "ARXIV-2501.00002-r"}
    assert load_of(bundled_copy, *option) == [
        (ID + "ARXIV-2501.00002-r", "https://example.org/Repro"),
        (ID + "LIT-168-reproducible", AK + "ReproducibilityClaim"),
    ]
    assert stated_load(bundled_copy, *option) == [("1", "2", "-1")]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_claim_typed_only_by_the_range_of_makes_claim_is_load(bundled_copy, engine):
    """Rule 4 counts the untyped claim as holding the entry; so do the questions."""
    edit(
        bundled_copy / "data" / "LIT-168.ttl",
        "id:LIT-168-reproducible a ak:ReproducibilityClaim ;",
        "id:LIT-168-reproducible",
    )
    option = ("--engine", engine)
    assert load_of(bundled_copy, *option) == [(ID + "LIT-168-reproducible", AK + "Claim")]
    assert stated_load(bundled_copy, *option) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_an_entrys_own_claim_is_no_load_of_it(bundled_copy, engine):
    """The seed entry's own resharding claim resting on verl (described in the entry)
    leaves its load at the record's one place, as rule 4 reads "held"."""
    with (bundled_copy / "data" / "ARXIV-2409.19256.ttl").open("a", encoding="utf-8") as file:
        file.write("\nid:ARXIV-2409.19256-resharding ak:restsOn id:CODEBASE-verl .\n")
    option = ("--engine", engine)
    assert load_of(bundled_copy, *option) == [
        (ID + "LIT-168-reproducible", AK + "ReproducibilityClaim")
    ]
    assert stated_load(bundled_copy, *option) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_rule_4_and_the_load_agree_on_an_entry_held_by_its_own_claim_only(bundled_copy, engine):
    data = bundled_copy / "data"
    edit(
        data / "LIT-168.ttl",
        "ak:restsOn id:CODEBASE-verl .",
        "ak:restsOn <https://example.org/somewhere> .",
    )
    edit(data / "ARXIV-2409.19256.ttl", "ak:loadBearingPlaces 1", "ak:loadBearingPlaces 0")
    with (data / "ARXIV-2409.19256.ttl").open("a", encoding="utf-8") as file:
        file.write("\nid:ARXIV-2409.19256-resharding ak:restsOn id:CODEBASE-verl .\n")
    edit(data / "QUESTION-baselines-on-verl.ttl", "ak:addressedIn id:ARXIV-2409.19256 ;", "")
    option = ("--engine", engine)
    checked = run_cli("--root", str(bundled_copy), "check", "--select", "AK004", *option)
    assert "AK004" in checked.stdout and "ARXIV-2409.19256.ttl" in checked.stdout
    assert load_of(bundled_copy, *option) == []
    assert stated_load(bundled_copy, *option) == []


@pytest.mark.parametrize("inference", ["rdfs", "owlrl"])
@pytest.mark.parametrize("name", QUERY_NAMES)
def test_an_entailment_adds_no_row_to_a_standing_question(name, inference):
    """The superclasses an entailment adds (ak:Entry, rdfs:Resource, owl:Thing; ak:Claim
    beside ak:ReproducibilityClaim) are nothing the questions ask for: unread listed the
    seed entry three times, depends-on its one load twice (hunt14 finding 5)."""
    root = bundled_dir()
    params = ("--param", "entry=ARXIV-2409.19256") if name == "depends-on" else ()
    assert answer(root, name, *params, "--inference", inference) == answer(root, name, *params)


OTHER_SWEEP = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
id:SWEEP-other a ak:Sweep ; dcterms:identifier "SWEEP-other" ; ak:documentsRead 50 .
id:SWEEP-other-t a ak:CitationTally ; ak:inSweep id:SWEEP-other ;
    ak:tallied id:ARXIV-2409.19256 ; ak:citingDocuments 7 .
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_backlog_tallies_come_from_the_decision_records_backlog_sweep(bundled_copy, engine):
    """ADR-032 names SWEEP-backlog (ak:backlogSweep): another sweep's tally of the same
    entry is no backlog tally (hunt14 finding 7); with no sweep named, any sweep's is."""
    (bundled_copy / "data" / "SWEEP-other.ttl").write_text(OTHER_SWEEP, encoding="utf-8")
    option = ("--engine", engine)
    got = answer(bundled_copy, "backlog", *option)
    assert [(r["sweep"], r["citing"], r["documents"]) for r in got] == [
        (ID + "SWEEP-backlog", "3", "12")
    ]
    edit(bundled_copy / "data" / "ADR-032.ttl", "ak:backlogSweep id:SWEEP-backlog ;", "")
    got = answer(bundled_copy, "backlog", *option)
    assert [(r["sweep"], r["citing"]) for r in got] == [
        (ID + "SWEEP-backlog", "3"),
        (ID + "SWEEP-other", "7"),
    ]


OWN_ENFORCING_SHAPE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix ex: <https://example.org/shapes#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:SotaHasLabel a sh:NodeShape ; ak:enforces id:ADR-040 ;
    rdfs:label "A SOTA record has a label" ;
    sh:targetClass ak:SotaRecord ; sh:property [ sh:path rdfs:label ; sh:minCount 1 ] ;
    sh:message "ADR-040: a SOTA record has a label" .
"""

ADR_040 = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
id:ADR-040 a ak:DecisionRecord ; dcterms:identifier "ADR-040" .
id:SOTA-155 a ak:SotaRecord ; dcterms:identifier "SOTA-155" .
"""


def test_a_shape_that_enforces_a_decision_record_without_a_rule_number_is_a_rule(bundled_copy):
    """The contract's term is ak:enforces; ak:ruleNumber is the tool's own (hunt14
    finding 8): the shape is listed by both rules listings, Violation by default, and
    its result is tagged with the decision record it enforces."""
    shape = "https://example.org/shapes#SotaHasLabel"
    (bundled_copy / "ontology" / "shapes").mkdir(parents=True)
    (bundled_copy / "ontology" / "shapes" / "adr-040.ttl").write_text(OWN_ENFORCING_SHAPE)
    (bundled_copy / "data" / "ADR-040.ttl").write_text(ADR_040, encoding="utf-8")
    root = ("--root", str(bundled_copy))
    listed = run_cli(*root, "rules").stdout.splitlines()
    assert f"{shape}\tno rule number\tADR-040\tViolation\t{shape}\tA SOTA record has a label" in (
        listed
    )
    queried = [r for r in answer(bundled_copy, "rules") if r["shape"] == shape]
    assert [(r["rule"], r["enforces"], r["severity"]) for r in queried] == [
        ("", ID + "ADR-040", "http://www.w3.org/ns/shacl#Violation")
    ]
    # Every bundled rule shape states its severity: the default changes none of them.
    assert all(r["severity"] for r in answer(bundled_copy, "rules"))
    for engine in ENGINES:
        checked = run_cli(*root, "check", "--select", shape, "--engine", engine)
        assert checked.exit_code == 1
        (line,) = [line for line in checked.stdout.splitlines() if "SOTA-155" in line]
        assert f"{shape} Violation [ADR-040] ADR-040: a SOTA record has a label" in line
        assert "rule shapes" in checked.stdout.splitlines()[-1]
    sarif = json.loads(run_cli(*root, "validate", "--format", "sarif").stdout)
    (described,) = [r for r in sarif["runs"][0]["tool"]["driver"]["rules"] if r["id"] == shape]
    assert described["name"] == "SotaHasLabel"
    assert described["properties"]["enforces"] == "ADR-040"


CHAIN = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
id:LIT-801 a ak:LiteratureRecord ; dcterms:identifier "LIT-801" ; ak:category ak:method ;
    ak:makesClaim id:c1 .
id:c1 a ak:Claim ; ak:restsOn id:ARXIV-2409.19256 .
id:LIT-802 a ak:LiteratureRecord ; dcterms:identifier "LIT-802" ; ak:category ak:method ;
    ak:makesClaim id:c2 .
id:c2 a ak:Claim ; ak:restsOn id:LIT-801 .
id:LIT-803 a ak:LiteratureRecord ; dcterms:identifier "LIT-803" ; ak:category ak:method ;
    ak:makesClaim id:c3, id:c4 .
id:c3 a ak:ReproducibilityClaim ; ak:restsOn id:c2 .
id:c4 a ak:ReproducibilityClaim ; ak:restsOn ak:method .
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_reproducibility_hops_count_the_chain_and_recorded_is_the_records(bundled_copy, engine):
    """hop was 0 or 1 whatever the depth, and a category of the ontology was "recorded"
    (hunt14 finding 14)."""
    (bundled_copy / "data" / "LIT-801.ttl").write_text(CHAIN, encoding="utf-8")
    got = answer(bundled_copy, "reproducibility", "--engine", engine)
    chains = [
        (r["hop"], r["from"].rsplit("/")[-1], r["to"].rsplit("/")[-1], r["recorded"])
        for r in got
        if r["claim"] in (ID + "c3", ID + "c4")
    ]
    assert chains == [
        ("0", "c3", "c2", "true"),
        ("1", "c2", "LIT-801", "true"),
        ("2", "LIT-801", "c1", "true"),
        ("3", "c1", "ARXIV-2409.19256", "true"),
        ("0", "c4", "ns#method", "false"),
    ]
