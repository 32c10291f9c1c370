"""fmt keeps every comment or refuses: those after the last statement end the file as
they did, and one inside a statement (which fmt writes anew) stops the run at its line
with nothing rewritten (review3 B4: both were silently dropped, exit 0)."""

from __future__ import annotations

import shutil

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


def test_a_comment_after_a_statements_closing_dot_goes_before_the_next(tmp_path):
    root, note = anthology(
        tmp_path,
        'id:NOTE-903 a ak:Note ; dcterms:identifier "NOTE-903" . # the note\n'
        "id:NOTE-904 a ak:Note .\n",
    )
    canonical = format_file(note).canonical
    assert "# the note\nid:NOTE-904 a ak:Note .\n" in canonical, canonical
