"""baseline.compare_to_state: a base that cannot be validated counts as an empty one
(every result new) and says why; a base that validates is compared result by result."""

from __future__ import annotations

from pathlib import Path

from anthology_kg.baseline import compare_to_state
from anthology_kg.errors import AnthologyError
from anthology_kg.revisions import State
from anthology_kg.validation import Report, RuleResult


def _result(focus: str, line: int) -> RuleResult:
    return RuleResult(
        severity="Violation",
        focus=focus,
        path=None,
        value=None,
        message="broken",
        shape="https://example.org/shapes#S",
        rule=None,
        adr=None,
        file="data/X.ttl",
        line=line,
    )


def _state(root: Path) -> State:
    return State(name="old", root=root, files={"data/X.ttl": b""})


def test_a_base_that_does_not_load_makes_every_result_new(tmp_path):
    current = Report(results=[_result("a", 1), _result("b", 2)])
    told: list[AnthologyError] = []

    def does_not_load(folder: Path) -> Report:
        raise AnthologyError("not Turtle", folder / "data" / "X.ttl", 3)

    compared = compare_to_state(current, _state(tmp_path), does_not_load, told.append)
    assert [(r.focus, r.baseline) for r in compared.results] == [("a", "new"), ("b", "new")]
    assert [(e.message, e.line) for e in told] == [("not Turtle", 3)]


def test_a_base_that_validates_is_compared(tmp_path):
    current = Report(results=[_result("a", 1), _result("b", 2)])
    before = Report(results=[_result("a", 7), _result("c", 5)])
    told: list[AnthologyError] = []
    compared = compare_to_state(current, _state(tmp_path), lambda folder: before, told.append)
    assert sorted((r.focus, r.baseline) for r in compared.results) == [
        ("a", "unchanged"),
        ("b", "new"),
        ("c", "absent"),
    ]
    assert told == []


def test_results_alike_are_counted_not_only_matched():
    """hunt7 #8 with #1: two blank nodes of one entry failing one shape are two results of
    one key; against a base that had one, one is new (the first in file order matched),
    and a base that had three has one fixed."""
    from anthology_kg.baseline import compare_to_baseline

    one, two, three = (_result("a", line) for line in (1, 5, 9))
    compared = compare_to_baseline(Report(results=[two, one]), Report(results=[one]))
    assert [(r.line, r.baseline) for r in compared.results] == [(1, "unchanged"), (5, "new")]
    assert compared.count("Violation") == 1
    compared = compare_to_baseline(Report(results=[one]), Report(results=[one, two, three]))
    assert sorted(r.baseline or "" for r in compared.results) == ["absent", "absent", "unchanged"]


def test_a_result_waived_in_the_base_is_new_when_live():
    """hunt21 #1: of two results of one key, the base had one live and one waived; both
    live now: one is existing, the other new (its waiver is gone), and none is fixed."""
    from dataclasses import replace

    from anthology_kg.baseline import compare_to_baseline

    one, two = (_result("a", line) for line in (1, 5))
    base = Report(results=[one, replace(two, waived=True)])
    compared = compare_to_baseline(Report(results=[one, two]), base)
    assert [(r.line, r.baseline) for r in compared.results] == [(1, "unchanged"), (5, "new")]
    assert compared.count("Violation") == 1
    compared = compare_to_baseline(Report(results=[one, replace(two, waived=True)]), base)
    assert [(r.line, r.baseline) for r in compared.results] == [(1, "unchanged"), (5, "unchanged")]
    assert compared.count("Violation") == 0
