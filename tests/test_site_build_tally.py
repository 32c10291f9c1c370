"""The neighbours of the entries found by the processes the pages are shared out between,
each those of its share, and the count the pictures' caption says summed between them
(``workers.Tally``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from anthology_kg import forking
from anthology_kg.engine import open_engine
from anthology_kg.site import build_site, pages, workers
from anthology_kg.site.workers import Tally

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the processes are forked (POSIX)")


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _in_a_child(tally: Tally, index: int, number: int | None) -> tuple[int, int]:
    """Fork a child that says ``number`` as process ``index`` (or ends without saying,
    when None) and writes the total it learns to a pipe: its PID and the pipe's reading
    end."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            if number is not None:
                tally.say(index, number)
                os.write(write, repr(tally.total(index)).encode())
        finally:
            os._exit(0)
    os.close(write)
    return pid, read


def _learnt(pid: int, read: int) -> str:
    with os.fdopen(read, "rb") as pipe:
        learnt = pipe.read().decode()
    os.waitpid(pid, 0)
    return learnt


def test_every_process_learns_the_sum_of_every_process_s_number():
    tally = Tally(3)
    try:
        children = [_in_a_child(tally, 1, 20), _in_a_child(tally, 2, 300)]
        tally.say(0, 4)
        assert tally.total(0) == 324
        assert [_learnt(*child) for child in children] == ["324", "324"]
    finally:
        tally.close()


def test_a_process_that_ends_before_it_says_leaves_the_others_no_total():
    tally = Tally(3)
    try:
        children = [_in_a_child(tally, 1, None), _in_a_child(tally, 2, 5)]
        tally.say(0, 1)
        assert tally.total(0) is None
        assert [_learnt(*child) for child in children] == ["", "None"]
    finally:
        tally.close()


def _shared_out(monkeypatch) -> list[bool]:
    """Every entry of the bundled anthology to have a layered picture (Graphviz's limit
    at none), and the engine to have answered before the neighbours are found: those of
    all but the first entry with a picture are found after the fork. What
    draw_neighbourhoods returned, in order."""
    monkeypatch.setattr(pages, "DOT_NEIGHBOURHOODS", 0)
    monkeypatch.setattr(forking.Child, "done", lambda self: True)
    returned: list[bool] = []
    real = pages.Pages.draw_neighbourhoods

    def draw(self, *args, **kwargs):
        returned.append(real(self, *args, **kwargs))
        return returned[-1]

    monkeypatch.setattr(pages.Pages, "draw_neighbourhoods", draw)
    return returned


@pytest.mark.parametrize("count", [2, 3])
def test_neighbours_found_after_the_fork_give_the_site_one_process_gives(
    bundled_copy, tmp_path, monkeypatch, count
):
    returned = _shared_out(monkeypatch)
    alone = build_site(
        open_engine("fast", root=bundled_copy, validates=True), tmp_path / "one", workers=1
    )
    shared = build_site(
        open_engine("fast", root=bundled_copy, validates=True), tmp_path / "two", workers=count
    )
    assert returned == [True, False]  # alone: all found before; shared: found after the fork
    assert shared.names == alone.names
    assert tree(shared.root) == tree(alone.root)
    drawn = [p for p in (shared.root / "entries").iterdir() if "<svg" in p.read_text("utf-8")]
    if shutil.which("dot"):  # the caption says how many entries have a picture
        assert f"at most 0 entries, and {len(drawn)} have one." in drawn[0].read_text("utf-8")


def test_when_no_worker_can_be_forked_this_process_finds_them_all(
    bundled_copy, tmp_path, monkeypatch
):
    returned = _shared_out(monkeypatch)
    monkeypatch.setattr(workers, "_settled", lambda callers: False)  # a thread still runs
    alone = build_site(
        open_engine("fast", root=bundled_copy, validates=True), tmp_path / "one", workers=1
    )
    shared = build_site(
        open_engine("fast", root=bundled_copy, validates=True), tmp_path / "two", workers=2
    )
    assert returned == [True, False]
    assert tree(shared.root) == tree(alone.root)


def test_a_worker_failing_before_it_says_fails_the_build_with_its_error(
    bundled_copy, tmp_path, monkeypatch
):
    _shared_out(monkeypatch)
    parent = os.getpid()
    real = pages.Pages.learn_neighbours

    def learn(self, listed):
        if os.getpid() != parent:
            raise ValueError("a worker's own failure")
        return real(self, listed)

    monkeypatch.setattr(pages.Pages, "learn_neighbours", learn)
    out = tmp_path / "site"
    with pytest.raises(ValueError, match="a worker's own failure"):
        build_site(open_engine("fast", root=bundled_copy, validates=True), out, workers=2)
    assert not out.exists() and not list(tmp_path.glob(".site.new-*"))
