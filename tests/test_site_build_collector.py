"""The cyclic garbage collector around a site build: off during it, and its first pass
after it does not walk the build's objects again."""

from __future__ import annotations

import gc

import pytest
from conftest import NEW_PROCESS_THRESHOLDS

from anthology_kg import site
from anthology_kg.engine import open_engine
from anthology_kg.resources import bundled_dir
from anthology_kg.site import build_site


@pytest.fixture(scope="module")
def thawed():
    """Nothing frozen while the module's tests run; the collector as it was afterwards.
    Thawed once for the module, not for each test: what the test process froze
    (conftest's ``_CollectorPerModule``, a million objects at the end of a whole run) is
    walked by every full pass while it is thawed, and freezing it again takes one. The
    module runs first in a process (conftest.FIRST), when that is the fewest. The
    thresholds are put back as they were too (the test process has no automatic pass)."""
    enabled, frozen, thresholds = gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()
    gc.unfreeze()
    yield
    gc.set_threshold(*thresholds)
    if frozen:
        gc.collect()  # the tests' garbage freed, not frozen with the rest
        gc.freeze()
    if not enabled:
        gc.disable()


@pytest.fixture
def collector(thawed):
    """The collector on, at a new process's thresholds, nothing frozen and the youngest
    generation empty, as a program starts."""
    gc.unfreeze()  # what a test before froze
    gc.set_threshold(*NEW_PROCESS_THRESHOLDS)
    gc.enable()
    gc.collect(0)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_build_s_objects_are_left_in_the_oldest_generation(
    tmp_path, collector, monkeypatch, workers
):
    # The bundled anthology's build leaves ~20,000 in a fresh process, and 1,900-5,000
    # where builds before it in the process filled its caches (the order of the modules
    # a worker runs): promoted from 1,000 as a larger one's would be.
    monkeypatch.setattr(site, "PROMOTED_FROM", 1000)
    anthology = open_engine("fast", root=bundled_dir(), validates=True)
    gc.collect()
    oldest = len(gc.get_objects(2))
    build_site(anthology, tmp_path / "site", workers=workers)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    # Not in the young generations, where the next passes would walk them (about 17,000
    # of the bundled anthology's build, with the collector merely turned on again).
    young = len(gc.get_objects(1))
    grown = len(gc.get_objects(2)) - oldest
    freed = gc.collect()  # the garbage among them is found by a full pass
    assert young < 1000
    # Promoted, not merely few: without the promotion these stay young (~4,400 warm)
    # and the oldest generation does not grow. Among them the build's garbage (1,100-
    # 1,700 objects, fewer warm), which a full pass finds.
    assert grown > site.PROMOTED_FROM and freed > 0


def test_what_the_caller_froze_stays_frozen_and_a_collector_turned_off_stays_off(
    tmp_path, collector
):
    anthology = open_engine("fast", root=bundled_dir(), validates=True)
    sentinel: list = []
    sentinel.append(sentinel)  # a cycle: only the collector would free it
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()

    def still_frozen() -> bool:
        """Neither thawed nor frozen more: the sentinel in no generation, and no more
        objects frozen (fewer, when some frozen ones were freed since by their count of
        references: the end of a thread of an earlier build, say)."""
        thawed = any(o is sentinel for o in gc.get_objects())
        return not thawed and 0 < gc.get_freeze_count() <= frozen

    try:
        assert still_frozen()
        build_site(anthology, tmp_path / "site", workers=1)
        assert still_frozen() and gc.isenabled()
        gc.disable()
        build_site(anthology, tmp_path / "again", workers=1)
        assert still_frozen() and not gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_after_a_small_build_what_the_caller_froze_is_not_counted(tmp_path, collector, monkeypatch):
    """Below PROMOTED_FROM the build's objects are not promoted, and what the caller froze
    is not counted (``gc.get_freeze_count`` walks every frozen object); above, they are."""
    counted: list[int] = []
    count = gc.get_freeze_count
    monkeypatch.setattr(gc, "get_freeze_count", lambda: counted.append(1) or count())
    anthology = open_engine("fast", root=bundled_dir(), validates=True)
    build_site(anthology, tmp_path / "site", workers=1)
    assert counted == []
    monkeypatch.setattr(site, "PROMOTED_FROM", 1000)
    gc.collect()
    build_site(anthology, tmp_path / "again", workers=1)
    assert counted == [1] and len(gc.get_objects(1)) < 1000
