"""The engine's answers computed by a forked child beside the reading of the site's model."""

from __future__ import annotations

import os
import time
import traceback
from pathlib import Path

import pytest

from anthology_kg import forking
from anthology_kg.engine import open_engine
from anthology_kg.errors import AnthologyError
from anthology_kg.site import build_site, workers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the child is forked (POSIX)")


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def record_asks(monkeypatch, log: Path) -> None:
    """Each call of the site's ``ask`` appends the PID of the process making it to ``log``."""
    import anthology_kg.site as site

    real = site.ask

    def ask(*args, **kwargs):
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(site, "ask", ask)


def test_a_shared_build_asks_in_a_child_and_writes_what_one_process_writes(
    bundled_copy, tmp_path, monkeypatch
):
    log = tmp_path / "asks"
    record_asks(monkeypatch, log)
    shared = build_site(
        open_engine("fast", root=bundled_copy, validates=True), tmp_path / "a", workers=2
    )
    asked_by = log.read_text("utf-8").split()
    assert len(asked_by) == 1 and asked_by[0] != str(os.getpid())
    log.unlink()
    alone = build_site(
        open_engine("fast", root=bundled_copy, validates=True), tmp_path / "b", workers=1
    )
    assert log.read_text("utf-8").split() == [str(os.getpid())]
    assert shared.names == alone.names and shared.warnings == alone.warnings
    assert tree(shared.root) == tree(alone.root)


def test_a_caller_s_validator_runs_in_this_process(bundled_copy, tmp_path):
    from anthology_kg.validation import validate

    seen: list[int] = []

    def validator(anthology):
        seen.append(os.getpid())
        return validate(anthology)

    build_site(open_engine("fast", root=bundled_copy), tmp_path / "a", validator, workers=2)
    assert seen == [os.getpid()]


def test_a_stored_query_the_child_cannot_run_fails_the_build_as_in_one_process(
    bundled_copy, tmp_path
):
    (bundled_copy / "queries").mkdir()
    (bundled_copy / "queries" / "broken.rq").write_text(
        "#+ summary: broken\nSELECT * WHERE { ?s ?p }\n", encoding="utf-8"
    )
    (tmp_path / "site").mkdir()
    errors = []
    for count in (1, 2):
        with pytest.raises(AnthologyError) as raised:
            build_site(
                open_engine("fast", root=bundled_copy, validates=True),
                tmp_path / "site",
                workers=count,
            )
        errors.append((str(raised.value), raised.value.path, raised.value.line))
    assert errors[0] == errors[1]
    assert "SPARQL syntax error" in errors[0][0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["anthology", "site"]  # none left
    assert not any((tmp_path / "site").iterdir())


def _slow_then(value):
    time.sleep(0.3)
    return value


def test_beside_gives_the_child_s_result_and_its_failure():
    pending = workers.beside(lambda: _slow_then({"rows": [("a", None)]}))
    assert not pending.done()
    assert pending.result() == {"rows": [("a", None)]}
    assert pending.done()
    failing = workers.beside(lambda: int("x"))
    with pytest.raises(ValueError, match="invalid literal"):
        failing.result()
    oserror = workers.beside(lambda: open("/nonexistent/anthology-kg"))  # noqa: SIM115
    with pytest.raises(FileNotFoundError):
        oserror.result()


def test_a_cancelled_child_is_stopped_and_reaped():
    pending = workers.beside(lambda: _slow_then(1) and time.sleep(60))
    pid = pending._pid
    started = time.monotonic()
    pending.cancel()
    assert time.monotonic() - started < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped already
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_child_makes_blank_nodes_of_its_own():
    """The fork copies pyoxigraph's blank-node generator: the task runs in a thread of
    its own in the child, so that the ids it makes are not those the parent makes next."""
    import pyoxigraph as ox

    child = workers.beside(lambda: [ox.BlankNode().value for _ in range(3)])
    parent = [ox.BlankNode().value for _ in range(3)]
    assert not set(child.result()) & set(parent)


def test_a_fresh_blank_node_in_an_answer_is_shown_unnamed(bundled_copy, tmp_path):
    """A stored query that makes a blank node (BNODE()) gets the same page whether the
    answers come from a child or from this process: unnamed, not a data blank node's
    description."""
    (bundled_copy / "queries").mkdir(exist_ok=True)
    (bundled_copy / "queries" / "fresh.rq").write_text(
        "#+ summary: A fresh blank node\nSELECT ?b WHERE { BIND(BNODE() AS ?b) }\n",
        encoding="utf-8",
    )
    pages = [
        build_site(
            open_engine("fast", root=bundled_copy, validates=True), tmp_path / f"{n}{i}", workers=n
        ).root
        / "queries"
        / "fresh.html"
        for i, n in enumerate((2, 2, 1))
    ]
    assert len({page.read_bytes() for page in pages}) == 1
    assert "(unnamed)" in pages[0].read_text(encoding="utf-8")


def test_done_works_past_a_thousand_open_files():
    """``done`` polls the pipe: select() refuses a descriptor past 1,023."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        pytest.skip(f"only {soft} open files allowed here")
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        child = workers.beside(lambda: 7)
        while not child.done():
            time.sleep(0.01)
        assert child.result() == 7
    finally:
        for descriptor in held:
            os.close(descriptor)


def test_an_interrupt_while_waiting_for_the_child_stops_and_reaps_it():
    import signal

    def interrupt(*_):
        raise KeyboardInterrupt

    child = workers.beside(lambda: time.sleep(60))
    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            child.result()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    with pytest.raises(ChildProcessError):  # reaped, not left running
        os.waitpid(child._pid, os.WNOHANG)


def _a_lookup_deep_in_the_child(table: dict[str, int]) -> int:
    return table["missing key"]


def test_a_child_s_failure_comes_with_the_child_s_traceback():
    """An exception of the child that is no AnthologyError is a bug: what Python prints
    of it here (its chain, as ``traceback.format_exception`` gives it) shows where in
    the child it was raised, not only where the parent raised it again."""
    failing = workers.beside(lambda: _a_lookup_deep_in_the_child({}))
    with pytest.raises(KeyError) as raised:
        failing.result()
    printed = "".join(traceback.format_exception(raised.value))
    assert "in _a_lookup_deep_in_the_child" in printed
    assert 'table["missing key"]' in printed
    assert isinstance(raised.value.__cause__, forking.ChildTraceback)
    # The same for a worker that renders pages (in_processes).
    with pytest.raises(KeyError) as raised:
        workers.in_processes([lambda: None, lambda: _a_lookup_deep_in_the_child({})])
    assert "in _a_lookup_deep_in_the_child" in "".join(traceback.format_exception(raised.value))
