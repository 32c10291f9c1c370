"""A library call canonicalizes in its own process: forking a host process (a web
server, a notebook kernel) whose other threads hold locks can deadlock the child. A
command of the command line forks for a costly canonicalization, so that a stop signal
acts at once, and a child that fails is an input error saying how it ended."""

from __future__ import annotations

import os
import signal

import pytest
from test_canonical_limit import list_quads

from anthology_kg import bnodes, cli_context
from anthology_kg.bnodes import canonical_nquads
from anthology_kg.errors import AnthologyError


@pytest.fixture
def forks(monkeypatch) -> list[int]:
    """Every canonicalization counts as costly; each fork is counted."""
    monkeypatch.setattr(bnodes, "CHILD_PROCESS_STEPS", 0)
    made: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: made.append(1) or real_fork())
    return made


def test_a_library_call_canonicalizes_without_forking(forks):
    quads = list_quads(30, [f"_:n{i}" for i in range(30)])
    here = sorted(canonical_nquads(quads).splitlines())
    assert forks == [] and len(here) == 61
    with cli_context.command():
        assert sorted(canonical_nquads(quads).splitlines()) == here
    assert forks == [1]


def test_a_child_that_dies_is_an_input_error_saying_how(forks, monkeypatch):
    monkeypatch.setattr(bnodes, "_canonicalized", lambda text: os.kill(os.getpid(), signal.SIGKILL))
    with cli_context.command(), pytest.raises(AnthologyError) as raised:
        canonical_nquads(list_quads(3, ["_:a", "_:b", "_:c"]))
    assert str(raised.value).endswith(
        "in a child process failed: killed by SIGKILL; out of memory?"
    )
    assert forks == [1]
