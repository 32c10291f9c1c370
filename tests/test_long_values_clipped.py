"""A value given on a command line or in a file is quoted in a one-line message up to 80
characters, then with its length; a list of entries up to ten, then with how many more:
a 100 KB ``--param`` value or a file describing 10,000 entries no longer floods a CI
log with one line."""

from __future__ import annotations

from conftest import rules_fixture_copy, run_cli

from anthology_kg.errors import clipped, first_of


def test_clipped_and_first_of():
    assert clipped("x" * 80) == repr("x" * 80)
    assert clipped("x" * 81) == f"'{'x' * 80}'… (81 characters)"
    assert first_of([str(i) for i in range(10)]) == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9"
    assert first_of([str(i) for i in range(12)]) == "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 2 more"


def test_a_long_param_value_is_clipped_in_its_error(tmp_path):
    root = rules_fixture_copy(tmp_path, "rule9-good")
    value = "LIT-" + "x" * 1000
    result = run_cli("--root", str(root), "query", "depends-on", "--param", f"entry={value}")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"anthology-kg: parameter 'entry': no entry '{value[:80]}'… (1004 characters) "
        "in the anthology\n"
    )
    option = "x" * 100
    result = run_cli("--root", str(root), "query", "depends-on", "--param", option)
    assert (
        result.stderr
        == f"anthology-kg: --param '{option[:80]}'… (100 characters): expected NAME=VALUE\n"
    )


def test_the_layout_warning_names_ten_entries_and_how_many_more(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule9-good")
    monkeypatch.chdir(root)
    prefix = (
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n"
    )
    entries = "".join(f'id:LIT-{100 + i} dcterms:identifier "LIT-{100 + i}" .\n' for i in range(13))
    (root / "data" / "MANY.ttl").write_text(prefix + entries, "utf-8")
    named = ", ".join(f"LIT-{100 + i}" for i in range(10))
    warning = (
        f"data/MANY.ttl:3: warning: the file is named 'MANY' but describes the entry {named} "
        "and 3 more; each file is named by the identifier of its entry\n"
    )
    assert warning in run_cli("check").stderr
