"""Which anthology a command reads is said when it is not the one the user may think:
outside any anthology the bundled sample is read, and a note says so (review3 R6: a CI
job run in the wrong folder validated the sample and passed, silently); -v names the
anthology and the engine, as its help says ("what is read, engine")."""

from __future__ import annotations

from conftest import run_cli

BUNDLED = "no data/ folder here or above: the bundled sample anthology is read"


def test_outside_an_anthology_a_note_says_the_bundled_sample_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("check")
    assert result.exit_code == 0 and result.stderr.count(BUNDLED) == 1, result.stderr
    assert run_cli("-q", "check").stderr == ""  # --quiet: results only


def test_no_note_where_the_anthology_is_named_or_found(tmp_path, monkeypatch, bundled_copy):
    assert BUNDLED not in run_cli("--root", str(bundled_copy), "check").stderr
    monkeypatch.chdir(bundled_copy / "data")  # found above the working directory
    assert run_cli("check").stderr == ""


def test_verbose_names_the_anthology_and_the_engine(bundled_copy, monkeypatch):
    monkeypatch.chdir(bundled_copy)
    result = run_cli("-v", "check", "--engine", "reference")
    assert "anthology-kg: the anthology at ., reference\n" in result.stderr, result.stderr


def test_queries_says_the_bundled_sample_is_read(tmp_path, monkeypatch):
    """``queries`` reads no data, and said nothing of which anthology it listed."""
    monkeypatch.chdir(tmp_path)
    result = run_cli("queries")
    assert result.exit_code == 0 and result.stderr.count(BUNDLED) == 1, result.stderr
