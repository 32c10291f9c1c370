"""``python -OO`` (PYTHONOPTIMIZE=2) strips docstrings, which click takes each command's
help from: ``--help`` still says the exit codes and what each command does."""

from __future__ import annotations

import subprocess
import sys


def _help(*options: str) -> str:
    return subprocess.run(
        [sys.executable, *options, "-m", "anthology_kg", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_help_under_python_oo_is_the_help():
    optimized = _help("-OO")
    assert optimized == _help()
    assert "Exit codes: 0 ok, 1 the anthology breaks a rule (for fmt" in optimized
    assert "  check     Load and validate the anthology" in optimized
