"""Standard streams the environment gives the command: an output that cannot be written
(a full disk behind ``>``, an I/O error) is one line on stderr and exit 2, never a
traceback or exit 1 (which says "a rule is broken"); a stderr that cannot be written
changes no exit code; memory running out is one line and exit 2, nothing half-written;
``--help`` and ``--version`` into a closed pipe end as SIGPIPE would (141)."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import run_cli

from anthology_kg import cli
from anthology_kg.cli import EXIT_BROKEN_PIPE, main


class _Failing(io.RawIOBase):
    """A writable stream whose every write fails with ``number`` while ``failing``."""

    def __init__(self, number: int):
        self.number, self.failing = number, True

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        if self.failing:
            raise OSError(self.number, os.strerror(self.number))
        return len(data)


class _WithStreams:
    """``main`` run by CliRunner with stdout or stderr replaced by a failing stream
    (CliRunner puts its own back afterwards)."""

    name = "anthology-kg"

    def __init__(self, stdout: int | None = None, stderr: int | None = None):
        self.raws = {name: _Failing(n) for name, n in (("stdout", stdout), ("stderr", stderr)) if n}

    def main(self, **kwargs):
        for name, raw in self.raws.items():
            setattr(sys, name, io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8"))
        try:
            return main.main(**kwargs)
        finally:
            for raw in self.raws.values():
                raw.failing = False  # the wrapper's last flush, when collected, succeeds


def _run(*args: str, stdout: int | None = None, stderr: int | None = None):
    return CliRunner().invoke(_WithStreams(stdout, stderr), list(args), catch_exceptions=False)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args", [("stats",), ("export",), ("check",), ("--help",), ("export", "--help")]
)
def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(args):
    result = _run(*args, stdout=errno.ENOSPC)
    assert result.exit_code == 2
    assert result.stderr == (
        "anthology-kg: cannot write to standard output: no space left on the device\n"
    )


def test_an_io_error_on_the_output_is_said_as_the_system_says_it():
    result = _run("stats", stdout=errno.EIO)
    assert result.exit_code == 2
    assert result.stderr == "anthology-kg: cannot write to standard output: Input/output error\n"


def test_a_stderr_that_cannot_be_written_changes_no_exit_code(bundled_copy):
    # A warning (a file not named by its entry) on stderr, the check itself passing.
    root = bundled_copy
    first = sorted((root / "data").glob("*.ttl"))[0]
    first.rename(root / "data" / "misnamed.ttl")
    warned = run_cli("--root", str(root), "check")
    assert (warned.exit_code, "warning: the file is named" in warned.stderr) == (0, True)
    assert _run("--root", str(root), "check", stderr=errno.ENOSPC).exit_code == 0
    assert _run("render", "NO-SUCH-ENTRY", stderr=errno.ENOSPC).exit_code == 2
    assert _run("no-such-command", stderr=errno.ENOSPC).exit_code == 2


def test_memory_running_out_is_one_line_and_exit_2(monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("anthology_kg.stats.compute_stats", exhausted)
    result = run_cli("stats")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("anthology-kg: out of memory while running stats")
    assert result.stderr.count("\n") == 1


def test_memory_running_out_midway_leaves_no_file(tmp_path, monkeypatch):
    def first_chunk_then_exhausted(export, fmt):
        yield b"@prefix ak: <https://w3id.org/anthology-kg/ontology#> .\n"
        raise MemoryError

    monkeypatch.setattr("anthology_kg.export_writers.export_bytes", first_chunk_then_exhausted)
    result = run_cli("export", "-o", str(tmp_path / "out.ttl"))
    assert result.exit_code == 2
    assert "out of memory while running export" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_the_process_writing_to_a_full_device_ends_with_exit_2():
    # The real process: its last flush at exit must not fail again (Python's exit 120).
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "anthology_kg", "stats"],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == (
        b"anthology-kg: cannot write to standard output: no space left on the device\n"
    )


@pytest.mark.parametrize("option", ["--help", "--version"])
def test_help_and_version_into_a_closed_pipe_end_as_sigpipe_would(option, monkeypatch):
    def closed(*args, **kwargs):
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    monkeypatch.setattr("click.echo", closed)
    monkeypatch.setattr(cli, "_stdout_to_devnull", lambda: None)
    assert run_cli(option).exit_code == EXIT_BROKEN_PIPE
