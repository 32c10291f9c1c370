"""The engine's answers computed by a forked child beside the reading of the site's model."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

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
