"""A configuration file that is not UTF-8 is said at its line, as a data file is
('data/X.ttl:1: not UTF-8 text'): anthology-kg.toml holding 'fail-on = "\\xff"' on its
second line said 'anthology-kg.toml: cannot read the configuration: 'utf-8' codec can't
decode byte 0xff in position 22: invalid start byte', no line, Python's words."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("anthology-kg.toml", b'base = "x"\nfail-on = "\xff"\n'),
        ("anthology-kg.toml", b'\xef\xbb\xbfbase = "x"\n\nfail-on = "\xff"\n'),  # after a BOM
        ("pyproject.toml", b'[tool.anthology-kg]\nfail-on = "\xff"\n'),
        # review49 #3: right after a newline that follows a BOM (said at line 1 before)
        ("anthology-kg.toml", b'\xef\xbb\xbfbase = "x"\n\xff = 1\n'),
    ],
)
def test_a_configuration_not_utf8_is_said_at_its_line(tmp_path, monkeypatch, name, text):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / name).write_bytes(text)
    line = text.count(b"\n")  # (the bad byte is on the last line)
    result = run_cli("check")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{name}:{line}: not UTF-8 text\n"
    # validate's JSON carries it at that line too
    error = json.loads(run_cli("validate", "--format", "json").stdout)["error"]
    assert error == {"message": "not UTF-8 text", "file": name, "line": line}


@pytest.mark.parametrize("name", ["anthology-kg.toml", "data/BAD.ttl"])
def test_a_lone_carriage_return_ends_a_line_for_the_line_of_a_bad_byte(tmp_path, monkeypatch, name):
    """review49 #3: a lone CR ends a line for the Turtle and TOML parsers' line numbers,
    and now for the line of a byte that is not UTF-8 too (said at line 1 before)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    text = b'base = "x"\r\xff = 1\r' if name.endswith(".toml") else b"# c\r\xff\r"
    (tmp_path / name).write_bytes(text)
    result = run_cli("check")
    assert (result.exit_code, result.stderr) == (2, f"{name}:2: not UTF-8 text\n")
