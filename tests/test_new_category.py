"""`new --category`: only a category the anthology admits is written (hunt1 F4)."""

import pytest
from conftest import run_cli


@pytest.mark.parametrize(
    ("category", "hint"),
    [
        ("infrastrcture", "; did you mean 'infrastructure'?"),
        ("Method", "; did you mean 'method'?"),
        ("survey", ""),
        ("a b", ""),
        ("x>y", ""),
        ("", ""),
    ],
)
def test_a_category_the_anthology_does_not_admit_is_refused(anthology, category, hint):
    before = sorted(p.name for p in (anthology / "data").iterdir())
    result = run_cli("new", "lit", "LIT-210", "--category", category)
    assert result.exit_code == 2, result.stdout
    assert result.stdout == ""
    assert result.stderr == (
        f"anthology-kg: --category {category!r} is not a category the anthology admits{hint} "
        "(admitted: evaluation, infrastructure, method)\n"
    )
    assert sorted(p.name for p in (anthology / "data").iterdir()) == before


def test_a_category_a_decision_record_of_the_anthology_admits_is_written(anthology):
    path = anthology / "data" / "ADR-032.ttl"
    text = path.read_text(encoding="utf-8")
    admits = "    ak:admitsCategory ak:evaluation, ak:infrastructure, ak:method ;\n"
    assert admits in text
    path.write_text(
        text.replace(admits, admits.replace("ak:method ;", "ak:method, ak:survey ;")), "utf-8"
    )
    result = run_cli("new", "lit", "LIT-210", "--category", "survey")
    assert result.exit_code == 0, result.stderr
    assert "ak:category ak:survey" in (anthology / "data" / "LIT-210.ttl").read_text("utf-8")


def test_an_empty_category_on_a_kind_without_one_is_refused(anthology):
    result = run_cli("new", "note", "NOTE-900", "--category", "")
    assert result.exit_code == 2
    assert "a note entry has no category" in result.stderr
    assert not (anthology / "data" / "NOTE-900.ttl").exists()


ADR = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix id: <https://w3id.org/anthology-kg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

id:ADR-001 a {kind} ;
    dcterms:identifier "ADR-001" ;
    rdfs:label "Categories" ;
    {admits}{status}.
"""

#: (what the decision record of a new anthology states, whether rule 1 admits ak:method)
DECISIONS = [
    ({}, False),
    ({"admits": "ak:admitsCategory ak:method ;\n    "}, True),
    ({"admits": "ak:admitsCategory ak:method ;\n    ", "status": "ak:status ak:accepted "}, True),
    ({"admits": "ak:admitsCategory ak:method ;\n    ", "status": "ak:status ak:proposed "}, False),
    (
        {"admits": "ak:admitsCategory ak:method ;\n    ", "status": "ak:status ak:superseded "},
        False,
    ),
    (
        {"admits": "ak:admitsCategory ak:method ;\n    ", "status": "ak:status ak:deprecated "},
        False,
    ),
    (
        {
            "admits": "ak:admits [ ak:admittedCategory ak:method ] ;\n    ",
            "status": "ak:status ak:accepted ",
        },
        True,
    ),
    ({"admits": "ak:admitsCategory ak:evaluation ;\n    "}, False),
    ({"kind": "ak:Note", "admits": "ak:admitsCategory ak:method ;\n    "}, False),
]


def _new_anthology(root, decision):
    (root / "data").mkdir()
    if decision:
        fields = {"kind": "ak:DecisionRecord", "admits": "", "status": "", **decision}
        (root / "data" / "ADR-001.ttl").write_text(ADR.format(**fields), encoding="utf-8")
    return root


@pytest.mark.parametrize(("decision", "admitted"), DECISIONS)
def test_new_admits_a_category_exactly_when_rule_1_does(tmp_path, decision, admitted):
    """hunt21 #8: `new` listed method, evaluation and infrastructure as admitted (the
    words of RECORD_FORMAT.md and the ontology) where rule 1 admits what a decision
    record in force admits: in a new anthology, nothing; the reference it wrote then
    failed rule 1."""
    root = _new_anthology(tmp_path, decision)
    result = run_cli(
        "--root", str(root), "new", "reference", "ARXIV-2501.00001", "--category", "method"
    )
    assert result.exit_code == (0 if admitted else 2), result.output
    written = root / "data" / "ARXIV-2501.00001.ttl"
    assert written.exists() is admitted
    if not admitted:  # rule 1, given the category by hand, says the same
        written.write_text(
            "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
            "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
            "id:ARXIV-2501.00001 a ak:Reference ; ak:category ak:method .\n",
            encoding="utf-8",
        )
    check = run_cli("--root", str(root), "check", "--select", "aks:Rule1AdmittedCategory")
    assert check.exit_code == (0 if admitted else 1), check.output


def test_with_no_category_admitted_new_says_what_to_write(tmp_path):
    root = _new_anthology(tmp_path, {})
    result = run_cli("--root", str(root), "new", "lit", "LIT-001", "--category", "method")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "anthology-kg: --category 'method' is not a category the anthology admits: no"
        " decision record in force admits one (rule 1): write one first (anthology-kg new"
        " adr ADR-001), give it ak:admitsCategory ak:method and ak:status ak:accepted (a"
        " proposed, superseded or deprecated record admits nothing), or leave --category"
        " out\n"
    )
    assert list((root / "data").iterdir()) == []


def test_the_admitted_categories_listed_are_those_in_force(tmp_path):
    root = _new_anthology(
        tmp_path, {"admits": "ak:admitsCategory ak:method, ak:evaluation ;\n    "}
    )
    (root / "data" / "ADR-002.ttl").write_text(
        ADR.format(
            kind="ak:DecisionRecord",
            admits="ak:admitsCategory ak:infrastructure ;\n    ",
            status="ak:status ak:superseded ",
        ).replace("ADR-001", "ADR-002"),
        encoding="utf-8",
    )
    result = run_cli("--root", str(root), "new", "lit", "LIT-001", "--category", "infrastructure")
    assert result.exit_code == 2
    assert result.stderr == (
        "anthology-kg: --category 'infrastructure' is not a category the anthology admits"
        " (admitted: evaluation, method)\n"
    )


OWN_READ_RULE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
ak:MustBeRead a sh:NodeShape ; sh:targetClass ak:LiteratureRecord ;
    sh:property [ sh:path ak:readingStatus ; sh:in ( ak:read ) ; sh:message "read it first" ] .
"""


def test_new_names_a_value_to_change_not_a_property_to_fill_in(anthology):
    """hunt21 #8: "to fill in: ak:category (… not admitted …)" for an entry that has
    one; a result about a value the entry has says to change that value."""
    (anthology / "ontology" / "shapes").mkdir(parents=True)
    (anthology / "ontology" / "shapes" / "own.ttl").write_text(OWN_READ_RULE, "utf-8")
    result = run_cli("new", "lit", "LIT-210", "--title", "T", "--category", "method")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == [
        "to change: ak:readingStatus ak:unread (read it first)",
    ]


def test_the_query_of_new_reads_what_rule_1_reads():
    """``ADMITTED_CATEGORIES`` is the test of aks:Rule1AdmittedCategory's query, written
    again: a change to the one must be made to the other."""
    import re

    from conftest import REPO

    from anthology_kg.authoring import ADMITTED_CATEGORIES

    def words(text: str) -> str:
        return " ".join(re.sub(r"#[^\n]*", "", text).split())

    shapes = words((REPO / "ontology" / "shapes" / "adr-032.ttl").read_text(encoding="utf-8"))
    test = words(ADMITTED_CATEGORIES.split("WHERE {", 1)[1].rsplit("}", 1)[0])
    assert test.replace("?category", "?value") in shapes
