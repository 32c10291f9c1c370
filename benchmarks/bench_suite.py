"""The CPU seconds of the default test suite, run in one process (issue 14, item 7).

    python benchmarks/bench_suite.py                   # the whole default suite
    python benchmarks/bench_suite.py --only benchmarks/suite-at-issue-14.txt
    python benchmarks/bench_suite.py --top 20 -- tests/test_engines.py

Prints the number of tests, the CPU seconds (user + system) of the pytest process and
of every process it started, however deep (see ``run``), the sum over tests, and the
modules and tests that took the most, with the part of the other processes.

Where this process may make a cgroup (root, or a delegated cgroup v2: see
``_CpuCgroup``), pytest runs in one of its own, and each test's CPU is that of the whole
cgroup while it ran: a store's, the browser's renderers', as they are spent. Elsewhere a
test's CPU is its own and its children's, counted when pytest reaps them, all at once
(``os.wait4``): a process kept for several tests (a store, the browser, a fork server)
is counted on the test after which it is stopped (its module's last, conftest), and the
processes pytest does not reap are counted in the whole only.

``--only FILE`` runs only the tests whose node ids FILE lists, one per line (``#`` starts
a comment). ``suite-at-issue-14.txt`` lists the suite as it was when issue 14 set its
target ("the default suite under 60 s CPU"; main at 074abf8, 508 tests): the 476 of them
that still exist under the same node id. Run it beside the whole suite to tell what the
code's speed did from what the suite's growth did. CPU seconds drift with the machine
(1.3-1.6x between hours on a shared one): compare figures of one session only.

This file is also the pytest plugin that measures each test (``-p bench_suite``).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# --- the plugin (inside the pytest process) ------------------------------------------------

#: Each test's node id, its own CPU seconds and those of the other processes (those it
#: reaped, or with a cgroup all of the cgroup's but pytest's).
_rows: list[tuple[str, float, float]] = []


def _cpu() -> tuple[float, float]:
    """The pytest process's own CPU seconds, and those of the whole cgroup (with a cgroup,
    ``BENCH_SUITE_CGROUP``) or of the children it reaped."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    cgroup = os.environ.get("BENCH_SUITE_CGROUP")
    if cgroup:
        whole = _CpuCgroup.seconds_at(Path(cgroup))
    else:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        whole = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return own.ru_utime + own.ru_stime, whole


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # noqa: ARG001 (pytest's signature)
    own, whole = _cpu()
    yield
    own_after, whole_after = _cpu()
    _rows.append((item.nodeid, own_after - own, (whole_after - whole) - (own_after - own)))


def pytest_collection_modifyitems(config, items):
    only = os.environ.get("BENCH_SUITE_ONLY")
    if not only:
        return
    wanted = set(node_ids(Path(only)))
    kept = [item for item in items if item.nodeid in wanted]
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in wanted])
    items[:] = kept


def pytest_sessionfinish(session):  # noqa: ARG001 (pytest's signature)
    out = os.environ.get("BENCH_SUITE_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as file:
            for nodeid, own, children in _rows:
                file.write(f"{nodeid}\t{own:.4f}\t{children:.4f}\n")


# --- the runner ---------------------------------------------------------------------------


class _CpuCgroup:
    """A cgroup of its own for pytest and every process it starts, made by this process:
    its CPU counter holds the CPU of every process that ran in it, exited or not, reaped
    or not. Counting only what pytest reaps misses processes whose parent exits before
    them: Chromium's zygotes, renderers and GPU process outlive its main process, which
    does not wait for them, and its crash handlers are double-forked; none is ever
    pytest's child (~8 s of the suite, read from /proc). A cgroup also puts each second on
    the test during which it was spent, where reaping puts a kept process's whole life on
    the test after which it is stopped.

    cgroup v2 (``cpu.stat``'s usage_usec, kept with no controller enabled) where this
    process may make a cgroup beside its own, else v1's cpuacct (``cpuacct.usage``); none
    without the right (not root, no delegated cgroup v2), and then ``run`` counts what
    this process reaps, which as a subreaper (``_adopt_orphans``) is every process too,
    only not test by test."""

    def __init__(self, folder: Path, counter: str) -> None:
        self.folder = folder
        self.counter = folder / counter

    @classmethod
    def make(cls) -> _CpuCgroup | None:
        """A new cgroup below this process's own, or None where none may be made."""
        name = f"bench-suite-{os.getpid()}"
        for parent, counter in cls._parents():
            try:
                (parent / name).mkdir()
            except OSError:
                continue
            cgroup = cls(parent / name, counter)
            try:
                cls.seconds_at(cgroup.counter)
            except (OSError, ValueError):
                cgroup.remove()
                continue
            return cgroup
        return None

    @staticmethod
    def _parents() -> list[tuple[Path, str]]:
        """The cgroups this process is in that may hold a CPU counter, v2 first."""
        try:
            lines = Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines()
        except OSError:
            return []
        found: list[tuple[Path, str]] = []
        for line in lines:
            _, controllers, path = line.split(":", 2)
            relative = path.lstrip("/")
            if controllers == "":
                for mount in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
                    if (mount / "cgroup.controllers").exists():
                        found.insert(0, (mount / relative, "cpu.stat"))
                        break
            elif "cpuacct" in controllers.split(","):
                mount = Path("/sys/fs/cgroup", controllers)
                if not mount.exists():
                    mount = Path("/sys/fs/cgroup/cpuacct")
                found.append((mount / relative, "cpuacct.usage"))
        return found

    @staticmethod
    def seconds_at(counter: Path) -> float:
        """The CPU seconds (user + system) the cgroup's counter ``counter`` holds."""
        text = counter.read_text(encoding="utf-8")
        if counter.name == "cpu.stat":
            fields = dict(line.split() for line in text.splitlines())
            return int(fields["usage_usec"]) / 1e6
        return int(text) / 1e9

    def enter(self) -> None:
        """Move this process into the cgroup (in pytest's process, before it runs)."""
        (self.folder / "cgroup.procs").write_text(str(os.getpid()), encoding="utf-8")

    def remove(self) -> None:
        """Remove the cgroup, if no process is left in it."""
        try:
            self.folder.rmdir()
        except OSError:
            print(f"left the cgroup {self.folder}: a process is still in it", file=sys.stderr)


def _adopt_orphans() -> None:
    """Make this process the one that the processes pytest starts are given to when their
    parent exits first (Linux's child subreaper, prctl 36), not init: it reaps them, and
    so counts their CPU. Where init reaps no orphan (here: PID 1 is a VM's agent), their
    zombies would also be left for good."""
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("not a subreaper: the CPU of processes pytest does not reap is missed",
              file=sys.stderr)  # fmt: skip


def _reap_orphans(patience: float = 30.0) -> float:
    """The CPU seconds of every child of this process left once pytest has exited (those
    ``_adopt_orphans`` adopted), waited for ``patience`` seconds at most; those still
    running then are named on stderr and not counted."""
    seconds = 0.0
    deadline = time.monotonic() + patience
    while True:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return seconds
        if pid:
            seconds += usage.ru_utime + usage.ru_stime
        elif time.monotonic() < deadline:
            time.sleep(0.05)
        else:
            print(f"still running after {patience:.0f} s, not counted: {_children()}",
                  file=sys.stderr)  # fmt: skip
            return seconds


def _children() -> list[str]:
    """This process's children (pid and command name), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text(encoding="utf-8")
        except OSError:
            continue
        name_end = text.rindex(")")
        if int(text[name_end + 2 :].split()[1]) == os.getpid():
            found.append(f"{stat.parent.name} {text[text.index('(') + 1 : name_end]}")
    return found


def node_ids(path: Path) -> list[str]:
    """The node ids ``path`` lists, one per line; blank lines and ``#`` comments skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


class Run(NamedTuple):
    """What ``run`` measured: each test's (node id, own CPU, other processes' CPU), the
    CPU seconds of pytest and every process it started (reaped: pytest's own with what it
    waited for, and ``orphans``, those this process reaped for it), those the cgroup
    counted (None without one), the wall seconds and pytest's exit status."""

    rows: list[tuple[str, float, float]]
    reaped: float
    orphans: float
    cgroup: float | None
    wall: float
    code: int


def run(only: Path | None, pytest_args: list[str]) -> Run:
    """Run pytest in one fresh process, in a cgroup of its own where one may be made, and
    as the subreaper of all it starts (``_CpuCgroup``, ``_adopt_orphans``)."""
    _adopt_orphans()
    cgroup = _CpuCgroup.make()
    try:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder, "tests.tsv")
            env = {
                **os.environ,
                "BENCH_SUITE_OUT": str(out),
                "PYTHONPATH": os.pathsep.join(
                    [str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]
                ),
            }
            if only is not None:
                env["BENCH_SUITE_ONLY"] = str(only.resolve())
            if cgroup is not None:
                env["BENCH_SUITE_CGROUP"] = str(cgroup.counter)
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                       "-p", "bench_suite", *pytest_args]  # fmt: skip
            start = time.perf_counter()
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                preexec_fn=None if cgroup is None else cgroup.enter,
            )
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            orphans = _reap_orphans()
            in_cgroup = None if cgroup is None else _CpuCgroup.seconds_at(cgroup.counter)
            rows = []
            if out.exists():
                for line in out.read_text(encoding="utf-8").splitlines():
                    nodeid, own, children = line.rsplit("\t", 2)
                    rows.append((nodeid, float(own), float(children)))
    finally:  # interrupted too: the cgroup is not left behind, unless a process is
        if cgroup is not None:
            cgroup.remove()
    reaped = usage.ru_utime + usage.ru_stime + orphans
    return Run(rows, reaped, orphans, in_cgroup, wall, os.waitstatus_to_exitcode(status))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", type=Path, help="run only the node ids this file lists")
    parser.add_argument("--top", type=int, default=10, help="modules and tests to list")
    parser.add_argument("pytest_args", nargs="*", help="after --: arguments for pytest")
    args = parser.parse_args(argv)
    measured = run(args.only, args.pytest_args)
    rows, code = measured.rows, measured.code
    summed = sum(own + children for _, own, children in rows)
    whole = measured.reaped if measured.cgroup is None else measured.cgroup
    print(
        f"{len(rows)} tests, exit {code}: process CPU {whole:.1f} s (wall {measured.wall:.1f} s),"
    )
    print(f"summed over tests {summed:.1f} s, {1000 * summed / max(len(rows), 1):.1f} ms a test")
    where = "none" if measured.cgroup is None else f"{measured.cgroup:.1f} s"
    print(f"(every process pytest started: cgroup {where}, reaped {measured.reaped:.1f} s,")
    print(
        f"of which {measured.orphans:.1f} s reaped here, not by pytest: their parent exited first)"
    )
    if args.only is not None:
        ran = {nodeid for nodeid, _, _ in rows}
        missing = [nodeid for nodeid in node_ids(args.only) if nodeid not in ran]
        # A renamed test leaves the yardstick: say so rather than measure less quietly.
        for nodeid in missing:
            print(f"listed but not run: {nodeid}")
    modules: dict[str, float] = {}  # CPU seconds, by module
    reaped: dict[str, float] = {}
    counts: Counter[str] = Counter()
    for nodeid, own, children in rows:
        module = nodeid.split("::")[0]
        modules[module] = modules.get(module, 0.0) + own + children
        reaped[module] = reaped.get(module, 0.0) + children
        counts[module] += 1
    others = "children" if measured.cgroup is None else "  others"
    print(f"\nCPU s  {others}  tests  module")
    for module, seconds in sorted(modules.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{seconds:6.2f} {reaped[module]:9.2f} {counts[module]:6d}  {module}")
    print(f"\nCPU s  {others}  test")
    for nodeid, own, children in sorted(rows, key=lambda r: -(r[1] + r[2]))[: args.top]:
        print(f"{own + children:6.2f} {children:9.2f}  {nodeid}")
    return 0 if code in (0, 5) else code


if __name__ == "__main__":
    sys.exit(main())
