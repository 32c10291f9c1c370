"""A progress line on stderr for long runs: only on a terminal, only after a second."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
DELAY = 1.0


def track(items: Sequence[T], label: str, stream=None) -> Iterator[T]:
    """Yield ``items``; once a second has passed, show ``label n/total`` on ``stream``
    (default stderr) if it is a terminal, and clear the line at the end. Nothing is
    written to a pipe or a file."""
    stream = stream or sys.stderr
    live = hasattr(stream, "isatty") and stream.isatty()
    start = last = time.monotonic()
    shown = False
    total = len(items)
    for index, item in enumerate(items, start=1):
        yield item
        now = time.monotonic()
        if live and now - start > DELAY and (now - last > 0.1 or index == total):
            stream.write(f"\r{label} {index}/{total}")
            stream.flush()
            shown, last = True, now
    if shown:
        stream.write("\r" + " " * (len(label) + 2 * len(str(total)) + 2) + "\r")
        stream.flush()
