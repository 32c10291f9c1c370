"""Work shared between forked processes, for the pages Jinja2 renders in pure Python under
one interpreter's lock: a child forked after the site's model is read has all of it at
no cost, renders its share and writes its files itself; nothing comes back but success
or the failure. A task whose result is wanted (the engine's answers, ``beside``) sends
it back pickled.

Written on ``os.fork`` rather than ``multiprocessing``: the work needs no pickled
arguments (only a wanted result is pickled), and a bare child that ends with
``os._exit`` never flushes the parent's buffered output or runs its exit handlers a
second time.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any, Generic, NoReturn, TypeVar

from ..errors import AnthologyError, how_ended

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
    children: list[tuple[int, int]] = []
    try:
        for task in tasks[1:]:
            read, write = os.pipe()
            _fork(read, write, lambda pid, read: children.append((pid, read)), task)
        tasks[0]()
    except BaseException:
        for pid, read in children:
            _stop(pid, read)
        raise
    failure: BaseException | None = None
    for index, (pid, read) in enumerate(children):
        try:
            error, _ = _wait(pid, read)
        except BaseException:  # Ctrl-C or SIGTERM while waiting: stop those not reaped
            _end(pid)  # (its pipe is closed already)
            for later, pipe in children[index + 1 :]:
                _stop(later, pipe)
            raise
        failure = failure or error
    if failure is not None:
        raise failure


class Beside(Generic[T]):
    """The result of a task a forked child computes (``beside``)."""

    def __init__(self, pid: int, read: int):
        self._pid, self._read = pid, read
        self._ended = False

    def done(self) -> bool:
        """Whether the child has begun to send its result (or ended)."""
        if self._ended:
            return True
        ready = select.poll()  # not select.select: it refuses a descriptor past 1,023
        ready.register(self._read, select.POLLIN | select.POLLHUP)
        return bool(ready.poll(0))

    def result(self) -> T:
        """The task's result, once the child has sent it; the child's failure is raised
        here (as ``in_processes`` raises it). Interrupted while waiting (Ctrl-C), the
        child is stopped and reaped before the interruption goes on."""
        try:
            error, sent = _wait(self._pid, self._read)
        except BaseException:
            _end(self._pid)
            raise
        finally:
            self._ended = True
        if error is not None:
            raise error
        result: T = pickle.loads(sent)
        return result

    def cancel(self) -> None:
        """Stop the child, if it still runs (its result is not wanted)."""
        if not self._ended:
            self._ended = True
            _stop(self._pid, self._read)


#: The signals that stop a command (cli.run turns SIGTERM into Ctrl-C's KeyboardInterrupt).
_STOPPING = {signal.SIGINT, signal.SIGTERM}


def _fork(
    read: int,
    write: int,
    started: Callable[[int, int], None],
    task: Callable[[], bytes | None],
) -> None:
    """``os.fork`` of a child that runs ``task`` and writes what it returns (or its
    failure) into the pipe ``read``/``write``, then ends; in this process,
    ``started(pid, read)`` records the child and the writing end is closed. The child
    never returns from here: were an interruption raised in it before its task ran
    (Ctrl-C at a terminal reaches every process of the group), a copy of the caller
    would go on (a second CLI printing and exiting, a second pytest worker reporting).

    A Ctrl-C or SIGTERM arriving meanwhile is acted on once the child is recorded, so
    that the caller's cleanup stops it. Acted on where it arrived, its KeyboardInterrupt
    was either ignored (within the interpreter's at-fork callbacks: the build went on,
    exit 0) or raised before the child's pid was known (the parent ended, the child
    built on). So the signals are blocked in this thread (and so in the child, whose
    only thread this is) until the handlers are back; and since another thread of this
    process may take one, whose handler this thread would then run at once, the
    handlers only note it meanwhile."""
    held: list[tuple[int, int]] = []  # (the process that took it, the signal)
    handlers: dict[int, Any] = {}
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        if threading.current_thread() is threading.main_thread():  # else no handler runs here
            for stopping in _STOPPING:
                if signal.getsignal(stopping) is None:  # set outside Python: left as it is
                    continue
                handlers[stopping.value] = signal.signal(
                    stopping, lambda got, _: held.append((os.getpid(), got))
                )
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            raise
        if pid == 0:  # pragma: no cover - the child; its work is checked by its result
            _be_the_child(read, write, task, handlers, blocked, held)
        os.close(write)
        started(pid, read)
    finally:
        # The mask first: what came for this thread meanwhile is noted by its handler,
        # not raised here. A signal another thread took is run by whichever handler is
        # set when it is acted on: one raised while the handlers are put back must not
        # leave the others noting for good (SIGTERM would never stop the command).
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        _put_back(list(handlers.items()))
    _act_on(held, handlers)


def _put_back(handlers: list[tuple[int, Any]]) -> None:
    """Set each ``(signal, handler)`` of ``handlers``, every one even if a handler set
    first raises on the way (Ctrl-C's KeyboardInterrupt)."""
    if handlers:
        try:
            signal.signal(*handlers[0])
        finally:
            _put_back(handlers[1:])


def _act_on(held: list[tuple[int, int]], handlers: dict[int, Any]) -> None:
    """Act on the stopping signal another thread took while the handlers only noted it,
    each process its own (a child's copy of ``held`` holds what its parent took before
    the fork)."""
    mine = [number for taker, number in held if taker == os.getpid()]
    if mine:
        handler = handlers[mine[0]]
        if callable(handler):
            handler(mine[0], None)  # Ctrl-C's KeyboardInterrupt, or the CLI's SIGTERM
        elif handler == signal.SIG_DFL:
            signal.raise_signal(mine[0])


def _be_the_child(
    read: int,
    write: int,
    task: Callable[[], bytes | None],
    handlers: dict[int, Any],
    blocked: set[int | signal.Signals],
    held: list[tuple[int, int]],
) -> NoReturn:  # pragma: no cover - runs in the forked child
    """The forked child's whole life: the parent's handlers and mask back, ``task`` run
    and its result or failure sent, then ``os._exit``. A stopping signal that came
    since the fork is raised within the task's guard, so it goes back to the parent as
    the child's failure; nothing raised here reaches the caller's code."""
    try:
        os.close(read)

        def unblocked_then_task() -> bytes | None:
            for number, handler in handlers.items():
                signal.signal(number, handler)
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            _act_on(held, handlers)
            return task()

        _run_child(unblocked_then_task, write)
    finally:
        os._exit(1)


def beside(task: Callable[[], T]) -> Beside[T]:
    """Run ``task`` in a child forked now, beside whatever this process does next; its
    result (which must pickle) comes back through a pipe when asked for (``result``).
    As for ``in_processes``, no thread but the caller's own may run now."""
    read, write = os.pipe()
    started: list[Beside[T]] = []
    try:
        _fork(
            read,
            write,
            lambda pid, read: started.append(Beside(pid, read)),
            lambda: pickle.dumps(_in_a_new_thread(task)),
        )
    except BaseException:
        for child in started:
            child.cancel()
        raise
    return started[0]


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
            outcome.append(task())
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


def _run_child(task: Callable[[], bytes | None], write: int) -> None:
    code, message = 0, b""
    try:
        message = task() or b""
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        code, message = 1, _failure(exc)
    try:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(message)
    finally:
        os._exit(code)


def _failure(exc: BaseException) -> bytes:
    if isinstance(exc, OSError):
        return pickle.dumps(("oserror", (exc.errno, exc.strerror, exc.filename)))
    text = "".join(traceback.format_exception(exc))
    try:
        raised = pickle.dumps(exc)
        pickle.loads(raised)  # an exception whose arguments do not rebuild it stays text
    except Exception:  # noqa: BLE001
        raised = b""
    return pickle.dumps(("exception", (raised, text)))


class ChildTraceback(Exception):
    """Where a forked child's exception was raised: the traceback it printed there, as
    text. It is the ``__cause__`` of the exception raised again here, so that Python
    shows it above that exception's own traceback (which ends where the parent raised
    it, and would otherwise be all a bug report shows)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return f'in a forked process:\n"""\n{self.text.rstrip()}\n"""'


def _wait(pid: int, read: int) -> tuple[BaseException | None, bytes]:
    """The child's failure (None if it succeeded) and what it sent; an exception that
    pickled comes with the child's traceback as its ``__cause__`` (``ChildTraceback``)."""
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return None, message
    if code < 0 or not message:  # killed (what it sent, if anything, may be cut short)
        return _ended(code), b""
    kind, detail = pickle.loads(message)
    if kind == "oserror":
        number, text, filename = detail
        error = OSError(number, text, filename) if filename is not None else OSError(number, text)
        return error, b""
    raised, text = detail
    if raised:
        error = pickle.loads(raised)
        error.__cause__ = ChildTraceback(text)
        return error, b""
    return RuntimeError(f"a process building the site failed:\n{text}"), b""


def _ended(code: int) -> AnthologyError:
    """What a child that ended without saying why is reported as (exit 2, one line):
    killed by a signal (the OOM killer's SIGKILL, a ``kill``), or an exit code."""
    return AnthologyError(
        f"the site was not written: a process building it stopped ({how_ended(code)})"
    )


def _stop(pid: int, read: int) -> None:
    os.close(read)
    _end(pid)


def _end(pid: int) -> None:
    """Stop the child ``pid`` and reap it, whether it still runs or was reaped already."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
