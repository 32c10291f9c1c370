"""What a command of the command line turns on and a library call leaves off: the
progress bar on a terminal (``progress.track``) and a costly canonicalization in a
forked child process that a stop signal ends at once (``bnodes.canonical_nquads``).
``cli.main`` runs each command within ``command``; called as a library, the package
writes nothing to the caller's streams and forks no process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

_in_command: ContextVar[bool] = ContextVar("anthology_kg_command", default=False)


@contextlib.contextmanager
def command() -> Iterator[None]:
    """Within the block, the library acts for a command of the command line (and in
    the worker threads ``guards.bounded`` starts, which take the caller's context)."""
    token = _in_command.set(True)
    try:
        yield
    finally:
        _in_command.reset(token)


def in_command() -> bool:
    """Whether the caller runs within ``command``: a command of the command line."""
    return _in_command.get()
