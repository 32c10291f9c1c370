"""Ctrl-C or SIGTERM at any moment of a write leaves no temporary file behind (hunt1 F9,
F10): the signal came right after mkstemp made the file, before its name was kept, so
``fmt`` (files.write_atomic) left ``.ID.ttl.XXXX.tmp`` in data/, and ``import -o`` left
``.ID.ttl.XXXX.importing`` on SIGTERM, which its holder did not hold; the same hole let
SIGTERM cut its clean-up short.

Real processes and real signals, at a set point: the child's ``files.new_file_beside`` (or
``Path.unlink``) sends the signal to its own process once the file is made (or removed),
so the handler runs there, inside the call.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RECORDS, _sigint_as_on_a_terminal, records_folder

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

#: Runs the command line (argv[3:]) with a signal (argv[1]) sent by the process to itself
#: right after the argv[2]-th call of ``files.new_file_beside`` returns from making its file.
_AT_MKSTEMP = """
import os, signal, sys
from anthology_kg import files
from anthology_kg.cli import run

number, at = getattr(signal, sys.argv[1]), int(sys.argv[2])
made = files.new_file_beside
calls = []

def mkstemp(*args, **kwargs):
    result = made(*args, **kwargs)
    calls.append(result)
    if len(calls) == at:
        os.kill(os.getpid(), number)
    return result

files.new_file_beside = mkstemp
sys.argv = ["anthology-kg", *sys.argv[3:]]
run()
"""

#: As _AT_MKSTEMP, with Ctrl-C at the argv[2]-th mkstemp; then SIGTERM right after the
#: first temporary file of import is removed, in the clean-up that Ctrl-C started.
_IN_CLEAN_UP = """
import os, pathlib, signal, sys
from anthology_kg import files
from anthology_kg.cli import run

at = int(sys.argv[2])
made, unlink = files.new_file_beside, pathlib.Path.unlink
calls, removed = [], []

def mkstemp(*args, **kwargs):
    result = made(*args, **kwargs)
    calls.append(result)
    if len(calls) == at:
        os.kill(os.getpid(), signal.SIGINT)
    return result

def remove(self, *args, **kwargs):
    unlink(self, *args, **kwargs)
    if self.name.endswith(".importing") and not removed:
        removed.append(self)
        os.kill(os.getpid(), signal.SIGTERM)

files.new_file_beside = mkstemp
pathlib.Path.unlink = remove
sys.argv = ["anthology-kg", *sys.argv[3:]]
run()
"""

_EXIT = {"SIGINT": 128 + signal.SIGINT, "SIGTERM": 128 + signal.SIGTERM}


def _stopped(script: str, name: str, at: int, *args: str, cwd: Path) -> int:
    """Run ``script`` in a child stopped by ``name`` at the ``at``-th mkstemp; its exit code."""
    done = subprocess.run(
        [sys.executable, "-c", script, name, str(at), *args],
        cwd=cwd,
        capture_output=True,
        timeout=120,
        preexec_fn=_sigint_as_on_a_terminal,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    return done.returncode


def _unformatted(root: Path) -> list[Path]:
    """Indent each of ``root``'s data files by two spaces, not four: fmt rewrites each."""
    files = sorted((root / "data").glob("*.ttl"))
    for path in files:
        path.write_text(path.read_text(encoding="utf-8").replace("    ", "  "), encoding="utf-8")
    return files


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("at", [1, 2])
def test_a_stop_while_fmt_makes_its_temporary_file_leaves_none(bundled_copy, name, at):
    files = _unformatted(bundled_copy)
    assert len(files) > at
    code = _stopped(_AT_MKSTEMP, name, at, "fmt", cwd=bundled_copy)
    assert code == _EXIT[name]
    data = sorted(p.name for p in (bundled_copy / "data").iterdir())
    assert data == sorted(p.name for p in files)  # no .ID.ttl.XXXX.tmp beside them


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_stop_while_import_makes_its_temporary_file_leaves_none(tmp_path, name):
    records = records_folder(tmp_path, RECORDS[:3])
    out = tmp_path / "out"
    out.mkdir()
    code = _stopped(_AT_MKSTEMP, name, 2, "import", str(records), "-o", str(out), cwd=tmp_path)
    assert code == _EXIT[name]
    assert list(out.iterdir()) == []  # all or none, and no .ID.ttl.XXXX.importing


def test_sigterm_in_import_clean_up_leaves_no_temporary_file(tmp_path):
    records = records_folder(tmp_path, RECORDS[:3])
    out = tmp_path / "out"
    out.mkdir()
    code = _stopped(_IN_CLEAN_UP, "SIGINT", 3, "import", str(records), "-o", str(out), cwd=tmp_path)
    assert code in (_EXIT["SIGINT"], _EXIT["SIGTERM"])
    assert list(out.iterdir()) == []  # the clean-up ran to its end
