"""fmt keeps every comment or refuses: those after the last statement end the file as
they did, and one inside a statement (which fmt writes anew) stops the run at its line
with nothing rewritten (review3 B4: both were silently dropped, exit 0)."""

from __future__ import annotations

import shutil

import pytest
from conftest import run_cli

from anthology_kg.formatting import format_file
from anthology_kg.resources import bundled_dir

HEAD = (
    "@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
    "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
    "@prefix id: <https://w3id.org/anthology-kg/id/> .\n\n"
)


def anthology(tmp_path, text: str):
    root = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", root / "data")
    note = root / "data" / "NOTE-903.ttl"
    note.write_text(HEAD + text, encoding="utf-8")
    return root, note


def test_a_comment_inside_a_statement_stops_fmt_at_its_line_with_nothing_written(tmp_path):
    text = (
        'id:NOTE-903 a ak:Note ; dcterms:identifier "NOTE-903" ;\n'
        "# keep until the errata lands\n"
        "    ak:noteOn id:LIT-168 .\n"
    )
    root, note = anthology(tmp_path, text)
    for args in (("fmt",), ("fmt", "--check")):
        result = run_cli("--root", str(root), *args)
        assert result.exit_code == 2, result.output
        assert f"{note}:6: formatting would drop this comment, written inside a " in (result.stderr)
    assert note.read_text(encoding="utf-8") == HEAD + text


def test_a_comment_at_the_end_of_a_line_inside_a_statement_is_one_too(tmp_path):
    root, note = anthology(
        tmp_path, 'id:NOTE-903 a ak:Note ; # why\n  dcterms:identifier "NOTE-903" .\n'
    )
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2 and f"{note}:5: formatting would drop" in result.stderr


def test_comments_after_the_last_statement_end_the_formatted_file(tmp_path):
    root, note = anthology(
        tmp_path,
        'id:NOTE-903 a ak:Note ; dcterms:identifier "NOTE-903" ; ak:noteOn id:LIT-168 .\n'
        "# end\n#   of the note\n",
    )
    assert run_cli("--root", str(root), "fmt").exit_code == 0
    formatted = note.read_text(encoding="utf-8")
    assert formatted.endswith("    ak:noteOn id:LIT-168 .\n\n# end\n#   of the note\n"), formatted
    assert format_file(note).canonical == formatted  # and it stays so
    assert run_cli("--root", str(root), "fmt", "--check").exit_code == 0


def test_a_file_of_comments_alone_keeps_them(tmp_path):
    root, note = anthology(tmp_path, "")
    note.write_text("# nothing here yet\n# (a placeholder)\n", encoding="utf-8")
    assert format_file(note).canonical == "# nothing here yet\n# (a placeholder)\n"


def test_a_comment_after_a_statements_closing_dot_goes_with_that_statement(tmp_path):
    """A comment on the line of a statement's closing dot is about that statement: it
    goes above it, not above the next one, which sorting may place anywhere (hunt6 #7:
    NOTE-030's warning landed above NOTE-030-z, after NOTE-030-a)."""
    root, note = anthology(
        tmp_path,
        "# the note\n"
        'id:NOTE-903 a ak:Note ; dcterms:identifier "NOTE-903" .  # WRONG: fix first\n\n'
        "id:NOTE-903-z a ak:Note . # z\n\nid:NOTE-903-a a ak:Note .\n",
    )
    canonical = format_file(note).canonical
    assert "\n\nid:NOTE-903-a a ak:Note .\n\n# z\nid:NOTE-903-z a ak:Note .\n" in canonical
    assert (
        "\n\n# the note\n# WRONG: fix first\nid:NOTE-903 a ak:Note ;\n"
        '    dcterms:identifier "NOTE-903" .\n' in canonical
    ), canonical
    note.write_text(canonical, encoding="utf-8")
    assert format_file(note).canonical == canonical


def test_a_comment_after_a_blank_node_statements_dot_stops_fmt_at_its_line(tmp_path):
    root, note = anthology(tmp_path, "id:NOTE-903 a ak:Note .\n[] ak:noteOn id:LIT-168 . # why\n")
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2, result.output
    assert f"{note}:6: formatting would drop this comment, which goes with" in result.stderr


def test_comments_among_the_prefixes_join_the_header(tmp_path):
    """The prefix block is written anew, so the comments between its directives (and
    after one on its line) go before it, with the file's header (hunt6 #1: they were
    dropped, exit 0)."""
    path = tmp_path / "X.ttl"
    path.write_text(
        "# header\n@prefix e: <http://e.org/> .\n# between\n"
        "@prefix f: <http://f.org/> . # on a prefix\nPREFIX g: <http://g.org/>\n\n"
        "e:a f:p g:o .\n",
        encoding="utf-8",
    )
    canonical = format_file(path).canonical
    assert canonical.startswith("# header\n# between\n# on a prefix\n\n<http://e.org/a>"), canonical
    path.write_text(canonical, encoding="utf-8")
    assert format_file(path).canonical == canonical


@pytest.mark.parametrize(
    "directive",
    [
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>",
        "@base <https://w3id.org/anthology-kg/id/> .",
        "BASE <https://w3id.org/anthology-kg/id/>",
    ],
)
def test_a_comment_before_a_directive_after_a_statement_goes_with_the_next(tmp_path, directive):
    """fmt writes every directive at the top: the comments before one written between
    statements go before the statement after it (hunt6 #1: they were dropped)."""
    root, note = anthology(
        tmp_path,
        'id:NOTE-903 a ak:Note ; dcterms:identifier "NOTE-903" .\n\n'
        f"# for NOTE-904\n{directive}\n# and this\nid:NOTE-904 a ak:Note .\n",
    )
    canonical = format_file(note).canonical
    assert "\n\n# for NOTE-904\n# and this\nid:NOTE-904 a ak:Note .\n" in canonical, canonical


def test_a_comment_before_a_last_directive_ends_the_file(tmp_path):
    root, note = anthology(
        tmp_path, "id:NOTE-903 a ak:Note .\n# spare\nPREFIX e: <http://e.org/>\n# end\n"
    )
    assert format_file(note).canonical.endswith("id:NOTE-903 a ak:Note .\n\n# spare\n# end\n")


def test_a_comment_before_a_directive_and_a_blank_node_stops_fmt_at_its_line(tmp_path):
    root, note = anthology(
        tmp_path, "id:NOTE-903 a ak:Note .\n# lost?\nPREFIX e: <http://e.org/>\n[] e:p e:o .\n"
    )
    result = run_cli("--root", str(root), "fmt")
    assert result.exit_code == 2, result.output
    assert f"{note}:6: formatting would drop this comment, which goes with" in result.stderr
    assert note.read_text(encoding="utf-8").endswith("[] e:p e:o .\n")


def test_fmt_keeps_every_comment_of_a_file_with_directives_between_statements(tmp_path):
    """hunt6 #1's file: four of its five comments were dropped, exit 0."""
    root, note = anthology(tmp_path, "")
    text = (
        "# header comment\n@prefix ak: <https://w3id.org/anthology-kg/ns#> .\n"
        "# between prefixes\n@prefix dcterms: <http://purl.org/dc/terms/> . # trailing on prefix\n"
        "@prefix id: <https://w3id.org/anthology-kg/id/> .\n\n"
        'id:NOTE-903 a ak:Note ; dcterms:identifier "NOTE-903" .  # about LIT-168 only\n\n'
        "# keep this for NOTE-904\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        'id:NOTE-904 a ak:Note ; rdfs:label "x" .\n'
    )
    note.write_text(text, encoding="utf-8")
    assert run_cli("--root", str(root), "fmt").exit_code == 0
    formatted = note.read_text(encoding="utf-8")
    comments = ["# header comment", "# between prefixes", "# trailing on prefix"]
    comments += ["# about LIT-168 only", "# keep this for NOTE-904"]
    assert all(comment in formatted.splitlines() for comment in comments), formatted
    assert "\n# about LIT-168 only\nid:NOTE-903 a ak:Note ;\n" in formatted  # (hunt6 #7)
