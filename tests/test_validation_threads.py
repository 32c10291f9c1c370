"""While one thread validates on an Oxigraph engine (the vocabulary's triples lent to the
data graph while the shapes run), a read of the same engine from another thread waits
for it and sees the data as it is; a fork does not wait (it would hold up every fork of
the process). Each race is made certain with events: the validation is held with the
triples lent until the other thread either answered or waits. A read or a validation
given up while it waits (Ctrl-C) leaves the access as it found it."""

import os
import subprocess
import sys
import threading
from collections.abc import Callable

import pytest

import anthology_kg.shacl
from anthology_kg.fast import StoreAccess, load_fast
from anthology_kg.resources import bundled_dir
from anthology_kg.validation import validate


class _Held:
    """A validation of ``engine`` in a thread of its own, held with the vocabulary lent
    to the data graph until ``release``; ``settled`` is set when another thread is
    done with its read or waits for the validation (its engine's access is waited on)."""

    def __init__(self, engine, monkeypatch) -> None:
        self.lent, self.go, self.settled = threading.Event(), threading.Event(), threading.Event()
        self.failures: list[BaseException] = []
        run_compiled = anthology_kg.shacl.run_compiled

        def held(select, compiled, *options):
            self.lent.set()
            self.go.wait()
            return run_compiled(select, compiled, *options)

        monkeypatch.setattr(anthology_kg.shacl, "run_compiled", held)
        access = getattr(engine, "_access", None)
        if access is not None:  # a thread that waits for the validation has settled
            waiting = access._changed.wait

            def wait(timeout=None):
                if threading.get_ident() != self.thread.ident:
                    self.settled.set()
                return waiting(timeout)

            monkeypatch.setattr(access._changed, "wait", wait)
        self.thread = threading.Thread(target=self._validate, args=(engine,))
        self.thread.start()
        self.lent.wait()

    def _validate(self, engine) -> None:
        try:
            validate(engine)
        except BaseException as exc:  # noqa: BLE001 - reported by release
            self.failures.append(exc)

    def release(self) -> None:
        self.go.set()
        self.thread.join()
        assert not self.failures


def _data_count(engine) -> int:
    return engine.triple_count(("data",))


def _data_rows(engine) -> list:
    return sorted(map(str, engine.query("SELECT * WHERE { ?s ?p ?o }", parts=("data",)).rows))


def _object_properties(engine) -> set:
    from rdflib import OWL

    return engine.referrers(OWL.ObjectProperty)


READS: dict[str, Callable] = {
    "triple_count": _data_count,
    "query": _data_rows,
    "referrers": _object_properties,
}


@pytest.mark.parametrize("read", READS.values(), ids=READS.keys())
def test_a_read_from_another_thread_waits_for_the_validation(read, monkeypatch):
    engine = load_fast(bundled_dir())
    alone = read(engine)
    held = _Held(engine, monkeypatch)
    answers = []

    def read_and_settle() -> None:
        answers.append(read(engine))
        held.settled.set()

    reader = threading.Thread(target=read_and_settle)
    reader.start()
    held.settled.wait()  # answered (the lent triples seen) or waiting
    held.release()
    reader.join()
    assert answers == [alone]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_fork_does_not_wait_for_a_validation_another_thread_runs(monkeypatch):
    """A subprocess started with ``preexec_fn`` (a fork that runs at-fork hooks) while
    another thread validates starts at once. Before, a hook held every fork of the
    process until no validation ran: with validations one after another (a server's),
    ``subprocess.Popen`` waited for good (and a CI run's test for 90 s)."""
    engine = load_fast(bundled_dir())
    held = _Held(engine, monkeypatch)
    started: list[int] = []

    def start_a_subprocess() -> None:
        done = subprocess.run([sys.executable, "-c", "pass"], preexec_fn=lambda: None, check=False)
        started.append(done.returncode)

    starting = threading.Thread(target=start_a_subprocess, daemon=True)
    starting.start()
    starting.join(timeout=30)
    held.release()
    starting.join()
    assert started == [0]
    assert not held.settled.is_set()  # it never waited on the engine's access


def test_a_read_given_up_while_it_waits_holds_nothing():
    access = StoreAccess()
    changing, done = threading.Event(), threading.Event()

    def change() -> None:
        with access.changing():
            changing.set()
            done.wait()

    changer = threading.Thread(target=change)
    changer.start()
    changing.wait()

    def interrupted(timeout=None):
        raise KeyboardInterrupt

    waiting, access._changed.wait = access._changed.wait, interrupted
    with pytest.raises(KeyboardInterrupt):
        access.acquire_read()  # waits for the change: Ctrl-C
    access._changed.wait = waiting
    done.set()
    changer.join()
    with access.changing():  # not taken for a read held by this thread
        pass


def test_a_change_given_up_while_it_waits_lets_the_reads_it_held_back_start():
    access = StoreAccess()
    read, release = threading.Event(), threading.Event()
    change_waits, give_up, read_waits = threading.Event(), threading.Event(), threading.Event()
    waiting = access._changed.wait
    changer: list[threading.Thread] = []

    def wait(timeout=None):
        if threading.current_thread() in changer:  # waits as Condition.wait does, lock let go
            change_waits.set()
            access._changed.release()
            try:
                give_up.wait()
            finally:
                access._changed.acquire()
            raise KeyboardInterrupt
        read_waits.set()
        return waiting(timeout)

    access._changed.wait = wait

    def hold_a_read() -> None:
        with access.reading():
            read.set()
            release.wait()

    def change() -> None:
        with pytest.raises(KeyboardInterrupt), access.changing():
            pass

    holder = threading.Thread(target=hold_a_read)
    holder.start()
    read.wait()
    changer.append(threading.Thread(target=change))
    changer[0].start()
    change_waits.wait()  # the change waits for the read held
    reader = threading.Thread(target=lambda: access.acquire_read() or access.release_read())
    reader.start()
    read_waits.wait()  # a later read waits for the change
    give_up.set()
    changer[0].join()
    reader.join(timeout=10)  # started once the change is given up, the first read still held
    started = not reader.is_alive()
    release.set()
    holder.join()
    reader.join()
    assert started
