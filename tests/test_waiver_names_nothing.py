"""A waiver whose ``ak:waives`` names nothing in the data waives nothing: it is said on
stderr at the waiver's file and line, naming the IRI and the base a relative IRI
resolves against, on both engines, and the exit code stays the rules' (hunt21 #12: a
typo ``<LIT-0001>``, or every waiver once ``base`` changed, was silent)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import ENGINES, rules_fixture_copy, run_cli, waiver_text

BASE = "https://w3id.org/anthology-kg/id/"
DANGLING = "data/LIT-001.ttl:9:36: AK009 Violation [integrity]"


@pytest.fixture
def root(tmp_path, monkeypatch):
    root = rules_fixture_copy(tmp_path, "rule9-bad")
    monkeypatch.chdir(root)  # files are shown relative to it
    return root


def _waiving(root, focus: str) -> None:
    text = waiver_text('"2999-12-31"^^xsd:date').replace("<LIT-001>", focus)
    (root / "waivers.ttl").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("command", ["check", "validate"])
def test_a_waiver_of_an_iri_the_data_has_not_is_warned_of(root, engine, command):
    _waiving(root, "<LIT-0001>")
    result = run_cli(command, "--engine", engine)
    assert result.exit_code == 1, result.output  # the result it meant stays live
    assert DANGLING in result.stdout and " 0 waived, " in result.stdout
    assert result.stderr == (
        f"waivers.ttl:6: warning: the waiver waives <{BASE}LIT-0001>, which names nothing "
        f"in the data, and so waives nothing (a relative IRI resolves against the base "
        f"<{BASE}>); did you mean 'LIT-001'?\n"
    )


def test_a_changed_base_is_named(root):
    """README's configuration example sets ``base`` after the entries were written: a
    relative <LIT-001> of waivers.ttl now means the new base."""
    _waiving(root, "<LIT-001>")
    assert run_cli("check").exit_code == 0
    (root / "anthology-kg.toml").write_text(
        'base = "https://example.org/mine/id/"\n', encoding="utf-8"
    )
    result = run_cli("check")
    assert result.exit_code == 1 and DANGLING in result.stdout
    assert result.stderr == (
        "waivers.ttl:6: warning: the waiver waives <https://example.org/mine/id/LIT-001>, "
        "which names nothing in the data, and so waives nothing (a relative IRI resolves "
        "against the base <https://example.org/mine/id/>); did you mean "
        f"'<{BASE}LIT-001>'?\n"  # where LIT-001 is (test_waiver_hint_where)
    )


def test_a_waiver_of_an_entry_whose_result_is_gone_says_nothing(root):
    """A waiver of an entry the data has, whose result was fixed, is no mistake."""
    _waiving(root, "<ADR-001>")
    result = run_cli("check")
    assert result.exit_code == 1 and result.stderr == ""


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_check_staged_names_the_waivers_file_of_the_work_tree(root):
    """--staged validates git's index in a temporary folder: the warning names the
    anthology's waivers.ttl, not the temporary copy."""
    _waiving(root, "<LIT-0001>")
    for args in (("init", "-q"), ("add", "-A")):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    result = run_cli("check", "--staged")
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"waivers.ttl:6: warning: the waiver waives <{BASE}LIT-0001>")


def test_the_warnings_come_in_the_order_of_the_lines(root):
    """Waivers are read in the order of their IRIs (<waiver/a> before <waiver/z>); their
    warnings are said in the order of the file."""
    text = waiver_text('"2999-12-31"^^xsd:date').replace("<LIT-001>", "<LIT-0001>")
    second = text.split("\n\n", 1)[1].replace("<waiver/LIT-001-rule9>", "<waiver/a>")
    text = text.replace("<waiver/LIT-001-rule9>", "<waiver/z>") + "\n" + second
    (root / "waivers.ttl").write_text(text, encoding="utf-8")
    result = run_cli("check")
    assert [line.split(": ")[0] for line in result.stderr.splitlines()] == [
        "waivers.ttl:6",
        "waivers.ttl:12",
    ]
