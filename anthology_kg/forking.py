"""A task run in a child process forked for it, its result sent back through a pipe
(``beside``, ``start``): the site's workers and answers (``site.workers``) and a costly
canonicalization that a stop signal must cut short (``bnodes.canonical_nquads``).

Written on ``os.fork`` rather than ``multiprocessing``: the task needs no pickled
arguments (a child has all of its parent's memory at no cost; only the result is
pickled), and a bare child that ends with ``os._exit`` never flushes the parent's
buffered output or runs its exit handlers a second time. POSIX only; a caller that may
run elsewhere or beside other threads checks first (a fork copies the calling thread
only, and a lock another thread held stays held in the child).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import threading
import traceback
from collections.abc import Callable
from typing import Any, Generic, NoReturn, TypeVar

from .errors import AnthologyError, how_ended

T = TypeVar("T")

#: The signals that stop a command (cli.run turns SIGTERM into Ctrl-C's KeyboardInterrupt).
STOPPING = {signal.SIGINT, signal.SIGTERM}


class Child(Generic[T]):
    """A forked child computing a task's result (``start``, ``beside``)."""

    def __init__(self, pid: int, read: int, ended: str, killed_at_once: bool):
        self._pid, self._read = pid, read
        self._ended_as, self._killed_at_once = ended, killed_at_once
        self._ended = False
        self._outcome: tuple[BaseException | None, bytes] | None = None

    def done(self) -> bool:
        """Whether the child has begun to send its result (or ended)."""
        if self._ended:
            return True
        ready = select.poll()  # not select.select: it refuses a descriptor past 1,023
        ready.register(self._read, select.POLLIN | select.POLLHUP)
        return bool(ready.poll(0))

    def failure(self) -> BaseException | None:
        """Wait for the child to end: its failure, None if it succeeded. An OSError comes
        as an OSError with the same errno, text and file name, another exception as
        itself when it can travel (its ``__cause__`` the child's traceback,
        ``ChildTraceback``; else a RuntimeError with the traceback), a child killed (the
        OOM killer's SIGKILL) or ended without a word as the AnthologyError ``start``
        was told. Interrupted while waiting (Ctrl-C), the child is stopped and reaped
        before the interruption goes on."""
        if self._outcome is None:
            try:
                self._outcome = _wait(self._pid, self._read, self._ended_as)
            except BaseException:
                _end(self._pid, self._killed_at_once)
                raise
            finally:
                self._ended = True
        return self._outcome[0]

    def result(self) -> T:
        """The task's result, once the child has sent it; its failure (``failure``) is
        raised here."""
        error = self.failure()
        if error is not None:
            raise error
        assert self._outcome is not None
        result: T = pickle.loads(self._outcome[1])
        return result

    def cancel(self) -> None:
        """Stop the child, if it still runs (its result is not wanted), and reap it."""
        if not self._ended:
            self._ended = True
            os.close(self._read)
            _end(self._pid, self._killed_at_once)


def beside(task: Callable[[], T], ended: str, killed_at_once: bool = False) -> Child[T]:
    """Run ``task`` in a child forked now, beside whatever this process does next; its
    result (which must pickle) comes back when asked for (``Child.result``). ``ended``
    and ``killed_at_once`` as for ``start``; a stop signal during the fork stops the
    child before it is raised here."""
    started: list[Child[T]] = []
    try:
        start(task, started.append, ended, killed_at_once)
    except BaseException:
        for child in started:
            child.cancel()
        raise
    return started[0]


def start(
    task: Callable[[], T],
    started: Callable[[Child[T]], None],
    ended: str,
    killed_at_once: bool = False,
) -> None:
    """Fork a child that runs ``task``, sends its result pickled (or its failure) through
    a pipe and ends; ``started(child)`` records it here before a stop signal that came
    meanwhile is acted on, so that the caller's clean-up can stop it. The child never
    returns into the caller's code, whatever reaches it.

    ``ended``: what a child that ended without a word (killed) is reported as, an
    AnthologyError of this text with ``{how}`` replaced (``errors.how_ended``: ``killed
    by SIGKILL; out of memory?``). With ``killed_at_once``, SIGINT and SIGTERM kill the
    child by their default action and the child is stopped with SIGKILL: for a task that
    holds the interpreter's lock (pyoxigraph's canonicalization), in which no handler
    would run until it returns. Else the child has this process's handlers (a CLI's
    Ctrl-C comes back as the child's KeyboardInterrupt) and is stopped with SIGTERM."""
    read, write = os.pipe()

    def run() -> bytes:
        return pickle.dumps(task())

    _fork(
        read,
        write,
        lambda pid: started(Child(pid, read, ended, killed_at_once)),
        run,
        killed_at_once,
    )


def _fork(
    read: int,
    write: int,
    started: Callable[[int], None],
    task: Callable[[], bytes],
    killed_at_once: bool,
) -> None:
    """``os.fork`` of a child that runs ``task`` and writes what it returns (or its
    failure) into the pipe ``read``/``write``, then ends; in this process,
    ``started(pid)`` records the child and the writing end is closed. The child never
    returns from here: were an interruption raised in it before its task ran (Ctrl-C at
    a terminal reaches every process of the group), a copy of the caller would go on (a
    second CLI printing and exiting, a second pytest worker reporting).

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
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        if threading.current_thread() is threading.main_thread():  # else no handler runs here
            for stopping in STOPPING:
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
            in_child = (
                {number.value: signal.SIG_DFL for number in STOPPING} if killed_at_once else {}
            )
            _be_the_child(read, write, task, {**handlers, **in_child}, blocked, held)
        os.close(write)
        started(pid)
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
    task: Callable[[], bytes],
    handlers: dict[int, Any],
    blocked: set[int | signal.Signals],
    held: list[tuple[int, int]],
) -> NoReturn:  # pragma: no cover - runs in the forked child
    """The forked child's whole life: its ``handlers`` set and the parent's mask back,
    ``task`` run and its result or failure sent, then ``os._exit``. A stopping signal
    that came since the fork is acted on within the task's guard, so it goes back to the
    parent as the child's failure (or, at its default action, kills the child); nothing
    raised here reaches the caller's code."""
    try:
        os.close(read)

        def unblocked_then_task() -> bytes:
            for number, handler in handlers.items():
                signal.signal(number, handler)
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            _act_on(held, handlers)
            return task()

        _run_child(unblocked_then_task, write)
    finally:
        os._exit(1)


def _run_child(task: Callable[[], bytes], write: int) -> NoReturn:  # pragma: no cover
    code, message = 0, b""
    try:
        message = task()
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


def _wait(pid: int, read: int, ended: str) -> tuple[BaseException | None, bytes]:
    """The child's failure (None if it succeeded) and what it sent; an exception that
    pickled comes with the child's traceback as its ``__cause__`` (``ChildTraceback``)."""
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return None, message
    if code < 0 or not message:  # killed (what it sent, if anything, may be cut short)
        return AnthologyError(ended.format(how=how_ended(code))), b""
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
    return RuntimeError(f"a forked process failed:\n{text}"), b""


def _end(pid: int, killed_at_once: bool) -> None:
    """Stop the child ``pid`` and reap it, whether it still runs or was reaped already."""
    try:
        os.kill(pid, signal.SIGKILL if killed_at_once else signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
