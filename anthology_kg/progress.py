"""Progress on stderr for a command's long runs: click's progress bar, only within a
command of the command line (``cli_context.command``), on a terminal that is not
``TERM=dumb`` (the bar hides the cursor with escape sequences), as wide as the terminal
takes it, and once a run has taken a second. A library call shows none."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TextIO, TypeVar

from .cli_context import in_command

T = TypeVar("T")
DELAY = 1.0
#: click's own width of the bar, kept where the terminal is wide enough.
WIDTH = 36


def track(items: Sequence[T], label: str, stream: TextIO | None = None) -> Iterator[T]:
    """Yield ``items``; within a command (``cli_context.in_command``), once ``DELAY``
    seconds have passed, show click's progress bar labelled ``label`` (position of
    total) on ``stream`` (default stderr) if it is a terminal. Nothing is written to a
    pipe or a file, nor for a short run, nor outside a command."""
    out = stream or sys.stderr
    if not in_command() or not out.isatty() or os.environ.get("TERM") == "dumb":
        yield from items
        return
    total = len(items)
    # The line is the label, the bar and "done/total": narrower than the terminal, or
    # each redraw would wrap onto a new line.
    room = _columns(out) - 1 - len(f"{label}  []  {total}/{total}")
    start = time.monotonic()
    done = 0
    for item in items:
        yield item
        done += 1
        if time.monotonic() - start > DELAY and done < total:
            break
    else:
        return
    import click  # the command line's: a library call never gets here

    rest = items[done:]
    with click.progressbar(
        length=total,
        label=label,
        file=out,
        show_pos=True,
        show_eta=False,
        width=max(1, min(WIDTH, room)),
        update_min_steps=max(1, total // 100),
    ) as bar:
        bar.update(done)
        for item in rest:
            yield item
            bar.update(1)


def _columns(out: TextIO) -> int:
    """The columns of the terminal ``out`` writes to: COLUMNS when set, else the
    terminal's own, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 80
