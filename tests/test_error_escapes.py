"""Error messages and the file lists printed for people show the names and values they
quote as reports show data (layout.printable): a file name holding ESC or a line break
can neither restyle the terminal nor forge a line a CI runner reads. Ordinary text is
printed as it was."""

from __future__ import annotations

import shutil

from conftest import FIXTURES, run_cli

from anthology_kg.errors import AnthologyError

ODD = "BAD\x1b[2J\n::error::forged"


def test_an_ordinary_message_is_unchanged():
    error = AnthologyError("exists already; nothing written", "data/X.ttl", 3)
    assert str(error) == "data/X.ttl:3: exists already; nothing written"
    assert str(AnthologyError("first\nsecond")) == "first\nsecond"  # the message's own lines


def test_the_path_and_each_line_of_the_message_are_escaped():
    error = AnthologyError("no entry \x1b[31mX\nhere\x07", f"data/{ODD}.ttl", 2)
    assert str(error) == (
        "data/BAD\\x1b[2J\\n::error::forged.ttl:2: no entry \\x1b[31mX\nhere\\x07"
    )


def test_a_data_file_named_with_esc_and_a_line_break(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    (bundled_copy / "data" / f"{ODD}.ttl").write_text("<a> <b> .\n", encoding="utf-8")
    result = run_cli("check")
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr
    assert result.stderr.startswith("data/BAD\\x1b[2J\\n::error::forged.ttl:1: Turtle syntax error")
    assert result.stderr.count("\n") == 1


def test_fmt_check_lists_such_a_file_on_one_line(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    data = bundled_copy / "data"
    text = (data / "LIT-168.ttl").read_text(encoding="utf-8")
    (data / "LIT-168.ttl").unlink()
    (data / f"{ODD}.ttl").write_text(text.replace(" ;\n", " ;  \n", 1), encoding="utf-8")
    result = run_cli("fmt", "--check")
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0] == "would reformat data/BAD\\x1b[2J\\n::error::forged.ttl"
    assert "\x1b" not in result.stderr


def test_a_record_printed_twice_names_the_other_file_on_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "records"
    folder.mkdir()
    record = FIXTURES / "records" / "LIT-201.txt"
    shutil.copy(record, folder / "A\x1b[31m\nB.txt")
    shutil.copy(record, folder / "C.txt")
    result = run_cli("import", "records", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "records/C.txt:1: LIT-201 is printed in A\\x1b[31m\\nB.txt as well"
    )
    assert len(result.stderr.splitlines()) == 2  # and the note that the sample is read
