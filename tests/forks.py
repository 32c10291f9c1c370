"""A fork whose child is interrupted as it starts, for the tests of forked children."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def child_interrupted_as_forked(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Iterator[None]:
    """Within the block, each child ``os.fork`` makes gets a Ctrl-C (SIGINT) as it
    starts, as a terminal's reaches every process of the group. Should a child return
    into its caller's code (the block's, run again there), it writes ``folder/escaped``
    and ends; once the block is done here, that file must not exist."""
    parent, real_fork = os.getpid(), os.fork

    def fork_interrupting_the_child() -> int:
        pid = real_fork()
        if pid == 0:
            os.kill(os.getpid(), signal.SIGINT)  # held: the fork blocks it for now
        return pid

    with monkeypatch.context() as patched:
        patched.setattr(os, "fork", fork_interrupting_the_child)
        try:
            yield
        finally:
            if os.getpid() != parent:  # the block's code, run again in the child
                (folder / "escaped").write_text("the child returned into its caller")
                os._exit(0)
    assert not (folder / "escaped").exists()
