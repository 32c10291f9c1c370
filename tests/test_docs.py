"""The documentation keeps up with the code: every command and option is documented
(in the README, or in its --help text), the README names no option that does not
exist, and the README's Python examples run (doctest)."""

import doctest
import re

import click
import pytest
from conftest import REPO, run_cli

from anthology_kg.cli import main

README = (REPO / "README.md").read_text(encoding="utf-8")


def commands(group: click.Group = main, path: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


COMMANDS = dict(commands())


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_every_command_is_in_the_readme(path):
    name = " ".join(path)
    assert f"anthology-kg {name}" in README or f"`{name}`" in README, name


@pytest.mark.parametrize("path", [(), *sorted(COMMANDS)], ids=lambda p: " ".join(p) or "main")
def test_every_option_is_documented(path):
    command = COMMANDS.get(path, main)
    shown = run_cli(*path, "--help").stdout
    for param in command.params:
        if not isinstance(param, click.Option):
            continue
        names = [n for n in param.opts + param.secondary_opts if n.startswith("--")]
        assert param.help, f"{' '.join(path)} {names}: no help text"
        assert any(n in shown for n in names), f"{names} not in --help"
        first_words = " ".join(param.help.split()[:3])
        in_help = first_words in " ".join(shown.split())
        assert in_help or any(n in README for n in names), names


def all_options() -> set[str]:
    found = {"--help", "--version"}
    for command in [main, *COMMANDS.values()]:
        for param in command.params:
            found.update(n for n in param.opts + param.secondary_opts if n.startswith("--"))
    return found


#: A command line of the README: a line of a code block that starts with the command (a
#: shell prompt's ``$ ``, or a workflow's ``run:``, before it), up to a comment.
COMMAND_LINE = re.compile(r"^\s*(?:\$ |(?:- )?run: )?((?:\.venv/bin/)?anthology-kg [^#]*)")
#: A command in running text: a code span that starts with the command.
COMMAND_SPAN = re.compile(r"`((?:\.venv/bin/)?anthology-kg [^`]*)`")


def readme_commands(text: str) -> list[str]:
    """The command lines and the command code spans of ``text``."""
    found = []
    for line in text.splitlines():
        whole = COMMAND_LINE.match(line)
        found += [whole[1]] if whole else COMMAND_SPAN.findall(line)
    return found


def test_the_readme_commands_are_found_however_written():
    text = (
        "anthology-kg check --a\n$ anthology-kg diff --b # --not-this\n"
        "        run: anthology-kg fmt --c\n      - run: anthology-kg validate --d || true\n"
        "Run `anthology-kg new lit --e` or `x --f`.\n  - id: anthology-kg-fmt  # --g\n"
    )
    assert readme_commands(text) == [
        "anthology-kg check --a",
        "anthology-kg diff --b ",
        "anthology-kg fmt --c",
        "anthology-kg validate --d || true",
        "anthology-kg new lit --e",
    ]


def test_the_readme_names_only_options_that_exist():
    known = all_options()
    used = set()
    for command in readme_commands(README):
        used.update(re.findall(r"(?<![\w-])--[a-z][a-z-]*", command))
    assert used and used <= known, used - known


def test_the_readme_python_examples_run(monkeypatch):
    monkeypatch.chdir(REPO)
    parser = doctest.DocTestParser()
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks and any(">>>" in block for block in blocks)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README python block {number}", "README.md", 0)
        runner.run(test)
    summary = runner.summarize(verbose=False)
    assert summary.failed == 0 and summary.attempted > 10


def test_the_readme_counts_the_bundled_report_s_results_as_it_has_them():
    """The README said 4 Info results where the report holds 3 (hunt5 #11)."""
    (said,) = re.findall(r"for its (\d+) Info results", README)
    report = run_cli("--root", str(REPO), "validate", "--format", "turtle")
    assert report.stdout.count("a sh:ValidationResult") == int(said)
    summary = run_cli("--root", str(REPO), "check").stdout.splitlines()[-1]
    assert f", {said} info(s)," in summary


def test_the_readme_waiver_example_is_a_waivers_file_as_it_stands(bundled_copy):
    """Pasted as waivers.ttl, it is read (hunt21 #13: it had no @prefix lines, and the
    README gave the aks: namespace nowhere: 'The prefix ak: has not been declared')."""
    (block,) = [b for b in re.findall(r"```turtle\n(.*?)```", README, re.S) if "ak:Waiver" in b]
    (bundled_copy / "waivers.ttl").write_text(block, encoding="utf-8")
    result = run_cli("--root", str(bundled_copy), "check")
    assert result.exit_code in (0, 1) and "syntax error" not in result.stderr, result.output
