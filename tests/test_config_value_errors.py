"""A bad value in the configuration file is named as the file and its key, not as a
command-line option the user did not write (review3: "Invalid value for '--root'" for
a root set in anthology-kg.toml); a bad option typed on the command line stays click's."""

from __future__ import annotations

import shutil

import pytest
from conftest import run_cli

CASES = [
    ('root = "/nonexistent/x"\n', ("check",), "root: Directory '/nonexistent/x' does not exist"),
    (
        '[format]\nvalidate = "nope"\n',
        ("validate",),
        "format.validate: 'nope' is not one of 'github'",
    ),
    # hunt1 F3: "anthology-kg: --base 'not a base' is not an absolute IRI"
    ('base = "not a base"\n', ("check",), "base: 'not a base' is not an absolute IRI"),
    ('base = "relative/"\n', ("stats",), "base: 'relative/' is not an absolute IRI"),
]


@pytest.mark.parametrize(
    ("toml", "command", "said"), CASES, ids=["root", "format", "base", "relative-base"]
)
def test_a_bad_value_from_the_configuration_names_the_file(
    tmp_path, monkeypatch, toml, command, said
):
    (tmp_path / "data").mkdir()
    (tmp_path / "anthology-kg.toml").write_text(toml, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli(*command)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    line = toml.count("\n")  # (the key at fault is on the last line)
    assert result.stderr.startswith(f"anthology-kg.toml:{line}: {said}"), result.stderr
    assert "--" not in result.stderr.split(": ")[1]


def test_a_bad_option_on_the_command_line_is_still_clicks(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "anthology-kg.toml").write_text('[format]\nvalidate = "json"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("validate", "--format", "nope")
    assert result.exit_code == 2 and "Invalid value for '--format'" in result.stderr


@pytest.mark.parametrize(  # each names anthology-kg: a pyproject.toml that does not is not read
    "tool",
    ['tool = "anthology-kg"\n', 'tool = ["anthology-kg", 2]\n', "tool = 3  # anthology-kg\n"],
)
def test_a_pyproject_whose_tool_is_not_a_table_is_named(tmp_path, monkeypatch, tool):
    """hunt1 F3: AttributeError: 'str' object has no attribute 'get', exit 1."""
    (tmp_path / "data").mkdir()
    (tmp_path / "pyproject.toml").write_text(tool, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("validate")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr == "pyproject.toml:1: [tool] is not a table\n", result.stderr


#: (pyproject.toml's text, the command, the line and what the error says there)
WHERE = [
    (  # hunt7 #11: the file was named, not the line
        '[project]\nname = "x"\n\n[tool.anthology-kg]\nfail-on = "warning"\nselct = ["AK001"]\n',
        "check",
        6,
        "unknown setting 'selct'",
    ),
    (
        '[tool.anthology-kg]\nroot = "."\n\n[tool.anthology-kg.format]\nquery = "csv"\n'
        'validate = "yaml"\n',
        "validate",
        6,
        "format.validate: 'yaml' is not one of",
    ),
    (  # an inline table: the line of its key
        '[tool.anthology-kg]\nformat = { validate = "yaml" }\n',
        "validate",
        2,
        "format.validate: 'yaml' is not one of",
    ),
    (  # a multi-line string that looks like the key is not it
        '[project]\nreadme = """\n[tool.anthology-kg]\nselect = 1\n"""\n'
        '[tool.anthology-kg]\nselect = ["AK02"]\n',
        "check",
        7,
        "select: 'AK02' names no rule",
    ),
    ('[tool.anthology-kg]\nbase = "no"\n', "check", 2, "base: 'no' is not an absolute IRI"),
]


@pytest.mark.parametrize(("toml", "command", "line", "said"), WHERE)
def test_a_bad_setting_is_named_at_its_line(tmp_path, monkeypatch, toml, command, line, said):
    from conftest import FIXTURES

    shutil.copytree(FIXTURES / "minimal" / "data", tmp_path / "data")
    (tmp_path / "pyproject.toml").write_text(toml, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli(command)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"pyproject.toml:{line}: {said}"), result.stderr


@pytest.mark.parametrize("command", [("check",), ("stats",), ("new", "note", "NOTE-009")])
@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ('[format]\nvalidate = "yaml"\n', "format.validate: 'yaml' is not one of 'github'"),
        ("[format]\nstats = 3\n", "format.stats: an integer is not one of 'text', 'json'."),
    ],
)
def test_a_bad_format_for_another_command_is_refused_by_every_command(
    tmp_path, monkeypatch, command, toml, said
):
    """Before (hunt18 #12): check, stats and new ran on past ``validate = "yaml"``
    (exit 0, new wrote its entry); only validate refused it."""
    (tmp_path / "data").mkdir()
    (tmp_path / "anthology-kg.toml").write_text(toml, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli(*command, *(("--title", "x") if command[0] == "new" else ()))
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith(f"anthology-kg.toml:2: {said}"), result.stderr
    assert list((tmp_path / "data").iterdir()) == []


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        (
            "this is not toml",
            "anthology-kg.toml:1: not TOML: Expected '=' after a key in a key/value pair "
            "(column 6)\n",
        ),
        ('root = "."\n\na = [1,\n', "anthology-kg.toml:3: not TOML: Invalid value (at the end)\n"),
        (
            'root = "."\n[tool.anthology-kg]\nroot = "."\n',
            "anthology-kg.toml:2: unknown setting 'tool': [tool.anthology-kg] is a table of"
            " pyproject.toml; anthology-kg.toml holds the settings as top-level keys"
            ' (root = "."); known: base, fail-on, format, ignore, root, select\n',
        ),
        ('root = "."\ntool.x = 1\n', "anthology-kg.toml:2: unknown setting 'tool'"),
    ],
    ids=["not-toml", "not-toml-at-the-end", "tool-table", "dotted-key"],
)
def test_each_configuration_error_names_its_line(tmp_path, monkeypatch, toml, said):
    """Before (hunt18 #12): ``anthology-kg.toml: not TOML: … (at line 1, column 6)`` and
    ``anthology-kg.toml: unknown setting 'tool'``, no line in the ``file:line:`` form."""
    (tmp_path / "data").mkdir()
    (tmp_path / "anthology-kg.toml").write_text(toml, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith(said), result.stderr
