"""Hidden files in the folders the tool reads are not the anthology's: an editor's lock
file (Emacs' ``.#LIT-168.ttl``, a dangling symlink) or macOS's ``._X.ttl`` made check,
fmt and export exit 2 (review3 R2). ``sources.listed_name`` says which files are read."""

from __future__ import annotations

import os

import pytest
from conftest import run_cli

COMMANDS = [
    ("check",),
    ("fmt", "--check"),
    ("export", "--format", "nquads"),
    ("stats",),
    ("queries",),
    ("rules",),
]


@pytest.fixture
def with_hidden_files(bundled_copy):
    data = bundled_copy / "data"
    os.symlink("root@host.1234:1700000000", data / ".#LIT-168.ttl")  # Emacs' lock
    (data / "._LIT-168.ttl").write_bytes(b"\x00\x05\x16\x07 not Turtle")  # AppleDouble
    shapes = bundled_copy / "ontology" / "shapes"
    shapes.mkdir(parents=True)
    (shapes / ".#mine.ttl").write_text("this is not Turtle", encoding="utf-8")
    queries = bundled_copy / "queries"
    queries.mkdir()
    (queries / ".#mine.rq").write_text("not a query", encoding="utf-8")
    return bundled_copy


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_hidden_files_are_not_read(bundled_copy, with_hidden_files, command, tmp_path):
    plain = tmp_path / "plain"
    (plain / "data").mkdir(parents=True)
    for name in os.listdir(bundled_copy / "data"):
        if not name.startswith("."):
            (plain / "data" / name).write_bytes((bundled_copy / "data" / name).read_bytes())
    hidden = run_cli("--root", str(with_hidden_files), *command)
    expected = run_cli("--root", str(plain), *command)
    assert hidden.exit_code == expected.exit_code == 0, hidden.output
    shown = hidden.stdout.replace(str(with_hidden_files), "ROOT")
    assert shown == expected.stdout.replace(str(plain), "ROOT")


def test_diff_of_a_folder_with_hidden_files_sees_no_change(with_hidden_files, tmp_path):
    plain = tmp_path / "plain"
    (plain / "data").mkdir(parents=True)
    for name in os.listdir(with_hidden_files / "data"):
        if not name.startswith("."):
            (plain / "data" / name).write_bytes((with_hidden_files / "data" / name).read_bytes())
    result = run_cli("diff", str(plain), str(with_hidden_files))
    assert result.exit_code == 0, result.output
