"""``-o -`` is standard output, as no ``-o`` is (and as ``sparql -`` reads standard input),
for every command whose -o names a file; ``-o ./-`` names a file ``-``; a command whose
-o names a folder refuses ``-``, exit 2 (hunt6 #8: each wrote a file named ``-``)."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

from anthology_kg.resources import bundled_dir

ROOT = str(bundled_dir())
RECORD = str(FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt")


@pytest.mark.parametrize(
    "command",
    [
        ["render", "ARXIV-2409.19256"],
        ["export"],
        ["import", RECORD],
        ["validate", "--format", "json"],
        ["diff", ROOT, ROOT, "--exit-zero"],
    ],
    ids=lambda command: command[0],
)
def test_dash_is_standard_output(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    printed = run_cli("--root", ROOT, *command)
    assert printed.exit_code == 0, printed.output
    dashed = run_cli("--root", ROOT, *command, "-o", "-")
    assert dashed.exit_code == 0, dashed.output
    assert dashed.stdout == printed.stdout and printed.stdout
    assert list(tmp_path.iterdir()) == []


def test_dot_slash_dash_names_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("--root", ROOT, "render", "ARXIV-2409.19256", "-o", "./-")
    assert result.exit_code == 0 and result.stdout == ""
    assert (tmp_path / "-").read_text(encoding="utf-8").startswith("Sheng et al. (2024)")


@pytest.mark.parametrize(
    "command", [["site"], ["generate", "--entries", "20"]], ids=lambda command: command[0]
)
def test_a_folder_output_refuses_dash(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    result = run_cli("--root", ROOT, *command, "-o", "-")
    assert result.exit_code == 2
    assert "'-' is standard output, which holds no folder (./- names one)" in result.stderr
    assert list(tmp_path.iterdir()) == []
