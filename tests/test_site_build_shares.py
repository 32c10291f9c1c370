"""The entry pages shared out between the processes as they go (``workers.Shares``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from anthology_kg.engine import open_engine
from anthology_kg.resources import bundled_dir
from anthology_kg.site import build_site, pages
from anthology_kg.site.workers import Shares

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the processes are forked (POSIX)")


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_one_process_alone_takes_every_item_once_its_own_first():
    shares = Shares([[1, 2, 3, 4, 5], [6, 7], [8, 9, 10]], 2)
    try:
        first = shares.share(1)
        assert [len(shares.share(i)) for i in range(3)] == [5, 2, 3]  # as planned
        assert list(first) == [6, 7, 8, 9, 10, 1, 2, 3, 4, 5]
        assert list(shares.share(0)) == [] and list(first) == []  # all taken
    finally:
        shares.close()


def test_a_run_goes_whole_to_one_taker_and_runs_grow_to_fit_the_pipe():
    items = list(range(3 * Shares.MAX_RUNS + 1))  # runs of 1 would not fit in 4 KiB
    shares = Shares([items], 1)
    try:
        one, other = shares.take(0), shares.take(0)
        assert [next(one), next(other), next(one), next(one), next(one)] == [0, 4, 1, 2, 3]
        assert next(one) == 8  # runs of 4: the other took 4 to 7
        assert [*one, *other] == [*items[9:], 5, 6, 7]
    finally:
        shares.close()


def _taken_in_a_child(shares: Shares[int], index: int, go: int) -> tuple[int, int]:
    """Fork a child that waits for a byte on ``go``, then takes share ``index`` and writes
    what it took to a pipe: its PID and the pipe's reading end."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.read(go, 1)
            os.write(write, repr(list(shares.share(index))).encode())
        finally:
            os._exit(0)
    os.close(write)
    return pid, read


def _result(pid: int, read: int) -> list[int]:
    with os.fdopen(read, "rb") as pipe:
        sent = pipe.read().decode()
    os.waitpid(pid, 0)
    return eval(sent)  # a list of ints, written by repr()  # noqa: S307


def test_each_item_goes_to_one_process_and_a_faster_one_takes_the_rest_of_a_slower_one():
    planned = [list(range(0, 400)), list(range(400, 1000))]
    shares = Shares(planned, 16)
    go_read, go_write = os.pipe()
    try:
        pid, read = _taken_in_a_child(shares, 1, go_read)
        mine = list(shares.share(0))  # before the child starts: all of both shares
        os.write(go_write, b"x")
        theirs = _result(pid, read)
        assert sorted(mine) == list(range(1000)) and theirs == []
    finally:
        shares.close()
        os.close(go_read)
        os.close(go_write)
    # Both at once: every item taken once, whoever took it.
    shares = Shares(planned, 16)
    go_read, go_write = os.pipe()
    try:
        pid, read = _taken_in_a_child(shares, 1, go_read)
        os.write(go_write, b"x")
        mine = list(shares.share(0))
        theirs = _result(pid, read)
        assert sorted(mine + theirs) == list(range(1000))
    finally:
        shares.close()
        os.close(go_read)
        os.close(go_write)


def test_a_slow_worker_s_pages_are_rendered_by_the_others_and_the_site_is_the_same(
    tmp_path, monkeypatch
):
    import anthology_kg.site as site

    monkeypatch.setattr(site, "ENTRIES_PER_RUN", 1)  # the bundled anthology has few entries
    root = bundled_dir()
    alone = build_site(open_engine("fast", root=root, validates=True), tmp_path / "one", workers=1)
    parent = os.getpid()
    log = tmp_path / "pages"
    real = pages.Pages.entry

    def entry(self, node, identifier, missing, results):
        if os.getpid() != parent:
            time.sleep(0.3)  # a worker slowed down (another program, a slow disk)
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return real(self, node, identifier, missing, results)

    monkeypatch.setattr(pages.Pages, "entry", entry)
    shared = build_site(open_engine("fast", root=root, validates=True), tmp_path / "two", workers=2)
    by = log.read_text("utf-8").split()
    assert len(by) == sum(name.startswith("entries/") for name in alone.names)  # once each
    mine = by.count(str(parent))
    # Planned: a little under half here; done with it, this process took the rest of the
    # slow worker's share.
    assert mine > len(by) / 2 and len(set(by)) == 2
    assert shared.names == alone.names
    assert tree(shared.root) == tree(alone.root)
