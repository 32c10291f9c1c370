"""Data text printed for people cannot form a GitHub workflow command (hunt16 #1): the
runner reads ``##[cmd]`` anywhere in a log line and ``::cmd::`` at its start after
blanks, so a literal, an own shape's message, a file name or a query's name shows
either with its first character escaped (errors.printable): the text report, the layout
warnings, the query table, ``stats`` and ``queries``. CSV and TSV stay byte-true (data)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.errors import printable

#: What the runner would read: ``##[`` anywhere, ``::`` first after blanks.
COMMAND = re.compile(r"##\[|^\s*::", re.MULTILINE)
FILE = "::warning::y.ttl"
QUERY = 'SELECT ?none ?t WHERE { VALUES ?t { "::error::z" "##[error]w" } }\n'


@pytest.fixture
def anthology(tmp_path, monkeypatch) -> Path:
    """One data file named ``::warning::y.ttl`` holding a literal with both forms, an
    own shape whose message holds one, a stored query named ``::error::q``; the working
    directory is ``data/`` (so the file's name starts the warning's line)."""
    root = tmp_path / "a"
    (root / "data").mkdir(parents=True)
    (root / "queries").mkdir()
    (root / "data" / FILE).write_text(
        '<X-1> <http://example.org/p> "::error::lit ##[error]mid" .\n', encoding="utf-8"
    )
    (root / "s.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<http://example.org/S> a sh:NodeShape ; sh:targetSubjectsOf <http://example.org/p> ;"
        " sh:property [ sh:path <http://example.org/p> ; sh:maxLength 1 ;"
        ' sh:message "##[warning]m" ] .\n',
        encoding="utf-8",
    )
    (root / "queries" / "::error::q.rq").write_text(f"#+ summary: ##[error]s\n{QUERY}", "utf-8")
    (root / "q.rq").write_text(QUERY, encoding="utf-8")
    monkeypatch.chdir(root / "data")
    return root


def commands(text: str) -> list[str]:
    return [line for line in text.splitlines() if COMMAND.search(line)]


@pytest.mark.parametrize(
    "args, exit_code",
    [
        (("validate", "--shapes", "../s.ttl"), 1),
        (("check",), 0),
        (("sparql", "../q.rq"), 0),
        (("query", "::error::q"), 0),
        (("stats",), 0),
        (("queries",), 0),
    ],
    ids=["report", "warnings", "sparql-table", "query-table", "stats", "queries"],
)
def test_no_output_line_is_a_workflow_command(anthology, args, exit_code):
    result = run_cli("--root", "..", *args)
    assert result.exit_code == exit_code, result.output
    assert commands(result.stdout) == [] and commands(result.stderr) == []
    shown = result.stdout + result.stderr
    assert "\\x23#[" in shown or "\\x3a:" in shown  # (the data was there, escaped)


def test_github_format_lines_are_its_own_commands_only(anthology):
    result = run_cli("--root", "..", "validate", "--shapes", "../s.ttl", "--format", "github")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in lines[:-1]] == ["::error"]
    assert "##[" not in result.stdout and not lines[-1].lstrip().startswith("::")


def test_csv_and_tsv_stay_byte_true(anthology):
    for fmt in ("csv", "tsv"):
        result = run_cli("--root", "..", "sparql", "../q.rq", "--format", fmt)
        assert result.exit_code == 0, result.output
        assert "::error::z" in result.stdout and "##[error]w" in result.stdout


@pytest.mark.parametrize(
    "text, shown",
    [
        ("a ##[error]x", "a \\x23#[error]x"),
        ("###[x", "#\\x23#[x"),
        ("#\u2060#[x", "\\x23\u2060#[x"),  # the runner's ICU match skips a word joiner
        ("  ::warning::y", "  \\x3a:warning::y"),
        ("\u200b::e::", "\u200b\\x3a:e::"),
        (":\ufeff:e::", "\\x3a\ufeff:e::"),
        ("line\n::error::x", "line\\n::error::x"),  # (no line starts inside a text)
        ("a::b::c", "a::b::c"),
        ("http://x/#a", "http://x/#a"),
    ],
)
def test_printable_breaks_both_forms(text, shown):
    assert printable(text) == shown


ENTRY = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    '<LIT-901> a ak:LiteratureRecord ; dcterms:identifier "LIT-901" ; dcterms:title "x" ;'
    ' ak:category "::error::c ##[error]d" .\n'
)


def test_stats_shows_categories_escaped(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "LIT-901.ttl").write_text(ENTRY, encoding="utf-8")
    result = run_cli("--root", str(tmp_path), "stats")
    assert result.exit_code == 0, result.output
    assert commands(result.stdout) == []
    assert "  \\x3a:error::c \\x23#[error]d: 1" in result.stdout


def test_site_warnings_show_a_query_name_escaped(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "X-1.ttl").write_text('<X-1> <http://example.org/p> "v" .\n', "utf-8")
    (tmp_path / "queries").mkdir()
    (tmp_path / "queries" / "##[error]q.rq").write_text(
        "#+ summary: s\nSELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }\n", "utf-8"
    )
    result = run_cli("--root", str(tmp_path), "site", "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    assert "query '\\x23#[error]q' calls a remote service" in result.stderr
    assert commands(result.stderr) == []


def test_new_shows_what_to_fill_in_escaped(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "ontology" / "shapes").mkdir(parents=True)
    (tmp_path / "ontology" / "shapes" / "own.ttl").write_text(
        "@prefix sh: <http://www.w3.org/ns/shacl#> .\n"
        "<http://example.org/S> a sh:NodeShape ;"
        " sh:targetClass <https://w3id.org/anthology-kg/ns#LiteratureRecord> ;"
        " sh:property [ sh:path <http://example.org/q> ; sh:minCount 1 ;"
        ' sh:message "##[error]fill" ] .\n',
        encoding="utf-8",
    )
    result = run_cli("--root", str(tmp_path), "new", "lit", "LIT-902", "--title", "t")
    assert "\\x23#[error]fill" in result.stdout, result.output
    assert commands(result.stdout) == []


def test_data_formats_and_pictures_keep_the_names_they_hold(anthology):
    """JSON is data, not a log line: its file name is the file's own (only characters
    JSON in UTF-8 cannot carry are escaped); a picture's label shows the text as it is
    (read-through of this session: `\\x3a:std::vector` in an SVG, a JSON file name that
    names no file)."""
    import json

    from anthology_kg.site.pictures import escape

    result = run_cli(
        "--root", str(anthology), "validate", "--shapes", "../s.ttl", "--format", "json"
    )
    files = {item["file"] for item in json.loads(result.stdout)["results"]}
    assert files == {FILE}
    assert escape("::std::vector ##[x]") == "::std::vector ##[x]"


#: A data file's name and text as a pull request could send them to ``fmt --check``
#: in CI: a line break then a workflow command in the name, a literal holding ``##[``
#: and a terminal's escape sequences, a line of a long literal starting ``::``, a
#: U+2028 and a form feed (``str.splitlines`` breaks a line there; git does not).
HOSTILE_NAME = 'x\n::error file=README.md,line=1::forged "##[x].ttl'
HOSTILE_TEXT = (
    '<https://w3id.org/anthology-kg/id/LIT-001> <http://www.w3.org/2000/01/rdf-schema#label> "'
    '##[error]x\x1b]0;pwned\x07\x1b[2J" ;\n'
    '\t<http://example.org/p> """a\n::warning::b\u2028\x0cc""" .\n'
)


@pytest.mark.parametrize("flag", ["--check", "--diff"])
def test_fmt_diff_shows_names_and_text_escaped(tmp_path, monkeypatch, flag):
    """Before (hunt18 #1): the diff's headers held the name's line break, so a line of
    stdout was ``::error file=README.md,…``; its body held the literal's ``##[`` and ESC
    raw. Now a name is quoted as git quotes it and each line shows as ``printable``
    shows data, a tab kept."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / HOSTILE_NAME).write_text(HOSTILE_TEXT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("fmt", flag)
    assert result.exit_code == 1, result.output
    assert commands(result.stdout) == [] and commands(result.stderr) == []
    assert "\x1b" not in result.output and "\x07" not in result.output
    quoted = 'data/x\\n::error file=README.md,line=1::forged \\"\\043#[x].ttl"'
    # (a tab after the name, which holds a space, as git writes it for GNU patch)
    assert f'--- "a/{quoted}\t\n+++ "b/{quoted}\t\n' in result.stdout
    assert '-\t<http://example.org/p> """a\n-::warning::b\\u2028\\x0cc""" .\n' in result.stdout
    assert '"\\x23#[error]x\\x1b]0;pwned\\x07\\x1b[2J"' in result.stdout
    assert "No newline" not in result.stdout


def test_a_diff_line_of_context_cannot_start_a_workflow_command():
    """A context line starts with a blank, which the runner skips: its ``::`` is escaped
    (a line that starts ``+`` or ``-`` is no command)."""
    from anthology_kg.formatting import printable_diff, unified_diff

    diff = unified_diff("::error::x\na\n", "::error::x\nb\n", "a/F", "b/F")
    assert printable_diff(diff).splitlines()[3:] == [" \\x3a:error::x", "-a", "+b"]
