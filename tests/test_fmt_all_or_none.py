"""fmt replaces the files it reformats all or none: a write that fails midway (a
read-only file system under one linked file) or a stop signal put back the files
already rewritten, which were left rewritten and not named (hunt9 #7)."""

from __future__ import annotations

import errno
import os

import pytest
from conftest import run_cli

from anthology_kg import files


def _untidy(root):
    """Give each data file of ``root`` two trailing blank lines (fmt removes them); the
    bytes of each, by name."""
    for path in (root / "data").glob("*.ttl"):
        path.write_text(path.read_text(encoding="utf-8") + "\n\n", encoding="utf-8")
    return _contents(root)


def _contents(root):
    return {p.name: p.read_bytes() for p in sorted((root / "data").iterdir())}


@pytest.mark.parametrize(
    "stop, code, message",
    [
        (OSError(errno.EROFS, os.strerror(errno.EROFS)), 2, "no file rewritten"),
        (KeyboardInterrupt(), 130, ""),
    ],
    ids=["read-only", "ctrl-c"],
)
def test_a_stop_at_the_third_file_leaves_every_file_as_it_was(
    bundled_copy, monkeypatch, stop, code, message
):
    before = _untidy(bundled_copy)
    assert len(before) > 3
    replace, calls = os.replace, []

    def third_file_fails(source, target, **options):
        if str(target).endswith(".ttl") and not os.path.basename(source).endswith(".ttl"):
            calls.append(target)  # a temporary file moved to a data file's name
            if len(calls) == 3:
                raise stop
        return replace(source, target, **options)

    monkeypatch.setattr(files.os, "replace", third_file_fails)
    result = run_cli("--root", str(bundled_copy), "fmt")
    assert result.exit_code == code, result.output
    assert message in result.stderr
    if code == 2:
        assert ": cannot write: read-only file system; no file rewritten" in result.stderr
    assert _contents(bundled_copy) == before  # no temporary, no backup, none rewritten


def test_all_are_rewritten_when_nothing_fails(bundled_copy):
    before = _untidy(bundled_copy)
    result = run_cli("--root", str(bundled_copy), "fmt")
    assert result.exit_code == 0, result.output
    after = _contents(bundled_copy)
    assert after.keys() == before.keys()
    assert all(after[name] == before[name][:-2] for name in before)
