"""A configuration file that cannot be used stops only the commands that would use it
(hunt9 #2): another project's pyproject.toml above the anthology, broken or unreadable,
is not read at all, and --help, --version and completion answer whatever the file says."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, run_cli

from anthology_kg import config
from anthology_kg.cli import main

BROKEN = '[project]\nname = "x"\nversion = \n'


@pytest.fixture
def inside(tmp_path: Path, monkeypatch) -> Path:
    """An anthology at tmp_path/project, the working directory, under tmp_path."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "rules" / "rule9-good", project)
    monkeypatch.chdir(project)
    return tmp_path


def test_another_projects_broken_pyproject_above_is_not_read(inside):
    (inside / "pyproject.toml").write_text(BROKEN, encoding="utf-8")
    assert run_cli("--version").exit_code == 0
    result = run_cli("check")
    assert result.exit_code == 0, result.stderr
    assert "not TOML" not in result.stderr


def test_an_unreadable_pyproject_is_not_ours(inside, monkeypatch):
    pyproject = inside / "pyproject.toml"
    pyproject.write_text("[tool.anthology-kg]\nfail-on = 'warning'\n", encoding="utf-8")
    assert config.find_config(Path.cwd()).path == pyproject

    def refused(self):
        raise PermissionError(13, "Permission denied", os.fspath(self))

    monkeypatch.setattr(Path, "read_bytes", refused)
    assert config.find_config(Path.cwd()).path is None


def test_our_broken_configuration_stops_a_command_but_not_help_version_or_completion(inside):
    (inside / "project" / "anthology-kg.toml").write_text("base = \n", encoding="utf-8")
    result = run_cli("check")
    assert result.exit_code == 2
    assert result.stderr.startswith("anthology-kg.toml") and "not TOML" in result.stderr
    for args in (["--version"], ["--help"], ["check", "--help"], ["check", "-h"]):
        assert run_cli(*args).exit_code == 0, args
    completed = CliRunner().invoke(
        main,
        [],
        prog_name="anthology-kg",
        env={
            "_ANTHOLOGY_KG_COMPLETE": "bash_complete",
            "COMP_WORDS": "anthology-kg que",
            "COMP_CWORD": "1",
        },
    )
    assert completed.exit_code == 0
    assert completed.stdout.split() == ["plain,queries", "plain,query"]
    # After "--", --help is an argument, not a request for help.
    assert run_cli("check", "--", "--help").exit_code == 2
