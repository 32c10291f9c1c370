"""--select and --ignore refuse a pattern that names no rule (review3 B7): a typo in a CI
gate selected nothing and passed. Codes, code prefixes and shape names, given on the
command line or by the configuration file (the error then names the file)."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, date_term, run_cli, waiver_text

BAD = FIXTURES / "rules" / "rule2-bad"


@pytest.mark.parametrize("command", ["check", "validate"])
@pytest.mark.parametrize(
    ("option", "pattern", "hint"),
    [
        ("--select", "AK02", "did you mean 'AK002'?"),
        ("--select", "AK999", "did you mean"),
        ("--ignore", "AK999", "did you mean"),
        ("--select", "AK002,AK9", "did you mean 'AK009'?"),
        ("--ignore", "Rule2NoPractice", "did you mean 'Rule2NoPracticeOnInfrastructure'?"),
    ],
)
def test_an_unknown_pattern_on_the_command_line_is_an_input_error(command, option, pattern, hint):
    result = run_cli("--root", str(BAD), command, option, pattern)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    bad = pattern.split(",")[-1]
    assert f"anthology-kg: {option}: {bad!r} names no rule; {hint}" in result.stderr


@pytest.mark.parametrize(
    ("pattern", "shapes", "code"),
    [
        ("AK002", 1, 1),
        ("AK00", 29, 1),  # a code prefix: AK001-AK009
        ("AK01", 4, 0),
        ("aks:Rule2NoPracticeOnInfrastructure", 1, 1),
        ("Rule2NoPracticeOnInfrastructure", 1, 1),
        ("ak002", 1, 1),
        ("AK000", 0, 0),  # the waivers' code, with no shape of its own
    ],
)
def test_a_known_pattern_selects_as_before(pattern, shapes, code):
    result = run_cli("--root", str(BAD), "check", "--select", pattern)
    assert result.exit_code == code, result.output
    assert result.stdout.splitlines()[-1].endswith(f" {shapes} rule shapes")


def test_a_known_ignore_still_leaves_the_rule_out():
    result = run_cli("--root", str(BAD), "check", "--ignore", "AK002")
    assert result.exit_code == 0, result.output
    assert "AK002" not in result.stdout


def test_a_shape_of_ones_own_without_a_rule_number_is_known_by_its_iri(tmp_path):
    shapes = tmp_path / "local.ttl"
    shapes.write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<https://example.org/shapes#NothingNamedX> a sh:NodeShape ;\n"
        "    sh:targetNode <https://example.org/x> ;\n"
        "    sh:nodeKind sh:IRI .\n",
        encoding="utf-8",
    )
    iri = "https://example.org/shapes#NothingNamedX"
    result = run_cli("--root", str(BAD), "validate", "--shapes", str(shapes), "--select", iri)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("0 rule shapes\n")
    # Without the file that declares it, the same IRI names nothing.
    result = run_cli("--root", str(BAD), "validate", "--select", iri)
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize("key", ["select", "ignore"])
@pytest.mark.parametrize("command", ["check", "validate"])
def test_an_unknown_pattern_in_the_configuration_file_names_the_file(
    tmp_path, monkeypatch, key, command
):
    shutil.copytree(BAD / "data", tmp_path / "data")
    (tmp_path / "anthology-kg.toml").write_text(f'{key} = ["AK02"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli(command)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(
        f"anthology-kg.toml:1: {key}: 'AK02' names no rule; did you mean 'AK002'?"
    )
    # The command line wins over the file, and is then the one checked.
    result = run_cli(command, f"--{key}", "AK002")
    assert result.exit_code == (1 if key == "select" else 0), result.output


def test_pyproject_settings_are_reported_against_pyproject(tmp_path, monkeypatch):
    shutil.copytree(BAD / "data", tmp_path / "data")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.anthology-kg]\nselect = ["AK999"]\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("pyproject.toml:2: select: 'AK999' names no rule")


@pytest.mark.parametrize(
    ("option", "pattern", "waiver_shown"),
    [
        ("--ignore", "AK00", True),  # rules 1-9: not the waivers' own code
        ("--ignore", "AK", True),
        ("--select", "AK00", False),
        ("--ignore", "AK000", False),  # named in full
        ("--ignore", "ak000", False),
        ("--ignore", "WaiverNotExpired", False),  # or by its shape
        ("--select", "AK000", True),
    ],
)
def test_a_code_prefix_does_not_name_the_waivers_own_code(tmp_path, option, pattern, waiver_shown):
    """hunt7 #10: ``--ignore AK00`` (rules 1-9) also hid AK000, an expired waiver."""
    root = tmp_path / "w"
    shutil.copytree(FIXTURES / "rules" / "rule9-bad", root)
    (root / "waivers.ttl").write_text(waiver_text(date_term("2000-01-01")), "utf-8")
    result = run_cli("--root", str(root), "check", option, pattern)
    assert result.exit_code in (0, 1), result.output
    assert (" AK000 Violation " in result.stdout) is waiver_shown, result.stdout
