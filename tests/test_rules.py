"""Every rule has a good and a bad fixture anthology; the bad one gives exactly these results."""

from pathlib import Path

import pytest
from conftest import FIXTURES, reference_results
from rdflib import URIRef

from anthology_kg.loader import load_anthology
from anthology_kg.namespaces import AKS
from anthology_kg.validation import validate

RULES = FIXTURES / "rules"
A = "ADR-032"
ID = "dcterms:identifier"
AL = "ak:algorithm"

# (severity, focus, shape, adr, file, line, path, value): the line of the triple at
# fault, or of the focus entry's subject where no single triple is (a missing value)
EXPECTED = {
    "rule1-bad": {
        (
            "Violation",
            "ARXIV-2401.00001",
            "Rule1AdmittedCategory",
            A,
            "ARXIV-2401.00001.ttl",
            8,
            "ak:category",
            "ak:survey",
        ),
        # A missing category: no value. (SHACL 5.3.2 makes the focus the SPARQL
        # constraint's sh:value, which the W3C report graph keeps; a report to people
        # would show it as the value at fault.)
        ("Violation", "LIT-001", "Rule1OneCategory", A, "LIT-001.ttl", 6, "ak:category", None),
        ("Violation", "LIT-002", "Rule1OneCategory", A, "LIT-002.ttl", 8, "ak:category", None),
        # A stated unknown of another property does not stand for the category.
        ("Violation", "LIT-003", "Rule1OneCategory", A, "LIT-003.ttl", 7, "ak:category", None),
        # A category and a stated unknown of it contradict each other (hunt3 F12); the
        # stated unknown is reported as well, as the data gives it.
        (
            "Violation",
            "LIT-004",
            "Rule1OneCategory",
            A,
            "LIT-004.ttl",
            8,
            "ak:category",
            "ak:method",
        ),
        (
            "Info",
            "LIT-004",
            "Rule1CategoryNotStated",
            A,
            "LIT-004.ttl",
            6,
            "ak:notStated/ak:unknownProperty",
            "ak:category",
        ),
    },
    # The record does not state the category: accepted, and reported as Info.
    "rule1-unstated": {
        (
            "Info",
            "LIT-001",
            "Rule1CategoryNotStated",
            A,
            "LIT-001.ttl",
            8,
            "ak:notStated/ak:unknownProperty",
            "ak:category",
        ),
    },
    # Admissions written as n-ary nodes (ak:admits): an in-force one admits, a deprecated
    # one does not.
    "rule1-nary": {
        (
            "Violation",
            "LIT-002",
            "Rule1AdmittedCategory",
            A,
            "LIT-002.ttl",
            8,
            "ak:category",
            "ak:evaluation",
        ),
    },
    # A literature record that says it admits a category admits none (hunt3 F12).
    "rule1-admitter-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule1AdmittedCategory",
            A,
            "LIT-001.ttl",
            9,
            "ak:category",
            "ak:folklore",
        ),
    },
    "rule2-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule2NoPracticeOnInfrastructure",
            A,
            "LIT-001.ttl",
            8,
            "ak:category",
            "ak:infrastructure",
        ),
    },
    "rule3-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule3NoVerdictOnInfrastructure",
            A,
            "LIT-001.ttl",
            8,
            "ak:category",
            "ak:infrastructure",
        ),
    },
    "rule4-bad": {
        (
            "Warning",
            "LIT-001",
            "Rule4InfrastructureHeldForAReason",
            A,
            "LIT-001.ttl",
            6,
            None,
            None,
        ),
    },
    # A claim an infrastructure entry makes itself does not hold it, whether it rests on
    # the entry or on a codebase the entry describes (hunt3 F14).
    "rule4-own-bad": {
        ("Warning", name, "Rule4InfrastructureHeldForAReason", A, f"{name}.ttl", 7, None, None)
        for name in ("LIT-001", "LIT-002")
    },
    "rule5-bad": {
        ("Violation", "LIT-001", "Rule5ReadNeedsNote", None, "LIT-001.ttl", 6, None, "LIT-001"),
        (
            "Violation",
            "LIT-002",
            "Rule5UnreadHasNoNote",
            None,
            "LIT-001.ttl",
            14,
            "ak:readingStatus",
            "ak:unread",
        ),
    },
    # A status that is a string is reported, and an unread entry's note is an ak:Note,
    # as a read entry's is (hunt14 finding 12: one that is no note passes, -good).
    "rule5-status-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule5ReadOrUnread",
            None,
            "LIT-001.ttl",
            10,
            "ak:readingStatus",
            "read",
        ),
        (
            "Violation",
            "LIT-002",
            "Rule5UnreadHasNoNote",
            None,
            "LIT-001.ttl",
            16,
            "ak:readingStatus",
            "ak:unread",
        ),
    },
    # What a read entry gives as its note is a literature record, no note (hunt3 F11).
    "rule5-note-bad": {
        ("Violation", "LIT-001", "Rule5ReadNeedsNote", None, "LIT-001.ttl", 7, None, "LIT-001"),
    },
    # Each figure is a blank node of its own, placed at the triple that holds it (hunt7
    # #8: all were at the entry's subject, line 6, and alike ones one result).
    "rule6-bad": {
        # LIT-001-speed's range names neither.
        *(
            ("Violation", "LIT-001", f"Rule6RangeNames{name}", None, "LIT-001.ttl", 12, path, None)
            for name, path in (("Algorithm", "ak:algorithm"), ("Baseline", "ak:baseline"))
        ),
        # LIT-001-other's range states its algorithm as unknown, and says nothing of its
        # baseline.
        (
            "Info",
            "LIT-001",
            "Rule6PairNotStated",
            None,
            "LIT-001.ttl",
            15,
            "ak:notStated/ak:unknownProperty",
            "ak:algorithm",
        ),
        (
            "Violation",
            "LIT-001",
            "Rule6RangeNamesBaseline",
            None,
            "LIT-001.ttl",
            15,
            "ak:baseline",
            None,
        ),
        # LIT-001-each's range names two algorithms: no pair (hunt3 F13), at the first.
        (
            "Violation",
            "LIT-001",
            "Rule6FigureNamesOnePair",
            None,
            "LIT-001.ttl",
            22,
            "ak:algorithm",
            None,
        ),
        # Its point figure names neither (the figure lacks them: no value, which is the
        # focus in the W3C report graph).
        *(
            ("Violation", "LIT-001", f"Rule6RangeNames{name}", None, "LIT-001.ttl", 23, path, None)
            for name, path in (("Algorithm", "ak:algorithm"), ("Baseline", "ak:baseline"))
        ),
    },
    # A value and a stated unknown of it contradict each other, as rule 1's category
    # (hunt14 finding 13); the stated unknowns are reported as well, as the data gives them.
    "rule6-contradiction-bad": {
        *(
            (
                "Info",
                "LIT-001",
                "Rule6PairNotStated",
                None,
                "LIT-001.ttl",
                14,
                "ak:notStated/ak:unknownProperty",
                prop,
            )
            for prop in ("ak:algorithm", "ak:baseline")
        ),
        *(
            ("Violation", "LIT-001", "Rule6PairNotContradicted", None, "LIT-001.ttl", line, p, v)
            for line, p, v in ((18, "ak:algorithm", "ak:PPO"), (19, "ak:baseline", "ak:ES"))
        ),
    },
    # A figure's algorithm that is no ak:Algorithm (hunt23): a category, an entry, a
    # text; the point figure of a claim quoting no range is not asked (-good: the
    # vocabulary's, one the anthology declares, one of a subclass it declares).
    "rule6-algorithm-bad": {
        ("Violation", "LIT-001", "Rule6RangeNamesAlgorithm", None, "LIT-001.ttl", line, AL, v)
        for line, v in ((15, "ak:infrastructure"), (17, "SOTA-001"), (19, "PPO"))
    },
    "rule6-unstated": {
        (
            "Info",
            "LIT-001",
            "Rule6PairNotStated",
            None,
            "LIT-001.ttl",
            13,
            "ak:notStated/ak:unknownProperty",
            prop,
        )
        for prop in ("ak:algorithm", "ak:baseline")
    },
    "rule7-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule7ReproducibilityRestsOnRecord",
            None,
            "LIT-001.ttl",
            11,
            "ak:restsOn",
            None,
        ),
        # It rests on a claim only: no value is at fault (rule 7 asks for at least one
        # codebase or entry, hunt3 F6), the line is the triple's.
        (
            "Violation",
            "LIT-001",
            "Rule7ReproducibilityRestsOnRecord",
            None,
            "LIT-001.ttl",
            14,
            "ak:restsOn",
            None,
        ),
    },
    # Resting on a claim and on a text, nothing of the record: one result, not one for
    # each value (rule7-some-good: with a codebase or entry besides them, it conforms).
    "rule7-some-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule7ReproducibilityRestsOnRecord",
            None,
            "LIT-001.ttl",
            16,
            "ak:restsOn",
            None,
        ),
    },
    "rule8-bad": {
        (
            "Violation",
            "LIT-01",
            "Rule8LiteratureIdentifier",
            None,
            "LIT-01.ttl",
            7,
            "dcterms:identifier",
            "LIT-01",
        ),
        (
            "Violation",
            "SOTA-001",
            "Rule8UniqueIdentifier",
            None,
            "SOTA-001.ttl",
            7,
            "dcterms:identifier",
            "SOTA-001",
        ),
        (
            "Violation",
            "SOTA-001",
            "Rule8UniqueIdentifier",
            None,
            "SOTA-001.ttl",
            10,
            "dcterms:identifier",
            "SOTA-001",
        ),
        # Each kind's pattern (review10 F3: a weakened pattern went unnoticed).
        *(
            ("Violation", name, f"Rule8{kind}Identifier", None, f"{name}.ttl", 7, ID, name)
            for name, kind in (
                ("ADR-1", "Decision"),
                ("SOTA-01", "Sota"),
                ("NOTE-01", "Note"),
                ("ARXIV-2409.192", "Reference"),
                ("CODEBASE-", "Codebase"),
                ("COMPARISON-_x", "Comparison"),
                ("SWEEP_backlog", "Sweep"),
                ("question-x", "Question"),
            )
        ),
        # Exactly one identifier, a string: two (one of them language-tagged), and none.
        ("Violation", "SOTA-002", "Rule8OneIdentifier", None, "SOTA-002.ttl", 10, ID, None),
        ("Violation", "SOTA-002", "Rule8OneIdentifier", None, "SOTA-002.ttl", 10, ID, "SOTA-002"),
        ("Violation", "id:SOTA-003", "Rule8OneIdentifier", None, "SOTA-002.ttl", 13, ID, None),
    },
    # Each class its own prefix: another class's is no identifier of it (hunt14 finding 11).
    "rule8-kind-bad": {
        ("Violation", name, f"Rule8{kind}Identifier", None, f"{name}.ttl", 7, ID, name)
        for name, kind in (
            ("QUESTION-q", "Codebase"),
            ("SWEEP-z", "Comparison"),
            ("CODEBASE-s", "Sweep"),
            ("COMPARISON-o", "Question"),
        )
    },
    "rule9-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            9,
            "dcterms:references",
            "id:LIT-999",
        ),
    },
    # Rule 9 from any node that points, typed or not, through any property of ak: and
    # the references between works; what a reference points at is an entry (hunt3 F5).
    "rule9-reach-bad": {
        # Described by the record, but no entry: no identifier, no type.
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            10,
            "dcterms:references",
            "id:LIT-002",
        ),
        # From a claim written as an untyped blank node.
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            11,
            "ak:restsOn",
            "id:GHOST-1",
        ),
        # From untyped blank nodes through other properties of ak: (hunt14 #2): what a
        # recommendation prefers, and a figure's algorithm in a claim.
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            13,
            "ak:preferred",
            "id:GHOST-2",
        ),
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            14,
            "ak:algorithm",
            "ak:GHOST-3",
        ),
        (
            "Violation",
            "id:LIT-001-cites",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            18,
            "cito:hasCitedEntity",
            "id:ARXIV-9999.00001",
        ),
        (
            "Violation",
            "QUESTION-x",
            "Rule9NoDanglingReference",
            None,
            "QUESTION-x.ttl",
            11,
            "ak:concerns",
            "id:COMPARISON-x-es",
        ),
    },
    # An entry pointed at by its identifier as a text (hunt19 #2): the text is the focus
    # node (a value of the property), placed at the triple that holds it.
    "rule9-text-bad": {
        (
            "Violation",
            "ADR-001",
            "Rule9ReferenceIsNoText",
            None,
            "LIT-001.ttl",
            11,
            None,
            "ADR-001",
        ),
        (
            "Violation",
            "LIT-001",
            "Rule9ReferenceIsNoText",
            None,
            "QUESTION-x.ttl",
            9,
            None,
            "LIT-001",
        ),
    },
    # What an open question concerns, and the property it asks for, written as a text
    # (hunt23): the question is the focus, the result names the property at fault
    # (-good: IRIs; a property as a blank node: tests/test_rule_values.py).
    "rule9-concerns-bad": {
        ("Violation", q, "Rule9ConcernIsNoText", None, f"{q}.ttl", line, path, value)
        for q, line, path, value in (
            ("QUESTION-x", 12, "ak:concerns", "COMPARISON-x-a"),
            ("QUESTION-y", 10, "ak:concerns", "COMPARISON-x"),
            ("QUESTION-y", 11, "ak:concernsProperty", "trainedWith"),
        )
    },
    # A class of ak: the ontology does not define, misspelt (hunt21 #2): the entry and
    # a claim of it, placed at the type each names.
    "rule9-class-bad": {
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            9,
            "rdf:type",
            "ak:LiteratureRecrod",
        ),
        (
            "Violation",
            "LIT-001",
            "Rule9NoDanglingReference",
            None,
            "LIT-001.ttl",
            15,
            "rdf:type",
            "ak:ReproducibiltyClaim",
        ),
    },
    # Terms of ak: nothing defines, misspelt, as values of properties with no range:
    # found with --inference too (tests/test_rule9_terms.py), placed at the value.
    "rule9-term-bad": {
        (
            "Violation",
            "QUESTION-q",
            "Rule9NoDanglingReference",
            None,
            "QUESTION-q.ttl",
            11,
            "ak:concernsProperty",
            "ak:trainedWth",
        ),
        (
            "Violation",
            "QUESTION-q",
            "Rule9NoDanglingReference",
            None,
            "QUESTION-q.ttl",
            12,
            "ak:unknownProperty",
            "ak:relasedOn",
        ),
    },
    "rule10-bad": {
        # A SPARQL constraint now ("another" compares with the focus): no value.
        ("Violation", "ADR-002", "Rule10SupersededIsReplaced", None, "ADR-002.ttl", 6, None, None),
        (
            "Violation",
            "COMPARISON-x",
            "Rule10ComparisonHasTwoArms",
            None,
            "COMPARISON-x.ttl",
            8,
            "ak:arm",
            None,
        ),
        (
            "Violation",
            "COMPARISON-x",
            "Rule10ArmHasAlgorithm",
            None,
            "COMPARISON-x.ttl",
            10,
            "ak:algorithm",
            None,
        ),
    },
    # An arm's algorithm that is no ak:Algorithm (hunt23): a category, an entry, a text.
    "rule10-algorithm-bad": {
        (
            "Violation",
            "COMPARISON-x",
            "Rule10ArmHasAlgorithm",
            None,
            "COMPARISON-x.ttl",
            line,
            AL,
            v,
        )
        for line, v in ((12, "ak:infrastructure"), (15, "SOTA-001"), (18, "PPO"))
    },
    # A status that is none of the ontology's (hunt23): a text, a language-tagged text, a
    # status of one's own (-good: each of the ontology's four).
    "rule10-status-bad": {
        ("Violation", adr, "Rule10KnownStatus", None, f"{adr}.ttl", line, "ak:status", value)
        for adr, line, value in (
            ("ADR-002", 10, "superseded"),
            ("ADR-003", 8, "deprecated"),
            ("ADR-004", 9, "https://example.org/retired"),
        )
    },
    # Replaced by itself only, or by an entry that is no decision record (hunt3 F10;
    # rule10-replaced-good: dcterms:isReplacedBy alone replaces).
    "rule10-replaced-bad": {
        ("Violation", name, "Rule10SupersededIsReplaced", None, f"{name}.ttl", 7, None, None)
        for name in ("ADR-002", "ADR-003")
    },
}


def observed(root: Path, drop: set[str] = frozenset()):
    if drop:
        anthology = load_anthology(root)
        for name in drop:
            anthology.shapes.remove((AKS[name], None, None))
        found = validate(anthology).results
    else:  # the whole rules: the reference results, once per session (conftest)
        found = reference_results(root)
    return {
        (
            r.severity,
            r.focus,
            r.shape.removeprefix("aks:"),
            r.adr,
            Path(r.file).name,
            r.line,
            r.path,
            r.value,
        )
        for r in found
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_fixture_gives_exactly_the_expected_results(name):
    assert observed(RULES / name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n.endswith("-bad")))
def test_good_fixture_conforms_without_warnings(name):
    good = RULES / name.replace("-bad", "-good")
    assert observed(good) == set()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_results_come_from_the_shapes(name):
    """Without the rule's shapes, the bad fixture gives none of its results."""
    shapes = {expected[2] for expected in EXPECTED[name]}
    assert observed(RULES / name, drop=shapes) == set()


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_rule6_asks_a_pair_of_each_figure_of_a_claim_quoting_a_range(engine):
    """Every figure of such a claim, its point figures too, names one algorithm and one
    baseline (hunt3 F13). The figures are blank nodes of one entry: the engine's rows
    (every SHACL result) are counted here, as the report counts them (one result each)."""
    from collections import Counter

    from anthology_kg.engine import open_engine

    report = validate(open_engine(engine, root=RULES / "rule6-bad"))
    said = Counter(
        str(getattr(message, "value", message))
        for row in report.rows
        for message in row.messages
        if "#Violation" in str(row.severity)
    )
    assert said == {
        # LIT-001-speed's range and LIT-001-each's point figure; LIT-001-other's range
        # states its algorithm unknown, and names no baseline either
        "Integrity rule 6: a figure of a claim quoting a range names no algorithm": 2,
        "Integrity rule 6: a figure of a claim quoting a range names no baseline": 3,
        # LIT-001-each's range: PPO and GRPO
        "Integrity rule 6: a figure of a claim quoting a range names more than one "
        "algorithm or baseline, so no pair": 1,
    }


def test_bundled_anthology_conforms_only_through_stated_unknowns():
    """No rule is broken, and the gaps the record leaves are reported, not filled in."""
    report = validate(load_anthology())
    assert report.conforms
    assert {(r.severity, r.focus, r.shape, r.value) for r in report.results} == {
        ("Info", "LIT-168", "aks:Rule1CategoryNotStated", "ak:category"),
        ("Info", "ARXIV-2409.19256", "aks:Rule6PairNotStated", "ak:algorithm"),
        ("Info", "ARXIV-2409.19256", "aks:Rule6PairNotStated", "ak:baseline"),
    }


def test_check_on_the_bundled_anthology_shows_the_stated_unknowns_in_its_summary():
    from conftest import run_cli

    result = run_cli("check")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("conforms: 0 violation(s), 0 warning(s), 0 waived, 3 info(s)")
    unstated = [line for line in lines if " Info " in line and "not stated" in line]
    assert len(unstated) == 3
    assert any(line.startswith("data/LIT-168.ttl:") for line in unstated)


def test_every_rule_of_design_has_a_shape_with_a_message_naming_its_source():
    from anthology_kg.rules import rule_catalog

    rules = rule_catalog(load_anthology())
    assert {r.number for r in rules} == set(range(1, 11))
    for rule in rules:
        assert rule.message and (rule.adr or "Integrity") in rule.message
        assert (rule.adr == A) == (rule.number <= 4)
        if rule.name.endswith("NotStated"):
            # The shapes that report a gap a rule accepts (a stated unknown).
            assert rule.severity == "Info" and rule.number in (1, 6)
        else:
            assert rule.severity == ("Warning" if rule.number == 4 else "Violation")
        assert isinstance(rule.node, URIRef)


def test_inference_modes_agree_on_a_bad_fixture():
    plain = {(r.focus, r.shape) for r in reference_results(RULES / "rule2-bad")}
    for inference in ("rdfs", "owlrl"):
        report = validate(load_anthology(RULES / "rule2-bad"), inference)
        assert {(r.focus, r.shape) for r in report.results} == plain


def test_rule9_starts_from_every_node_that_uses_a_property_of_ak_the_ontology_declares():
    """Rule 9's focus nodes are every subject of an ak: property the ontology declares
    (all but its datatype properties, whose values are texts): a new property of the
    ontology is a pointer rule 9 follows from untyped nodes too (hunt14 #2)."""
    from rdflib import OWL, RDF, Graph
    from rdflib.namespace import SH

    from anthology_kg import resources
    from anthology_kg.namespaces import AK

    ontology = Graph().parse(resources.ontology_file())
    declared = {
        p
        for kind in (OWL.ObjectProperty, OWL.AnnotationProperty, OWL.DatatypeProperty)
        for p in ontology.subjects(RDF.type, kind)
        if str(p).startswith(str(AK)) and (p, RDF.type, OWL.DatatypeProperty) not in ontology
    }
    shapes = Graph().parse(resources.bundled_dir() / "ontology" / "shapes" / "integrity.ttl")
    targets = set(shapes.objects(AKS.Rule9NoDanglingReference, SH.targetSubjectsOf))
    assert len(declared) == 47
    assert declared <= targets
