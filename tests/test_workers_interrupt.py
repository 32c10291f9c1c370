"""Ctrl-C while the site's build waits for its forked workers stops and reaps them all."""

import os
import signal
import sys
import time

import pytest
from forks import child_interrupted_as_forked

from anthology_kg.site import workers
from anthology_kg.site.workers import in_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork: Linux")


def test_an_interrupt_while_waiting_for_the_workers_stops_every_one(tmp_path):
    """The parent's own task is done and it waits for two slow workers: an interrupt
    then (here SIGALRM raising KeyboardInterrupt) leaves no worker running or unreaped.
    Before, the wait loop raised at once and the workers built on beside the exit."""

    def slow(name: str):
        def task() -> None:
            (tmp_path / name).write_text(str(os.getpid()))
            time.sleep(30)

        return task

    def interrupt(number, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(KeyboardInterrupt):
            in_processes([lambda: None, slow("a"), slow("b")], callers=set())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    pids = [int((tmp_path / name).read_text()) for name in ("a", "b")]
    for pid in pids:
        with pytest.raises(ChildProcessError):  # reaped: no longer this process's child
            os.waitpid(pid, os.WNOHANG)
        assert not os.path.exists(f"/proc/{pid}")


@pytest.mark.parametrize("start", ["in_processes", "beside"])
def test_an_interrupt_as_a_child_is_forked_stops_that_child(monkeypatch, ctrl_c_raises, start):
    """Ctrl-C arriving while ``fork`` runs is held until the child is known to its parent,
    then stops it. Before, the KeyboardInterrupt was raised before ``fork`` returned the
    child's pid: the parent exited and the child built on (seen by test_sigterm under
    load: a worker alive after exit 143)."""
    real_fork, forked = os.fork, []

    def fork_then_interrupt() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
            os.kill(os.getpid(), signal.SIGINT)  # held: _fork blocks it for now
        return pid

    def slow() -> None:
        time.sleep(30)

    monkeypatch.setattr(os, "fork", fork_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        if start == "beside":
            workers.beside(slow)
        else:
            workers.in_processes([lambda: None, slow], callers=set())
    monkeypatch.undo()
    (pid,) = forked
    with pytest.raises(ChildProcessError):  # reaped: no longer this process's child
        os.waitpid(pid, os.WNOHANG)
    assert not os.path.exists(f"/proc/{pid}")


@pytest.mark.parametrize("start", ["in_processes", "beside"])
def test_an_interrupt_reaching_a_child_as_it_is_forked_goes_back_as_its_failure(
    monkeypatch, ctrl_c_raises, tmp_path, start
):
    """Ctrl-C at a terminal reaches the forked children too. One arriving in a child
    before its task runs is that child's failure, raised in the parent; the child never
    returns into its caller's code. Before, its KeyboardInterrupt went up the stack the
    fork copied: a second CLI printing and exiting, or under pytest-xdist a second
    worker reporting "keyboard-interrupt" for the real one (a CI run failed so)."""
    with child_interrupted_as_forked(monkeypatch, tmp_path), pytest.raises(KeyboardInterrupt):
        if start == "beside":
            workers.beside(lambda: 1).result()
        else:
            workers.in_processes([lambda: None, lambda: None], callers=set())


def test_an_interrupt_raised_while_the_handlers_are_put_back_leaves_none_noting(
    monkeypatch, ctrl_c_raises
):
    """A Ctrl-C another thread took during the fork is run by whichever handler is set
    when it is acted on: if that is the first handler put back, its KeyboardInterrupt
    must still leave every handler and the signal mask as they were. Before, SIGTERM was
    left noting for good (never stopping the command again) and both stayed blocked."""
    real_signal, calls = signal.signal, []
    before = signal.getsignal(signal.SIGTERM)

    def interrupted_once_put_back(number, handler):
        previous = real_signal(number, handler)
        calls.append(number)
        if len(calls) == 3:  # the first handler put back: the pending Ctrl-C runs now
            raise KeyboardInterrupt
        return previous

    monkeypatch.setattr(signal, "signal", interrupted_once_put_back)
    child = None
    with pytest.raises(KeyboardInterrupt):
        child = workers.beside(lambda: 1)
    monkeypatch.undo()
    if child is not None:
        child.cancel()
    assert signal.getsignal(signal.SIGTERM) == before
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not {signal.SIGINT, signal.SIGTERM} & signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_handler_set_outside_python_is_left_alone(monkeypatch, tmp_path):
    """``signal.getsignal`` gives None for a handler a C library or an embedding program
    set: it cannot be put back from Python (``signal.signal(n, None)`` is a TypeError), so
    the fork leaves that signal's handler alone and still runs the workers."""
    real_getsignal, touched = signal.getsignal, []
    real_signal = signal.signal

    def record_signal(number, handler):
        touched.append(number)
        return real_signal(number, handler)

    monkeypatch.setattr(
        signal, "getsignal", lambda n: None if n == signal.SIGTERM else real_getsignal(n)
    )
    monkeypatch.setattr(signal, "signal", record_signal)
    in_processes([lambda: None, lambda: (tmp_path / "done").write_text("yes")], callers=set())
    monkeypatch.undo()
    assert (tmp_path / "done").read_text() == "yes"
    assert signal.SIGTERM not in touched and signal.SIGINT in touched
