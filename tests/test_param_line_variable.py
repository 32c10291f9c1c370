"""A ``#+ param:`` line naming no variable of the query (a typo) is refused at its line,
exit 2, with the query's variables: its value would be bound to a variable the query
never uses, a required parameter that restricts nothing (hunt20 #4)."""

from __future__ import annotations

import pytest
from conftest import run_cli

AK = "https://w3id.org/anthology-kg/ns#"


@pytest.mark.parametrize(
    ("header", "variables", "said"),
    [
        (
            "#+ param: entyr — the entry\n#+ param-type: entyr entry\n",
            "?entry",
            "; did you mean 'entry'? (variables: ?c, ?entry)",
        ),
        (
            "#+ param: entyr — the entry\n",
            "?_entry_iri",
            "; did you mean 'entry'? (variables: ?_entry_iri, ?c)",
        ),
        # in a comment, the variable is no variable of the query
        ("#+ param: entry — the entry\n", "?e # ?entry", " (variables: ?c, ?e)"),
    ],
    ids=["param-type too", "a grlc variable", "in a comment"],
)
def test_a_param_naming_no_variable_is_refused_at_its_line(bundled_copy, header, variables, said):
    (bundled_copy / "queries").mkdir()
    stored = bundled_copy / "queries" / "typo.rq"
    subject = variables.split()[0]
    stored.write_text(
        f"#+ summary: typo\n{header}PREFIX ak: <{AK}>\n"
        f"SELECT ?c WHERE {{ {subject} ak:makesClaim ?c }} {variables[len(subject) :]}\n",
        encoding="utf-8",
    )
    name = header.split()[2]
    for args in (("queries",), ("query", "typo", "--param", f"{name}=LIT-168")):
        result = run_cli("--root", str(bundled_copy), *args)
        assert result.exit_code == 2, result.output
        assert result.stderr == (
            f"{stored}:2: #+ param names {name!r}, which is no variable of the query "
            f"(?{name}, or grlc's ?_{name}…){said}\n"
        )


def test_a_param_naming_a_variable_is_taken(bundled_copy):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "mine.rq").write_text(
        f"#+ summary: mine\n#+ param: entry — the entry\n#+ param-type: entry entry\n"
        f"PREFIX ak: <{AK}>\nSELECT ?c WHERE {{ ?entry ak:makesClaim ?c }}\n",
        encoding="utf-8",
    )
    result = run_cli("--root", str(bundled_copy), "query", "mine", "--param", "entry=LIT-168")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[2:] == ["id:LIT-168-reproducible", "(1 row)"]
