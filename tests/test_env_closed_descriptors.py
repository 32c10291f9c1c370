"""A process started with a standard descriptor closed (``>&-``, ``<&-``, ``2>&-``, as
daemons and some service managers start one): a closed standard output is one line and
exit 2 for every command (none exits 0 having lost its output), ``sparql -`` with
standard input closed is a usage error, and a closed stderr changes no exit code."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import RECORDS


def _run(closed: int, *args: str) -> subprocess.CompletedProcess:
    """``python -m anthology_kg ARGS`` with descriptor ``closed`` closed at its start,
    the other two of stdout and stderr captured."""
    return subprocess.run(
        [sys.executable, "-m", "anthology_kg", *args],
        preexec_fn=lambda: os.close(closed),
        stdout=None if closed == 1 else subprocess.PIPE,
        stderr=None if closed == 2 else subprocess.PIPE,
        check=False,
    )


def test_a_closed_standard_output_is_one_line_and_exit_2():
    for args in (("stats",), ("import", str(RECORDS[0]))):
        done = _run(1, *args)
        assert done.returncode == 2, args
        assert done.stderr.decode().startswith("anthology-kg: standard output is closed")
        assert done.stderr.count(b"\n") == 1


def test_sparql_from_a_closed_standard_input_is_a_usage_error():
    done = _run(0, "sparql", "-")
    assert done.returncode == 2
    assert b"standard input is closed" in done.stderr
    assert b"Traceback" not in done.stderr


def test_a_closed_standard_error_changes_no_exit_code(bundled_copy):
    # A warning to write (a file not named by its entry) and a progress bar's check.
    first = sorted((bundled_copy / "data").glob("*.ttl"))[0]
    first.rename(bundled_copy / "data" / "misnamed.ttl")
    done = _run(2, "--root", str(bundled_copy), "check")
    assert done.returncode == 0
    assert done.stdout.decode().splitlines()[-1].startswith("conforms:")
