"""``import FOLDER`` names each ``*.txt`` of the folder it cannot read as a file (a
symlink loop, a dangling symlink, a FIFO, a folder): these were skipped silently, so a
record went missing from an import that said it imported the folder. A FIFO is never
opened (that would wait for a writer). Hidden names (an editor's lock file) are not
records, as in the folders check reads (``sources.listed_name``)."""

from __future__ import annotations

import os

import pytest
from conftest import RECORDS, records_folder, run_cli


def _loop(folder):
    os.symlink("loop.txt", folder / "loop.txt")
    return "loop.txt: cannot read: a symlink loop"


def _fifo(folder):
    os.mkfifo(folder / "pipe.txt")
    return "pipe.txt: cannot read: not a regular file (a FIFO, socket or device)"


def _dangling(folder):
    os.symlink("gone.txt", folder / "moved.txt")
    return "moved.txt: cannot read: no such file (a dangling symlink?)"


def _folder(folder):
    (folder / "notes.txt").mkdir()
    return "notes.txt: cannot read: a folder, not a file"


@pytest.mark.parametrize("check", [(), ("--check",)])
@pytest.mark.parametrize("make", [_loop, _fifo, _dangling, _folder])
def test_a_txt_that_is_not_a_file_is_named_and_nothing_is_written(tmp_path, make, check):
    folder = records_folder(tmp_path, RECORDS)
    said = make(folder)
    out = tmp_path / "out"
    out.mkdir()
    result = run_cli("import", *check, str(folder), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"{folder}/{said}\n"
    assert list(out.iterdir()) == []


def test_an_editors_lock_file_is_not_a_record(tmp_path):
    folder = records_folder(tmp_path, RECORDS)
    os.symlink("root@host.1234:1700000000", folder / ".#LIT-001.txt")  # Emacs' lock
    out = tmp_path / "out"
    out.mkdir()
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(f"{len(RECORDS)} record(s) imported\n")


def test_a_record_named_txt_in_upper_case_is_named_not_imported(tmp_path):
    folder = records_folder(tmp_path, RECORDS)
    (folder / "LIT-999.TXT").write_bytes(RECORDS[0].read_bytes())
    (folder / ".#LIT-998.TXT").write_bytes(b"an editor's, not named")
    out = tmp_path / "out"
    out.mkdir()
    result = run_cli("import", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(f"{len(RECORDS)} record(s) imported\n")
    assert result.stderr == (
        f"{folder}/LIT-999.TXT: warning: not read: printed records end in '.txt', in lower "
        "case (rename it LIT-999.txt)\n"
    )
