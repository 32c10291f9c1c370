"""Data text in CI outputs: `validate --format github` and `diff` (text and Markdown) show
it escaped, so that it can neither forge a line a runner reads, restyle a terminal or a
CI log (ESC), break a table or a pull-request comment, nor inject markup, a link or an
image into it."""

from __future__ import annotations

import shutil

import pytest
import test_diff
from conftest import run_cli

from anthology_kg import diffreport

repo = test_diff.repo
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

#: A label holding ESC, a line break, a percent sign and Markdown and HTML syntax.
NASTY = "D\\u001b[31mA\\n::error::x 100% | <script>x</script> [l](http://e) `c` *e* _u_ ~s~ \\\\*"
#: The same, as the text report shows it (layout.printable).
SHOWN = "D\\x1b[31mA\\n::error::x 100% | <script>x</script> [l](http://e) `c` *e* _u_ ~s~ \\\\*"


def label(root, text: str = NASTY) -> None:
    test_diff.edit(root, "data/LIT-168.ttl", 'rdfs:label "DAPO"', f'rdfs:label "{text}"')


def test_github_annotations_carry_no_control_character(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    test_diff.edit(
        bundled_copy,
        "data/LIT-168.ttl",
        'dcterms:identifier "LIT-168"',
        'dcterms:identifier "LIT-168\\u001b[31m\\u009b2J\\r\\n%"',
    )
    result = run_cli("validate", "--format", "github")
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    lines = result.stdout.splitlines()
    assert all(line.startswith("::") for line in lines[:-1])
    (error,) = [line for line in lines if "Rule8LiteratureIdentifier" in line]
    # %, CR and LF as workflow commands encode them; ESC and CSI as the text report shows them.
    shown = "LIT-168\\x1b[31m\\x9b2J%0D%0A%25"
    assert error.endswith(f"({shown}, dcterms:identifier {shown})")


def test_github_file_property_escapes_a_file_name(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    data = bundled_copy / "data"
    odd = "LIT-168\x1b]0;x\x07.ttl"
    (data / "LIT-168.ttl").rename(data / odd)
    test_diff.edit(bundled_copy, f"data/{odd}", "ak:techniqueCount 4", "ak:techniqueCount 4, 5")
    result = run_cli("validate", "--format", "github")
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "file=data/LIT-168\\x1b]0;x\\x07.ttl," in result.stdout


@needs_git
def test_text_diff_shows_data_escaped_one_line_each(repo):
    label(repo)
    result = run_cli("diff")
    assert result.exit_code == 1, result.output
    assert "\x1b" not in result.stdout
    lines = result.stdout.splitlines()
    # The heading quotes the label's value, the fact writes the literal as Turtle does.
    heading = SHOWN.replace("\\\\*", "\\*")
    assert lines[0] == f'changed LIT-168 "{heading}"  (data/LIT-168.ttl:14)'
    assert lines[2] == f'  + rdfs:label "{SHOWN}"  data/LIT-168.ttl:16'
    assert len(lines) == 4


@needs_git
def test_markdown_diff_shows_data_as_it_is_and_injects_nothing(repo):
    label(repo)
    result = run_cli("diff", "--format", "markdown")
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert "\x1b" not in out and "<script>" not in out and "](" not in out
    added = next(line for line in out.splitlines() if line.startswith("- ➕"))
    assert added == (
        '- ➕ rdfs:label "D&#92;x1b[31mA&#92;n::error::x 100% &#124; '
        "&lt;script&gt;x&lt;/script&gt; [l]&#40;http&#8288;://e) &#96;c&#96; &#42;e&#42; "
        '&#95;u&#95; &#126;s&#126; &#92;&#92;&#42;"'
        " — `data/LIT-168.ttl:16`"
    )
    summary = next(line for line in out.splitlines() if line.startswith("<summary>"))
    assert summary.startswith("<summary><b>LIT-168</b> changed (+1 −1) — D&#92;x1b[31mA&#92;n")
    assert summary.endswith("</summary>")


def test_markdown_text_is_unchanged_where_it_holds_no_syntax():
    ordinary = 'ak:carriesPractice [ a ak:Practice ; rdfs:label "Check (on) verl: 1.5×" ]'
    assert diffreport._md(ordinary) == ordinary
    assert diffreport._code("data/LIT-168.ttl:14") == "`data/LIT-168.ttl:14`"


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("a`b", "``a`b``"),
        ("``x", "``` ``x ```"),
        ("x`", "`` x` ``"),
        ("<b>|&", "`<b>|&`"),
        ("a\x1bb\nc", "`a\\x1bb\\nc`"),
    ],
)
def test_a_code_span_is_never_ended_by_its_text(text, span):
    assert diffreport._code(text) == span


@needs_git
def test_markdown_title_of_two_folders_named_oddly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    old, new = tmp_path / "a`b\x1b[2J", tmp_path / "new|<i>"
    for folder in (old, new):
        shutil.copytree(test_diff.bundled_dir() / "data", folder / "data")
    label(new, "x")
    result = run_cli("diff", old.name, new.name, "--format", "markdown")
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0] == ("### Anthology graph: ``a`b\\x1b[2J`` → `new|<i>`")
    assert result.stdout.splitlines()[2].startswith("1 changed, 0 added")
