"""A working directory that another process removed: commands that need no folder of it
run, the others are exit 2 with one line saying so, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir

GONE = "the working directory no longer exists"


@pytest.fixture
def removed_working_folder(tmp_path: Path, monkeypatch) -> Path:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)  # restored after the test, wherever it is then
    gone.rmdir()
    return tmp_path


def test_version_and_help_need_no_working_folder(removed_working_folder):
    assert run_cli("--version").exit_code == 0
    assert run_cli("check", "--help").exit_code == 0


def test_an_anthology_named_by_its_absolute_path_is_read(removed_working_folder):
    result = run_cli("--root", str(bundled_dir()), "check")
    assert result.exit_code == 0, result.stderr
    assert "conforms" in result.stdout


def test_generate_to_an_absolute_folder_runs(removed_working_folder):
    out = removed_working_folder / "generated"
    result = run_cli("generate", "--entries", "20", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert (out / "data").is_dir()


@pytest.mark.parametrize("command", [["check"], ["stats"], ["fmt"], ["query", "confounders"]])
def test_a_command_finding_its_anthology_from_there_is_exit_2(removed_working_folder, command):
    result = run_cli(*command)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"anthology-kg: {GONE}")
    assert "--root DIR" in result.stderr
    assert "Traceback" not in result.stderr
