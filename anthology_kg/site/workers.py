"""Work shared between forked processes, for the pages Jinja2 renders in pure Python under
one interpreter's lock: a child forked after the site's model is read has all of it at
no cost, renders its share and writes its files itself; nothing comes back but success
or the failure. A task whose result is wanted (the engine's answers, ``beside``) sends
it back pickled. The children are forked as ``forking`` forks them.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Generic, TypeVar

from .. import forking
from ..forking import Child
from ..guards import releasing

T = TypeVar("T")


def available() -> int:
    """How many processes may share the work: the cores this process may run on, where
    forking a process that holds the site's model is safe (Linux); else one."""
    if not sys.platform.startswith("linux"):
        return 1
    return max(1, len(os.sched_getaffinity(0)))


def in_processes(
    tasks: Sequence[Callable[[], None]],
    callers: Collection[threading.Thread] | None = None,
    forkable: bool | None = None,
) -> None:
    """Run ``tasks[0]`` here and each other task in a child forked for it; return once all
    are done. A child's failure is raised here: an OSError as an OSError with the same
    errno, text and file name, another exception as itself when it can travel (else a
    RuntimeError with the child's traceback); a child killed (SIGKILL from the OOM
    killer) or ended without a word as an AnthologyError naming the signal or status.

    A fork copies the calling thread only, and a lock another thread held stays held:
    every thread but the ``callers`` (those the caller runs, its business; default:
    every thread running now) must have ended first. Threads that have finished their
    work but not yet returned (a validation's daemon threads, an executor's) are waited
    for, up to SETTLE_SECONDS; should one still run then, every task runs here, one
    after the other. ``forkable``: what ``can_fork`` answered the caller for the same
    ``callers``, when it asked (not waited for again here)."""
    if forkable is None:
        forkable = _settled(set(threading.enumerate()) if callers is None else callers)
    if not forkable:
        for task in tasks:
            task()
        return
    children: list[Child[None]] = []
    try:
        for task in tasks[1:]:
            forking.start(task, children.append, _STOPPED)
        tasks[0]()
    except BaseException:
        for child in children:
            child.cancel()
        raise
    failure: BaseException | None = None
    for index, child in enumerate(children):
        try:
            error = child.failure()  # (interrupted while waiting, it stops this one)
        except BaseException:  # Ctrl-C or SIGTERM while waiting: stop those not reaped
            for later in children[index + 1 :]:
                later.cancel()
            raise
        failure = failure or error
    if failure is not None:
        raise failure


#: What a child that ended without a word is reported as (exit 2, one line): killed by a
#: signal (the OOM killer's SIGKILL, a ``kill``), or an exit code.
_STOPPED = "the site was not written: a process building it stopped ({how})"


def beside(task: Callable[[], T]) -> Child[T]:
    """Run ``task`` in a child forked now, beside whatever this process does next; its
    result (which must pickle) comes back through a pipe when asked for (``result``).
    As for ``in_processes``, no thread but the caller's own may run now."""
    return forking.beside(lambda: _in_a_new_thread(task), _STOPPED)


def _in_a_new_thread(task: Callable[[], T]) -> T:
    """``task``'s result, computed in a thread of its own. pyoxigraph makes blank-node
    ids with a generator of the thread's own, which the fork copied: in the forked
    thread the child would make the very ids the parent makes next (a BNODE() in a
    stored query's answer would name a blank node of the data); a new thread seeds its
    own generator."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(releasing(task)())
        except BaseException as exc:  # raised in the calling thread, as itself
            failure.append(exc)

    thread = threading.Thread(target=run, name="site-answers")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


class Shares(Generic[T]):
    """The ``planned`` share of items of each process (this one and those forked after
    these are made), in runs of up to ``size`` items, shared out as the processes go:
    ``share(i)`` iterated in the process the share ``i`` is planned for gives the runs
    of it that no other process has taken yet, then those not taken yet of the other
    shares, each run to one process only. So a process that goes faster than planned
    takes over the end of a slower one's share (in one process alone, iterating the
    shares one after the other gives every item once).

    Each share's run numbers are written into a pipe of its own, whole, before any
    process reads them, and a read of a pipe is whole: each read takes one number. A
    pipe's smallest buffer (4 KiB) holds MAX_RUNS of them: ``size`` grows to fit."""

    MAX_RUNS = 2048  # of 2 bytes each

    def __init__(self, planned: Sequence[Sequence[T]], size: int):
        self.planned = planned
        self._runs: list[list[Sequence[T]]] = []
        self._pipes: list[int] = []
        try:
            for items in planned:
                step = max(size, -(-len(items) // self.MAX_RUNS), 1)
                runs = [items[start : start + step] for start in range(0, len(items), step)]
                self._runs.append(runs)
                self._pipes.append(_filled(len(runs)))
        except BaseException:
            self.close()
            raise

    def share(self, planned: int) -> Share[T]:
        """The items of the share ``planned`` and, once they are taken, of the others."""
        return Share(self, planned)

    def take(self, share: int) -> Iterator[T]:
        """The items of the runs of ``share`` not taken yet, each run taken as it comes."""
        runs, pipe = self._runs[share], self._pipes[share]
        while number := os.read(pipe, 2):
            yield from runs[int.from_bytes(number, "little")]

    def close(self) -> None:
        """Forget the runs not taken yet, in this process (the others may go on)."""
        while self._pipes:
            os.close(self._pipes.pop())


class Share(Generic[T]):
    """One process's share of ``Shares``: ``len()`` is its planned size; iterating it
    gives its items not taken by another process, then others' not taken yet."""

    def __init__(self, shares: Shares[T], planned: int):
        self._shares, self._planned = shares, planned

    def __len__(self) -> int:
        return len(self._shares.planned[self._planned])

    def __iter__(self) -> Iterator[T]:
        count = len(self._shares.planned)
        for offset in range(count):  # its own, then the next process's, and so on
            yield from self._shares.take((self._planned + offset) % count)


class Tally:
    """A number from each of ``count`` processes (this one and those forked after the
    tally is made), summed: each says its own (``say``), then learns the sum (``total``).

    Each process has a pipe into which it writes its number once for each other
    process, 8 bytes a write (whole, as any write of at most PIPE_BUF bytes); a read of
    8 bytes takes one of them. A process says it once and closes its copies of the
    others' writing ends then: once every process that could still write into a pipe
    has ended or said, a pipe that holds no number reads as ended (its process ended
    before it said). No process waits for another to say before it says its own."""

    def __init__(self, count: int):
        self._pipes: list[tuple[int, int]] = []
        self._open: set[int] = set()
        self._said = 0
        try:
            for _ in range(count):
                pipe = os.pipe()
                self._pipes.append(pipe)
                self._open.update(pipe)
        except BaseException:
            self.close()
            raise

    def say(self, index: int, number: int) -> None:
        """Process ``index``'s number (once per process)."""
        for other, (_, write) in enumerate(self._pipes):
            if other != index:
                self._close(write)
        _, write = self._pipes[index]
        told = number.to_bytes(8, "little")
        try:
            for _ in range(len(self._pipes) - 1):
                os.write(write, told)
        finally:
            self._close(write)
        self._said = number

    def total(self, index: int) -> int | None:
        """The sum of every process's number, as process ``index`` (which has said its
        own) learns it; None when another process ended before it said."""
        total = self._said
        for other, (read, _) in enumerate(self._pipes):
            if other != index:
                told = os.read(read, 8)
                if len(told) < 8:
                    return None
                total += int.from_bytes(told, "little")
        return total

    def close(self) -> None:
        """Close this process's ends of the pipes still open."""
        for end in list(self._open):
            self._close(end)

    def _close(self, end: int) -> None:
        if end in self._open:
            self._open.discard(end)
            os.close(end)


def can_fork(callers: Collection[threading.Thread]) -> bool:
    """Whether ``in_processes`` forks its workers, given the same ``callers``: every
    other thread has ended (waited for as it waits)."""
    return _settled(callers)


def _filled(count: int) -> int:
    """The reading end of a pipe holding the numbers ``0 .. count - 1`` (2 bytes each),
    its writing end closed: once they are read, it reads as ended."""
    read, write = os.pipe()
    try:
        numbers = memoryview(b"".join(n.to_bytes(2, "little") for n in range(count)))
        while numbers:
            numbers = numbers[os.write(write, numbers) :]
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)
    return read


SETTLE_SECONDS = 10.0


def _settled(callers: Collection[threading.Thread]) -> bool:
    """Whether every thread but this one and the ``callers`` has ended (waiting up to
    SETTLE_SECONDS in all for them to end)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    current = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not current and thread not in callers:
            thread.join(max(0.0, deadline - time.monotonic()))
    return all(t is current or t in callers for t in threading.enumerate())
