"""What the writers leave on a file's permissions: a file the user may not write (0444)
is refused, not replaced by a rename (hunt9 #5); a file replaced keeps its owner where
the process may give it (as root, fmt made every file it rewrote root's); a new file or
site folder gets the mode open() and mkdir give, the umask's (hunt9 #6: 0644 and 0755
forced, so ``umask 077`` made private anthologies world-readable)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import FIXTURES, records_folder, run_cli

from anthology_kg.files import write_all, write_atomic

SEED = FIXTURES / "records" / "seed" / "ARXIV-2409.19256.txt"
OTHER_USER = 65534  # nobody


@pytest.fixture
def protect(monkeypatch):
    """``protect(path)``: make ``path`` read-only (0444). Root may write any file, so as
    root ``os.access`` is told to answer as it answers another user."""
    protected: set[str] = set()
    real_access = os.access

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK and os.path.realpath(path) in protected:
            return False
        return real_access(path, mode, *args, **kwargs)

    if os.geteuid() == 0:
        monkeypatch.setattr(os, "access", access)

    def protect(path: Path) -> None:
        path.chmod(0o444)
        protected.add(os.path.realpath(path))

    return protect


def test_export_refuses_a_read_only_output_file(bundled_copy, protect):
    out = bundled_copy / "out.ttl"
    out.write_text("precious\n", encoding="utf-8")
    protect(out)
    result = run_cli("--root", str(bundled_copy), "export", "-o", str(out))
    assert result.exit_code == 2
    assert "out.ttl: cannot write: permission denied" in result.stderr
    assert out.read_text(encoding="utf-8") == "precious\n"


def test_fmt_refuses_a_read_only_data_file(bundled_copy, protect):
    path = bundled_copy / "data" / "LIT-168.ttl"
    untidy = path.read_text(encoding="utf-8") + "\n\n"
    path.write_text(untidy, encoding="utf-8")
    protect(path)
    result = run_cli("--root", str(bundled_copy), "fmt")
    assert result.exit_code == 2 and "LIT-168.ttl: cannot write" in result.stderr
    assert path.read_text(encoding="utf-8") == untidy


def test_import_replace_refuses_a_read_only_file_and_writes_nothing(tmp_path, protect):
    folder = records_folder(tmp_path, (SEED,))
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "ARXIV-2409.19256.ttl"
    mine.write_text("# mine\n", encoding="utf-8")
    protect(mine)
    result = run_cli("import", "--replace", str(folder), "-o", str(out))
    assert result.exit_code == 2 and "permission denied" in result.stderr
    assert mine.read_text(encoding="utf-8") == "# mine\n"
    assert [p.name for p in out.iterdir()] == [mine.name]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another user")
@pytest.mark.parametrize("writer", ["write_atomic", "write_all"])
def test_a_file_replaced_keeps_its_owner(tmp_path, writer):
    path = tmp_path / "theirs.ttl"
    path.write_text("old\n", encoding="utf-8")
    os.chown(path, OTHER_USER, OTHER_USER)
    path.chmod(0o640)
    if writer == "write_atomic":
        write_atomic(path, "new\n")
    else:
        write_all([path], ["new\n"], tmp_path, replace=True)
    written = path.stat()
    assert path.read_text(encoding="utf-8") == "new\n"
    assert (written.st_uid, written.st_gid) == (OTHER_USER, OTHER_USER)
    assert stat.S_IMODE(written.st_mode) == 0o640


@pytest.fixture
def umask_077():
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_follow_the_umask(bundled_copy, tmp_path, umask_077):
    exported = tmp_path / "all.ttl"
    assert run_cli("--root", str(bundled_copy), "export", "-o", str(exported)).exit_code == 0
    assert _mode(exported) == 0o600
    made = run_cli("--root", str(bundled_copy), "new", "note", "NOTE-777", "--title", "private")
    assert made.exit_code == 0, made.stderr
    assert _mode(bundled_copy / "data" / "NOTE-777.ttl") == 0o600
    folder = records_folder(tmp_path, (SEED,))
    (tmp_path / "imported").mkdir()
    assert run_cli("import", str(folder), "-o", str(tmp_path / "imported")).exit_code == 0
    assert _mode(tmp_path / "imported" / "ARXIV-2409.19256.ttl") == 0o600


def test_the_site_folder_follows_the_umask(bundled_copy, tmp_path, umask_077):
    site = tmp_path / "site"
    result = run_cli("--root", str(bundled_copy), "site", "-o", str(site))
    assert result.exit_code == 0, result.stderr
    assert _mode(site) == 0o700 and _mode(site / "index.html") == 0o600
