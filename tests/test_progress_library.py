"""The progress bar is the command line's: a library call writes nothing to the caller's
stderr even when it is a terminal, and importing the library for a load or a validation
does not load click; a command on a terminal still shows the bar."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import types
from collections.abc import Iterator

import pytest
from conftest import run_cli

from anthology_kg import load_anthology, open_engine, progress, validate
from anthology_kg.resources import bundled_dir


@pytest.fixture
def terminal(monkeypatch) -> Iterator[int]:
    """stderr as ``progress.track`` sees it is a terminal (a pty) and every run long
    enough for a bar; the pty's other end is yielded to read what was written."""
    master, slave = pty.openpty()
    with os.fdopen(slave, "w") as stderr:
        monkeypatch.setattr(progress, "sys", types.SimpleNamespace(stderr=stderr))
        monkeypatch.setattr(progress, "DELAY", -1.0)
        try:
            yield master
        finally:
            stderr.flush()
    os.close(master)


def _written(master: int) -> bytes:
    out = b""
    while select.select([master], [], [], 0)[0]:
        out += os.read(master, 65536)
    return out


def test_load_and_validate_write_nothing_on_a_terminal(terminal):
    load_anthology(bundled_dir())
    assert validate(open_engine(root=bundled_dir(), validates=True)).conforms
    assert _written(terminal) == b""


def test_a_command_on_a_terminal_shows_the_bar(terminal):
    result = run_cli("--root", str(bundled_dir()), "check")
    assert result.exit_code == 0, result.output
    shown = _written(terminal)
    assert b"loading" in shown and b"checking" in shown


def test_a_load_a_validation_and_its_reports_import_no_click():
    code = (
        "import sys\n"
        "from anthology_kg import json_report, load_anthology, open_engine, sarif_report\n"
        "from anthology_kg import text_report, validate\n"
        "from anthology_kg.reports import junit_report\n"
        "load_anthology(); report = validate(open_engine(validates=True))\n"
        "for write in (text_report, json_report, sarif_report, junit_report): write(report)\n"
        "print('click' in sys.modules)\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=bundled_dir()
    )
    assert found.stdout == "False\n"
