"""A waiver must name a rule that exists and give one expiry date (hunt1 F8): else it is
an AK000 violation at its line, as an incomplete waiver is, not a waiver of nothing."""

import pytest
from conftest import rules_fixture_copy, run_cli, waiver_text

DANGLING = (
    "data/LIT-001.ttl:9:36: AK009 Violation [integrity] Integrity rule 9: points at "
    "something the record does not have (LIT-001, dcterms:references id:LIT-999)"
)


@pytest.fixture
def root(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule9-bad")
    monkeypatch.chdir(root)  # files are shown relative to it
    return root


def check(root, rule: str, expires: str = '"2999-12-31"^^xsd:date', *options: str):
    (root / "waivers.ttl").write_text(waiver_text(expires, rule), "utf-8")
    return run_cli("--root", str(root), "check", *options)


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        ('"AK999"', "the waiver names no rule 'AK999'; did you mean 'AK009'?"),
        ('"ak009"', "the waiver names no rule 'ak009'; did you mean 'AK009'?"),
        (
            "aks:Rule9NoDanglingReferences",
            "the waiver names no rule 'aks:Rule9NoDanglingReferences'; "
            "did you mean 'aks:Rule9NoDanglingReference'?",
        ),
        (
            '"https://w3id.org/anthology-kg/shapes#Rule9NoDanglingReference"',
            "the waiver names no rule "
            "'https://w3id.org/anthology-kg/shapes#Rule9NoDanglingReference'",
        ),
        ('"nothing like a rule"', "the waiver names no rule 'nothing like a rule'"),
        # The shapes file's prefix declarations are no shape.
        ("aks:prefixes", "the waiver names no rule 'aks:prefixes'"),
    ],
)
def test_a_waiver_naming_no_rule_is_a_violation_at_its_line(root, rule, problem, engine):
    result = check(root, rule, '"2999-12-31"^^xsd:date', "--engine", engine)
    assert result.exit_code == 1, result.stderr
    assert result.stdout.splitlines() == [
        DANGLING,
        f"waivers.ttl:6:1: AK000 Violation [integrity] Waiver: {problem} (LIT-001)",
        "does not conform: 2 violation(s), 0 warning(s), 0 waived, 33 rule shapes",
    ]


@pytest.mark.parametrize(
    "expires",
    [
        '"2000-01-01"^^xsd:date, "2999-12-31"^^xsd:date',
        '"2999-12-31"^^xsd:date, "2998-01-01"^^xsd:date',
    ],
)
def test_a_waiver_with_two_expiry_dates_is_a_violation_at_its_line(root, expires):
    result = check(root, "aks:Rule9NoDanglingReference", expires)
    assert result.exit_code == 1, result.stderr
    dates = sorted(expires.replace('"', "").replace("^^xsd:date", "").split(", "))
    assert result.stdout.splitlines() == [
        DANGLING,
        "waivers.ttl:6:1: AK000 Violation [integrity] Waiver: a waiver has one expiry "
        f"date (ak:expires), not 2: {', '.join(dates)} (LIT-001)",
        "does not conform: 2 violation(s), 0 warning(s), 0 waived, 33 rule shapes",
    ]


@pytest.mark.parametrize(
    "rule",
    [
        '"AK009"',
        '"aks:Rule9NoDanglingReference"',
        "aks:Rule9NoDanglingReference",
        "<https://w3id.org/anthology-kg/shapes#Rule9NoDanglingReference>",
    ],
)
def test_a_waiver_naming_a_rule_waives_it(root, rule):
    result = check(root, rule)
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[-1] == (
        "conforms: 0 violation(s), 0 warning(s), 1 waived, 33 rule shapes"
    )


OWN_SHAPE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
<urn:x:Mine> a sh:PropertyShape ; sh:targetClass ak:LiteratureRecord ;
    sh:path <urn:x:nothing> ; sh:minCount 1 ; sh:message "mine" .
"""


@pytest.mark.parametrize("rule", ["<urn:x:Mine>", '"urn:x:Mine"'])
def test_a_waiver_naming_a_shape_of_ones_own_by_its_iri_waives_it(root, rule):
    (root / "ontology" / "shapes").mkdir(parents=True)
    (root / "ontology" / "shapes" / "mine.ttl").write_text(OWN_SHAPE, "utf-8")
    (root / "data" / "LIT-001.ttl").write_text(
        (root / "data" / "LIT-001.ttl").read_text("utf-8").replace("id:LIT-999", "id:LIT-001"),
        "utf-8",
    )
    result = check(root, rule)
    assert result.exit_code == 0, result.stdout
    assert "urn:x:Mine Violation (waived: LIT-999 is being written)" in result.stdout
    assert result.stdout.splitlines()[-1].startswith(
        "conforms: 0 violation(s), 0 warning(s), 1 waived"
    )


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(
    "expires",
    # Python 3.11's date.fromisoformat takes these (ISO 8601's basic, week and ordinal
    # forms): none is xsd:date's lexical form, so none is an expiry date.
    ['"29991231"^^xsd:date', '"2999-W01-1"^^xsd:date', '"2999-001"', '"2999-02-29"^^xsd:date'],
)
def test_an_expiry_not_in_xsd_date_form_is_a_violation_at_its_line(root, expires, engine):
    result = check(root, "aks:Rule9NoDanglingReference", expires, "--engine", engine)
    assert result.exit_code == 1, result.stderr
    written = expires.split('"')[1]
    assert result.stdout.splitlines() == [
        DANGLING,
        f"waivers.ttl:6:1: AK000 Violation [integrity] Waiver: the waiver's expiry {written} "
        "is not a date (YYYY-MM-DD, xsd:date's form, a time zone allowed) (LIT-001)",
        "does not conform: 2 violation(s), 0 warning(s), 0 waived, 33 rule shapes",
    ]


@pytest.mark.parametrize(
    ("expires", "waived"),
    [
        ('"2999-12-31Z"^^xsd:date', True),
        ('"2999-12-31+14:00"^^xsd:date', True),
        ('"12999-01-01"^^xsd:date', True),  # past year 9999, which Python's dates end at
        ('"2000-01-01-12:00"^^xsd:date', False),
        ('"-0044-03-15"^^xsd:date', False),  # before year 1
    ],
)
def test_an_expiry_in_xsd_date_form_with_a_time_zone_or_any_year_is_read(root, expires, waived):
    result = check(root, "aks:Rule9NoDanglingReference", expires)
    if waived:
        assert result.exit_code == 0, result.stdout
        assert result.stdout.splitlines()[-1] == (
            "conforms: 0 violation(s), 0 warning(s), 1 waived, 33 rule shapes"
        )
    else:
        assert result.exit_code == 1, result.stdout
        written = expires.split('"')[1]
        assert f"Waiver: the waiver expired on {written}: LIT-999 is being written" in (
            result.stdout
        )


LABELLED_BLANK_SHAPE = """@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix sh: <http://www.w3.org/ns/shacl#> .
[] a sh:NodeShape ; rdfs:label "NeedsComment" ; sh:targetClass ak:LiteratureRecord ;
    sh:property [ sh:path rdfs:comment ; sh:minCount 1 ] .
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_waiver_naming_a_labelled_blank_shape_waives_it(tmp_path, engine):
    """hunt7 #9: its results' code is the label, which --ignore took, but a waiver naming
    it was a violation ("the waiver names no rule 'NeedsComment'")."""
    root = rules_fixture_copy(tmp_path, "rule9-bad", LABELLED_BLANK_SHAPE)
    result = check(root, '"NeedsComment"', '"2999-12-31"^^xsd:date', "--engine", engine)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert [line for line in lines if "AK000" in line] == []
    assert "NeedsComment Violation (waived: LIT-999 is being written)" in result.stdout
    assert lines[-1] == "does not conform: 1 violation(s), 0 warning(s), 1 waived, 33 rule shapes"


def waiver_of(waives: str, rule: str, comment: str) -> str:
    """A waivers.ttl of one waiver, its ``ak:waives``, ``ak:rule`` and ``rdfs:comment``
    objects written as given (Turtle terms)."""
    return f"""@prefix ak: <https://w3id.org/anthology-kg/ns#> .
@prefix aks: <https://w3id.org/anthology-kg/shapes#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<waiver/w> a ak:Waiver ; ak:waives {waives} ; ak:rule {rule} ;
    rdfs:comment {comment} ; ak:expires "2999-12-31"^^xsd:date .
"""


INCOMPLETE = "a waiver names the focus entry, the rule, a reason and an expiry date"


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(
    ("waives", "rule", "comment", "problem", "focus"),
    [
        (
            "<LIT-001>, <ADR-001>",
            '"AK009"',
            '"later"',
            "a waiver has one focus entry (ak:waives), not 2: ADR-001, LIT-001",
            "ADR-001",
        ),
        (
            "<LIT-001>",
            '"AK009", "AK001"',
            '"later"',
            "a waiver has one rule (ak:rule), not 2: AK001, AK009",
            "LIT-001",
        ),
        (
            "<LIT-001>",
            '"AK009"',
            '"later", "sooner"',
            "a waiver has one reason (rdfs:comment), not 2: 'later', 'sooner'",
            "LIT-001",
        ),
        (
            "<LIT-001>",
            '"AK009"',
            '""',
            f"{INCOMPLETE}: its reason (rdfs:comment) is empty",
            "LIT-001",
        ),
        (
            "<LIT-001>",
            '"AK009"',
            '"  \\t"',
            f"{INCOMPLETE}: its reason (rdfs:comment) is empty",
            "LIT-001",
        ),
    ],
)
def test_a_second_value_or_an_empty_reason_is_an_incomplete_waiver(
    root, engine, waives, rule, comment, problem, focus
):
    """hunt7 #7: a second ak:waives, ak:rule or rdfs:comment was dropped without a word
    (the second entry stayed unwaived), and an empty reason waived nothing and said
    nothing. Each is an AK000 violation at the waiver, which waives nothing."""
    (root / "waivers.ttl").write_text(waiver_of(waives, rule, comment), "utf-8")
    result = run_cli("--root", str(root), "check", "--engine", engine)
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines() == [
        DANGLING,
        f"waivers.ttl:6:1: AK000 Violation [integrity] Waiver: {problem} ({focus})",
        "does not conform: 2 violation(s), 0 warning(s), 0 waived, 33 rule shapes",
    ]
