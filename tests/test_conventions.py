"""The conventions users bring from linters: --fail-on levels, the format implied by -o,
--quiet/--verbose, colour and NO_COLOR, JSON listings, fmt --diff, "did you mean", shell
completion, and a configuration file."""

import json
import shutil
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, run_cli

from anthology_kg.cli import main

SHARED_RECORD = FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt"

RULES = FIXTURES / "rules"
WARNING_ONLY = str(RULES / "rule4-bad")  # one warning, no violation


@pytest.mark.parametrize(
    ("level", "code"), [("none", 0), ("info", 1), ("warning", 1), ("violation", 0)]
)
def test_fail_on_levels(level, code):
    assert run_cli("--root", WARNING_ONLY, "check", "--fail-on", level).exit_code == code


def test_fail_on_none_passes_even_violations():
    root = str(RULES / "rule9-bad")
    assert run_cli("--root", root, "validate", "--fail-on", "none").exit_code == 0
    assert run_cli("--root", root, "validate").exit_code == 1


def test_output_format_follows_the_extension(tmp_path):
    root = str(RULES / "rule2-bad")
    run_cli("--root", root, "validate", "-o", str(tmp_path / "r.sarif"))
    assert json.loads((tmp_path / "r.sarif").read_text())["version"] == "2.1.0"
    run_cli("--root", root, "validate", "-o", str(tmp_path / "r.json"))
    assert "schema" in json.loads((tmp_path / "r.json").read_text())
    run_cli("--root", root, "validate", "-o", str(tmp_path / "r.xml"))
    assert ET.parse(tmp_path / "r.xml").getroot().tag == "testsuites"
    run_cli("--root", root, "validate", "-o", str(tmp_path / "r.txt"))
    assert ": AK002 Violation" in (tmp_path / "r.txt").read_text()
    # --format wins over the extension
    run_cli("--root", root, "validate", "--format", "text", "-o", str(tmp_path / "t.sarif"))
    assert (tmp_path / "t.sarif").read_text().startswith("tests/") or ": AK002 " in (
        tmp_path / "t.sarif"
    ).read_text()
    run_cli("export", "-o", str(tmp_path / "a.nt"))
    first = (tmp_path / "a.nt").read_text().splitlines()[0]
    assert first.startswith("<") and first.endswith(" .") and "@prefix" not in first


def test_quiet_prints_results_only_and_verbose_says_more(tmp_path, monkeypatch):
    root = str(RULES / "rule9-bad")
    quiet = run_cli("--root", root, "-q", "check")
    assert len(quiet.stdout.splitlines()) == 1 and "AK009" in quiet.stdout
    assert "conform" not in quiet.stdout
    (tmp_path / "anthology-kg.toml").write_text('fail-on = "warning"\n')
    monkeypatch.chdir(tmp_path)
    verbose = run_cli("--root", root, "-v", "check")
    assert "configuration from anthology-kg.toml" in verbose.stderr


def test_quiet_leaves_out_the_closing_lines_of_the_writers(tmp_path):
    """generate, site and import DIR printed their summary under -q (hunt9 #10); what
    each wrote (import's files) is a result and stays: the path alone, as new -q prints
    its file's (test_quiet_commands)."""
    generated = tmp_path / "generated"
    loud = run_cli("generate", "--entries", "20", "-o", str(generated))
    assert loud.exit_code == 0 and "planted violation(s)" in loud.stdout
    quiet = run_cli("-q", "generate", "--entries", "20", "-o", str(tmp_path / "again"))
    assert (quiet.exit_code, quiet.stdout) == (0, "")
    assert (tmp_path / "again" / "data").is_dir()
    site = run_cli("-q", "--root", str(generated), "site", "-o", str(tmp_path / "site"))
    assert (site.exit_code, site.stdout) == (0, "")
    assert (tmp_path / "site" / "index.html").is_file()
    records = tmp_path / "records"
    records.mkdir()
    shutil.copy(SHARED_RECORD, records)
    (tmp_path / "out").mkdir()
    imported = run_cli("-q", "import", str(records), "-o", str(tmp_path / "out"))
    assert imported.exit_code == 0, imported.stderr
    assert imported.stdout.splitlines() == [f"{tmp_path / 'out' / 'ARXIV-2409.19256.ttl'}"]


def test_colour_on_a_terminal_unless_no_color():
    args = ["--root", str(RULES / "rule9-bad"), "check"]
    terminal = CliRunner().invoke(main, args, color=True)
    assert "\x1b[31m" in terminal.stdout  # Violation in red
    for env, extra in (({"NO_COLOR": "1"}, []), ({}, ["--no-color"])):
        plain = CliRunner().invoke(main, extra + args, color=True, env=env)
        assert "\x1b[" not in plain.stdout and "AK009 Violation" in plain.stdout
    piped = CliRunner().invoke(main, args)
    assert "\x1b[" not in piped.stdout


@pytest.mark.parametrize(
    ("env", "on_a_terminal", "piped"),
    [
        ({"TERM": "dumb"}, False, False),
        ({"FORCE_COLOR": "1"}, True, True),
        ({"FORCE_COLOR": ""}, True, False),  # set but empty: as if unset
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False),
        ({"FORCE_COLOR": "1", "TERM": "dumb"}, True, True),
    ],
)
def test_colour_follows_term_dumb_and_force_color(env, on_a_terminal, piped):
    args = ["--root", str(RULES / "rule9-bad"), "check"]
    for terminal, expected in ((True, on_a_terminal), (False, piped)):
        result = CliRunner().invoke(main, args, color=terminal, env=env)
        assert ("\x1b[31m" in result.stdout) is expected, (env, terminal)
    # The option wins over the environment.
    assert "\x1b[" not in CliRunner().invoke(main, ["--no-color", *args], env=env).stdout


def test_json_listings():
    stats = json.loads(run_cli("stats", "--format", "json").stdout)
    assert stats["entries"] == 8 and stats["triples"] > 0 and len(stats["files"]) == 8
    rules = json.loads(run_cli("rules", "--format", "json").stdout)
    # 33 shapes: 31 rules and the two that report stated unknowns (Info)
    assert len(rules) == 33 and {r["code"] for r in rules} >= {"AK001", "AK010"}
    queries = json.loads(run_cli("queries", "--format", "json").stdout)
    depends = next(q for q in queries if q["name"] == "depends-on")
    assert depends["params"][0]["name"] == "entry" and depends["params"][0]["type"] == "entry"


def test_fmt_diff_and_check_print_a_unified_diff(bundled_copy):
    path = bundled_copy / "data" / "LIT-168.ttl"
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace("    ", "  "), encoding="utf-8")
    before = path.read_bytes()
    diff = run_cli("--root", str(bundled_copy), "fmt", "--diff")
    assert diff.exit_code == 1
    assert "--- a/" in diff.stdout and "+++ b/" in diff.stdout and "\n+    " in diff.stdout
    assert "would reformat" not in diff.stdout
    check = run_cli("--root", str(bundled_copy), "fmt", "--check")
    assert check.exit_code == 1
    assert "would reformat" in check.stdout and "@@ " in check.stdout
    assert path.read_bytes() == before  # neither changed anything


def test_did_you_mean():
    query = run_cli("query", "confunders")
    assert query.exit_code == 2 and "did you mean 'confounders'?" in query.stderr
    entry = run_cli("render", "ARXIV-2409.1925")
    assert entry.exit_code == 2 and "did you mean 'ARXIV-2409.19256'?" in entry.stderr
    param = run_cli("query", "depends-on", "--param", "entry=LIT-186")
    assert param.exit_code == 2 and "did you mean 'LIT-168'?" in param.stderr


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["check", "--root", "x"], "(anthology-kg --root … check …)."),
        (["check", "--base=x"], "(anthology-kg --base … check …). Did you mean '--baseline'?"),
        (["query", "-q", "confounders"], "(anthology-kg -q query …)."),
        (["export", "--no-color"], "(anthology-kg --no-color export …)."),
    ],
)
def test_a_global_option_after_the_command_says_where_it_goes(args, hint):
    result = CliRunner().invoke(main, args, prog_name="anthology-kg")
    assert result.exit_code == 2
    assert f"is an option of anthology-kg itself: give it before the command {hint}" in (
        result.stderr
    )


def test_a_command_s_unknown_option_gets_no_such_hint():
    result = CliRunner().invoke(main, ["check", "--nonsense"], prog_name="anthology-kg")
    assert result.exit_code == 2 and "No such option '--nonsense'" in result.stderr
    assert "itself" not in result.stderr


def complete(words: str) -> list[str]:
    env = {
        "_ANTHOLOGY_KG_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    result = CliRunner().invoke(main, [], env=env, prog_name="anthology-kg")
    return [line.split(",", 1)[1] for line in result.stdout.splitlines()]


def test_shell_completion_of_queries_parameters_and_entries():
    assert complete("anthology-kg query con") == ["confounders"]
    assert complete("anthology-kg query depends-on --param ") == ["entry="]
    assert "entry=ARXIV-2409.19256" in complete("anthology-kg query depends-on --param entry=AR")
    assert complete("anthology-kg render LIT-1") == ["LIT-168"]


def test_configuration_file(tmp_path, monkeypatch):
    root = tmp_path / "a"
    shutil.copytree(RULES / "rule4-bad", root)
    monkeypatch.chdir(root)
    assert run_cli("check").exit_code == 0
    (root / "pyproject.toml").write_text(
        '[tool.anthology-kg]\nfail-on = "warning"\n[tool.anthology-kg.format]\nvalidate = "json"\n'
    )
    assert run_cli("check").exit_code == 1
    assert json.loads(run_cli("validate").stdout)["counts"]["warnings"] == 1
    assert run_cli("check", "--fail-on", "violation").exit_code == 0  # the command line wins
    (root / "anthology-kg.toml").write_text('ignore = ["AK004"]\n')  # wins over pyproject
    assert run_cli("check", "--fail-on", "warning").exit_code == 0
    (root / "anthology-kg.toml").write_text('fail_on = "warning"\n')
    bad = run_cli("check")
    assert bad.exit_code == 2 and "unknown setting 'fail_on'; did you mean 'fail-on'?" in bad.stderr


def test_configuration_root_and_base(tmp_path, monkeypatch):
    (tmp_path / "anthology-kg.toml").write_text(f'root = "{RULES / "rule9-bad"}"\n')
    monkeypatch.chdir(tmp_path)
    result = run_cli("-q", "check")
    assert result.exit_code == 1 and "AK009" in result.stdout
