"""Names and the file system's limit on them (hunt1 F22). A path with a name longer
than the file system takes is exit 2 naming it (an OSError traceback, exit 1, from
write_atomic's look at it and from reading a diff's or a baseline's OLD); a legal name
near the limit can be written: the hidden temporary file beside it, ``.NAME.XXXXXXXX.tmp``
(or ``.importing``), was over 255 bytes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import RECORDS, run_cli

from anthology_kg.files import MKSTEMP_RANDOM, hidden_prefix, write_atomic

TOO_LONG = "b" * 300
#: A legal name: 249 bytes, 6 under the usual limit of 255.
NEAR_THE_LIMIT = "a" * 245 + ".ttl"


def _name_max(folder: Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    if _name_max(folder) < len(NEAR_THE_LIMIT) + 1:
        pytest.skip("a file system with shorter names")
    return folder


@pytest.mark.parametrize(
    "command",
    [
        ("validate", "-o", "{}.json"),
        ("export", "-o", "{}.ttl"),
        ("diff", "{root}", "{root}", "-o", "{}.json"),
        ("import", str(RECORDS[0]), "-o", "{}.ttl"),
        ("import", str(RECORDS[0]), "-o", "{}.ttl", "--replace"),
    ],
    ids=["validate", "export", "diff", "import", "import-replace"],
)
def test_output_named_too_long_is_exit_2_naming_it(bundled_copy, out, command):
    path = str(out / TOO_LONG)
    args = [a.format(path, root=bundled_copy) for a in command]
    result = run_cli("--root", str(bundled_copy), *args)
    assert (result.exit_code, result.stdout) == (2, "")
    written = path + Path(args[args.index("-o") + 1]).suffix
    assert result.stderr == f"{written}: cannot write: a name too long for the file system\n"
    assert list(out.iterdir()) == []


@pytest.mark.parametrize(
    "command", [("diff", "{}"), ("check", "--baseline", "{}")], ids=["diff", "baseline"]
)
def test_old_named_too_long_is_exit_2_naming_it(bundled_copy, out, command):
    path = str(out / TOO_LONG)
    result = run_cli("--root", str(bundled_copy), *(a.format(path) for a in command))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"{path}: cannot read: a name too long for the file system\n"


@pytest.mark.parametrize(
    "command",
    [
        ("export", "-o", "{}"),
        ("import", str(RECORDS[0]), "-o", "{}"),
        ("import", str(RECORDS[0]), "-o", "{}", "--replace"),
    ],
    ids=["export", "import", "import-replace"],
)
def test_a_legal_name_near_the_limit_is_written(bundled_copy, out, command):
    target = out / NEAR_THE_LIMIT
    result = run_cli("--root", str(bundled_copy), *(a.format(target) for a in command))
    assert result.exit_code == 0, result.stderr
    assert [p.name for p in out.iterdir()] == [NEAR_THE_LIMIT]  # no temporary left
    assert target.read_bytes()


def test_a_temporary_name_is_cut_at_a_character(out, monkeypatch):
    from anthology_kg import files

    name = "é" * 124 + ".ttl"  # 252 bytes
    prefixes: list[str] = []
    make = files.new_file_beside

    def new_file_beside(folder, prefix, suffix):
        prefixes.append(prefix)
        return make(folder, prefix, suffix)

    monkeypatch.setattr(files, "new_file_beside", new_file_beside)
    write_atomic(out / name, "x\n")
    assert [p.name for p in out.iterdir()] == [name]
    (prefix,) = prefixes
    assert prefix == hidden_prefix(out / name, MKSTEMP_RANDOM + len(".tmp"))
    assert prefix.startswith(".é") and prefix.endswith("é.")
    assert len(prefix.encode("utf-8")) + MKSTEMP_RANDOM + len(".tmp") <= _name_max(out)


def test_a_short_name_keeps_its_whole_prefix(out):
    assert hidden_prefix(out / "LIT-168.ttl", MKSTEMP_RANDOM + len(".tmp")) == ".LIT-168.ttl."
