"""Progress on stderr for a command's long runs: click's progress bar, only within a
command of the command line (``cli_context.command``), on a terminal and once a run has
taken a second. A library call shows none."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from typing import TextIO, TypeVar

from .cli_context import in_command

T = TypeVar("T")
DELAY = 1.0


def track(items: Sequence[T], label: str, stream: TextIO | None = None) -> Iterator[T]:
    """Yield ``items``; within a command (``cli_context.in_command``), once ``DELAY``
    seconds have passed, show click's progress bar labelled ``label`` (position of
    total) on ``stream`` (default stderr) if it is a terminal. Nothing is written to a
    pipe or a file, nor for a short run, nor outside a command."""
    out = stream or sys.stderr
    if not in_command() or not out.isatty():
        yield from items
        return
    total = len(items)
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
        update_min_steps=max(1, total // 100),
    ) as bar:
        bar.update(done)
        for item in rest:
            yield item
            bar.update(1)
