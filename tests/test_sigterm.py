"""SIGTERM (a cancelled CI job, ``timeout``) stops a command as Ctrl-C does: its cleanup
runs, nothing is left half-written, exit 143 (review3 R1: a generate's temporary folder,
a site's new folder and the site's workers were left behind, since SIGTERM's default
ends a process at once). Real processes and real signals."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import cli_process

from anthology_kg.generate import generate

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _stop_when(process: subprocess.Popen, seen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not seen() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "ended before the signal: make the work longer"
    process.send_signal(signal.SIGTERM)


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


def test_sigterm_during_generate_leaves_nothing(tmp_path):
    process = cli_process(
        "generate", "--entries", "40000", "-o", str(tmp_path / "out"), stderr=subprocess.PIPE
    )
    _stop_when(process, lambda: any(tmp_path.iterdir()))
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and err == b"anthology-kg: terminated\n", err
    assert list(tmp_path.iterdir()) == []


def test_sigterm_during_a_site_build_with_workers_leaves_nothing(tmp_path):
    root = tmp_path / "anthology"
    generate(1500, 1, root)  # three times the entries one worker process takes on
    output = tmp_path / "site"
    process = cli_process("--root", str(root), "site", "-o", str(output), stderr=subprocess.PIPE)
    workers: list[str] = []

    def building() -> bool:
        workers[:] = _children(process.pid)
        return len(workers) >= 1 and any(p.name.startswith(".site") for p in tmp_path.iterdir())

    _stop_when(process, building)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and err == b"anthology-kg: terminated\n", err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["anthology"]  # no site, no .site.*
    time.sleep(0.2)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()]  # every worker ended


#: A command whose SIGTERM comes while a weakref callback runs: Python drops the
#: KeyboardInterrupt the handler raises there ("Exception ignored in"), as it does inside
#: an import's module locks, and the command runs on to its end.
_DROPPED_SIGTERM = """
import signal, sys, weakref
from anthology_kg import cli

naming = cli._naming_the_configuration

class Owner:
    pass

def dropping_a_sigterm(*args):
    owner = Owner()
    watcher = weakref.ref(owner, lambda _: signal.raise_signal(signal.SIGTERM))
    del owner
    return naming(*args)

cli._naming_the_configuration = dropping_a_sigterm
sys.argv[0] = "anthology-kg"
cli.run()
"""


@pytest.mark.parametrize("command", [["stats"], ["check"], ["export", "-o", "{out}"]])
def test_a_sigterm_whose_raise_was_dropped_still_ends_the_command_as_terminated(
    tmp_path, bundled_copy, command
):
    out = tmp_path / "out.ttl"
    args = [part.format(out=out) for part in command]
    done = subprocess.run(
        [sys.executable, "-c", _DROPPED_SIGTERM, "--root", str(bundled_copy), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Exception ignored" in done.stderr and "KeyboardInterrupt" in done.stderr
    assert done.returncode == 143, done.stderr
    assert done.stderr.endswith("anthology-kg: terminated\n")
