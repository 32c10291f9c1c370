"""A Ctrl-C as the canonicalizing child is forked (``bnodes._in_child``, through
``forking.beside``): the child never returns into its caller's code, and one the parent
takes stops the child before it is raised."""

from __future__ import annotations

import os
import signal
import sys

import pytest
from forks import child_interrupted_as_forked
from test_canonical_limit import list_quads

from anthology_kg import bnodes, cli_context
from anthology_kg.bnodes import canonical_nquads
from anthology_kg.errors import AnthologyError

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork: Linux")

QUADS = list_quads(30, [f"_:n{i}" for i in range(30)])


@pytest.fixture
def costly(monkeypatch):
    """Every canonicalization forks (as a command's costly one does)."""
    monkeypatch.setattr(bnodes, "CHILD_PROCESS_STEPS", 0)


def test_an_interrupt_reaching_the_child_as_it_is_forked_kills_it_there(
    costly, monkeypatch, ctrl_c_raises, tmp_path
):
    """A terminal's Ctrl-C reaches the child too: one arriving before its work runs
    kills it (the parent's input error says so). Before, its KeyboardInterrupt was
    raised between ``fork`` and the child's ``try`` and went up the copied stack: the
    test's code ran on in the child, and the parent took its empty pipe for the text."""
    with (
        child_interrupted_as_forked(monkeypatch, tmp_path),
        cli_context.command(),
        pytest.raises(AnthologyError) as raised,
    ):
        canonical_nquads(QUADS)
    assert str(raised.value) == (
        "canonicalizing blank-node labels in a child process failed: killed by SIGINT"
    )


def test_an_interrupt_as_the_child_is_forked_stops_that_child(costly, monkeypatch, ctrl_c_raises):
    """Ctrl-C in the parent while ``fork`` runs is held until the child is known, then
    kills and reaps it. Before, it was raised before the child's ``try``: the child was
    left canonicalizing, then a zombie never reaped."""
    real_fork, forked = os.fork, []

    def fork_then_interrupt() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
            os.kill(os.getpid(), signal.SIGINT)
        return pid

    monkeypatch.setattr(os, "fork", fork_then_interrupt)
    with cli_context.command(), pytest.raises(KeyboardInterrupt):
        canonical_nquads(QUADS)
    monkeypatch.undo()
    (pid,) = forked
    with pytest.raises(ChildProcessError):  # reaped: no longer this process's child
        os.waitpid(pid, os.WNOHANG)
    assert not os.path.exists(f"/proc/{pid}")


def test_an_exception_of_the_work_comes_back_as_itself(costly, monkeypatch):
    """As a canonicalization in this process raises it (a library call's)."""

    def fails(text: str) -> bytes:
        raise ValueError("not N-Quads")

    monkeypatch.setattr(bnodes, "_canonicalized", fails)
    with cli_context.command(), pytest.raises(ValueError, match="not N-Quads"):
        canonical_nquads(QUADS)
