"""-o under a regular file says so (hunt19 #13): `export -o afile/x.ttl` said "afile:
cannot write: no such folder", and site -o "cannot write: File exists" (or "Not a
directory" a level deeper)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli

from anthology_kg.resources import bundled_dir

ENTRY = "ARXIV-2409.19256"


@pytest.fixture(scope="module")
def anthology(tmp_path_factory) -> Path:
    """A copy of the bundled anthology's data/, a regular file ``afile`` beside it, and
    the entry's printed record in ``records/`` (for import)."""
    root = tmp_path_factory.mktemp("under-a-file")
    shutil.copytree(bundled_dir() / "data", root / "data")
    (root / "afile").write_text("a file\n", encoding="utf-8")
    (root / "records").mkdir()
    printed = run_cli("--root", str(root), "render", ENTRY)
    assert printed.exit_code == 0, printed.output
    (root / "records" / f"{ENTRY}.txt").write_text(printed.stdout, encoding="utf-8")
    return root


COMMANDS = [
    ("export", "-o", "{out}.ttl"),
    ("render", ENTRY, "-o", "{out}.txt"),
    ("-q", "validate", "-o", "{out}.json"),
    ("import", f"records/{ENTRY}.txt", "-o", "{out}.ttl"),
    ("import", "records", "-o", "{out}"),
    ("-q", "site", "-o", "{out}"),
]


@pytest.mark.parametrize("under", ["afile/x", "afile/sub/x"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_o_under_a_file_names_the_file(anthology, monkeypatch, command, under):
    monkeypatch.chdir(anthology)
    result = run_cli(*(part.format(out=under) for part in command))
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr == "afile: cannot write: a file, not a folder\n"
    assert (anthology / "afile").read_text(encoding="utf-8") == "a file\n"


def test_o_in_a_missing_folder_still_says_no_such_folder(anthology, monkeypatch):
    monkeypatch.chdir(anthology)
    result = run_cli("export", "-o", "nowhere/x.ttl")
    assert (result.exit_code, result.stderr) == (2, "nowhere: cannot write: no such folder\n")
