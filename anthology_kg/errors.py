"""Errors a user can cause, reported as ``file:line: message`` and exit code 2."""

from __future__ import annotations

import os
from pathlib import Path


class AnthologyError(Exception):
    """A mistake in the user's input: a file, an option or a value.

    The CLI prints it as ``path:line: message`` (or ``path: message`` when no line
    is known) and exits with code 2; it is never shown as a traceback.
    """

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        where = display_path(self.path)
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


def display_path(path: Path | str) -> str:
    """Show ``path`` relative to the working directory when it lies under it."""
    p = Path(path)
    try:
        # abspath, not resolve: a symlink is shown by its own name (and a symlink loop
        # cannot make the error message itself fail).
        return Path(os.path.abspath(p)).relative_to(os.getcwd()).as_posix()
    except (ValueError, OSError):
        return p.as_posix()
