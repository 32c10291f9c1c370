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
