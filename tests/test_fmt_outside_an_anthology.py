"""``fmt`` run where no folder here or above holds data/ is refused as ``new`` refuses
(hunt1 F21): it formatted the bundled sample anthology without a word, so a CI step run
from the wrong folder passed, and a plain ``fmt`` would rewrite the installed package."""

from __future__ import annotations

import shutil

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir, nearest_root

REFUSAL = "anthology-kg: no anthology here (no data/ folder); use --root DIR\n"


@pytest.mark.parametrize("args", [(), ("--check",), ("--diff",)], ids=["fmt", "check", "diff"])
def test_fmt_outside_an_anthology_is_refused(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    assert nearest_root() is None, "a data/ folder above the test's folder"
    result = run_cli("fmt", *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", REFUSAL)


def test_fmt_below_an_anthology_formats_it(tmp_path, monkeypatch):
    shutil.copytree(bundled_dir() / "data", tmp_path / "data")
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path / "notes")
    count = len(list((tmp_path / "data").glob("*.ttl")))
    result = run_cli("fmt", "--check")
    assert (result.exit_code, result.stdout) == (0, f"0 of {count} file(s) would change\n")
